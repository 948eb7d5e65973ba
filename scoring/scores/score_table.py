"""The scores page's table, cut into pages in the database (issue 19: at 50× a DUC year the page
rendered 23,000 rows, 8.4 MB, in 7 s).

Rows are ordered in SQL as scoring.scores.tables.sorted_rows orders them in Python (the same ties,
the
same place for undefined scores), so a page is a slice of the whole table; only that page's
annotations are scored (scoring.scores.records). Sorting by a score orders by the stored scores
(scoring.models.StoredScore), brought up to date first: the annotations changed since they were
stored are scored again, in bulk.
"""

from __future__ import annotations

from typing import NamedTuple

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import (
    Avg,
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Collate, Length, NullIf
from django.db.models.lookups import IsNull
from django_tasks import task

from annotator.campaigns.models import Collection
from annotator.peer_annotation.models import PeerAnnotation
from annotator.web.paging import page_asked
from scoring.models import COUNT_COLUMNS, StoredScore
from scoring.scores.records import (
    SCORE_ORDER,
    collection_annotations,
    in_score_order,
    score_loaded_annotations,
)
from scoring.scores.tables import (
    MEAN_SCORES,
    PER_DOCSET,
    SORTABLE,
    SUBMITTED,
    SystemMean,
    best_first,
)

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


def _stored_keys(column: str, descending: bool) -> list:
    """A stored column's order, in the very expressions of its index (scoring.models
    .score_sort_indexes): undefined scores last either way, as "is it undefined" first."""
    stored = F(f"stored_score__{column}")
    order = stored.desc() if descending else stored.asc()
    if column in COUNT_COLUMNS:  # never undefined
        return [order]
    return [IsNull(stored, True).asc(), order]


def _text_keys(column: str, descending: bool) -> list:
    if column == "peer":
        keys = _natural_peer()
    else:
        text = {
            "docset": F("pyramid__docset__name"),
            "annotator": _annotator(),
            "status": F("status"),
            "pyramid": F("pyramid__name"),
        }[column]
        keys = [codepoint(text)]
    return [key.desc(nulls_last=True) if descending else key.asc(nulls_last=True) for key in keys]


def ordered_annotations(
    annotations: QuerySet[PeerAnnotation], column: str | None, descending: bool = False
) -> QuerySet[PeerAnnotation]:
    """One collection's annotations in the order `sorted_rows(rows, column, descending)` gives
    their rows: by the column (a score: undefined ones last either way), ties by docset, peer and
    annotator, then by id so that pages never overlap. Sorting by a stored column needs
    `refresh_stored_scores` first; it reads the stored scores of the annotations' collection in
    index order (the collection named in the query, so that PostgreSQL reads only its part of the
    index and stops after the page).

    With no column, the order of every score table (scoring.scores.records.in_score_order) less the
    collection's name, the same on every row: then PostgreSQL walks the docsets in the order of
    their index and stops after the page (at 50x a DUC year, 117 ms -> 7 ms)."""
    if column is None:
        return in_score_order(annotations).order_by(
            "pyramid__docset__name", "peer__author", "annotator_code", "id"
        )
    if column not in SORTABLE:
        raise ValueError(f"cannot sort by {column!r}; one of {', '.join(SORTABLE)}")
    if column in STORED_COLUMNS:
        annotations = annotations.filter(stored_score__collection=F("pyramid__docset__collection"))
        keys = _stored_keys(column, descending)
    else:
        keys = _text_keys(column, descending)
    ties = [codepoint(F("pyramid__docset__name")), *_natural_peer(), codepoint(_annotator())]
    return in_score_order(annotations).order_by(*keys, *ties, "id")


def page_of_annotations(ordered: QuerySet[PeerAnnotation], number: str | None, count: int) -> Page:
    """The page `number` (?page=) of `count` ordered annotations (counted already: the page's
    counts by status hold it), its object_list the annotations loaded for their rows (two
    queries). The order is found on ids alone and the page's records loaded after: a sort
    carrying every column of 23,000 rows spilled to disk (issue 19)."""
    paginator = Paginator(ordered.values_list("pk", flat=True), PAGE_SIZE)
    paginator.count = count
    page = page_asked(paginator, number)
    ids = list(page.object_list)
    loaded = in_score_order(PeerAnnotation.objects.filter(pk__in=ids)).in_bulk()
    page.object_list = [loaded[pk] for pk in ids]
    return page


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
                collection_id=annotation.pyramid.docset.collection_id,
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
                "collection",
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


class StoredRow(NamedTuple):
    """A score row (scoring.scores.records.PeerScoreRow) of the mean scores alone, as stored, in one
    tuple: what the systems table, `ranking` and the annotators' score agreement read (issue 19:
    at 23,000 rows two objects a row cost 60 ms, a model instance a row seconds)."""

    annotation_id: int
    docset: str
    peer: str
    annotator: str  # PeerAnnotation.annotator_name
    status: str
    modified: float | None
    original: float | None
    coverage: float | None
    comprehensive: float | None

    @property
    def scores(self) -> StoredRow:
        """The scores, as a PeerScoreRow's `scores` holds them: the row's own."""
        return self


STORED_ROW_FIELDS = (
    "id",
    "pyramid__docset__name",
    "peer__author",
    "annotator_shown",
    "status",
    *(f"stored_score__{name}" for name in MEAN_SCORES),
)


def _stored_values(annotations: QuerySet[PeerAnnotation], in_table_order: bool) -> QuerySet:
    annotations = annotations.annotate(annotator_shown=_annotator())
    return annotations.order_by(*SCORE_ORDER) if in_table_order else annotations.order_by()


def stored_rows(
    annotations: QuerySet[PeerAnnotation], *, in_table_order: bool = False
) -> list[StoredRow]:
    """Every annotation's stored scores, as light rows (one query; refresh them first). In the
    order of every score table (scoring.scores.records.SCORE_ORDER, as score_annotations gives its
    rows)
    if asked."""
    # Fetched at once: a server-side cursor (iterator()) doubled the query's time at 50x.
    values = _stored_values(annotations, in_table_order).values_list(*STORED_ROW_FIELDS)
    return list(map(StoredRow._make, values))


def current_stored_rows(
    annotations: QuerySet[PeerAnnotation], *, in_table_order: bool = False
) -> list[StoredRow]:
    """`stored_rows`, those out of date or missing scored again first (`stale_annotations`'
    rule, read along with the rows): one query when all are current, where refreshing first and
    reading after were two passes over the whole collection. The stored scores are the fresh
    ones by construction (the same scorer stored them): the analyses read these rather than
    score a collection afresh (seconds at 50x a DUC year)."""
    values = _stored_values(annotations, in_table_order)
    return _current(annotations, values, STORED_ROW_FIELDS, StoredRow._make)


def current_system_means(
    annotations: QuerySet[PeerAnnotation], per: str = PER_DOCSET
) -> tuple[list, dict[str, int]]:
    """Each peer system's mean scores over the docsets (scoring.scores.tables.system_means: a
    docset's
    annotations of a peer averaged first, so that each docset weighs the same; undefined scores
    left out), from the stored scores, averaged by the database: a row per system comes back,
    whatever the collection's size (issue 32: 23,000 rows read at 50x a DUC year took 300 ms).
    Also the annotations' counts by status. One query when every stored score is current; else
    those out of date are scored again first (`_current`'s rule), and the means read again.

    `per` PER_ANNOTATION: each system's mean of every annotation's score (the docsets' means
    weighted by how many scores each averages).

    The database sums in double precision in its own order: a mean may differ from
    `system_means`' (math.fsum) in its last bit, far below the four decimals shown."""
    statuses = list(PeerAnnotation.Status.values)
    per_docset = (
        annotations.order_by()
        .values(system=F("peer__author"), docset_id=F("pyramid__docset"))
        .annotate(
            **{f"mean_{name}": Avg(f"stored_score__{name}") for name in MEAN_SCORES},
            **{f"count_{name}": Count(f"stored_score__{name}") for name in MEAN_SCORES},
            **{
                f"status_{i}": Count("pk", filter=Q(status=value))
                for i, value in enumerate(statuses)
            },
            out_of_date=Count("pk", filter=~Q(**_CURRENT)),
        )
    )
    inner, params = per_docset.query.sql_with_params()
    columns = ", ".join(
        [
            "COUNT(*)",
            *(
                f"AVG(mean_{name})"
                if per == PER_DOCSET
                else f"SUM(mean_{name} * count_{name}) / NULLIF(SUM(count_{name}), 0)"
                for name in MEAN_SCORES
            ),
            *(f"SUM(status_{i})" for i in range(len(statuses))),
            "SUM(out_of_date)",
        ]
    )
    query = f"SELECT system, {columns} FROM ({inner}) AS docset_means GROUP BY system"

    def read() -> list[tuple]:
        with connection.cursor() as cursor:
            cursor.execute(query, params)
            return cursor.fetchall()

    rows = read()
    if any(row[-1] for row in rows):
        refresh_stored_scores(annotations)
        rows = read()
    means, by_status = [], dict.fromkeys(statuses, 0)
    for system, docsets, *values in rows:
        scores, counts = values[: len(MEAN_SCORES)], values[len(MEAN_SCORES) : -1]
        for status, count in zip(statuses, counts):
            by_status[status] += int(count)
        in_progress = sum(int(c) for s, c in zip(statuses, counts) if s != SUBMITTED)
        means.append(
            SystemMean(
                peer=system,
                docsets=docsets,
                in_progress=in_progress,
                **{name: None if v is None else float(v) for name, v in zip(MEAN_SCORES, scores)},
            )
        )
    return sorted(means, key=best_first), by_status


# Whether an annotation's stored scores are current: stored with the annotation, its pyramid
# and its collection's conventions as they are.
_CURRENT = {
    "stored_score__annotation_updated_at": F("updated_at"),
    "stored_score__pyramid_updated_at": F("pyramid__updated_at"),
    "stored_score__weight_convention": F("pyramid__docset__collection__weight_convention"),
    "stored_score__average_rounding": F("pyramid__docset__collection__average_rounding"),
}


def _current(annotations: QuerySet[PeerAnnotation], values: QuerySet, fields, make) -> list:
    """The rows of `fields` read from `values` (the annotations, ordered and annotated as the
    fields need), with whether each stored score is current: made into rows at once if all are,
    else read again after `refresh_stored_scores`."""
    read = values.annotate(current=Case(When(Q(**_CURRENT), then=True), default=False))
    rows = list(read.values_list(*fields, "current"))
    if not all(row[-1] for row in rows):
        refresh_stored_scores(annotations)
        rows = list(read.values_list(*fields, "current"))
    return [make(row[:-1]) for row in rows]
