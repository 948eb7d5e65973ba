"""How far the work has come: one row per assignment, with the figures behind it.

Used by the progress page (administrators and organizers, per collection, a page of rows at a
time) and by the annotator's own dashboard, so that both show the same figures. The figures of a
row (SCUs, PSEs, the annotation, the last activity, whether the work is submitted) are SQL
annotations of the assignment queryset, so that the database sorts and counts every row and only
the rows shown are built: a constant number of queries, whatever the number of rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    BooleanField,
    Case,
    Count,
    Exists,
    F,
    FilteredRelation,
    FloatField,
    IntegerField,
    OrderBy,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Length, Lower

from annotator.campaigns.models import Assignment
from annotator.coverage.judging_progress import JUDGE, JudgingRow
from annotator.peer_annotation.models import PSE, PeerAnnotation
from annotator.pyramids.models import SCU, Pyramid
from annotator.worktime import queries as worktime

BUILD, PEER = Assignment.Task.BUILD_PYRAMID, Assignment.Task.ANNOTATE_PEER
STATUS_ORDER: dict[str, int] = {
    Assignment.Status.IN_PROGRESS: 0,
    Assignment.Status.ASSIGNED: 1,
    Assignment.Status.DONE: 2,
    Assignment.Status.WITHDRAWN: 3,
}

# The row's target as people read it: "peer 2 against D0601" before "peer 10 against D0601" (peer
# ids that are all digits in numeric order, before any other id, whatever their case), the peers
# before "pyramid …" ("peer" < "pyramid" as task values too). Docset and pyramid names are compared
# as text: their numbers have one width within a collection (D0601A, D1001-A), where text order is
# natural order; docset names as the database orders them, so that its index of them serves the
# first pages without sorting every row.
_NUMERIC_PEER = Q(peer__author__regex=r"^[0-9]+$")
TARGET_ORDER = [
    "task",
    Case(When(_NUMERIC_PEER, then=Value(0)), default=Value(1)),
    Case(When(_NUMERIC_PEER, then=Length("peer__author")), default=Value(0)),
    Lower("peer__author"),
    "peer__author",
    Lower("pyramid__name"),
    "pyramid__name",
]
DOCSET_ORDER = ["pyramid__docset__name"]
# Rows equal on a sort stay in the model's order (user, pyramid, peer: unique), so that every row
# has one place and pages neither repeat nor skip a row.
TIES = ["user_id", "pyramid_id", "peer_id", "pk"]
SORTS: dict[str, list] = {
    "docset": [*DOCSET_ORDER, *TARGET_ORDER, "user__username"],
    "annotator": ["user__username", *DOCSET_ORDER, *TARGET_ORDER],
    "task": ["task", *DOCSET_ORDER, *TARGET_ORDER],
    "status": [
        Case(
            *(When(status=status, then=Value(n)) for status, n in STATUS_ORDER.items()),
            default=Value(9),
        ),
        *DOCSET_ORDER,
        *TARGET_ORDER,
    ],
    "scus": [OrderBy(Coalesce("scus", 0), descending=True), "pyramid__docset__name"],
    "pses": [OrderBy(Coalesce("pses", 0), descending=True), "pyramid__docset__name"],
    "activity": [F("last_activity").desc(nulls_last=True), "pyramid__docset__name"],
    # Active time on task (issue 20): most first, work not begun last.
    "time": [F("active_seconds").desc(nulls_last=True), "pyramid__docset__name"],
}
# The figures a sort needs (the others sort on the assignment's own columns).
SORT_FIGURES = {
    "scus": ["scus"],
    "pses": ["pses"],
    "activity": ["last_activity"],
    "time": ["active_seconds"],
}
FIGURES = ("scus", "pses", "annotation_id", "last_activity", "submitted", "active_seconds")


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
    active_seconds: float | None = None  # the user's active time on the work (annotator.worktime)

    @property
    def active_time(self) -> str:
        return worktime.shown(self.active_seconds)

    @property
    def status_order(self) -> int:
        return STATUS_ORDER.get(self.status, 9)


def _with_own_annotation(assignments: QuerySet[Assignment]) -> QuerySet[Assignment]:
    """`own`: the assignment's user's annotation of the peer it names (at most one: a unique
    constraint), joined, so that the database matches all rows at once."""
    return assignments.annotate(
        own=FilteredRelation(
            "peer__peer_annotations",
            condition=Q(
                peer__peer_annotations__pyramid=F("pyramid"),
                peer__peer_annotations__annotator=F("user"),
            ),
        )
    )


def _figure(name: str):
    scus = SCU.objects.filter(pyramid_id=OuterRef("pyramid_id")).order_by()
    if name == "scus":  # building a pyramid: its SCUs; else None
        count = scus.values("pyramid_id").annotate(n=Count("id")).values("n")
        return Case(
            When(task=BUILD, then=Coalesce(Subquery(count), 0)),
            default=None,
            output_field=IntegerField(),
        )
    if name == "pses":  # annotating a peer: the PSEs of the user's annotation (0 if none)
        return Case(When(task=PEER, then=Count("own__pses")), default=None)
    if name == "annotation_id":
        return F("own__id")
    if name == "last_activity":
        # A pyramid's last change counts once it holds an SCU (creating it is not work done).
        return Case(
            When(Q(task=BUILD) & Exists(scus), then=F("pyramid__updated_at")),
            When(task=PEER, then=F("own__updated_at")),
            default=None,
        )
    if name == "active_seconds":  # the user's active time on the pyramid or their annotation
        return Case(
            When(task=BUILD, then=worktime.pyramid_seconds()),
            When(task=PEER, then=worktime.annotation_seconds()),
            default=None,
            output_field=FloatField(),
        )
    assert name == "submitted"  # the pyramid or the annotation is submitted
    return Case(
        When(task=BUILD, then=Q(pyramid__status=Pyramid.Status.SUBMITTED)),
        When(task=PEER, then=Q(own__status=PeerAnnotation.Status.SUBMITTED)),
        default=Value(False),
        output_field=BooleanField(),
    )


def sorted_work(
    assignments: QuerySet[Assignment], sort: str = "docset", figures: Iterable[str] = FIGURES
) -> QuerySet[Assignment]:
    """`assignments` sorted by `sort` (a key of SORTS; else by docset), with `figures` (names of
    FIGURES) and those the sort needs, as SQL annotations."""
    sort = sort if sort in SORTS else "docset"
    wanted = [name for name in FIGURES if name in figures or name in SORT_FIGURES.get(sort, [])]
    work = _with_own_annotation(assignments) if wanted else assignments
    return work.annotate(**{name: _figure(name) for name in wanted}).order_by(*SORTS[sort], *TIES)


def with_active_seconds(assignments: QuerySet[Assignment]) -> QuerySet[Assignment]:
    """`assignments` with `active_seconds`, their user's active time on the work (None before any
    action), as an SQL annotation: the API's assignments."""
    return assignments.annotate(active_seconds=_figure("active_seconds"))


