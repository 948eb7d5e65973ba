"""Coverage judgments for reading (issue 21): each system's means over docsets, and rows or means
sorted by any column, as scoring.scores.tables gives them for the pyramid scores. What the scores
page,
the exports, the API and `correlate` read; the rows are scoring.coverage.records'.

A system's mean of a score: where a docset has several unit sets judged with that score (SEE
models A and B, say), the peer's scores against them are averaged first, so that every docset
weighs the same (as scoring.scores.tables.system_means does with a docset annotated twice); then
the mean
over the docsets, in the order they were loaded, with coverage_records.system_mean (numpy's
summation: REALSumm's published values to the last digit). `ranking` counts each row as an
observation instead (as it does for the pyramid scores); with one unit set per docset and score,
as REALSumm and Lite Pyramid have, the two means are the same numbers.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean

from scoring.coverage.records import COVERAGE_SCORES, CoverageRow, system_mean
from scoring.scores.tables import natural_peer_key

COVERAGE_SORTABLE = (
    "docset",
    "unit_set",
    "method",
    "peer",
    "judges",
    "units",
    "in_progress",
    *COVERAGE_SCORES,
)
COVERAGE_SYSTEM_SORTABLE = ("peer", "docsets", "in_progress", *COVERAGE_SCORES)


@dataclass(frozen=True)
class CoverageSystemMean:
    peer: str
    docsets: int  # docsets where the system has at least one coverage row
    in_progress: int  # judgment tasks in progress among those averaged (none unless asked for)
    presence: float | None
    presence_weighted: float | None
    see_coverage: float | None


def coverage_system_means(rows: Iterable[CoverageRow]) -> list[CoverageSystemMean]:
    """Each system's mean coverage scores over the docsets (see the module's docstring), from the
    rows in the order coverage_records gives them (docsets as loaded). Best presence first, then
    best SEE coverage; undefined ones last."""
    # peer -> docset -> score -> the peer's values there (dicts keep the docsets' order)
    values: dict[str, dict[str, dict[str, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    in_progress: defaultdict[str, int] = defaultdict(int)
    for row in rows:
        docset = values[row.peer][row.docset]
        for name in COVERAGE_SCORES:
            value = getattr(row, name)
            if value is not None:
                docset[name].append(value)
        in_progress[row.peer] += row.in_progress
    means = []
    for peer, docsets in values.items():
        by_score: dict[str, float | None] = {}
        for name in COVERAGE_SCORES:
            docset_means = [
                found[0] if len(found) == 1 else fmean(found)
                for found in (docset[name] for docset in docsets.values())
                if found
            ]
            by_score[name] = system_mean(docset_means) if docset_means else None
        means.append(
            CoverageSystemMean(
                peer=peer,
                docsets=len(docsets),
                in_progress=in_progress[peer],
                presence=by_score["presence"],
                presence_weighted=by_score["presence_weighted"],
                see_coverage=by_score["see_coverage"],
            )
        )
    return sorted(means, key=_best_first)


def _best_first(mean: CoverageSystemMean) -> tuple:
    return (
        mean.presence is None,
        -(mean.presence or 0),
        mean.see_coverage is None,
        -(mean.see_coverage or 0),
        natural_peer_key(mean.peer),
    )


def _ordered(items: Sequence, column: str, descending: bool) -> list:
    """`items` by `column`: peers in natural order ("9" before "10"), missing values last
    whichever the direction, ties in the order given."""
    if column == "peer":
        return sorted(items, key=lambda item: natural_peer_key(item.peer), reverse=descending)
    present = [item for item in items if getattr(item, column) is not None]
    missing = [item for item in items if getattr(item, column) is None]
    return sorted(present, key=lambda item: getattr(item, column), reverse=descending) + missing


def sorted_coverage_rows(
    rows: Sequence[CoverageRow], column: str, descending: bool = False
) -> list[CoverageRow]:
    """Rows by a column of COVERAGE_SORTABLE; ties in the rows' order (docsets as loaded, unit
    set, peer)."""
    if column not in COVERAGE_SORTABLE:
        raise ValueError(f"cannot sort by {column!r}; one of {', '.join(COVERAGE_SORTABLE)}")
    return _ordered(rows, column, descending)


def sorted_coverage_means(
    means: Sequence[CoverageSystemMean], column: str, descending: bool = False
) -> list[CoverageSystemMean]:
    """System means by a column of COVERAGE_SYSTEM_SORTABLE; ties best first."""
    if column not in COVERAGE_SYSTEM_SORTABLE:
        raise ValueError(f"cannot sort by {column!r}; one of {', '.join(COVERAGE_SYSTEM_SORTABLE)}")
    return _ordered(means, column, descending)


def peer_coverage(rows: Iterable[CoverageRow]) -> dict[tuple[str, str], dict[str, float]]:
    """{(docset, peer): {score: the peer's mean over the unit sets it was judged on}}, each
    score where defined: what `correlate` adds to a judged summary's scores."""
    found: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        for name in COVERAGE_SCORES:
            value = getattr(row, name)
            if value is not None:
                found[(row.docset, row.peer)][name].append(value)
    return {
        key: {name: fmean(values) for name, values in scores.items()}
        for key, scores in found.items()
    }


@dataclass(frozen=True)
class TaskCounts:
    """A collection's judgment tasks (or one docset's): what the coverage rows count, and what
    they leave out."""

    submitted: int
    in_progress: int  # tasks not submitted: counted only when asked for

    @property
    def total(self) -> int:
        return self.submitted + self.in_progress


def task_counts(collection, docset: str | None = None) -> TaskCounts:
    """The judgment tasks by status (one query)."""
    from django.db.models import Count

    from annotator.coverage.models import JudgmentTask
    from scoring.coverage.records import collection_tasks

    by_status = dict(
        collection_tasks(collection, docset)
        .order_by()
        .values("status")
        .annotate(n=Count("pk"))
        .values_list("status", "n")
    )
    submitted = by_status.pop(JudgmentTask.Status.SUBMITTED, 0)
    return TaskCounts(submitted, sum(by_status.values()))
