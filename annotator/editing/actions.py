"""The editing actions of pyramids and peer annotations, by name, with the arguments each takes.

One table for the pages (form posts) and the REST API (JSON): both call `apply_action`, so the same
rules, versions and history hold whichever way an edit comes in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from annotator.adjudication import annotation_consensus, pyramid_consensus
from annotator.editing.errors import EditError, NotAllowed, RuleBroken, StaleVersion
from annotator.peer_annotation import editing as peer_editing
from annotator.pyramids import editing
from annotator.web.bad_input import field_with_nul, nul_message

# name -> (operation, its arguments after the version; "?" marks an optional one)
PYRAMID_ACTIONS = {
    "new_scu": (editing.new_scu, ["summary", "ranges", "label?"]),
    "add_contributor": (editing.add_contributor, ["scu", "summary", "ranges"]),
    "add_part": (editing.add_part, ["contributor", "summary", "ranges"]),
    "set_label": (editing.set_label, ["scu", "label"]),
    "set_label_from_contributor": (editing.set_label_from_contributor, ["contributor"]),
    "set_comment": (editing.set_comment, ["scu", "comment"]),
    "move_contributor": (editing.move_contributor, ["contributor", "target"]),
    "merge_scus": (editing.merge_scus, ["scu", "target"]),
    "split_contributor": (editing.split_contributor, ["contributor"]),
    "move_scu": (editing.move_scu, ["scu", "position"]),
    "order_scus": (editing.order_scus, []),
    "remove_part": (editing.remove_part, ["span"]),
    "remove_contributor": (editing.remove_contributor, ["contributor"]),
    "remove_scu": (editing.remove_scu, ["scu"]),
    "undo": (editing.undo, []),
    "redo": (editing.redo, []),
    "submit": (editing.submit, ["confirm?"]),  # confirm=1: a consensus with words in two SCUs
    "reopen": (editing.reopen, []),
    # In a consensus pyramid (annotator.adjudication.pyramid_consensus): side "a" or "b" for an
    # aligned group.
    "choose_version": (pyramid_consensus.choose, ["group", "side"]),
    "keep_group": (pyramid_consensus.keep, ["group"]),
}
PEER_ACTIONS = {
    # suggestion_rank: the place (1: first) of the suggestion taken, if one was (issue 20)
    "assign": (peer_editing.assign, ["ranges", "scu", "suggestion_rank?"]),
    "add_part": (peer_editing.add_part, ["pse", "ranges"]),
    "move_pse": (peer_editing.move_pse, ["pse", "scu"]),
    "remove_pse": (peer_editing.remove_pse, ["pse"]),
    "remove_part": (peer_editing.remove_part, ["span"]),
    "complete": (peer_editing.complete, []),
    "reopen": (peer_editing.reopen, []),
    "mark_reviewed": (peer_editing.mark_reviewed, []),
    "undo": (peer_editing.undo, []),
    "redo": (peer_editing.redo, []),
    # In a consensus annotation (annotator.adjudication.annotation_consensus): one source's PSEs
    # of an SCU.
    "take_reading": (annotation_consensus.choose, ["scu", "source"]),
    "keep_reading": (annotation_consensus.keep, ["scu"]),
}
TEXT_ARGUMENTS = {"label", "comment", "group", "side"}
LARGEST_ID = 2**63 - 1  # what a database id or offset can hold
# One parsed argument: a text, the (start, end) ranges, an id or number, or None (optional, absent).
Argument = str | list[tuple[int, int]] | int | None


def status_for(refused: EditError) -> int:
    """The HTTP status of a refusal: 409 for a stale version, 403 when not allowed, 422
    otherwise."""
    if isinstance(refused, StaleVersion):
        return 409
    if isinstance(refused, NotAllowed):
        return 403
    return 422


def _whole(raw: Any) -> int:
    value = int(raw)
    if not 0 <= value <= LARGEST_ID:
        raise ValueError("out of range")
    return value


def _ranges(raw: Any) -> list[tuple[int, int]]:
    pairs = json.loads(raw) if isinstance(raw, str) else raw
    ranges = [(_whole(start), _whole(end)) for start, end in pairs]
    if not ranges:
        raise ValueError("no ranges")
    return ranges


def parse_arguments(data: Mapping, fields: list[str]) -> list[Argument]:
    """The action's arguments from a form post or a JSON body (RuleBroken naming a bad one)."""
    values: list[Argument] = []
    for field in fields:
        optional = field.endswith("?")
        name = field.rstrip("?")
        raw = data.get(name)
        if raw is None or (raw == "" and name not in TEXT_ARGUMENTS):
            if optional:
                values.append(None)
                continue
            raise RuleBroken(f"The request lacks {name!r}: reload the page and try again.")
        try:
            if name in TEXT_ARGUMENTS:
                values.append(str(raw))
            elif name == "ranges":
                values.append(_ranges(raw))
            else:
                values.append(_whole(raw))
        except (TypeError, ValueError):
            raise RuleBroken(
                f"The request's {name!r} is not valid: reload the page and try again."
            ) from None
    return values


def parse_version(raw: Any) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return -1  # no version: treat as stale, never as "whatever is there"


def apply_action(actions: dict, action: str, pk: int, user, data: Mapping, **loaded):
    """Run one named action on record `pk` with the version and arguments in `data`; `loaded`:
    records the caller has read already, which the operation takes as keywords (a consensus's
    merge)."""
    operation, fields = actions[action]
    # PostgreSQL text cannot hold a NUL: refused as any bad argument is (422), whichever field
    # holds it, before anything is looked up. (The pages' form posts come here unchecked, see
    # annotator.web.bad_input; so do the API's JSON bodies, read by hand.)
    pairs = data.lists() if hasattr(data, "lists") else data.items()
    field = field_with_nul(pairs)
    if field is not None:
        raise RuleBroken(nul_message(field))
    return operation(
        pk, user, parse_version(data.get("version")), *parse_arguments(data, fields), **loaded
    )
