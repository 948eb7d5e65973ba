"""How far the work has come: one row per assignment, with the figures behind it.

Used by the progress page (administrators and organizers, per collection) and by the annotator's
own dashboard, so that both show the same figures. Four queries whatever the number of rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, QuerySet

from annotator.models import SCU, Assignment, PeerAnnotation, Pyramid
from annotator.text.ordering import natural_key

SORTS = {
    "docset": lambda r: (natural_key(r.docset), natural_key(r.target), r.user),
    "annotator": lambda r: (r.user, natural_key(r.docset), natural_key(r.target)),
    "task": lambda r: (r.task, natural_key(r.docset), natural_key(r.target)),
    "status": lambda r: (r.status_order, natural_key(r.docset), natural_key(r.target)),
    "scus": lambda r: (-(r.scus or 0), r.docset),
    "pses": lambda r: (-(r.pses or 0), r.docset),
    "activity": lambda r: (-(r.last_activity.timestamp() if r.last_activity else 0), r.docset),
}
STATUS_ORDER: dict[str, int] = {
    Assignment.Status.IN_PROGRESS: 0,
    Assignment.Status.ASSIGNED: 1,
    Assignment.Status.DONE: 2,
    Assignment.Status.WITHDRAWN: 3,
}


@dataclass
class WorkRow:
    assignment: Assignment
    user: str
    docset: str
    task: str
    target: str  # the pyramid built, or "peer 10 against D0601"
    status: str
    status_label: str
    submitted: bool  # the pyramid or the annotation is submitted
    scus: int | None  # SCUs of the pyramid being built
    pses: int | None  # PSEs of the user's annotation of the peer
    annotation_id: int | None
    last_activity: datetime | None

    @property
    def status_order(self) -> int:
        return STATUS_ORDER.get(self.status, 9)


def work_rows(assignments: QuerySet[Assignment], sort: str = "docset") -> list[WorkRow]:
    work = list(assignments.select_related("user", "pyramid__docset", "peer"))
    pyramid_ids = {a.pyramid_id for a in work}
    scu_counts = dict(
        SCU.objects.filter(pyramid_id__in=pyramid_ids)
        .values_list("pyramid_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    peer_work = [a for a in work if a.task == Assignment.Task.ANNOTATE_PEER]
    annotations = {
        (row["pyramid_id"], row["peer_id"], row["annotator_id"]): row
        for row in PeerAnnotation.objects.filter(
            pyramid_id__in={a.pyramid_id for a in peer_work},
            annotator_id__in={a.user_id for a in peer_work},
        )
        .values("id", "pyramid_id", "peer_id", "annotator_id", "status", "updated_at")
        .annotate(pse_count=Count("pses"))
    }
    rows = []
    for a in work:
        if a.task == Assignment.Task.BUILD_PYRAMID:
            submitted = a.pyramid.status == Pyramid.Status.SUBMITTED
            scus, pses, annotation_id = scu_counts.get(a.pyramid_id, 0), None, None
            target, activity = f"pyramid {a.pyramid.name}", a.pyramid.updated_at if scus else None
        else:
            # A peer to annotate is set on every ANNOTATE_PEER assignment (the model's
            # constraint assignment_peer_matches_task).
            assert a.peer is not None
            annotation = annotations.get((a.pyramid_id, a.peer.pk, a.user_id))
            submitted = bool(annotation and annotation["status"] == PeerAnnotation.Status.SUBMITTED)
            scus, pses = None, annotation["pse_count"] if annotation else 0
            annotation_id = annotation["id"] if annotation else None
            target, activity = (
                f"peer {a.peer.author} against {a.pyramid.name}",
                annotation["updated_at"] if annotation else None,
            )
        rows.append(
            WorkRow(
                assignment=a,
                user=a.user.username,
                docset=a.pyramid.docset.name,
                task=a.get_task_display(),
                target=target,
                status=a.status,
                status_label=a.get_status_display(),
                submitted=submitted,
                scus=scus,
                pses=pses,
                annotation_id=annotation_id,
                last_activity=activity,
            )
        )
    rows.sort(key=SORTS.get(sort, SORTS["docset"]))
    return rows


def totals(rows: list[WorkRow]) -> dict[str, int]:
    return {
        "assigned": sum(r.status != Assignment.Status.WITHDRAWN for r in rows),
        "started": sum(
            r.status in (Assignment.Status.IN_PROGRESS, Assignment.Status.DONE) for r in rows
        ),
        "submitted": sum(r.submitted for r in rows),
        "scus": sum(r.scus or 0 for r in rows),
        "pses": sum(r.pses or 0 for r in rows),
    }
