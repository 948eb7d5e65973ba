"""Giving out work: who builds which pyramid, who annotates which peer against which pyramid.

Every function here runs in one transaction and keeps three things true:
- an assigned user is an annotator member of the collection (access follows assignments);
- a pyramid-building assignment has a pyramid of its own: each annotator builds their own from
  the docset's model summaries, so two annotators of one docset give two pyramids (agreement);
- withdrawing or reassigning never deletes work: a withdrawn assignment stays on record (the
  progress page shows it), and the pyramid or annotation begun stays in the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import cycle

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from annotator.adjudication.models import PyramidMerge
from annotator.campaigns.access import can_administer
from annotator.campaigns.models import Assignment, Docset, Membership, Role, Summary
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid, PyramidModel

Task = Assignment.Task
Status = Assignment.Status
ROUND_ROBIN = "round_robin"
EVERY_ANNOTATOR = "every"


@dataclass
class AssignmentReport:
    created: list[Assignment] = field(default_factory=list)
    already: list[Assignment] = field(default_factory=list)  # the same work was already theirs
    skipped: list[str] = field(default_factory=list)  # what could not be assigned, and why

    @property
    def summary(self) -> str:
        parts = [f"{len(self.created)} assignment{'s' if len(self.created) != 1 else ''} made"]
        if self.already:
            parts.append(f"{len(self.already)} already assigned")
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        return ", ".join(parts)


def _ensure_annotator(collection_id: int, user) -> None:
    Membership.objects.get_or_create(collection_id=collection_id, user=user, role=Role.ANNOTATOR)


def _give(
    user, by, task: str, pyramid: Pyramid, peer: Summary | None, report: AssignmentReport
) -> None:
    assignment, created = Assignment.objects.get_or_create(
        user=user, task=task, pyramid=pyramid, peer=peer, defaults={"assigned_by": by}
    )
    if created:
        report.created.append(assignment)
    elif assignment.status == Status.WITHDRAWN:  # given back: the work done before is still there
        assignment.status = Status.IN_PROGRESS if _started(assignment) else Status.ASSIGNED
        assignment.assigned_by = by
        assignment.save(update_fields=["status", "assigned_by", "updated_at"])
        report.created.append(assignment)
    else:
        report.already.append(assignment)


def _started(assignment: Assignment) -> bool:
    if assignment.task == Task.BUILD_PYRAMID:
        return assignment.pyramid.scus.exists()
    return PeerAnnotation.objects.filter(
        pyramid=assignment.pyramid, peer=assignment.peer, annotator=assignment.user
    ).exists()


def new_pyramid(docset: Docset, user, name: str | None = None) -> Pyramid:
    """An empty pyramid over all of the docset's model summaries, for `user` to build."""
    models = list(docset.summaries.filter(kind=Summary.Kind.MODEL).order_by("author"))
    if len(models) < 2:
        raise RuleBroken(
            f"Docset {docset.name} needs at least two model summaries to build a pyramid."
        )
    pyramid = Pyramid.objects.create(
        docset=docset,
        name=name or Pyramid.free_name(docset.id, f"{docset.name}-{user.username}"),
        created_by=user,
    )
    PyramidModel.objects.bulk_create(
        PyramidModel(pyramid=pyramid, summary=model, position=i) for i, model in enumerate(models)
    )
    return pyramid


@transaction.atomic
def assign_pyramids(docsets, annotators, by, mode: str = EVERY_ANNOTATOR) -> AssignmentReport:
    """Pyramid creation: each docset to every annotator, or to one annotator each in turn.

    Each annotator gets a pyramid of their own (unless they already have one for the docset)."""
    report = AssignmentReport()
    for docset, user in _pairs(docsets, annotators, mode):
        _ensure_annotator(docset.collection_id, user)
        existing = (
            Assignment.objects.filter(user=user, task=Task.BUILD_PYRAMID, pyramid__docset=docset)
            .select_related("pyramid")
            .first()
        )
        try:
            pyramid = existing.pyramid if existing else new_pyramid(docset, user)
        except RuleBroken as problem:
            report.skipped.append(problem.message)
            continue
        _give(user, by, Task.BUILD_PYRAMID, pyramid, None, report)
    return report


def assign(
    task: str,
    docsets,
    annotators,
    by,
    mode: str = EVERY_ANNOTATOR,
    pyramid: Pyramid | None = None,
) -> AssignmentReport:
    """Work for several annotators over several docsets, as the Assign page and POST
    /api/assignments/ give it: a pyramid to build (assign_pyramids) or the docsets' peers to
    annotate (assign_peers), against `pyramid` if one is chosen.

    NotAllowed unless `by` administers every docset's collection; RuleBroken for an unknown task
    or mode, a chosen pyramid still being edited, or one chosen with docsets other than its own."""
    docsets, annotators = list(docsets), list(annotators)
    for collection_id in sorted({d.collection_id for d in docsets}):
        if not can_administer(by, collection_id):
            raise NotAllowed("Only the collection's administrators give out its work.")
    if mode not in (EVERY_ANNOTATOR, ROUND_ROBIN):
        raise RuleBroken(
            f"Unknown assignment mode {mode!r}: {EVERY_ANNOTATOR!r} or {ROUND_ROBIN!r}."
        )
    if task == Task.BUILD_PYRAMID:
        return assign_pyramids(docsets, annotators, by, mode)
    if task != Task.ANNOTATE_PEER:
        raise RuleBroken(
            f"Unknown task {task!r}: {Task.BUILD_PYRAMID.value!r} or {Task.ANNOTATE_PEER.value!r}."
        )
    chosen = None
    if pyramid is not None:
        if pyramid.status != Pyramid.Status.SUBMITTED:
            raise RuleBroken(
                f"Pyramid {pyramid.name} is still being edited: peers are annotated against a "
                "submitted pyramid."
            )
        if any(d.pk != pyramid.docset_id for d in docsets):
            raise RuleBroken(
                f"Pyramid {pyramid.name} is for docset {pyramid.docset.name} only: "
                "choose just that docset."
            )
        chosen = {pyramid.docset_id: pyramid}
    return assign_peers(docsets, annotators, by, mode, chosen)


