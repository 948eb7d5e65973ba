"""Editing a pyramid: every operation an annotator performs, with the method's rules.

The pages, the API and the tests all edit through these functions; so does a consensus pyramid
(annotator.adjudication.pyramid_consensus builds on this module, never the other way round).
The engine (annotator.editing.engine) locks the pyramid, checks the caller may edit it and saw
its current version, applies, records a PyramidChange and undoes and redoes; this module supplies
what is a pyramid's (EDITOR):
- who may edit it: the annotator assigned, while it is not submitted;
- the snapshots: the SCUs an edit touches (null for one not there) and the order of all SCUs,
  which undo and redo restore;
- after a change of SCUs, peer annotations made against the pyramid are flagged for review;
- the operations, each a plan: its rules checked (Passonneau 2009 §2.1: at most one contributor
  per model summary in an SCU; a contributor's parts lie in one model; spans lie in their
  summary, snapped to whole words), the SCUs it touches, and what applies it.

The refusals (EditError and its kinds) are the engine's, named here too, where the pages, the API
and the tests import them from. Offsets are code points into the model summary's text.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple, NotRequired, TypedDict

from django.db import router
from django.db.models import F, Max, ProtectedError
from django.db.models.deletion import Collector
from django.db.models.functions import Lower

from annotator.adjudication.models import PyramidMerge
from annotator.adjudication.overlaps import counted_twice
from annotator.campaigns import assignment_status
from annotator.campaigns.access import (
    build_assignment_statuses,
    can_edit_pyramid_unassigned,
    can_reopen,
)
from annotator.campaigns.models import Assignment, WeightConvention
from annotator.editing import history
from annotator.editing.engine import Editor, Plan, quoted
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.editing.models import PyramidChange
from annotator.peer_annotation.models import PSE, PeerAnnotation
from annotator.pyramids import ordering
from annotator.pyramids.models import SCU, Contributor, Pyramid, Span
from annotator.text.selection import overlapping, snap_to_words
from annotator.worktime.recording import record_action


@dataclass(frozen=True)
class EditResult:
    pyramid: Pyramid
    version: int
    description: str
    change: PyramidChange

    @property
    def touched_uids(self) -> list[int]:
        return sorted(int(uid) for uid in self.change.after["scus"])

    @property
    def removed_uids(self) -> list[int]:
        return sorted(int(uid) for uid, state in self.change.after["scus"].items() if state is None)

    @property
    def added_uids(self) -> list[int]:
        return sorted(
            int(uid) for uid, state in self.change.before["scus"].items() if state is None
        )

    @property
    def appended_only(self) -> bool:
        """Whether the SCU order is the old one, less removed SCUs, plus new SCUs at the end."""
        before, after = self.change.before["order"], self.change.after["order"]
        kept = [uid for uid in before if uid in set(after)]
        return after == kept + [uid for uid in after if uid not in set(before)]

    @property
    def summary_ids(self) -> set[int]:
        """The model summaries whose shading the edit changed: those of the parts an SCU gained
        or lost (not a relabel's, say; nor, where a contributor is added, the models of the SCU's
        other contributors, whose shading stays as it was)."""
        changed: set[int] = set()
        for uid, after in self.change.after["scus"].items():
            before = self.change.before["scus"].get(uid)
            changed.update(summary for summary, _, _ in _parts_of(before) ^ _parts_of(after))
        return changed

    @property
    def relabelled(self) -> dict[int, set[int]]:
        """The SCUs whose label changed, each with the model summaries holding its parts: their
        tooltips name it (found by a tester, a relabelled SCU kept its old name there until the
        page was reloaded). Only the tooltips are sent again, not the texts (issue 32)."""
        found = {}
        for uid, after in self.change.after["scus"].items():
            before = self.change.before["scus"].get(uid)
            if before and after and before["label"] != after["label"]:
                found[int(uid)] = {summary for summary, _, _ in _parts_of(after)}
        return found


def _parts_of(scu_state: SCUState | None) -> set[tuple[int, int, int]]:
    """An SCU's parts in a snapshot, as (summary id, start, end)."""
    if scu_state is None:
        return set()
    return {(s, start, end) for c in scu_state["contributors"] for s, start, end in c["spans"]}


# -- what the engine needs of a pyramid (annotator.editing.engine) ------------------------------


class ContributorState(TypedDict):
    """A contributor in a snapshot."""

    summary: int
    comment: str
    spans: list[list[int]]  # [summary id, start, end] each
    source: NotRequired[int]  # provenance, in a consensus pyramid only
    copies: NotRequired[list[int]]  # the consensus contributors copied from this one
    id: NotRequired[int]  # the record's id (snapshots since issue 32): undo and redo keep it
    span_ids: NotRequired[list[int]]  # its parts' ids, in the order of `spans`


class SCUState(TypedDict):
    """A touched SCU in a snapshot (null in its place for an SCU that is not there)."""

    label: str
    comment: str
    contributors: list[ContributorState]
    source: NotRequired[int]  # provenance, in a consensus pyramid only
    copies: NotRequired[list[int]]  # the consensus SCUs copied from this one


