"""Score exports of any size, streamed: rows are loaded and scored a chunk at a time and written as
they come (issue 19: at 50× a DUC year, 23,000 annotations, building every row and the whole
string took seconds before the first byte and memory in proportion to the collection).

- `iter_score_rows`: the rows of a queryset of counted annotations (scoring.scores.records.
  counted_annotations), in a table's order or NIST's, a constant number of queries per chunk, the
  texts never fetched;
- `rows_download` and `streaming_download`: the CSV, JSON and NIST downloads of the scores page;
- `system_download`: each system's means (scoring.scores.tables.system_means, the same numbers)
from the
  rows streamed through an accumulator that keeps a few numbers per system, not per row;
- `in_blocks`: text chunks joined into blocks for the network or a file;
- `coverage_download`: the coverage judgments' rows or system means (issue 21), a few per peer
  and unit set, written whole.

The layouts themselves are scoring.scores.formats' `stream_*` generators; `export_scores` writes the
same ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from statistics import fmean

from django.db import connection
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Collate, NullIf
from django.http import StreamingHttpResponse

from scoring.scores.formats import (
    COVERAGE_FORMATS,
    Conventions,
    stream_rows,
    stream_systems_csv,
    stream_systems_json,
)
from scoring.scores.records import ROW_VALUES, SCORE_ORDER, PeerScoreRow, named, score_rows
from scoring.scores.tables import (
    MEAN_SCORES,
    PER_ANNOTATION,
    PER_DOCSET,
    SUBMITTED,
    SystemMean,
    best_first,
)

CONTENT_TYPES = {"csv": "text/csv", "json": "application/json", "duc": "text/tab-separated-values"}
EXTENSIONS = {"csv": "csv", "json": "json", "duc": "txt"}
# Annotations loaded and scored at a time: each chunk's SCU weights are one query that reads every
# contributor of the database (a hash join PostgreSQL prefers to thousands of index probes), so
# fewer, larger chunks (at 50x a DUC year, 47 chunks of 500 spent 0.9 s in it, 12 of 2,000 0.47 s);
# the client still holds one chunk, a few MB.
CHUNK = 2000
# The first chunk smaller, so that the first rows go out soon: NIST's layout has no header to send
# before them (at 10x a DUC year, 2,000 rows scored before the first byte took 0.2 s).
FIRST_CHUNK = 250
BLOCK = 64 * 1024  # characters written at a time

ORDERS = ("table", "duc", "systems")


def _codepoints(expression):
    """`expression` compared by code points, as Python compares strings, whatever the database's
    own collation ("C" on PostgreSQL; SQLite's BINARY compares UTF-8 bytes, which is the same)."""
    return Collate(expression, "C" if connection.vendor == "postgresql" else "BINARY")


def _in_order(annotations, order: str):
    """The annotations in `order`, each as the plain values a score row names
    (scoring.scores.records.ROW_VALUES): never a text, nor a model instance."""
    if order == "table":  # every score table's: collection, docset, peer, annotator, id
        return annotations.order_by(*SCORE_ORDER).values_list(*ROW_VALUES)
    if order == "duc":
        # NIST's (scoring.scores.formats.duc_order): collection, docset, annotator as the rows name
        # it
        # (PeerAnnotation.annotator_name), peer id as text as the source wrote it; ties as
        # `to_duc`'s stable sort leaves them, in the table's order (annotator_code, then id).
        annotator = Coalesce(NullIf(F("annotator_code"), Value("")), F("annotator__username"))
        ordered = annotations.order_by(
            _codepoints(F("pyramid__docset__collection__name")),
            _codepoints(F("pyramid__docset__name")),
            _codepoints(Coalesce(annotator, Value(""))),
            _codepoints(Coalesce(NullIf(F("peer_as_written"), Value("")), F("peer__author"))),
            "annotator_code",
            "id",
        )
    else:  # "systems": a docset's rows of one peer together, as `streamed_system_means` needs
        ordered = annotations.order_by(
            _codepoints(F("pyramid__docset__name")), _codepoints(F("peer__author")), "id"
        )
    return ordered.values_list(*ROW_VALUES)


def iter_score_rows(
    annotations, order: str = "table", chunk: int = CHUNK
) -> Iterator[PeerScoreRow]:
    """The score rows of `annotations` (counted ones: scoring.scores.records.counted_annotations),
    in
    `order`: "table" (scoring.scores.records.in_score_order: `to_csv`, `to_json`), "duc" (NIST's:
    `stream_duc`; equal to scoring.scores.formats.duc_order's `sorted`), or "systems" (by docset,
    then
    peer: `streamed_system_means`).

    One query walks the annotations with a database cursor, `chunk` at a time (on PostgreSQL a
    server-side cursor: the client holds one chunk; the first is FIRST_CHUNK at most, so that the
    first rows come soon); each chunk is scored in three more queries
    (scoring.scores.records.score_rows). Nothing runs before the first row is asked for."""
    if order not in ORDERS:
        raise ValueError(f"order is one of {', '.join(ORDERS)}, not {order!r}")
    return _scored(_in_order(annotations, order), chunk)


def _scored(annotations, chunk: int) -> Iterator[PeerScoreRow]:
    loaded = annotations.iterator(chunk_size=chunk)
    size = min(FIRST_CHUNK, chunk)
    while batch := [named(values) for values in islice(loaded, size)]:
        yield from score_rows(batch)
        size = chunk


def score_conventions(annotations) -> list[tuple[str, str]]:
    """The conventions (weight, X_a rounding) the rows of `annotations` are scored with, sorted as
    scoring.scores.formats.conventions_of gives them from the rows, in one query: what a JSON export
    says first."""
    return sorted(
        annotations.order_by()
        .values_list(
            "pyramid__docset__collection__weight_convention",
            "pyramid__docset__collection__average_rounding",
        )
        .distinct()
    )


def in_blocks(chunks: Iterable[str], size: int = BLOCK) -> Iterator[str]:
    """The chunks joined into blocks of about `size` characters (a write per row would cost more
    than the row); the first chunk at once, so that a download starts before any row is scored."""
    chunks = iter(chunks)
    for first in chunks:
        yield first
        break
    block: list[str] = []
    length = 0
    for text in chunks:
        block.append(text)
        length += len(text)
        if length >= size:
            yield "".join(block)
            block, length = [], 0
    if block:
        yield "".join(block)


def _streaming(chunks: Iterable[str], fmt: str, name: str) -> StreamingHttpResponse:
    """The headers scoring.scores.views' downloads have always had, the body streamed."""
    response = StreamingHttpResponse(
        in_blocks(chunks), content_type=f"{CONTENT_TYPES[fmt]}; charset=utf-8"
    )
    filename = f"{name}.{EXTENSIONS[fmt]}".replace(" ", "_").replace(":", "")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def streaming_download(
    rows: Iterable[PeerScoreRow], fmt: str, name: str, conventions: Conventions = ()
) -> StreamingHttpResponse:
    """Rows as a download in a layout of scoring.scores.formats.FORMATS ("csv", "json", "duc"),
    named
    `name` and the layout's extension. The rows as `iter_score_rows` gives them: in "duc" order
    for "duc"; `conventions` (`score_conventions`) are what "json" says first."""
    return _streaming(stream_rows(fmt, rows, conventions), fmt, name)


def rows_download(annotations, fmt: str, name: str, *, chunk: int = CHUNK) -> StreamingHttpResponse:
    """The download of the scores of `annotations` (counted ones) in a layout of FORMATS: rows in
    the layout's order, conventions found first for JSON (one query, the only one before the
    response is returned)."""
    conventions = score_conventions(annotations) if fmt == "json" else ()
    rows = iter_score_rows(annotations, "duc" if fmt == "duc" else "table", chunk)
    return streaming_download(rows, fmt, name, conventions)


def system_download(
    annotations, fmt: str, name: str, *, chunk: int = CHUNK, per: str = PER_DOCSET
) -> StreamingHttpResponse:
    """Each system's means over the docsets (scoring.scores.tables.system_means, the same numbers
    and
    order, `per` docset or annotation) of the scores of `annotations` (counted ones), as "csv" or
    "json" (scoring.scores.formats.systems_to_csv, systems_to_json, byte for byte). The header goes
    out
    at once; the means follow once every row is scored, from a few numbers kept per system."""
    if fmt not in ("csv", "json"):
        raise ValueError(f"a system export is csv or json, not {fmt!r}")
    conventions = score_conventions(annotations)

    def means() -> Iterator[SystemMean]:  # taken only after the header is sent
        yield from streamed_system_means(iter_score_rows(annotations, "systems", chunk), per)

    stream = stream_systems_csv if fmt == "csv" else stream_systems_json
    return _streaming(stream(means(), conventions, per), fmt, name)


class _System:
    """What one system's means need: its docsets' means (a few floats a docset, never the rows),
    and its counts."""

    __slots__ = ("docset_means", "docsets", "in_progress")

    def __init__(self) -> None:
        self.docsets = 0
        self.in_progress = 0
        self.docset_means: dict[str, list[float]] = {name: [] for name in MEAN_SCORES}


def streamed_system_means(rows: Iterable[PeerScoreRow], per: str = PER_DOCSET) -> list[SystemMean]:
    """scoring.scores.tables.system_means, the same means in the same order, from rows grouped by
    docset
    and peer (`iter_score_rows(..., "systems")`): each docset's annotations of a peer are averaged
    when the next group starts (`per` PER_DOCSET; PER_ANNOTATION: each joins its system's values
    as it is), so that only a few numbers per system are kept, never the rows."""
    systems: dict[str, _System] = {}
    group: tuple[str, str] | None = None
    system = _System()
    values: dict[str, list[float]] = {}

    def close() -> None:  # the group's docset mean joins its system's sums
        if group is None:
            return
        system.docsets += 1
        for name, present in values.items():
            if per == PER_ANNOTATION:
                system.docset_means[name].extend(present)
            elif present:
                system.docset_means[name].append(fmean(present))

    for row in rows:
        if (row.docset, row.peer) != group:
            close()
            group, values = (row.docset, row.peer), {name: [] for name in MEAN_SCORES}
            system = systems.setdefault(row.peer, _System())
        for name in MEAN_SCORES:
            value = getattr(row.scores, name)
            if value is not None:
                values[name].append(value)
        system.in_progress += row.status != SUBMITTED
    close()
    means = [
        SystemMean(
            peer=peer,
            docsets=system.docsets,
            in_progress=system.in_progress,
            **{
                name: fmean(means) if (means := system.docset_means[name]) else None
                for name in MEAN_SCORES
            },
        )
        for peer, system in systems.items()
    ]
    return sorted(means, key=best_first)


def coverage_download(
    items: Iterable, fmt: str, name: str, collection: str, *, systems: bool = False
) -> StreamingHttpResponse:
    """Coverage rows (scoring.coverage.records.CoverageRow) or, with `systems`, system means
    (scoring.coverage.tables.CoverageSystemMean) as a "csv" or "json" download named `name`,
    with the headers of every score download. Scored before the response: they come from a few
    queries whatever their number (scoring.coverage.records.coverage_rows)."""
    if (fmt, systems) not in COVERAGE_FORMATS:
        raise ValueError(f"a coverage export is csv or json, not {fmt!r}")
    return _streaming([COVERAGE_FORMATS[(fmt, systems)](items, collection)], fmt, name)