def submitted_pyramid(docset: Docset, name: str | None = None) -> Pyramid | None:
    """The pyramid peers of a docset are annotated against: the one named, or the docset's
    adjudicated (consensus) pyramid, or the latest submitted."""
    pyramids = docset.pyramids.filter(status=Pyramid.Status.SUBMITTED)
    if name:
        pyramids = pyramids.filter(name=name)
    adjudicated = Exists(PyramidMerge.objects.filter(consensus=OuterRef("pk")))
    return pyramids.order_by(adjudicated.desc(), "-updated_at", "-id").first()


@transaction.atomic
def assign_peers(
    docsets,
    annotators,
    by,
    mode: str = EVERY_ANNOTATOR,
    pyramids: dict | None = None,
    peers: list[Summary] | None = None,
) -> AssignmentReport:
    """Peer annotation: every peer of each docset against a chosen pyramid (`pyramids`, by docset
    id; otherwise the docset's latest submitted one), to every annotator or round robin (by peer,
    so that a docset's peers are spread over the annotators)."""
    report = AssignmentReport()
    annotators = list(annotators)
    turn = cycle(annotators) if annotators else None
    for docset in docsets:
        pyramid = (pyramids or {}).get(docset.pk) or submitted_pyramid(docset)
        if pyramid is None:
            report.skipped.append(
                f"Docset {docset.name} has no submitted pyramid to annotate against."
            )
            continue
        if pyramid.docset_id != docset.pk:
            raise RuleBroken(f"Pyramid {pyramid.name} is not a pyramid of docset {docset.name}.")
        docset_peers = (
            [p for p in peers if p.docset_id == docset.pk]
            if peers is not None
            else list(docset.summaries.filter(kind=Summary.Kind.PEER).order_by("author"))
        )
        if not docset_peers:
            report.skipped.append(f"Docset {docset.name} has no peer summaries.")
            continue
        for peer in docset_peers:
            for user in annotators if mode == EVERY_ANNOTATOR else [next(turn)] if turn else []:
                _ensure_annotator(docset.collection_id, user)
                _give(user, by, Task.ANNOTATE_PEER, pyramid, peer, report)
    return report


def _pairs(docsets, annotators, mode: str):
    annotators = list(annotators)
    if not annotators:
        return []
    if mode == EVERY_ANNOTATOR:
        return [(docset, user) for docset in docsets for user in annotators]
    if mode == ROUND_ROBIN:
        return list(zip(docsets, cycle(annotators)))
    raise RuleBroken(f"Unknown assignment mode {mode!r}: {EVERY_ANNOTATOR!r} or {ROUND_ROBIN!r}.")


@transaction.atomic
def withdraw(assignment: Assignment, by) -> Assignment:
    """Take the work back from the user; what they did stays (for the next annotator, or
    records)."""
    if assignment.status == Status.WITHDRAWN:
        raise RuleBroken("That assignment is already withdrawn.")
    assignment.status = Status.WITHDRAWN
    assignment.assigned_by = by
    assignment.save(update_fields=["status", "assigned_by", "updated_at"])
    return assignment


def withdraw_all(user, collection, by) -> int:
    """Withdraw every assignment of `user` in `collection` (one query); the work stays."""
    return (
        Assignment.objects.filter(user=user, pyramid__docset__collection=collection)
        .exclude(status=Status.WITHDRAWN)
        .update(status=Status.WITHDRAWN, assigned_by=by, updated_at=timezone.now())
    )


@transaction.atomic
def reassign(assignment: Assignment, to_user, by) -> Assignment:
    """Give the work to another annotator, who goes on from where it stands.

    A pyramid being built changes hands (its history keeps who did what). An unfinished peer
    annotation does too; a completed one stays its author's, and the new annotator starts their own.
    """
    if to_user.pk == assignment.user_id:
        raise RuleBroken("That assignment is already theirs.")
    if (
        Assignment.objects.filter(
            user=to_user, task=assignment.task, pyramid=assignment.pyramid, peer=assignment.peer
        )
        .exclude(status=Status.WITHDRAWN)
        .exists()
    ):
        raise RuleBroken(f"{to_user.username} already has this work.")
    collection_id = assignment.pyramid.docset.collection_id
    _ensure_annotator(collection_id, to_user)
    if assignment.task == Task.ANNOTATE_PEER:
        taken = PeerAnnotation.objects.filter(
            pyramid=assignment.pyramid, peer=assignment.peer, annotator=to_user
        )
        if not taken.exists():
            PeerAnnotation.objects.filter(
                pyramid=assignment.pyramid,
                peer=assignment.peer,
                annotator_id=assignment.user_id,
                status=PeerAnnotation.Status.IN_PROGRESS,
            ).update(annotator=to_user)
    withdraw(assignment, by)
    report = AssignmentReport()
    _give(to_user, by, assignment.task, assignment.pyramid, assignment.peer, report)
    return (report.created or report.already)[0]