def run_edit(
    pyramid_id: int,
    user,
    version: int | None,
    action: str,
    plan: Callable[[Pyramid], Plan],
    decision: dict | None = None,
) -> EditResult:
    """Lock, check, apply and record one edit (annotator.editing.engine); `decision` is the
    adjudication decision it makes, in a consensus pyramid
    (annotator.adjudication.pyramid_consensus)."""
    return EDITOR.edit(pyramid_id, user, version, action, plan, decision)


# Whether the edit under way starts its user's assignment, as `_may_edit` found (kept on the edit's
# locked pyramid for `_mark_started`: no UPDATE of the assignment once it is under way, issue 32).
STARTS_ASSIGNMENT = "_starts_assignment"


def _may_edit(pyramid: Pyramid, user, reopening: bool) -> None:
    assigned = build_assignment_statuses(user, pyramid)
    if not assigned and not can_edit_pyramid_unassigned(user, pyramid):
        raise NotAllowed("You are not assigned to this pyramid.")
    setattr(pyramid, STARTS_ASSIGNMENT, Assignment.Status.ASSIGNED in assigned)
    if pyramid.status == Pyramid.Status.SUBMITTED and not reopening:
        raise NotAllowed("This pyramid is submitted and read-only; an administrator can reopen it.")


def _flag_peer_annotations(pyramid: Pyramid, before: dict, after: dict) -> None:
    """Peer annotations made against this pyramid must be reviewed: say which SCUs changed."""
    changed = {int(uid) for uid in after["scus"] if before["scus"].get(uid) != after["scus"][uid]}
    if not changed:
        return
    # From plain rows (model instances loaded with only() would fetch a deferred field each), and
    # one UPDATE per new list of flags: annotations of one pyramid mostly share theirs, and a
    # bulk_update's CASE over every row cost more than the rest of the edit (issue 32).
    annotations_by_flags: defaultdict[tuple[int, ...], list[int]] = defaultdict(list)
    for pk, before_flags in pyramid.peer_annotations.values_list("pk", "scus_changed"):
        if not changed <= set(before_flags):  # already flagged for those: nothing to write
            annotations_by_flags[tuple(sorted(set(before_flags) | changed))].append(pk)
    for flags, pks in annotations_by_flags.items():
        PeerAnnotation.objects.filter(pk__in=pks).update(scus_changed=list(flags))


def _after_change(pyramid: Pyramid, before: dict, after: dict) -> None:
    """What follows any change of the SCUs (an edit, undo or redo): no number a change names is
    given again (an SCU it removed or merged; an imported pyramid's numbers were never counted in
    `last_uid`: the tester's removed SCU 103 came back as a new SCU 103), written with the
    pyramid by the edit's save; and the peer annotations against it flagged."""
    named = [int(uid) for uid in before["scus"]] + [int(uid) for uid in after["scus"]]
    pyramid.last_uid = max(pyramid.last_uid, *named, 0)
    _flag_peer_annotations(pyramid, before, after)


def _mark_started(pyramid: Pyramid, user) -> None:
    """The user's assignment to build this pyramid is under way (campaign progress), where the
    check of who may edit found it still to be started (or did not look)."""
    if getattr(pyramid, STARTS_ASSIGNMENT, True):
        assignment_status.mark_started(Assignment.Task.BUILD_PYRAMID, pyramid.pk, user_id=user.pk)


def _touched_in(state: dict) -> list[int]:
    return [int(uid) for uid in state["scus"]]


class SCURow(NamedTuple):
    """An SCU as `scu_rows` reads it."""

    uid: int
    label: str
    comment: str
    source_id: int | None
    id: int
    position: int
    source_pyramid_id: int | None = None  # where its source is (a consensus's copies), where
    source_uid: int | None = None  # read (`with_sources`)


# Where a plan leaves the rows `scu_rows` read, for the snapshot taken before its edit; and the
# mark of that first snapshot: the snapshot after the edit always reads the rows again.
ROWS_READ, SNAPSHOT_TAKEN = "_scu_rows_read", "_snapshot_taken"


def scu_rows(pyramid: Pyramid, with_sources: bool = False) -> list[SCURow]:
    """Every SCU of the pyramid as a plain row, in order (one query), `with_sources`: where each
    one's source is."""
    fields = ["uid", "label", "comment", "source_id", "id", "position"]
    if with_sources:
        fields += ["source__pyramid_id", "source__uid"]
    rows = [
        SCURow(*row)
        for row in SCU.objects.filter(pyramid=pyramid)
        .order_by("position", "id")
        .values_list(*fields)
    ]
    return rows


def scu_rows_for_plan(pyramid: Pyramid, with_sources: bool = False) -> list[SCURow]:
    """`scu_rows` read by an edit's plan under the pyramid's lock: they serve the snapshot taken
    before the edit too (issue 32: a query of its own), as nothing changes the SCUs between the
    two."""
    rows = scu_rows(pyramid, with_sources)
    pyramid.__dict__[ROWS_READ] = rows
    return rows


