"""Editing a peer annotation: matching peer text to the pyramid's SCUs (PSEs), with the rules.

The engine (annotator.editing.engine) locks the annotation, checks the caller may edit it and saw
its current version, applies, records a PeerAnnotationChange and undoes and redoes, as for
pyramids (annotator.pyramids.editing); this module supplies what is an annotation's (EDITOR):
- who may edit it: the annotator assigned, against a submitted pyramid, while it is not complete;
- the snapshots: the PSEs an edit changed, before and after it, which undo and redo restore;
- the operations, each checking its rules and applying itself.
A consensus annotation (annotator.adjudication.annotation_consensus) is edited through this
module, which never imports it.

A peer may express an SCU more than once: repetitions are PSEs of their own (they count once in
the score, Passonneau 2009 §2.3). SCU uid 0 means "matches nothing in the pyramid": a zero-weight
PSE.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone

from annotator.adjudication.models import AnnotationMerge
from annotator.assist.models import Proposal
from annotator.campaigns import assignment_status
from annotator.campaigns.access import can_edit_annotation, can_reopen
from annotator.campaigns.models import Assignment
from annotator.editing import history
from annotator.editing.engine import Editor, quoted
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.editing.models import PeerAnnotationChange
from annotator.peer_annotation.models import PSE, PeerAnnotation, PSESpan
from annotator.pyramids.editing import checked_parts
from annotator.pyramids.models import SCU, Pyramid
from annotator.text.plurals import counted
from annotator.text.selection import overlapping
from annotator.text.textmarks import uncovered_words
from annotator.worktime.recording import record_action

NO_SCU = 0
# The ranks a suggestion taken may have (1: the first shown): the page lists a handful; a rank
# beyond any list it shows is a bad request, refused.
MAX_SUGGESTION_RANK = 100


@dataclass(frozen=True)
class PeerEditResult:
    annotation: PeerAnnotation
    version: int
    description: str
    change: PeerAnnotationChange

    @property
    def changed_uids(self) -> set[int]:
        """SCUs (0: matching nothing) whose PSEs in this peer the edit changed."""

        before, after = self.change.before, self.change.after
        if isinstance(before, list) and isinstance(after, list):  # every PSE, on both sides

            def by_uid(state: list[dict]) -> dict[int, list]:
                grouped: dict[int, list] = {}
                for pse in state:
                    grouped.setdefault(pse["scu"], []).append(pse["spans"])
                return grouped

            was, now = by_uid(before), by_uid(after)
            return {uid for uid in was.keys() | now.keys() if was.get(uid) != now.get(uid)}
        # the PSEs changed: an SCU changed where one of its PSEs came, went or changed its parts or
        # place (a comment or a provenance alone does not show)
        old = {p["id"]: p for p in pses_in(before)}
        new = {p["id"]: p for p in pses_in(after)}
        uids: set[int] = set()
        for pse_id in old.keys() | new.keys():
            states = [state for state in (old.get(pse_id), new.get(pse_id)) if state is not None]
            shown = {(p["scu"], str(p["spans"]), p.get("position")) for p in states}
            if len(states) < 2 or len(shown) > 1:
                uids.update(p["scu"] for p in states)
        return uids


# -- what the engine needs of an annotation (annotator.editing.engine) ---------------------------


def run_edit(
    annotation_id: int,
    user,
    version: int | None,
    action: str,
    apply: Callable[[PeerAnnotation], str],
    decision: dict | None = None,
) -> PeerEditResult:
    """Lock, check, apply and record one edit (annotator.editing.engine); `decision` is the
    adjudication decision it makes, in a consensus annotation
    (annotator.adjudication.annotation_consensus)."""
    # An edit names nothing it touches (every PSE is snapshot, and the change row keeps those that
    # differ); and an operation checks its rules as it applies itself (the whole edit is one
    # transaction: a refusal changes nothing).
    return EDITOR.edit(
        annotation_id,
        user,
        version,
        action,
        lambda annotation: ((), lambda: apply(annotation)),
        decision,
    )


def _may_edit(annotation: PeerAnnotation, user, reopening: bool) -> None:
    if not can_edit_annotation(user, annotation):
        raise NotAllowed("You are not assigned to this peer summary.")
    if annotation.pyramid.status != Pyramid.Status.SUBMITTED:
        raise NotAllowed(
            "The pyramid is still being edited: peers are annotated against a submitted pyramid."
        )
    if annotation.status == PeerAnnotation.Status.SUBMITTED and not reopening:
        raise NotAllowed(
            "This annotation is complete and read-only; an administrator can reopen it."
        )


# -- the history's snapshots ---------------------------------------------------------------------
#
# The engine snapshots every PSE before and after an edit (an edit cannot name what it will touch:
# assign makes a PSE whose id is not known yet); a change row keeps only the PSEs that differ
# (`kept`), each side as {"pses": [their states there], "absent": [ids of those not there]}. A PSE's
# state: its id, SCU uid (0: none), comment, spans and span ids, provenance ("source", in a
# consensus only) and "position" where the edit moved it (a PSE left in place keeps its position
# through undo and redo); "suggestion_rank" where it was matched from a suggestion (issue 20: rows
# written before, and PSEs matched otherwise, have none); "proposal" where accepting a proposal made
# it (its id: `_proposals_follow` links it again when undo or redo brings the PSE back). Rows
# written before issue 19 hold every PSE in order, as a list without positions: `restore` reads
# both forms.


def snapshot(annotation: PeerAnnotation, pse_ids: Collection[int] = ()) -> list[dict]:
    """Every PSE in order (or those of `pse_ids` there are): its id, SCU uid (0: none), comment,
    spans (with their ids), position, the rank of the suggestion it was matched from (if it was)
    and the proposal whose acceptance made it (if one did), as JSON-ready data (2 queries). The
    ids let undo and redo bring PSEs back as the same records."""
    pses: dict[int, dict] = {}
    # Proposal.pse has no reverse accessor: the accepted proposal, if any, as a subquery.
    accepted = Proposal.objects.filter(pse=OuterRef("pk")).values("pk")[:1]
    rows = PSE.objects.filter(annotation=annotation).annotate(proposal=Subquery(accepted))
    if pse_ids:
        rows = rows.filter(pk__in=pse_ids)
    fields = ("id", "scu__uid", "comment", "source_id", "position", "suggestion_rank", "proposal")
    ordered = rows.order_by("position", "id").values_list(*fields)
    for pse_id, uid, comment, source, position, rank, proposal in ordered:
        pses[pse_id] = {
            "id": pse_id,
            "scu": uid or NO_SCU,
            "comment": comment,
            "spans": [],
            "span_ids": [],
            "position": position,
        }
        if source:  # provenance, in a consensus annotation only
            pses[pse_id]["source"] = source
        if rank is not None:  # only where taken from a suggestion: other states read as before
            pses[pse_id]["suggestion_rank"] = rank
        if proposal is not None:  # made by accepting a proposal (issue 20)
            pses[pse_id]["proposal"] = proposal
    spans = PSESpan.objects.filter(pse__annotation=annotation)
    if pse_ids:
        spans = spans.filter(pse_id__in=pse_ids)
    for span_id, pse_id, start, end in spans.order_by("position", "id").values_list(
        "id", "pse_id", "start", "end"
    ):
        pses[pse_id]["spans"].append([start, end])
        pses[pse_id]["span_ids"].append(span_id)
    states = list(pses.values())
    if not pse_ids:  # every PSE: what the edit under way found, for its rules (`_found`)
        setattr(annotation, FOUND, states)
    return states


# Where `snapshot` keeps every PSE on the edit's locked annotation: the engine snapshots them
# before an edit applies itself, and the edit's rules read them there (issue 32: four more queries
# of the same rows per action). Each edit locks and reads its annotation anew.
FOUND = "_pses_found"


def _found(annotation: PeerAnnotation) -> list[dict]:
    """Every PSE as the edit under way found it (before it wrote anything: each operation checks
    its rules first)."""
    found = getattr(annotation, FOUND, None)
    return found if found is not None else snapshot(annotation)


# A stored snapshot: {"pses": [...], "absent": [...]}, or every PSE (a list, before issue 19).
Stored = dict | list[dict]


def pses_in(state: Stored) -> list[dict]:
    """The PSE states a stored snapshot holds, in either form."""
    return state if isinstance(state, list) else state["pses"]


def _touched_in(state: Stored) -> list[int]:
    """The PSEs a change covers (none named: every PSE, for a row that holds them all)."""
    if isinstance(state, list):
        return []
    return [p["id"] for p in state["pses"]] + list(state["absent"])


def changed(before: list[dict], after: list[dict]) -> tuple[dict, dict]:
    """What a change row keeps of two lists of PSE states (ids and positions in both): the PSEs
    that differ, each side as {"pses": [...], "absent": [ids]}; a PSE's position only where it
    differs, so that undo and redo leave in place a PSE the edit did not move."""
    was, now = {p["id"]: p for p in before}, {p["id"]: p for p in after}
    sides: tuple[dict, dict] = ({"pses": [], "absent": []}, {"pses": [], "absent": []})
    for pse_id in [*was, *(i for i in now if i not in was)]:
        old, new = was.get(pse_id), now.get(pse_id)
        if old == new:
            continue
        if old is not None and new is not None and old["position"] == new["position"]:
            old, new = _unplaced(old), _unplaced(new)
        for side, state in zip(sides, (old, new)):
            if state is None:
                side["absent"].append(pse_id)
            else:
                side["pses"].append(state)
    return sides


def _unplaced(state: dict) -> dict:
    return {key: value for key, value in state.items() if key != "position"}


def kept(before: list[dict], after: Stored) -> tuple[Stored, Stored]:
    """What a change row keeps (the Editor's `kept`): the PSEs that differ between `before` (as
    `snapshot` took them) and `after` (a snapshot too; or, for undo and redo, the stored snapshot
    just restored, as `restore` made it true)."""
    if not isinstance(after, list):  # undo or redo of a row of changed PSEs
        covered = set(_touched_in(after))
        there = {p["id"]: p for p in before if p["id"] in covered}
        return changed(
            list(there.values()),
            [
                p | {"position": there[p["id"]]["position"]}
                if "position" not in p and p["id"] in there
                else p
                for p in after["pses"]
            ],
        )
    if any("id" not in p or "span_ids" not in p for p in after):
        return before, after  # recorded before ids were kept: PSEs cannot be told apart, kept whole
    # `restore` numbers in order the PSEs of a row that holds every PSE without positions
    return changed(
        before, [p if "position" in p else p | {"position": i} for i, p in enumerate(after)]
    )


def restore(annotation: PeerAnnotation, state: Stored, now: object = None) -> None:
    """Make a stored snapshot's PSEs true again, each under the id it had: PSEs the page shows keep
    their ids across undo and redo (an edit's answer redraws only the SCUs it changed), and a
    consensus annotation's links to unchanged PSEs stay. Snapshots recorded before ids were kept
    get new ones.

    A row of changed PSEs removes those absent and writes those present (their parts anew); the
    other PSEs stay as they are. A row of every PSE (before issue 19) makes the annotation hold
    exactly those, numbered in order."""
    if isinstance(state, list):
        annotation.pses.exclude(pk__in={p["id"] for p in state if p.get("id")}).delete()
        PSESpan.objects.filter(pse__annotation=annotation).delete()
        existing = {pse.pk: pse for pse in annotation.pses.all()}
        _write(annotation, [p | {"position": i} for i, p in enumerate(state)], existing)
        return
    annotation.pses.filter(pk__in=state["absent"]).delete()
    present = [p["id"] for p in state["pses"]]
    existing = {pse.pk: pse for pse in annotation.pses.filter(pk__in=present)}
    PSESpan.objects.filter(pse_id__in=list(existing)).delete()  # written again below
    end = None
    states = []
    for p in state["pses"]:
        if "position" not in p:  # left in place by its change (at the end, if it is not there)
            if p["id"] in existing:
                p = p | {"position": existing[p["id"]].position}
            else:
                if end is None:
                    end = max(annotation.pses.values_list("position", flat=True), default=-1)
                end += 1
                p = p | {"position": end}
        states.append(p)
    _write(annotation, states, existing)


def _write(annotation: PeerAnnotation, states: list[dict], existing: dict[int, PSE]) -> None:
    """PSEs as the states say (with their positions): those in `existing` (without their parts)
    updated, the others made, under their ids; and every one's parts."""
    scu_ids = dict(
        SCU.objects.filter(
            pyramid_id=annotation.pyramid_id, uid__in={p["scu"] for p in states if p["scu"]}
        ).values_list("uid", "id")
    )
    sources = {p["source"] for p in states if p.get("source")}
    still_there = (
        set(PSE.objects.filter(pk__in=sources).values_list("pk", flat=True)) if sources else set()
    )
    records, changed_records, new = [], [], []
    for p in states:
        fields = {
            "scu_id": scu_ids.get(p["scu"]) if p["scu"] else None,
            "comment": p["comment"],
            "position": p["position"],
            "source_id": p.get("source") if p.get("source") in still_there else None,
            "suggestion_rank": p.get("suggestion_rank"),  # absent (older rows, other PSEs): none
        }
        pse_id = p.get("id")  # None in a snapshot recorded before ids were kept
        pse = existing.get(pse_id) if pse_id is not None else None
        if pse is None:
            pse = PSE(pk=pse_id, annotation=annotation, **fields)
            new.append(pse)
        elif any(getattr(pse, name) != value for name, value in fields.items()):
            for name, value in fields.items():
                setattr(pse, name, value)
            changed_records.append(pse)
        records.append(pse)
    PSE.objects.bulk_create(new)
    if changed_records:
        PSE.objects.bulk_update(
            changed_records, ["scu", "comment", "position", "source", "suggestion_rank"]
        )
    PSESpan.objects.bulk_create(
        PSESpan(pk=span_id, pse=pse, start=start, end=end, position=j)
        for pse, p in zip(records, states)
        for j, ((start, end), span_id) in enumerate(
            zip(p["spans"], p.get("span_ids") or [None] * len(p["spans"]))
        )
    )


def _proposals_follow(annotation: PeerAnnotation, _before, after: Stored) -> None:
    """An accepted proposal stands while the PSE it made is there (the Editor's `after_change`:
    after every edit, undo and redo). Its PSE gone (undone, removed; Proposal.pse is SET_NULL), the
    proposal is open again: listed, acceptable, counted neither accepted nor rejected. Its PSE
    back under the same id (redo, undo of the removal: `after` holds the PSE's state with its
    "proposal"), it is accepted again, by the annotation's annotator (the only one who decides
    proposals). 1 query, 2 where `after` holds PSEs accepted from a proposal."""
    back = {p["proposal"]: p["id"] for p in pses_in(after) if p.get("proposal")}
    returning = Proposal.objects.filter(annotation=annotation, pk__in=back, pse__isnull=True)
    for proposal in returning if back else ():
        proposal.state = Proposal.State.ACCEPTED
        proposal.pse_id = back[proposal.pk]
        proposal.decided_at = timezone.now()
        proposal.decided_by_id = annotation.annotator_id
        proposal.save(update_fields=["state", "pse", "decided_at", "decided_by"])
    Proposal.objects.filter(
        annotation=annotation, state=Proposal.State.ACCEPTED, pse__isnull=True
    ).update(state=Proposal.State.OPEN, decided_at=None, decided_by=None)


EDITOR = Editor(
    # With what the edit's answer shows of it (the page's edit view reads it no other way).
    rows=PeerAnnotation.objects.select_related("pyramid__docset__collection", "peer", "annotator"),
    name="annotation",
    missing="There is no such peer annotation.",
    may_edit=_may_edit,
    after_change=_proposals_follow,  # an accepted proposal stands while its PSE is there
    after_action=record_action,  # every edit is an action on the work: its active time
    snapshot=snapshot,  # every PSE for an edit (it names none), those of its row for undo/redo
    touched_in=_touched_in,
    restore=restore,
    kept=kept,
    result=PeerEditResult,
    # complete and reopen set the status, mark_reviewed scus_changed; updated_at is auto_now
    saved_fields=("status", "scus_changed", "updated_at"),
)


# -- rules ---------------------------------------------------------------------------------------


def _parts(annotation: PeerAnnotation, ranges) -> list[tuple[int, int]]:
    return checked_parts(annotation.peer.text, ranges, "the peer summary's text")


def _scu(annotation: PeerAnnotation, uid: int) -> SCU | None:
    if int(uid) == NO_SCU:
        return None
    scu = SCU.objects.filter(pyramid_id=annotation.pyramid_id, uid=uid).first()
    if scu is None:
        raise RuleBroken(f"SCU {uid} is not in this annotation's pyramid.")
    return scu


def _pse(annotation: PeerAnnotation, pse_id: int) -> PSE:
    pse = PSE.objects.filter(annotation=annotation, pk=pse_id).select_related("scu").first()
    if pse is None:
        raise RuleBroken("That PSE is not in this annotation (it may have been removed).")
    return pse


def _refuse_words_already_there(
    annotation: PeerAnnotation,
    scu: SCU | None,
    parts,
    pse: PSE | None = None,
    moved: PSE | None = None,
) -> None:
    """The same words cannot express the same SCU twice (a repetition is *other* words that express
    it again), nor be matched twice to nothing: either would count them twice in the scores.
    `pse`: the PSE the words are added to; `moved`: the PSE whose words these are, being moved."""
    uid = scu.uid if scu is not None else NO_SCU
    found = _found(annotation)
    if pse is not None:
        own = [span for state in found if state["id"] == pse.pk for span in state["spans"]]
        if overlapping(parts, own):
            raise RuleBroken("Those words are already part of this PSE.")
    same = [
        span
        for state in found
        if state["scu"] == uid and (pse is None or state["id"] != pse.pk)
        for span in state["spans"]
    ]
    if overlapping(parts, same):
        raise RuleBroken(
            f"Those words already express {_what(scu)} in this peer: select other words "
            "(a repetition is other words that express the SCU again)."
        )
    _refuse_match_and_nothing(annotation, scu, parts, pse or moved)


def _refuse_match_and_nothing(
    annotation: PeerAnnotation, scu: SCU | None, parts, pse: PSE | None
) -> None:
    """Words that express an SCU cannot also match nothing, either way round (issue 32): the
    zero-weight PSE would count in the peer's SCU count X and lower the Original score (Passonneau
    2009, eq. 1) for content the peer has. The refusal names the other PSE, its SCU and its words
    (the first in the text), so that the annotator can find it (and move or remove it)."""
    sharing = [
        (start, span_id, state["scu"], end)
        for state in _found(annotation)
        if (state["scu"] == NO_SCU) == (scu is not None) and (pse is None or state["id"] != pse.pk)
        for (start, end), span_id in zip(state["spans"], state["span_ids"])
        if any(start < part_end and part_start < end for part_start, part_end in parts)
    ]
    if not sharing:
        return
    start, _, other_uid, end = min(sharing)
    words = quoted(annotation.peer.text[start:end].replace("\n", " "), limit=40)
    if other_uid != NO_SCU:
        raise RuleBroken(
            f"Those words are in a PSE of SCU {other_uid} (the words {words}): words that "
            "express an SCU cannot also match nothing. Select other words, or remove that PSE "
            "first."
        )
    raise RuleBroken(
        f"Those words are in a PSE that matches nothing (the words {words}): words that match "
        "nothing cannot also express an SCU. Move that PSE to the SCU (click its words, v, then "
        "the SCU), or remove it first."
    )


def _next_position_and_same(annotation: PeerAnnotation, scu: SCU | None) -> tuple[int, int]:
    """Where a new PSE goes (after every PSE), and how many PSEs already express `scu` (a new one
    is a repetition), from what the edit found."""
    found = _found(annotation)
    uid = scu.uid if scu is not None else NO_SCU
    last = max((state["position"] for state in found), default=0)
    return (last or 0) + 1, sum(state["scu"] == uid for state in found)


def _check_rank(rank, scu_uid) -> None:
    """A suggestion's rank is a small positive whole number, and a suggestion is always an SCU."""
    if rank is None:
        return
    if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= MAX_SUGGESTION_RANK:
        raise RuleBroken(
            f"The request's 'suggestion_rank' is not valid (a whole number from 1 to "
            f"{MAX_SUGGESTION_RANK}): reload the page and try again."
        )
    if int(scu_uid) == NO_SCU:
        raise RuleBroken(
            "A suggestion is always an SCU of the pyramid: content matching nothing has no "
            "suggestion rank."
        )


def _what(scu: SCU | None) -> str:
    return f"SCU {scu.uid}" if scu else "nothing in the pyramid (weight 0)"


# -- operations ----------------------------------------------------------------------------------


def assign(
    annotation_id, user, version, ranges, scu_uid: int, suggestion_rank: int | None = None
) -> PeerEditResult:
    """The selected peer text becomes a PSE of an SCU (uid 0: matching nothing, weight zero).

    A second PSE of the same SCU is a repetition: kept, and counted once by the scores.
    `suggestion_rank`: the place (1: the first) of the suggestion the annotator took it from,
    stored for the reports (scoring.reports.compute); None when it was matched otherwise."""

    def apply(annotation):
        _check_rank(suggestion_rank, scu_uid)
        parts = _parts(annotation, ranges)
        scu = _scu(annotation, scu_uid)
        _refuse_words_already_there(annotation, scu, parts)
        position, same = _next_position_and_same(annotation, scu)
        repeated = scu is not None and same > 0
        pse = PSE.objects.create(
            annotation=annotation, scu=scu, position=position, suggestion_rank=suggestion_rank
        )
        PSESpan.objects.bulk_create(
            PSESpan(pse=pse, start=s, end=e, position=i) for i, (s, e) in enumerate(parts)
        )
        text = "...".join(annotation.peer.text[s:e] for s, e in sorted(parts)).replace("\n", " ")
        return f"Matched {quoted(text, limit=50)} to {_what(scu)}" + (
            " (a repetition)" if repeated else ""
        )

    return run_edit(annotation_id, user, version, "assign", apply)


def add_part(annotation_id, user, version, pse_id: int, ranges) -> PeerEditResult:
    """Another part of a PSE (discontinuous peer text expressing one SCU)."""

    def apply(annotation):
        pse = _pse(annotation, pse_id)
        parts = _parts(annotation, ranges)
        _refuse_words_already_there(annotation, pse.scu, parts, pse)
        start = (pse.spans.aggregate(m=Max("position"))["m"] or 0) + 1
        PSESpan.objects.bulk_create(
            PSESpan(pse=pse, start=s, end=e, position=start + i) for i, (s, e) in enumerate(parts)
        )
        return f"Added a part to a PSE of {_what(pse.scu)}"

    return run_edit(annotation_id, user, version, "add_part", apply)


def move_pse(annotation_id, user, version, pse_id: int, scu_uid: int) -> PeerEditResult:
    def apply(annotation):
        pse = _pse(annotation, pse_id)
        target = _scu(annotation, scu_uid)
        if (pse.scu_id or None) == (target.pk if target else None):
            raise RuleBroken(f"That PSE already expresses {_what(target)}.")
        words = [
            span for state in _found(annotation) if state["id"] == pse.pk for span in state["spans"]
        ]
        _refuse_words_already_there(annotation, target, words, moved=pse)
        source = pse.scu
        pse.scu = target
        # matched again by hand: the suggestion it was taken from, if any, no longer says how
        pse.suggestion_rank = None
        pse.save(update_fields=["scu", "suggestion_rank"])
        return f"Moved a PSE from {_what(source)} to {_what(target)}"

    return run_edit(annotation_id, user, version, "move_pse", apply)


def remove_pse(annotation_id, user, version, pse_id: int) -> PeerEditResult:
    def apply(annotation):
        pse = _pse(annotation, pse_id)
        pse.delete()
        return f"Removed a PSE of {_what(pse.scu)}"

    return run_edit(annotation_id, user, version, "remove_pse", apply)


def remove_part(annotation_id, user, version, span_id: int) -> PeerEditResult:
    """Remove one part of a PSE; a PSE left without parts goes."""

    def apply(annotation):
        span = (
            PSESpan.objects.filter(pk=span_id, pse__annotation=annotation)
            .select_related("pse__scu")
            .first()
        )
        if span is None:
            raise RuleBroken("That part is not in this annotation (it may have been removed).")
        pse = span.pse
        span.delete()
        if pse.spans.exists():
            return f"Removed a part of a PSE of {_what(pse.scu)}"
        pse.delete()
        return f"Removed a PSE of {_what(pse.scu)}"

    return run_edit(annotation_id, user, version, "remove_part", apply)


def accept_proposal(annotation_id, user, version, proposal_id: int, ranges=None) -> PeerEditResult:
    """An open proposal (annotator.assist.proposals) becomes a PSE of its SCU, as `assign` makes
    one: of the proposal's words, or of the words the annotator selected instead (`ranges`); the
    proposal is marked accepted, by whom and when, with its PSE. Undo removes the PSE and opens the
    proposal again; redo accepts it again (`_proposals_follow`)."""

    def apply(annotation):
        if annotation.annotator_id is None or annotation.annotator_id != getattr(user, "pk", None):
            raise NotAllowed("Only the annotation's annotator proposes and decides its matches.")
        proposal = open_proposal(annotation, proposal_id)
        parts = _parts(annotation, ranges or [(proposal.start, proposal.end)])
        scu = proposal.scu
        _refuse_words_already_there(annotation, scu, parts)
        position, same = _next_position_and_same(annotation, scu)
        pse = PSE.objects.create(annotation=annotation, scu=scu, position=position)
        PSESpan.objects.bulk_create(
            PSESpan(pse=pse, start=s, end=e, position=i) for i, (s, e) in enumerate(parts)
        )
        proposal.state = Proposal.State.ACCEPTED
        proposal.pse = pse
        proposal.decided_at = timezone.now()
        proposal.decided_by = user
        proposal.save(update_fields=["state", "pse", "decided_at", "decided_by"])
        text = "...".join(annotation.peer.text[s:e] for s, e in sorted(parts)).replace("\n", " ")
        return f"Accepted a proposal: matched {quoted(text, limit=50)} to {_what(scu)}" + (
            " (a repetition)" if same else ""
        )

    return run_edit(annotation_id, user, version, "accept_proposal", apply)


def open_proposal(annotation: PeerAnnotation, proposal_id: int) -> Proposal:
    """The annotation's proposal, still open (RuleBroken otherwise)."""
    proposal = (
        Proposal.objects.filter(annotation=annotation, pk=proposal_id).select_related("scu").first()
    )
    if proposal is None:
        raise RuleBroken("That proposal is not in this annotation: reload the page.")
    if proposal.state != Proposal.State.OPEN:
        raise RuleBroken(f"That proposal was {proposal.get_state_display().lower()} already.")
    return proposal


def words_in_no_pse(annotation: PeerAnnotation) -> list[tuple[int, int]]:
    """The peer's words (annotator.text.textmarks.uncovered_words) in no PSE, of an SCU or of
    "matches nothing", as (start, end) in text order (one query)."""
    spans = PSESpan.objects.filter(pse__annotation=annotation).values_list("start", "end")
    return uncovered_words(annotation.peer.text, [(start, end) for start, end in spans])


def undecided_scus(annotation: PeerAnnotation) -> list[int]:
    """A consensus annotation's SCUs (0: matching nothing) that some source matched and that are
    not decided yet, in the order the sources' PSEs first name them (none for an ordinary
    annotation). The groups are annotator.adjudication.annotation_consensus's; marking the
    annotation complete waits for them, and the consensus builds on this module, so this is here
    (3 queries)."""
    merge = AnnotationMerge.objects.filter(consensus=annotation).first()
    if merge is None:
        return []
    decided = history.decisions(annotation.changes.all())
    matched = dict.fromkeys(
        uid or NO_SCU
        for uid in PSE.objects.filter(annotation__in=merge.sources.all())
        .order_by("position", "id")
        .values_list("scu__uid", flat=True)
    )
    return [uid for uid in matched if str(uid) not in decided]


def complete(annotation_id, user, version) -> PeerEditResult:
    """Mark the annotation complete (read-only from then on). Words in no PSE do not prevent it
    (DUC 2005 wants every word in a PSE or in "matches nothing"; the page warns, the API says how
    many): the description names how many were left out."""

    def apply(annotation):
        if not annotation.pses.exists():
            raise RuleBroken(
                "Match at least some of the peer text before marking the annotation complete."
            )
        left = undecided_scus(annotation)
        if left:
            raise RuleBroken(
                f"{len(left)} SCU{'s' if len(left) != 1 else ''} of this consensus "
                f"{'are' if len(left) != 1 else 'is'} not decided yet: decide every SCU, "
                "then mark it complete."
            )
        annotation.status = PeerAnnotation.Status.SUBMITTED
        if annotation.annotator_id:
            assignment_status.mark_done(
                Assignment.Task.ANNOTATE_PEER,
                annotation.pyramid_id,
                annotation.peer_id,
                annotation.annotator_id,
            )
        # Words in no PSE are allowed (the page warns first), and said in the history.
        left_out = len(words_in_no_pse(annotation))
        return "Marked the annotation complete" + (
            f" ({counted(left_out, 'word')} in no PSE)" if left_out else ""
        )

    return run_edit(annotation_id, user, version, "complete", apply)


def reopen(annotation_id, user, version) -> PeerEditResult:
    def apply(annotation):
        if not can_reopen(user, annotation):
            raise NotAllowed(
                "Only an administrator of the collection can reopen a complete annotation."
            )
        annotation.status = PeerAnnotation.Status.IN_PROGRESS
        if annotation.annotator_id:
            assignment_status.mark_reopened(
                Assignment.Task.ANNOTATE_PEER,
                annotation.pyramid_id,
                annotation.peer_id,
                annotation.annotator_id,
            )
        return "Reopened the annotation"

    return run_edit(annotation_id, user, version, "reopen", apply)  # of a complete annotation


def mark_reviewed(annotation_id, user, version) -> PeerEditResult:
    """The annotator has checked the annotation against the SCUs changed in the pyramid."""

    def apply(annotation):
        changed = ", ".join(str(uid) for uid in annotation.scus_changed) or "none"
        annotation.scus_changed = []
        return f"Reviewed against the changed SCUs ({changed})"

    return run_edit(annotation_id, user, version, "mark_reviewed", apply)


def undo(annotation_id, user, version) -> PeerEditResult:
    """Undo the latest edit still applied (also after a reload: the history is in the database)."""
    return EDITOR.undo(annotation_id, user, version)


def redo(annotation_id, user, version) -> PeerEditResult:
    """Redo the edit undone last, if no new edit came since."""
    return EDITOR.redo(annotation_id, user, version)