def page_keys(assignments: QuerySet[Assignment], sort: str = "docset") -> QuerySet:
    """The ids of `assignments` in the order of `sort`, for a Paginator: the database sorts every
    row, computing only the figure the sort needs; a page's rows are then built by work_rows."""
    return sorted_work(assignments, sort, figures=()).values_list("pk", flat=True)


def rows_of(assignments: Iterable[Assignment]) -> list[WorkRow]:
    """The rows of assignments loaded by `ordered` (all of them, or a page), in their order."""
    rows = []
    for a in assignments:
        if a.task == BUILD:
            target = f"pyramid {a.pyramid.name}"
        else:
            # A peer to annotate is set on every ANNOTATE_PEER assignment (the model's
            # constraint assignment_peer_matches_task).
            assert a.peer is not None
            target = f"peer {a.peer.author} against {a.pyramid.name}"
        rows.append(
            WorkRow(
                assignment=a,
                user=a.user.username,
                docset=a.pyramid.docset.name,
                task=a.get_task_display(),
                target=target,
                status=a.status,
                status_label=a.get_status_display(),
                submitted=a.submitted,  # type: ignore[attr-defined]  # annotated by sorted_work
                scus=a.scus,  # type: ignore[attr-defined]
                pses=a.pses,  # type: ignore[attr-defined]
                annotation_id=a.annotation_id,  # type: ignore[attr-defined]
                last_activity=a.last_activity,  # type: ignore[attr-defined]
                active_seconds=a.active_seconds,  # type: ignore[attr-defined]
            )
        )
    return rows


def work_rows(assignments: QuerySet[Assignment], sort: str = "docset") -> list[WorkRow]:
    """Every row of `assignments` with its figures, sorted: the dashboard (one user's work, a short
    list) and a page of the progress page (the assignments of the page's keys)."""
    return rows_of(_loaded(assignments, sort))


