"""Coverage scores from the stored judgments (issue 21), in a fixed number of queries; the
mathematics is scoring.coverage.scores's.

A peer is scored against each unit set of its docset it was judged on:
- presence: each unit present by the majority of the peer's judges (scoring.coverage.scores
  .majority_present), the fraction of units present (presence_score), and weighted by the units'
  SCU weights (presence_weighted);
- SEE coverage: each judge's coverage (see_coverage, on the scale as a fraction), and the peer's:
  the mean over its judges.
Only units with at least one answer count: an imported task may lack answers (reported at import),
and a unit the judges never saw says nothing of the peer.

Submitted tasks only, unless `include_in_progress` (as the pyramid scores: issue 19).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean

from annotator.campaigns.models import Collection
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
from scoring.coverage.scores import majority_present, presence_score, see_coverage

COVERAGE_SCORES = ("presence", "presence_weighted", "see_coverage")
TOPS: dict[str, float] = {scale: answers[0] for scale, answers in UnitSet.ANSWERS.items()}


@dataclass(frozen=True)
class JudgedTask:
    """One judge's answers on one peer against one unit set, as loaded."""

    task_id: int
    unit_set_id: int
    unit_set: str
    method: str
    scale: str
    docset: str
    peer: str
    judge: str
    status: str
    answers: dict[int, float]  # unit id -> value on the scale

    @property
    def coverage(self) -> float:
        """This judge's SEE coverage of the peer, as a fraction (Harman & Over 2004 §2)."""
        return see_coverage(list(self.answers.values()), TOPS[self.scale])


@dataclass(frozen=True)
class CoverageRow:
    """A peer's coverage scores against one unit set: what the tables, exports, `ranking` and
    `correlate` read (the ScoreRow protocol of scoring.scores.tables: `peer`, `docset`,
    `scores`)."""

    docset: str
    unit_set: str
    method: str
    peer: str
    judges: int
    units: int
    in_progress: int  # tasks counted that are still in progress
    presence: float | None
    presence_weighted: float | None
    see_coverage: float | None

    @property
    def scores(self) -> CoverageRow:
        return self


def counted_tasks(tasks, include_in_progress: bool = False):
    """The tasks scores count: submitted ones, and with `include_in_progress` the others too."""
    return tasks if include_in_progress else tasks.filter(status=JudgmentTask.Status.SUBMITTED)


def collection_tasks(collection: Collection, docset: str | None = None):
    tasks = JudgmentTask.objects.filter(unit_set__docset__collection=collection)
    return tasks.filter(unit_set__docset__name=docset) if docset else tasks


def load_tasks(tasks) -> list[JudgedTask]:
    """The tasks with their answers (two queries), in the order of their docsets' loading (ids),
    then unit set, peer and judge."""
    rows = list(
        tasks.order_by().values_list(
            "pk",
            "unit_set_id",
            "unit_set__name",
            "unit_set__method",
            "unit_set__scale",
            "unit_set__docset__name",
            "unit_set__docset_id",
            "peer__author",
            "judge_code",
            "judge__username",
            "status",
        )
    )
    answers: defaultdict[int, dict[int, float]] = defaultdict(dict)
    for task_id, unit_id, value in (
        Judgment.objects.filter(task_id__in=[row[0] for row in rows])
        .order_by()
        .values_list("task_id", "unit_id", "value")
        .iterator(chunk_size=10_000)
    ):
        answers[task_id][unit_id] = value
    # In the order the docsets were loaded: system means sum in that order (system_mean).
    rows.sort(key=lambda row: (row[6], row[2], row[7], row[8] or row[9] or ""))
    return [
        JudgedTask(
            pk,
            unit_set_id,
            name,
            method,
            scale,
            docset,
            peer,
            code or username or f"#{pk}",
            status,
            answers[pk],
        )
        for pk, unit_set_id, name, method, scale, docset, _, peer, code, username, status in rows
    ]


def system_mean(values: list[float]) -> float:
    """A system's mean over its docsets: numpy's mean (pairwise summation), over the docsets in the
    order they were loaded, as Lite2Pyramid computes it over its ids.txt; so REALSumm's published
    presence of bart_out, 0.48349483849483854, is reproduced to the last digit (math.fsum, exact,
    gives ...385)."""
    import numpy as np

    return float(np.mean(values))


def unit_weights(unit_set_ids) -> dict[int, int]:
    """{unit id: weight} of the unit sets' units (one query)."""
    return dict(Unit.objects.filter(unit_set_id__in=set(unit_set_ids)).values_list("pk", "weight"))


def coverage_rows(tasks) -> list[CoverageRow]:
    """Each peer's scores against each unit set it was judged on (three queries)."""
    loaded = [task for task in load_tasks(tasks) if task.answers]
    weights = unit_weights({task.unit_set_id for task in loaded})
    groups: defaultdict[tuple, list[JudgedTask]] = defaultdict(list)
    for task in loaded:
        groups[(task.docset, task.unit_set, task.unit_set_id, task.peer)].append(task)
    rows = []
    for (docset, unit_set, _, peer), judged in groups.items():
        method = judged[0].method
        answers: defaultdict[int, list[float]] = defaultdict(list)
        for task in judged:
            for unit_id, value in task.answers.items():
                answers[unit_id].append(value)
        presence = weighted = coverage = None
        if method == UnitSet.Method.PRESENCE:
            units = sorted(answers)
            present = [majority_present([v > 0 for v in answers[u]]) for u in units]
            presence = presence_score(present)
            weighted = presence_score(present, [weights.get(u, 1) for u in units])
        else:
            coverage = fmean(task.coverage for task in judged)
        rows.append(
            CoverageRow(
                docset,
                unit_set,
                method,
                peer,
                len(judged),
                len(answers),
                sum(task.status != JudgmentTask.Status.SUBMITTED for task in judged),
                presence,
                weighted,
                coverage,
            )
        )
    return rows


def score_coverage(
    collection: Collection, docset: str | None = None, include_in_progress: bool = False
) -> list[CoverageRow]:
    """The collection's coverage rows (scoring.coverage.records.coverage_rows)."""
    return coverage_rows(counted_tasks(collection_tasks(collection, docset), include_in_progress))