def snapshot(pyramid: Pyramid, uids: Iterable[int]) -> dict:
    """The touched SCUs (null where absent) and the order of all SCUs, as JSON-ready data.

    Two queries: every SCU as a plain row (the order, and the touched ones' label and comment:
    `scu_rows`, or those the edit's plan has just read), and the touched SCUs' spans with their
    contributors' fields (none where no touched SCU is there: a new SCU before, a removed one
    after).
    """
    uids = sorted(set(uids))
    rows = pyramid.__dict__.pop(ROWS_READ, None)
    if rows is None or pyramid.__dict__.get(SNAPSHOT_TAKEN):
        rows = scu_rows(pyramid)
    pyramid.__dict__[SNAPSHOT_TAKEN] = True
    order: list[int] = []
    labels: dict[int, tuple[str, str, int | None]] = {}
    scu_ids: dict[int, int] = {}
    for uid, label, comment, scu_source, scu_id, *_ in rows:
        order.append(uid)
        labels[uid] = (label, comment, scu_source)
        scu_ids[uid] = scu_id
    contributors: dict[int, ContributorState] = {}
    by_uid: dict[int, list[ContributorState]] = {uid: [] for uid in uids}
    there = [scu_ids[uid] for uid in uids if uid in scu_ids]
    span_rows = (
        Span.objects.filter(contributor__scu_id__in=there)
        .order_by("contributor__position", "contributor_id", "position", "id")
        .values_list(
            "contributor_id",
            "contributor__scu__uid",
            "contributor__summary_id",
            "contributor__comment",
            "contributor__source_id",
            "summary_id",
            "start",
            "end",
            "id",
        )
    )
    for row in span_rows:
        contributor_id, uid, summary_id, comment, source, span_summary, start, end, span_id = row
        if contributor_id not in contributors:
            contributors[contributor_id] = {
                "summary": summary_id,
                "comment": comment,
                "spans": [],
                "id": contributor_id,
                "span_ids": [],
            }
            # provenance, in a consensus pyramid only (keeps other snapshots as they were)
            if source:
                contributors[contributor_id]["source"] = source
            by_uid[uid].append(contributors[contributor_id])
        contributors[contributor_id]["spans"].append([span_summary, start, end])
        contributors[contributor_id]["span_ids"].append(span_id)
    # Only a pyramid a consensus was merged from has copies (issue 32: two queries a snapshot).
    scu_copies = (
        _note_copies(contributors, there) if there and pyramid.consensus_merged_from else {}
    )
    state: dict[str, SCUState | None] = {}
    for uid in uids:
        if uid not in labels:
            state[str(uid)] = None
            continue
        label, comment, source = labels[uid]
        scu_state: SCUState = {"label": label, "comment": comment, "contributors": by_uid[uid]}
        if source:
            scu_state["source"] = source
        if scu_copies.get(scu_ids[uid]):
            scu_state["copies"] = scu_copies[scu_ids[uid]]
        state[str(uid)] = scu_state
    return {"scus": state, "order": order}


def _note_copies(
    contributors: dict[int, ContributorState], scu_ids: list[int]
) -> dict[int, list[int]]:
    """Where a consensus copied these records (its provenance points here): each contributor's
    copies noted in its snapshot ("copies": ids), and the SCUs' copies returned, so that undo and
    redo in this pyramid, which recreate the rows, tie the copies to them again (two queries)."""
    copied: defaultdict[int, list[int]] = defaultdict(list)
    for source, copy in Contributor.objects.filter(source_id__in=list(contributors)).values_list(
        "source_id", "id"
    ):
        copied[source].append(copy)
    for contributor_id, record in contributors.items():
        if copied[contributor_id]:
            record["copies"] = copied[contributor_id]
    scu_copies: defaultdict[int, list[int]] = defaultdict(list)
    for source, copy in SCU.objects.filter(source_id__in=scu_ids).values_list("source_id", "id"):
        scu_copies[source].append(copy)
    return scu_copies