CSV_COLUMNS = [
    "docset",
    "annotator",
    "task",
    "target",
    "status",
    "submitted",
    "scus",
    "pses",
    # The judgment tasks' (issue 21), empty on an assignment's row but its peer.
    "unit_set",
    "peer",
    "units_answered",
    "units",
    "last_activity",
    "active_seconds",
]


def csv_rows(assignments: QuerySet[Assignment], sort: str = "docset") -> Iterator[list]:
    """Every row of `assignments` as the progress page's CSV download has it (CSV_COLUMNS): read in
    chunks, so that a large campaign streams in a constant memory and number of queries per
    chunk. The active time in whole seconds (what a campaign's budget sums)."""
    for row in rows_of(_loaded(assignments, sort).iterator(chunk_size=2000)):
        yield [
            row.docset,
            row.user,
            row.assignment.task,
            row.target,
            row.status,
            row.submitted,
            row.scus,
            row.pses,
            None,
            row.assignment.peer.author if row.assignment.peer else None,
            None,
            None,
            row.last_activity.isoformat() if row.last_activity else None,
            worktime.whole_seconds(row.active_seconds),  # as the API gives it
        ]


def judging_csv_rows(rows: Iterable[JudgingRow]) -> Iterator[list]:
    """The judgment tasks' rows of the CSV (CSV_COLUMNS), as the progress page shows them
    (annotator.coverage.judging_progress): the task "judge" (the page's task filter), the status
    in the assignments' words, the units answered of the unit set's, and the judge's time on the
    answers in whole seconds, as the assignments' active time."""
    for row in rows:
        yield [
            row.docset,
            row.judge,
            JUDGE,
            f"peer {row.peer} against {row.unit_set}",
            row.status,
            row.status == Assignment.Status.DONE,
            None,
            None,
            row.unit_set,
            row.peer,
            row.answered,
            row.units,
            row.last_activity.isoformat() if row.last_activity else None,
            worktime.whole_seconds(row.seconds),
        ]


def _loaded(assignments: QuerySet[Assignment], sort: str) -> QuerySet[Assignment]:
    return (
        sorted_work(assignments, sort)
        .select_related("user", "pyramid__docset", "peer")
        # Only what a row shows: a peer's text stays in the database.
        .only(
            "task",
            "status",
            "user_id",
            "pyramid_id",
            "peer_id",
            "user__username",
            "pyramid__name",
            "pyramid__docset__name",
            "peer__author",
        )
    )


def totals(assignments: QuerySet[Assignment]) -> dict[str, int]:
    """The figures of all `assignments` (every page of them), added up by the database over sets
    (no per-row subquery): the rows, what is assigned, started, submitted, the SCUs of the
    pyramids built and the PSEs of the peers annotated, and the active time on them."""
    work = assignments.aggregate(
        rows=Count("pk"),
        assigned=Count("pk", filter=~Q(status=Assignment.Status.WITHDRAWN)),
        started=Count(
            "pk", filter=Q(status__in=[Assignment.Status.IN_PROGRESS, Assignment.Status.DONE])
        ),
        built=Count("pk", filter=Q(task=BUILD, pyramid__status=Pyramid.Status.SUBMITTED)),
    )
    # The annotations of the assigned peers, each by the user it is assigned to: one assignment
    # each (one of a user, pyramid and peer), so counting them counts the assignments.
    annotations = PeerAnnotation.objects.filter(
        Exists(
            assignments.filter(
                task=PEER,
                pyramid_id=OuterRef("pyramid_id"),
                peer_id=OuterRef("peer_id"),
                user_id=OuterRef("annotator_id"),
            )
        )
    )
    annotated = annotations.filter(status=PeerAnnotation.Status.SUBMITTED).count()
    pses = PSE.objects.filter(annotation__in=annotations).count()
    # An SCU counts once for each assignment to build its pyramid, as on the rows.
    scus = SCU.objects.filter(pyramid__assignments__in=assignments.filter(task=BUILD)).count()
    return {
        "rows": work["rows"],
        "assigned": work["assigned"],
        "started": work["started"],
        "submitted": work["built"] + annotated,
        "scus": scus,
        "pses": pses,
        "active_seconds": round(worktime.assignments_seconds(assignments)),
    }
