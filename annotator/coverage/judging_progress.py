"""How far the judging has come (issue 21): one row per judgment task, for the progress page and
the judge's dashboard, beside the assignments' rows (annotator.campaigns.progress).

A row's figures (units answered, the units, the seconds the answers took, the last answer) are SQL
annotations: one query for all rows, whatever their number. A task's status is said in the
assignments' words, so that the pages' status filter and row styles serve both: withdrawn, done
(submitted), in progress (answers given), assigned (none yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, IntegerField, Max, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from annotator.campaigns.models import Assignment
from annotator.coverage.judging import short_method
from annotator.coverage.models import JudgmentTask, Unit
from annotator.text.ordering import natural_key
from annotator.worktime import queries as worktime

JUDGE = "judge"  # the progress page's task filter: judgment tasks
TASK_LABEL = "Judge coverage"
Status = Assignment.Status
SUBMITTED = JudgmentTask.Status.SUBMITTED
# The most rows the progress page lists (its filters narrow them); the totals count every row.
SHOWN = 500


@dataclass
class JudgingRow:
    pk: int
    docset: str
    judge: str
    unit_set: str
    method: str  # in a word: "presence", "SEE"
    peer: str
    status: str  # as an assignment's: assigned, in_progress, done, withdrawn
    status_label: str
    answered: int
    units: int
    seconds: float | None  # the judge's time on the answers (Judgment.seconds), None if none
    last_activity: datetime | None

    @property
    def active_time(self) -> str:
        return worktime.shown(self.seconds)

    @property
    def action(self) -> str:
        """What the judge's link says."""
        if self.status == Status.DONE:
            return "View judgments"
        return "Continue judging" if self.answered else "Judge"


def _figures(tasks: QuerySet[JudgmentTask]) -> QuerySet[JudgmentTask]:
    units = (
        Unit.objects.filter(unit_set_id=OuterRef("unit_set_id"))
        .order_by()
        .values("unit_set_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return tasks.annotate(
        answered=Count("judgments"),
        unit_count=Coalesce(Subquery(units, output_field=IntegerField()), 0),
        seconds=Sum("judgments__seconds"),
        last_answer=Max("judgments__updated_at"),
    )


def with_status(tasks: QuerySet[JudgmentTask], status: str) -> QuerySet[JudgmentTask]:
    """`tasks` (with their figures) whose status, in the assignments' words, is `status`."""
    if status == Status.WITHDRAWN:
        return tasks.filter(withdrawn=True)
    tasks = tasks.filter(withdrawn=False)
    if status == Status.DONE:
        return tasks.filter(status=SUBMITTED)
    tasks = tasks.exclude(status=SUBMITTED)
    # `answered` is _figures' annotation, which the type checker's model does not know.
    if status == Status.IN_PROGRESS:
        return tasks.filter(answered__gt=0)  # type: ignore[misc]
    if status == Status.ASSIGNED:
        return tasks.filter(answered=0)  # type: ignore[misc]
    return tasks.none()


def judging_rows(tasks: QuerySet[JudgmentTask], status: str = "") -> list[JudgingRow]:
    """Every task of `tasks` with its figures, `status` ("": any) as the progress page filters it,
    in the order of docsets, unit sets, peers (natural order) and judges. One query."""
    found = _figures(tasks)
    if status:
        found = with_status(found, status)
    labels = dict(Status.choices)
    rows = []
    for task in found.select_related("unit_set__docset", "peer", "judge").only(
        "status",
        "withdrawn",
        "judge_code",
        "judge__username",
        "unit_set__name",
        "unit_set__method",
        "unit_set__docset__name",
        "peer__author",
    ):
        figures = task  # the annotations above
        answered: int = figures.answered  # type: ignore[attr-defined]
        if task.withdrawn:
            state = Status.WITHDRAWN
        elif task.status == SUBMITTED:
            state = Status.DONE
        else:
            state = Status.IN_PROGRESS if answered else Status.ASSIGNED
        rows.append(
            JudgingRow(
                pk=task.pk,
                docset=task.unit_set.docset.name,
                judge=task.judge_name,
                unit_set=task.unit_set.name,
                method=short_method(task.unit_set.method),
                peer=task.peer.author,
                status=state,
                status_label=labels[state],
                answered=answered,
                units=figures.unit_count,  # type: ignore[attr-defined]
                seconds=figures.seconds,  # type: ignore[attr-defined]
                last_activity=figures.last_answer,  # type: ignore[attr-defined]
            )
        )
    rows.sort(key=lambda r: (r.docset, r.unit_set, natural_key(r.peer), r.judge))
    return rows


def totals(rows: list[JudgingRow]) -> dict:
    """The figures of all rows, added up (no query: the rows hold them)."""
    return {
        "tasks": len(rows),
        "assigned": sum(1 for r in rows if r.status != Status.WITHDRAWN),
        "started": sum(1 for r in rows if r.status in (Status.IN_PROGRESS, Status.DONE)),
        "submitted": sum(1 for r in rows if r.status == Status.DONE),
        "answered": sum(r.answered for r in rows),
        "active_time": worktime.shown(sum(r.seconds or 0.0 for r in rows) if rows else None),
    }


def collection_tasks(collection, chosen: dict[str, str]) -> QuerySet[JudgmentTask]:
    """The judgment tasks given out in `collection` (to users: imported judgments, by judges known
    only by a code, are records, not work to follow) that the progress page's filters (docset,
    annotator) keep; the status is filtered by judging_rows."""
    tasks = JudgmentTask.objects.filter(
        unit_set__docset__collection=collection, judge__isnull=False
    )
    if chosen.get("docset"):
        tasks = tasks.filter(unit_set__docset__name=chosen["docset"])
    if chosen.get("annotator"):
        tasks = tasks.filter(judge__username=chosen["annotator"])
    return tasks
