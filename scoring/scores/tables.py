"""Score tables for reading: each system's mean over docsets, and rows sorted by any column.

Pure functions over score rows (scoring.scores.records.PeerScoreRow or anything with .docset, .peer,
.annotator and .scores). No Django.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any, Protocol, TypeVar

from scoring.scores.pyramid import PeerScores

MEAN_SCORES = ("modified", "original", "coverage", "comprehensive")
SORTABLE = (
    "docset",
    "peer",
    "annotator",
    "status",
    "pyramid",
    *MEAN_SCORES,
    "unique_scus",
    "repetitions",
    "non_matching",
)
SUBMITTED = "submitted"  # a row's status (PeerAnnotation.Status); any other is work in progress


class MeanRow(Protocol):
    """What a system's mean reads of a row (a `status` is optional)."""

    @property
    def docset(self) -> str: ...
    @property
    def peer(self) -> str: ...  # the system
    @property
    def scores(self) -> Any: ...  # with the MEAN_SCORES as attributes (PeerScores, say)


class ScoreRow(MeanRow, Protocol):
    """A scored annotation, as scoring.scores.records.PeerScoreRow holds it (a `status` is
    optional)."""

    @property
    def annotator(self) -> str: ...
    @property
    def scores(self) -> PeerScores: ...


Row = TypeVar("Row", bound=ScoreRow)


@dataclass(frozen=True)
class SystemMean:
    peer: str
    docsets: int  # docsets in which the system has at least one scored annotation
    in_progress: (
        int  # of the annotations averaged, those in progress (none unless they were asked for)
    )
    modified: float | None
    original: float | None
    coverage: float | None
    comprehensive: float | None


# How a system's mean counts a docset whose peer was annotated more than once (DUC 2006's D0631,
# annotated by two sites): one default everywhere (issue 33), the other by a named option
# (--per annotation, ?per=annotation), each page and export saying which it used.
PER_DOCSET, PER_ANNOTATION = "docset", "annotation"
SYSTEM_MEAN_PER = {
    PER_DOCSET: "each docset counts once (a docset annotated twice is averaged first)",
    PER_ANNOTATION: "every annotation counts (a docset annotated twice counts twice, as "
    "Passonneau 2009 counts them)",
}


def system_means(rows: Iterable[MeanRow], per: str = PER_DOCSET) -> list[SystemMean]:
    """Each peer system's mean score over the docsets, as Passonneau 2009 compares systems (§4.2,
    Table 9: "mean modified pyramid scores" per peer).

    `per` PER_DOCSET (the default): where a docset's peer was annotated more than once, its
    annotations are averaged first, so that every docset weighs the same in the system's mean;
    PER_ANNOTATION: the mean of every annotation's score (a docset annotated twice counts twice).
    Best modified mean first. Each mean counts the rows in progress it averages (a row's `status`,
    where it has one).
    """
    if per not in SYSTEM_MEAN_PER:
        raise ValueError(f"a system's mean is per {' or '.join(SYSTEM_MEAN_PER)}, not {per!r}")
    per_docset: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
    in_progress: dict[str, int] = defaultdict(int)
    for row in rows:
        per_docset[row.peer][row.docset].append(row.scores)
        in_progress[row.peer] += getattr(row, "status", SUBMITTED) != SUBMITTED
    means = []
    for peer, docsets in per_docset.items():
        groups = (
            docsets.values()
            if per == PER_DOCSET
            else [[scores] for docset in docsets.values() for scores in docset]
        )  # per annotation: each annotation a group of its own, so the mean of the groups is theirs
        by_score = {name: _mean_of_docset_means(groups, name) for name in MEAN_SCORES}
        means.append(
            SystemMean(peer=peer, docsets=len(docsets), in_progress=in_progress[peer], **by_score)
        )
    return sorted(means, key=best_first)


def _mean_of_docset_means(docsets: Iterable[list[Any]], name: str) -> float | None:
    """The mean over docsets of each docset's mean score `name` (undefined scores left out, and
    docsets with none). Written out for speed (issue 19: 23,000 rows a request): a docset mostly
    has one annotation of a peer, whose score is its mean as it is."""
    docset_means = []
    for scores in docsets:
        if len(scores) == 1:
            value = getattr(scores[0], name)
            if value is not None:
                docset_means.append(value)
            continue
        present = [v for s in scores if (v := getattr(s, name)) is not None]
        if present:
            docset_means.append(fmean(present))
    return fmean(docset_means) if docset_means else None


SYSTEM_SORTABLE = ("peer", "docsets", "in_progress", *MEAN_SCORES)


def sorted_means(
    means: Sequence[SystemMean], column: str, descending: bool = False
) -> list[SystemMean]:
    """System means (best first, as system_means gives them) ordered by a column: missing values
    last whichever the direction; ties in the order given."""
    if column not in SYSTEM_SORTABLE:
        raise ValueError(f"cannot sort by {column!r}; one of {', '.join(SYSTEM_SORTABLE)}")
    if column == "peer":
        return sorted(means, key=lambda m: natural_peer_key(m.peer), reverse=descending)
    present = [m for m in means if getattr(m, column) is not None]
    missing = [m for m in means if getattr(m, column) is None]
    return sorted(present, key=lambda m: getattr(m, column), reverse=descending) + missing


def best_first(mean: SystemMean) -> tuple[bool, float, tuple[int, int, str]]:
    """The order of system means: best modified mean first, undefined ones last, ties by id."""
    return (mean.modified is None, -(mean.modified or 0), natural_peer_key(mean.peer))


def natural_peer_key(text: str) -> tuple[int, int, str]:
    """ "9" before "10": system ids are mostly numbers."""
    return (0, int(text), "") if text.isdigit() else (1, 0, text)


def _value(row: ScoreRow, column: str) -> Any:
    """The row's value in a column: a str, an int or a float (None: a score that is undefined)."""
    if hasattr(row, "scores") and hasattr(row.scores, column):
        return getattr(row.scores, column)
    return getattr(row, column)


def sorted_rows(rows: Sequence[Row], column: str, descending: bool = False) -> list[Row]:
    """Rows ordered by a column (a score, a count, or docset/peer/annotator/pyramid); missing
    values last whichever the direction; ties in docset and peer order."""
    if column not in SORTABLE:
        raise ValueError(f"cannot sort by {column!r}; one of {', '.join(SORTABLE)}")
    base = sorted(rows, key=lambda r: (r.docset, natural_peer_key(r.peer), r.annotator))
    present = [r for r in base if _value(r, column) is not None]
    missing = [r for r in base if _value(r, column) is None]
    key = (
        (lambda r: natural_peer_key(r.peer)) if column == "peer" else (lambda r: _value(r, column))
    )
    return sorted(present, key=key, reverse=descending) + missing