def restore(pyramid: Pyramid, state: dict, now: dict | None = None) -> None:
    """Make the snapshot's SCUs and order true again; contributors and their parts under the ids
    they had (issue 32: API clients and a consensus's provenance point at them), where the
    snapshot has them (not before issue 32) and no other record took them meanwhile. `now`: the
    pyramid as it is (a snapshot of the same SCUs): where the restore only removes SCUs and those
    left already stand in the snapshot's order, the order is not read again."""
    kept_scus, kept_contributors = _sources_still_there(state)
    touched = {int(key): scu_state for key, scu_state in state["scus"].items()}
    there = {scu.uid: scu for scu in SCU.objects.filter(pyramid=pyramid, uid__in=list(touched))}
    # What goes, goes first: the SCUs the snapshot has not (their contributors with them), then
    # the other touched SCUs' contributors: one may come back in another of them (a move undone).
    removed = {uid for uid, scu_state in touched.items() if scu_state is None and uid in there}
    delete_scus([there.pop(uid) for uid in sorted(removed)])
    created = False
    if there:
        Contributor.objects.filter(scu__in=list(there.values())).delete()
    wanted = [c["id"] for s in touched.values() if s for c in s["contributors"] if "id" in c]
    taken = set(Contributor.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    for uid, scu_state in touched.items():
        if scu_state is None:
            continue
        scu = there.get(uid)
        if scu is None:
            created = True
            scu = SCU.objects.create(
                pyramid=pyramid,
                uid=uid,
                label=scu_state["label"],
                comment=scu_state["comment"],
                source_id=kept_scus.get(scu_state.get("source")),
            )
        else:
            scu.label, scu.comment = scu_state["label"], scu_state["comment"]
            scu.source_id = kept_scus.get(scu_state.get("source"))
            scu.save(update_fields=["label", "comment", "source"])
        # a consensus's copies, whose provenance the edit undone had cleared
        if scu_state.get("copies"):
            SCU.objects.filter(pk__in=scu_state["copies"], source__isnull=True).update(source=scu)
        contributors = Contributor.objects.bulk_create(
            Contributor(
                pk=c.get("id") if c.get("id") not in taken else None,
                scu=scu,
                summary_id=c["summary"],
                comment=c["comment"],
                position=i,
                source_id=kept_contributors.get(c.get("source")),
            )
            for i, c in enumerate(scu_state["contributors"])
        )
        for record, c in zip(contributors, scu_state["contributors"]):
            if c.get("copies"):
                Contributor.objects.filter(pk__in=c["copies"], source__isnull=True).update(
                    source=record
                )
        Span.objects.bulk_create(
            Span(
                pk=span_id if "id" in c and c["id"] not in taken else None,
                contributor=record,
                summary_id=summary_id,
                start=start,
                end=end,
                position=p,
            )
            for record, c in zip(contributors, scu_state["contributors"])
            for p, ((summary_id, start, end), span_id) in enumerate(
                zip(c["spans"], c.get("span_ids") or [None] * len(c["spans"]))
            )
        )
    left = None if now is None else [uid for uid in now["order"] if uid not in removed]
    if created or left != state["order"]:
        _set_order(pyramid, state["order"])


def _sources_still_there(state: dict) -> tuple[dict, dict]:
    """The provenance links of a snapshot (consensus pyramids) whose sources are still there, as
    {id: id}, in two queries: a source may have been edited since, and then the link goes."""
    scus = [scu for scu in state["scus"].values() if scu]
    wanted_scus = {scu["source"] for scu in scus if scu.get("source")}
    wanted_contributors = {
        c["source"] for scu in scus for c in scu["contributors"] if c.get("source")
    }
    found_scus = (
        SCU.objects.filter(pk__in=wanted_scus).values_list("pk", flat=True) if wanted_scus else []
    )
    found_contributors = (
        Contributor.objects.filter(pk__in=wanted_contributors).values_list("pk", flat=True)
        if wanted_contributors
        else []
    )
    return {pk: pk for pk in found_scus}, {pk: pk for pk in found_contributors}


def _set_order(pyramid: Pyramid, order: list[int]) -> None:
    """The SCUs in `order` (uids; any others after them), moving as few as possible and writing
    one UPDATE per distance moved (annotator.pyramids.ordering). An SCU restored by an undo comes
    back at its old position, which may be taken: it moves, never shares it."""
    rows = SCU.objects.filter(pyramid=pyramid).values_list("id", "uid", "position")
    rank = {uid: i for i, uid in enumerate(order)}
    wanted = sorted(rows, key=lambda row: (rank.get(row[1], len(rank)), row[2], row[0]))
    ids = [pk for pk, _, _ in wanted]
    now = [position for _, _, position in wanted]
    for amount, moved in ordering.shifts(ids, now, ordering.positions_in_order(now)).items():
        SCU.objects.filter(pk__in=moved).update(position=F("position") + amount)


EDITOR = Editor(
    # With what the edit's answer shows of it (the page's edit view reads it no other way).
    rows=Pyramid.objects.select_related("docset__collection").annotate(
        merged_from_read=Pyramid.merged_from()
    ),
    name="pyramid",
    missing="There is no such pyramid.",
    may_edit=_may_edit,
    after_action=record_action,  # every edit is an action on the work: its active time
    snapshot=snapshot,
    touched_in=_touched_in,
    restore=restore,
    result=EditResult,
    # submit and reopen set the status, next_uid the last SCU number given; updated_at is set on
    # every save (auto_now)
    saved_fields=("status", "last_uid", "updated_at"),
    after_change=_after_change,
    after_edit=_mark_started,
)


# -- helpers for the rules ----------------------------------------------------------------------


def _model_text(pyramid: Pyramid, summary_id: int) -> tuple[str, str]:
    link = next((link for link in pyramid.model_texts if link.summary_id == summary_id), None)
    if link is None:
        raise RuleBroken("The text selected is not in one of this pyramid's model summaries.")
    return link.summary.text, link.summary.author


def checked_parts(
    text: str, ranges: Iterable[tuple[int, int]], where: str
) -> list[tuple[int, int]]:
    """Selected ranges of a text, validated and snapped to whole words (pyramids and peers
    alike)."""
    parts = []
    for start, end in ranges:
        start, end = int(start), int(end)
        if not (0 <= start <= len(text) and 0 <= end <= len(text)):
            raise RuleBroken(f"The selection lies outside {where}.")
        start, end = snap_to_words(text, start, end)
        if start >= end:
            raise RuleBroken(
                "The selection holds no words: select the words that express the content."
            )
        parts.append((start, end))
    if not parts:
        raise RuleBroken("Select some text first.")
    return parts


def _parts(
    pyramid: Pyramid, summary_id: int, ranges: Iterable[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Validated, word-snapped parts within one model summary."""
    text, _ = _model_text(pyramid, summary_id)
    return checked_parts(text, ranges, "the summary's text")


def _text_of(text: str, parts: list[tuple[int, int]]) -> str:
    return "...".join(text[s:e] for s, e in sorted(parts))


def _scu(pyramid: Pyramid, uid: int) -> SCU:
    scu = SCU.objects.filter(pyramid=pyramid, uid=uid).first()
    if scu is None:
        raise RuleBroken(f"SCU {uid} is not in this pyramid (it may have been removed).")
    return scu


def _contributor(pyramid: Pyramid, contributor_id: int) -> Contributor:
    contributor = (
        Contributor.objects.filter(scu__pyramid=pyramid, pk=contributor_id)
        .select_related("scu", "summary")
        .first()
    )
    if contributor is None:
        raise RuleBroken("That contributor is not in this pyramid (it may have been removed).")
    return contributor


def _check_one_per_model(
    scu: SCU, summary_ids: Iterable[int], refused_words: dict | None = None
) -> list[Contributor]:
    """Passonneau 2009 §2.1, guideline 2: an SCU has no more than one contributor per model.
    Returns the SCU's contributors (read for the check: the caller may need them too).

    `refused_words` ({"summary", "ranges"}): the selection an add_contributor was refused for. Only
    then is a fix offered, adding exactly those words to the contributor already there; a move or
    merge has no such words, and a fix built from others would put them in two SCUs."""
    contributors = list(scu.contributors.select_related("summary"))
    existing = {c.summary_id: c for c in contributors}
    for summary_id in summary_ids:
        if summary_id in existing:
            clash = existing[summary_id]
            message = (
                f"SCU {scu.uid} already has a contributor from model {clash.summary.author}: "
                "an SCU takes at most one contributor per model."
            )
            if refused_words is None:
                raise RuleBroken(message)
            raise RuleBroken(
                message + " Add the text as another part of that contributor instead.",
                fix={
                    "action": "add_part",
                    "contributor": clash.id,
                    "summary": refused_words["summary"],
                    "ranges": [list(part) for part in refused_words["ranges"]],
                },
            )
    return contributors


def delete_scu(scu: SCU) -> None:
    """Remove an SCU with its contributors (see delete_scus)."""
    delete_scus([scu])


def delete_scus(scus: list[SCU]) -> None:
    """Remove SCUs with their contributors, in one deletion (issue 32: ten statements an SCU);
    refused while PSEs match any of them (they protect them: the deletion's own check finds them,
    no count of them first)."""
    if not scus:
        return
    try:
        # As Model.delete does for one instance: from the instances, not read again.
        collector = Collector(using=router.db_for_write(SCU), origin=scus[0])
        collector.collect(scus)
        collector.delete()
    except ProtectedError as protected:
        used = Counter(r.scu_id for r in protected.protected_objects if isinstance(r, PSE))
        if not used:
            raise
        uids = sorted(scu.uid for scu in scus if scu.pk in used)
        count = sum(used.values())
        matched = f"matched by {count} PSE{'s' if count != 1 else ''} in peer annotations"
        if len(uids) == 1:
            message = f"SCU {uids[0]} is {matched}; it cannot be removed while they use it."
        else:
            names = ", ".join(map(str, uids))
            message = f"SCUs {names} are {matched}; they cannot be removed while they use them."
        raise RuleBroken(message) from None


def next_uid(pyramid: Pyramid, count: int = 1) -> int:
    """The first of `count` SCU numbers never given in this pyramid, now taken (issue 32: a number
    freed by a merge was given again, and "SCU 15" in the history named two SCUs). Above every
    uid in use too: an imported pyramid's numbers, and those undo and redo bring back (a stack:
    each restores exactly what its change started from or left). Called in the edit's
    transaction, under the pyramid's lock, on the edit's own instance: the edit's save writes
    `last_uid` (EDITOR.saved_fields), so a refused edit takes no number."""
    in_use = SCU.objects.filter(pyramid=pyramid).aggregate(m=Max("uid"))["m"] or 0
    return take_uids(pyramid, in_use, count)


def take_uids(pyramid: Pyramid, in_use: int, count: int) -> int:
    """`next_uid` where the largest uid in use (`in_use`) has been read with other things."""
    first = max(in_use, pyramid.last_uid) + 1
    pyramid.last_uid = first + count - 1
    return first


def next_uid_and_position(pyramid: Pyramid) -> tuple[int, int]:
    """`next_uid` for a new SCU and the position after the last SCU, in one query."""
    found = SCU.objects.filter(pyramid=pyramid).aggregate(uid=Max("uid"), position=Max("position"))
    last = found["position"]  # (not `last or -1`: the first SCU's position is 0)
    return take_uids(pyramid, found["uid"] or 0, 1), 0 if last is None else last + 1


def _remove_if_empty(scu: SCU) -> bool:
    if not scu.contributors.exists():
        delete_scu(scu)
        return True
    return False


# -- the operations -----------------------------------------------------------------------------


def new_scu(
    pyramid_id, user, version, summary_id: int, ranges, label: str | None = None
) -> EditResult:
    """A new SCU whose one contributor is the selection; its label defaults to the selected text."""

    def plan(pyramid):
        parts = _parts(pyramid, summary_id, ranges)
        text, _ = _model_text(pyramid, summary_id)
        uid, position = next_uid_and_position(pyramid)
        scu_label = (label or "").strip() or _text_of(text, parts).replace("\n", " ")

        def apply():
            scu = SCU.objects.create(pyramid=pyramid, uid=uid, label=scu_label, position=position)
            contributor = Contributor.objects.create(scu=scu, summary_id=summary_id)
            Span.objects.bulk_create(
                Span(contributor=contributor, summary_id=summary_id, start=s, end=e, position=i)
                for i, (s, e) in enumerate(parts)
            )
            return f"New SCU {uid} {quoted(scu_label)}"

        return [uid], apply

    return run_edit(pyramid_id, user, version, "new_scu", plan)


def add_contributor(pyramid_id, user, version, scu_uid: int, summary_id: int, ranges) -> EditResult:
    """The selection becomes a contributor of the SCU (at most one per model summary)."""

    def plan(pyramid):
        scu = _scu(pyramid, scu_uid)
        parts = _parts(pyramid, summary_id, ranges)
        there = _check_one_per_model(
            scu, [summary_id], refused_words={"summary": summary_id, "ranges": parts}
        )
        _, author = _model_text(pyramid, summary_id)
        # after the last (read under the pyramid's lock: nothing changes it before `apply`)
        position = max((c.position for c in there), default=0) + 1

        def apply():
            contributor = Contributor.objects.create(
                scu=scu, summary_id=summary_id, position=position
            )
            Span.objects.bulk_create(
                Span(contributor=contributor, summary_id=summary_id, start=s, end=e, position=i)
                for i, (s, e) in enumerate(parts)
            )
            return f"Added a contributor from model {author} to SCU {scu.uid}"

        return [scu.uid], apply

    return run_edit(pyramid_id, user, version, "add_contributor", plan)


def add_part(pyramid_id, user, version, contributor_id: int, summary_id: int, ranges) -> EditResult:
    """The selection becomes another part of a contributor (a discontinuous contributor)."""

    def plan(pyramid):
        contributor = _contributor(pyramid, contributor_id)
        if summary_id != contributor.summary_id:
            raise RuleBroken(
                f"A contributor's parts all lie in one model summary: this contributor is in model "
                f"{contributor.summary.author}; select its other part there."
            )
        parts = _parts(pyramid, summary_id, ranges)
        own = list(contributor.spans.values_list("start", "end"))
        if overlapping(parts, own):
            raise RuleBroken(
                f"Those words are already part of this contributor of SCU {contributor.scu.uid}."
            )

        def apply():
            start = (contributor.spans.aggregate(m=Max("position"))["m"] or 0) + 1
            Span.objects.bulk_create(
                Span(
                    contributor=contributor,
                    summary_id=summary_id,
                    start=s,
                    end=e,
                    position=start + i,
                )
                for i, (s, e) in enumerate(parts)
            )
            return (
                f"Added a part to the model {contributor.summary.author} contributor of SCU "
                f"{contributor.scu.uid}"
            )

        return [contributor.scu.uid], apply

    return run_edit(pyramid_id, user, version, "add_part", plan)


def set_label(pyramid_id, user, version, scu_uid: int, label: str) -> EditResult:
    def plan(pyramid):
        scu = _scu(pyramid, scu_uid)
        new_label = (label or "").strip()
        if not new_label:
            raise RuleBroken("An SCU's label cannot be empty.")

        def apply():
            scu.label = new_label
            scu.save(update_fields=["label"])
            return f"Relabelled SCU {scu.uid} {quoted(new_label)}"

        return [scu.uid], apply

    return run_edit(pyramid_id, user, version, "set_label", plan)


def set_label_from_contributor(pyramid_id, user, version, contributor_id: int) -> EditResult:
    def plan(pyramid):
        contributor = _contributor(pyramid, contributor_id)
        parts = list(contributor.spans.values_list("start", "end"))
        new_label = _text_of(contributor.summary.text, parts).replace("\n", " ")

        def apply():
            contributor.scu.label = new_label
            contributor.scu.save(update_fields=["label"])
            return f"Relabelled SCU {contributor.scu.uid} from a contributor {quoted(new_label)}"

        return [contributor.scu.uid], apply

    return run_edit(pyramid_id, user, version, "set_label", plan)


def set_comment(pyramid_id, user, version, scu_uid: int, comment: str) -> EditResult:
    def plan(pyramid):
        scu = _scu(pyramid, scu_uid)

        def apply():
            scu.comment = (comment or "").strip()
            scu.save(update_fields=["comment"])
            return f"{'Commented on' if scu.comment else 'Removed the comment of'} SCU {scu.uid}"

        return [scu.uid], apply

    return run_edit(pyramid_id, user, version, "set_comment", plan)


def move_contributor(pyramid_id, user, version, contributor_id: int, target_uid: int) -> EditResult:
    """Move a contributor to another SCU; an SCU left without contributors is removed."""

    def plan(pyramid):
        contributor = _contributor(pyramid, contributor_id)
        source, target = contributor.scu, _scu(pyramid, target_uid)
        if source.pk == target.pk:
            raise RuleBroken("The contributor is already in that SCU.")
        _check_one_per_model(target, [contributor.summary_id])

        def apply():
            contributor.scu = target
            contributor.position = (target.contributors.aggregate(m=Max("position"))["m"] or 0) + 1
            contributor.save(update_fields=["scu", "position"])
            removed = _remove_if_empty(source)
            return (
                f"Moved a model {contributor.summary.author} contributor from SCU {source.uid} "
                f"to SCU {target.uid}"
                + (f"; SCU {source.uid} was left empty and removed" if removed else "")
            )

        return [source.uid, target.uid], apply

    return run_edit(pyramid_id, user, version, "move_contributor", plan)


def merge_scus(pyramid_id, user, version, source_uid: int, target_uid: int) -> EditResult:
    """Every contributor of the source SCU joins the target SCU; the source SCU goes."""

    def plan(pyramid):
        source, target = _scu(pyramid, source_uid), _scu(pyramid, target_uid)
        if source.pk == target.pk:
            raise RuleBroken("Choose two different SCUs to merge.")
        if PSE.objects.filter(scu=source).exists():
            raise RuleBroken(
                f"SCU {source.uid} is matched in peer annotations; merge the other way round."
            )
        _check_one_per_model(target, source.contributors.values_list("summary_id", flat=True))

        def apply():
            offset = (target.contributors.aggregate(m=Max("position"))["m"] or 0) + 1
            for i, contributor in enumerate(source.contributors.order_by("position", "id")):
                contributor.scu, contributor.position = target, offset + i
                contributor.save(update_fields=["scu", "position"])
            delete_scu(source)
            return f"Merged SCU {source.uid} into SCU {target.uid}"

        return [source.uid, target.uid], apply

    return run_edit(pyramid_id, user, version, "merge_scus", plan)


def split_contributor(pyramid_id, user, version, contributor_id: int) -> EditResult:
    """Split a contributor off into a new SCU of its own, labelled with its text."""

    def plan(pyramid):
        contributor = _contributor(pyramid, contributor_id)
        source = contributor.scu
        if source.contributors.count() < 2:
            raise RuleBroken(
                f"SCU {source.uid} has only this contributor: there is nothing to split it from."
            )
        uid = next_uid(pyramid)
        parts = list(contributor.spans.values_list("start", "end"))
        label = _text_of(contributor.summary.text, parts).replace("\n", " ")

        # In a consensus, the new SCU comes from where its contributor came from (provenance).
        origin = (
            Contributor.objects.filter(pk=contributor.source_id)
            .values_list("scu_id", flat=True)
            .first()
        )

        def apply():
            scu = SCU.objects.create(
                pyramid=pyramid, uid=uid, label=label, position=source.position, source_id=origin
            )
            contributor.scu, contributor.position = scu, 0
            contributor.save(update_fields=["scu", "position"])
            order = list(
                SCU.objects.filter(pyramid=pyramid)
                .exclude(pk=scu.pk)
                .order_by("position", "id")
                .values_list("uid", flat=True)
            )
            order.insert(order.index(source.uid) + 1, uid)
            _set_order(pyramid, order)
            return (
                f"Split a model {contributor.summary.author} contributor off SCU {source.uid} "
                f"into new SCU {uid}"
            )

        return [source.uid, uid], apply

    return run_edit(pyramid_id, user, version, "split_contributor", plan)


def move_scu(pyramid_id, user, version, scu_uid: int, position: int) -> EditResult:
    """Put an SCU at a position (0 = first) in the annotator's own order."""

    def plan(pyramid):
        scu = _scu(pyramid, scu_uid)

        def apply():
            order = [
                u
                for u in SCU.objects.filter(pyramid=pyramid)
                .order_by("position", "id")
                .values_list("uid", flat=True)
                if u != scu.uid
            ]
            target = max(0, min(int(position), len(order)))
            order.insert(target, scu.uid)
            _set_order(pyramid, order)
            return f"Moved SCU {scu.uid} to position {target + 1}"

        return [], apply

    return run_edit(pyramid_id, user, version, "move_scu", plan)


def order_scus(pyramid_id, user, version) -> EditResult:
    """DUCView's Order: heaviest SCU first, then by label ignoring case."""

    def plan(pyramid):
        def apply():
            order = list(
                SCU.objects.filter(pyramid=pyramid)
                .with_weight(WeightConvention.CONTRIBUTORS)
                .order_by("-weight", Lower("label"), "uid")
                .values_list("uid", flat=True)
            )
            _set_order(pyramid, order)
            return "Ordered the SCUs by weight, then label"

        return [], apply

    return run_edit(pyramid_id, user, version, "order_scus", plan)


def remove_part(pyramid_id, user, version, span_id: int) -> EditResult:
    """Remove one part; a contributor left without parts goes, and an SCU left without
    contributors."""

    def plan(pyramid):
        span = (
            Span.objects.filter(pk=span_id, contributor__scu__pyramid=pyramid)
            .select_related("contributor__scu")
            .first()
        )
        if span is None:
            raise RuleBroken("That part is not in this pyramid (it may have been removed).")
        contributor, scu = span.contributor, span.contributor.scu

        def apply():
            span.delete()
            if contributor.spans.exists():
                return f"Removed a part of a contributor of SCU {scu.uid}"
            contributor.delete()
            removed = _remove_if_empty(scu)
            return f"Removed a contributor of SCU {scu.uid}" + (
                "; the SCU, left empty, was removed" if removed else ""
            )

        return [scu.uid], apply

    return run_edit(pyramid_id, user, version, "remove_part", plan)


def remove_contributor(pyramid_id, user, version, contributor_id: int) -> EditResult:
    def plan(pyramid):
        contributor = _contributor(pyramid, contributor_id)
        scu = contributor.scu

        def apply():
            contributor.delete()
            removed = _remove_if_empty(scu)
            return (
                f"Removed the model {contributor.summary.author} contributor of SCU {scu.uid}"
                + ("; the SCU, left empty, was removed" if removed else "")
            )

        return [scu.uid], apply

    return run_edit(pyramid_id, user, version, "remove_contributor", plan)


def remove_scu(pyramid_id, user, version, scu_uid: int) -> EditResult:
    def plan(pyramid):
        scu = _scu(pyramid, scu_uid)

        def apply():
            delete_scu(scu)
            return f"Removed SCU {scu.uid} {quoted(scu.label)}"

        return [scu.uid], apply

    return run_edit(pyramid_id, user, version, "remove_scu", plan)


def submit(pyramid_id, user, version, confirm: int | None = None) -> EditResult:
    """Submit the pyramid. A consensus must have every group decided; while model words are in two
    of its SCUs (annotator.adjudication.overlaps), only with `confirm`."""

    def plan(pyramid):
        if not pyramid.scus.exists():
            raise RuleBroken("A pyramid needs at least one SCU before it is submitted.")
        left = undecided_groups(pyramid)
        if left:
            raise RuleBroken(
                f"{len(left)} aligned group{'s' if len(left) != 1 else ''} of this consensus "
                f"{'are' if len(left) != 1 else 'is'} not decided yet: decide every group, "
                "then submit."
            )
        twice = counted_twice(pyramid) if not confirm else []
        several = len(twice) > 1
        if twice:
            raise RuleBroken(
                f"Not submitted: {len(twice)} stretch{'es' if several else ''} of model words "
                f"{'are' if several else 'is'} in two SCUs, which counts "
                f"{'them' if several else 'it'} twice ({twice[0].message}"
                f"{'; …' if several else ''}). Resolve them in the builder, or confirm to submit "
                "as it is."
            )

        def apply():
            pyramid.status = Pyramid.Status.SUBMITTED
            assignment_status.mark_done(Assignment.Task.BUILD_PYRAMID, pyramid.pk)
            return "Submitted the pyramid"

        return [], apply

    return run_edit(pyramid_id, user, version, "submit", plan)


def reopen(pyramid_id, user, version) -> EditResult:
    def plan(pyramid):
        if not can_reopen(user, pyramid):
            raise NotAllowed(
                "Only an administrator of the collection can reopen a submitted pyramid."
            )

        def apply():
            pyramid.status = Pyramid.Status.IN_PROGRESS
            assignment_status.mark_reopened(Assignment.Task.BUILD_PYRAMID, pyramid.pk)
            return "Reopened the pyramid"

        return [], apply

    return run_edit(pyramid_id, user, version, "reopen", plan)


def undecided_groups(pyramid: Pyramid) -> list[str]:
    """A consensus pyramid's aligned groups not decided yet (none for an ordinary pyramid)."""
    merge = PyramidMerge.objects.filter(consensus=pyramid).first()
    if merge is None:
        return []
    decided = history.decisions(pyramid.changes.all())
    return [group["key"] for group in merge.groups if group["key"] not in decided]


def undo(pyramid_id, user, version) -> EditResult:
    """Undo the latest edit still applied (also after a reload: the history is in the database)."""
    return EDITOR.undo(pyramid_id, user, version)


def redo(pyramid_id, user, version) -> EditResult:
    """Redo the edit undone last, if no new edit came since."""
    return EDITOR.redo(pyramid_id, user, version)
