"""The scores page's table, cut into pages in the database (issue 19: at 50× a DUC year the page
rendered 23,000 rows, 8.4 MB, in 7 s).

Rows are ordered in SQL as scoring.tables.sorted_rows orders them in Python (the same ties, the
same place for undefined scores), so a page is a slice of the whole table; only that page's
annotations are scored (scoring.records). Sorting by a score orders by the stored scores
(scoring.models.StoredScore), brought up to date first: the annotations changed since they were
stored are scored again, in bulk.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from django.db import connection
from django.db.models import Case, Exists, F, IntegerField, OuterRef, QuerySet, Value, When
from django.db.models.functions import Coalesce, Collate, Length, NullIf
from django_tasks import task

from annotator.models import Collection, PeerAnnotation
from scoring.models import StoredScore
from scoring.records import collection_annotations, in_score_order, score_loaded_annotations
from scoring.tables import MEAN_SCORES, SORTABLE

STORED_COLUMNS = (*MEAN_SCORES, "unique_scus", "repetitions", "non_matching")
PAGE_SIZE = 100  # rows a page of the table shows
REFRESH_CHUNK = 1000  # annotations scored per batch when stored scores are brought up to date


def codepoint(expression):
    """Text compared by code point, as Python compares str (the database's own collation may put
    "b" before "C")."""
    return Collate(expression, "C" if connection.vendor == "postgresql" else "BINARY")


def _natural_peer() -> list:
    """The peer id in the order of `tables.natural_peer_key`: numbers first, by value ("9" before
    "10"), then the other ids as text."""
    number = When(peer__author__regex=r"^[0-9]+$", then=Value(0))
    return [
        Case(number, default=Value(1), output_field=IntegerField()),
        Case(
            When(peer__author__regex=r"^[0-9]+$", then=Length("peer__author")),
            default=Value(0),
            output_field=IntegerField(),
        ),
        codepoint(F("peer__author")),
    ]


def _annotator():
    """`PeerAnnotation.annotator_name` in SQL: the imported annotator id, else the username."""
    return Coalesce(NullIf(F("annotator_code"), Value("")), F("annotator__username"), Value(""))


def _key(column: str) -> list:
    if column == "peer":
        return _natural_peer()
    if column in STORED_COLUMNS:
        return [F(f"stored_score__{column}")]
    text = {
        "docset": F("pyramid__docset__name"),
        "annotator": _annotator(),
        "status": F("status"),
        "pyramid": F("pyramid__name"),
    }[column]
    return [codepoint(text)]


def ordered_annotations(annotations: QuerySet[PeerAnnotation], column: str, descending: bool):
    """The annotations in the order `sorted_rows(rows, column, descending)` gives their rows:
    by the column (a score: undefined ones last either way), ties by docset, peer and annotator,
    then by id so that pages never overlap. Sorting by a score needs `refresh_stored_scores`
    first."""
    if column not in SORTABLE:
        raise ValueError(f"cannot sort by {column!r}; one of {', '.join(SORTABLE)}")
    keys = [
        key.desc(nulls_last=True) if descending else key.asc(nulls_last=True)
        for key in _key(column)
    ]
    ties = [codepoint(F("pyramid__docset__name")), *_natural_peer(), codepoint(_annotator())]
    return in_score_order(annotations).order_by(*keys, *ties, "id")


def stale_annotations(annotations: QuerySet[PeerAnnotation]) -> QuerySet[PeerAnnotation]:
    """The annotations whose stored scores are missing or out of date: the annotation, its
    pyramid or its collection's conventions changed since (one query)."""
    current = StoredScore.objects.filter(
        annotation=OuterRef("pk"),
        annotation_updated_at=OuterRef("updated_at"),
        pyramid_updated_at=OuterRef("pyramid__updated_at"),
        weight_convention=OuterRef("pyramid__docset__collection__weight_convention"),
        average_rounding=OuterRef("pyramid__docset__collection__average_rounding"),
    )
    return annotations.filter(~Exists(current))


def refresh_stored_scores(annotations: QuerySet[PeerAnnotation]) -> int:
    """Score again the annotations whose stored scores are out of date, in batches (a constant
    number of queries per batch); return how many. The time stamps stored are those read with the
    records scored: an edit made meanwhile leaves the row out of date, to be scored next time."""
    stale = list(stale_annotations(annotations).order_by().values_list("pk", flat=True))
    for start in range(0, len(stale), REFRESH_CHUNK):
        chunk = stale[start : start + REFRESH_CHUNK]
        loaded = list(in_score_order(PeerAnnotation.objects.filter(pk__in=chunk)))
        stored = [
            StoredScore(
                annotation_id=annotation.pk,
                annotation_updated_at=annotation.updated_at,
                pyramid_updated_at=annotation.pyramid.updated_at,
                weight_convention=row.weight_convention,
                average_rounding=row.average_rounding,
                **{column: getattr(row.scores, column) for column in STORED_COLUMNS},
            )
            for annotation, row in zip(loaded, score_loaded_annotations(loaded), strict=True)
        ]
        StoredScore.objects.bulk_create(
            stored,
            update_conflicts=True,
            unique_fields=["annotation"],
            update_fields=[
                "annotation_updated_at",
                "pyramid_updated_at",
                "weight_convention",
                "average_rounding",
                *STORED_COLUMNS,
            ],
        )
    return len(stale)


@task()
def refresh_collection_scores(collection_id: int) -> int:
    """Bring every stored score of a collection up to date (after an import: scoring.apps);
    return how many were scored again."""
    collection = Collection.objects.filter(pk=collection_id).first()
    if collection is None:  # deleted meanwhile
        return 0
    return refresh_stored_scores(collection_annotations(collection))


class MeanScores(NamedTuple):
    """The scores a system's mean averages (scoring.tables.system_means reads these)."""

    modified: float | None
    original: float | None
    coverage: float | None
    comprehensive: float | None


class StoredRow(NamedTuple):
    """A row for scoring.tables.system_means from stored scores: no record loaded but these."""

    docset: str
    peer: str
    annotator: str
    status: str
    scores: MeanScores


def stored_rows(annotations: QuerySet[PeerAnnotation]) -> Iterator[StoredRow]:
    """Every annotation's stored scores, as light rows (one query; refresh them first)."""
    for docset, peer, annotator, status, *scores in (
        annotations.order_by()
        .annotate(annotator_shown=_annotator())
        .values_list(
            "pyramid__docset__name",
            "peer__author",
            "annotator_shown",
            "status",
            *(f"stored_score__{name}" for name in MEAN_SCORES),
        )
    ):  # fetched at once: a server-side cursor (iterator()) doubled the query's time at 50×
        yield StoredRow(docset, peer, annotator, status, MeanScores(*scores))
