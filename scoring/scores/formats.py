"""Score tables as CSV, JSON or NIST's tab-separated layout."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from json.encoder import encode_basestring
from typing import Any

from scoring.scores.records import PeerScoreRow
from scoring.scores.tables import PER_DOCSET, SystemMean

SCORE_COLUMNS = [
    "collection",
    "docset",
    "peer",
    "annotator",
    "status",
    "pyramid",
    "weight_convention",
    "average_rounding",
    "modified",
    "original",
    "quality",
    "coverage",
    "comprehensive",
    "unique_scus",
    "repetitions",
    "non_matching",
    "pse_count",
    "raw_score",
    "model_count",
    "average_scu_count",
    "max_modified",
    "max_original",
]
SCORE_FIELDS = {"modified", "original", "quality", "coverage", "comprehensive"}
SUBMITTED = "submitted"  # a row's status (PeerAnnotation.Status); any other is work in progress
IN_PROGRESS_MARK = "#in_progress"  # NIST's layout: the last field of a row of work in progress


def four_decimals(value: float | None) -> str:
    """Scores are printed with 4 decimals, as in DUCView and the NIST tables."""
    return "" if value is None else f"{value:.4f}"


def nist_decimals(value: float | None) -> str:
    """A score as NIST's DUC tables print it (2006_modified_scores.txt, 2007_modified_scores.txt):
    rounded to 4 decimals, trailing zeros dropped — 0.046, 0.25, 0, 1.0769 — as every one of
    their 1,481 scores is.

    >>> [nist_decimals(v) for v in (4 / 87, 0.25, 0.0, 14 / 13, 1.0, None)]
    ['0.046', '0.25', '0', '1.0769', '1', '']
    """
    return "" if value is None else four_decimals(value).rstrip("0").rstrip(".")


# The columns a row names, then its scores' (the order of SCORE_COLUMNS).
ROW_COLUMNS, SCORES_COLUMNS = SCORE_COLUMNS[:8], SCORE_COLUMNS[8:]


def _flat(row: PeerScoreRow) -> dict[str, Any]:
    """The row's SCORE_COLUMNS, in order: `row.as_dict()`'s values, read without dataclasses'
    deep copy (issue 19: at 23,000 rows, 4.6 s of a profiled export)."""
    scores = row.scores
    flat = {column: getattr(row, column) for column in ROW_COLUMNS}
    flat.update({column: getattr(scores, column) for column in SCORES_COLUMNS})
    return flat


# Each layout is written twice over: as a generator of text chunks (`stream_*`), which an export of
# any size sends as its rows are scored, in constant memory (scoring/scores/exports.py), and as one
# string
# (`to_*`), the same bytes joined, for callers that hold a few rows.

Conventions = Sequence[tuple[str, str]]  # (weight convention, X_a rounding) pairs, sorted


def conventions_of(rows: Iterable[PeerScoreRow]) -> list[tuple[str, str]]:
    """The conventions rows were scored with, sorted, as JSON documents list them first."""
    return sorted({(r.weight_convention, r.average_rounding) for r in rows})


class _Line:
    """A file for `csv.writer` that hands back each line instead of keeping it."""

    def write(self, line: str) -> str:
        return line


def stream_csv(rows: Iterable[PeerScoreRow]) -> Iterator[str]:
    """The header, then one line per row, in the rows' order (as csv.DictWriter writes them)."""
    writer = csv.writer(_Line(), lineterminator="\n")
    yield writer.writerow(SCORE_COLUMNS)
    for row in rows:
        scores = row.scores
        yield writer.writerow(
            [
                *(getattr(row, column) for column in ROW_COLUMNS),
                *(
                    four_decimals(getattr(scores, column))
                    if column in SCORE_FIELDS
                    else getattr(scores, column)
                    for column in SCORES_COLUMNS
                ),
            ]
        )


def _nested(value: Any, level: int) -> str:
    """`value` as `json.dumps(..., indent=2)` writes it `level` levels deep in a document (JSON
    strings hold no raw newline, so every newline is the layout's)."""
    if isinstance(value, dict) and value:
        try:
            return _flat_object(value, level)
        except TypeError:  # a value that is not a scalar: json's own layout
            pass
    return json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * level)


def _flat_object(value: dict[str, Any], level: int) -> str:
    """A non-empty object of scalars as `json.dumps(value, indent=2, ensure_ascii=False)` writes it
    `level` levels deep, byte for byte, each scalar as json's encoder writes it: json's indented
    layout is its pure-Python encoder, 1.5 s of a profiled export of 23,000 rows (issue 19).
    TypeError for any other value."""
    inner = "\n" + "  " * (level + 1)
    items = (f"{encode_basestring(key)}: {_scalar(item)}" for key, item in value.items())
    return "{" + inner + ("," + inner).join(items) + "\n" + "  " * level + "}"


def _scalar(value: Any) -> str:
    """A scalar as json.dumps writes it (json.encoder's _make_iterencode, ensure_ascii=False,
    allow_nan=True); TypeError for anything else."""
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (math.inf, -math.inf):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    raise TypeError(f"not a JSON scalar: {type(value).__name__}")


def _json_document(conventions: Conventions, key: str, items: Iterable[Any]) -> Iterator[str]:
    """`json.dumps({"conventions": ..., key: [...]}, indent=2, ensure_ascii=False) + "\n"`, byte for
    byte, the conventions first and then each item as it comes."""
    listed = [{"weight": w, "average_rounding": a} for w, a in conventions]
    yield f'{{\n  "conventions": {_nested(listed, 1)},\n  "{key}": ['
    separator = "\n    "
    for item in items:
        yield separator + _nested(item, 2)
        separator = ",\n    "
    yield "]\n}\n" if separator == "\n    " else "\n  ]\n}\n"


def stream_json(rows: Iterable[PeerScoreRow], conventions: Conventions) -> Iterator[str]:
    """{"conventions": [...], "rows": [...]}: the conventions (`conventions_of` the rows, found
    beforehand: scoring.scores.exports.score_conventions) come first, so that the rows can follow
    as they
    are scored."""
    return _json_document(conventions, "rows", (_flat(row) for row in rows))


def duc_order(row: PeerScoreRow) -> tuple[str, str, str, str]:
    """NIST's order (`to_duc`): by collection, setid, annotator, then peer id as text, as the
    source wrote it ("01" < "02" < "10")."""
    return (row.collection, row.docset, row.annotator, row.peer_as_written)


def stream_duc(rows: Iterable[PeerScoreRow]) -> Iterator[str]:
    """NIST's layout (`to_duc`), one line per row in the order given: rows in `duc_order` already
    (scoring.scores.exports.iter_score_rows(..., order="duc") loads them so)."""
    for row in rows:
        fields = [
            row.docset,
            row.peer_as_written,  # as the source wrote it: NIST's D0647 has 01..08
            nist_decimals(row.scores.modified),
            str(row.scores.unique_scus),
            str(row.scores.repetitions),
            # NIST's DUC 2007 main table has no annotator column: none is written where there is
            # none
            *([row.annotator] if row.annotator else []),
            *([IN_PROGRESS_MARK] if row.status != SUBMITTED else []),
        ]
        yield "\t".join(fields) + "\n"


def stream_rows(fmt: str, rows: Iterable[PeerScoreRow], conventions: Conventions) -> Iterator[str]:
    """A layout of FORMATS by name; rows in `duc_order` for "duc", conventions used by "json"."""
    if fmt == "json":
        return stream_json(rows, conventions)
    return stream_duc(rows) if fmt == "duc" else stream_csv(rows)


def to_csv(rows: list[PeerScoreRow]) -> str:
    return "".join(stream_csv(rows))


def to_json(rows: list[PeerScoreRow]) -> str:
    return "".join(stream_json(rows, conventions_of(rows)))


def to_duc(rows: list[PeerScoreRow]) -> str:
    """NIST's columns: setid peerid modifiedscore numSCUs numrepetitions, then the annotator, with
    NIST's numbers (`nist_decimals`) in NIST's order: by setid, annotator, then peer id as text
    (1, 10, 14, ..., 2, 22), so that a `diff` against the first columns of NIST's table is empty.

    A row of work in progress (only there when asked for: `--include-in-progress`) ends with one
    more field, `#in_progress` (never read as an annotator: no annotator id starts with `#`);
    submitted rows are NIST's, so a table of submitted work is byte for byte what it was."""
    return "".join(stream_duc(sorted(rows, key=duc_order)))


FORMATS = {"csv": to_csv, "json": to_json, "duc": to_duc}


SYSTEM_COLUMNS = [
    "peer",
    "docsets",
    "in_progress",
    "modified",
    "original",
    "coverage",
    "comprehensive",
]


def stream_systems_csv(
    means: Iterable[SystemMean], conventions: Conventions, per: str = PER_DOCSET
) -> Iterator[str]:
    """`systems_to_csv`, the header first: `means` is taken only after it (it may be computed
    while the header is on its way). Each row says what its mean counts (`mean_per`: docset or
    annotation, scoring.scores.tables.SYSTEM_MEAN_PER)."""
    weights = " ".join(sorted({w for w, _ in conventions}))
    roundings = " ".join(sorted({a for _, a in conventions}))
    writer = csv.writer(_Line(), lineterminator="\n")
    yield writer.writerow([*SYSTEM_COLUMNS, "weight_convention", "average_rounding", "mean_per"])
    for mean in means:
        scores = (four_decimals(getattr(mean, c)) for c in SYSTEM_COLUMNS[3:])
        yield writer.writerow(
            [mean.peer, mean.docsets, mean.in_progress, *scores, weights, roundings, per]
        )


def stream_systems_json(
    means: Iterable[SystemMean], conventions: Conventions, per: str = PER_DOCSET
) -> Iterator[str]:
    """`systems_to_json`, the conventions first: `means` is taken only after them. Each system
    says what its mean counts (`mean_per`)."""
    return _json_document(
        conventions,
        "systems",
        (
            {**{column: getattr(mean, column) for column in SYSTEM_COLUMNS}, "mean_per": per}
            for mean in means
        ),
    )


def systems_to_csv(
    means: Iterable[SystemMean], rows: Sequence[PeerScoreRow] = (), per: str = PER_DOCSET
) -> str:
    """Each system's mean scores over the docsets (scoring.scores.tables.system_means, `per` docset
    or
    annotation), each row with the conventions of the rows (scoring.scores.records.PeerScoreRow) it
    averages, as `to_csv` gives them."""
    return "".join(stream_systems_csv(means, conventions_of(rows), per))


def systems_to_json(
    means: Iterable[SystemMean], rows: Sequence[PeerScoreRow] = (), per: str = PER_DOCSET
) -> str:
    """Each system's mean scores over the docsets (`per` docset or annotation), as JSON, with the
    conventions of the rows (scoring.scores.records.PeerScoreRow) they average, as `to_json` gives
    them."""
    return "".join(stream_systems_json(means, conventions_of(rows), per))


# Coverage judgments (issue 21): each peer's scores against each unit set, and each system's
# means over docsets (scoring.coverage.tables). Scores with 4 decimals in CSV, as every score CSV
# here; JSON keeps every digit (REALSumm's published values are compared to the last one).
COVERAGE_COLUMNS = [
    "collection",
    "docset",
    "unit_set",
    "method",
    "peer",
    "judges",
    "units",
    "in_progress",
    "presence",
    "presence_weighted",
    "see_coverage",
]
COVERAGE_SYSTEM_COLUMNS = [
    "peer",
    "docsets",
    "in_progress",
    "presence",
    "presence_weighted",
    "see_coverage",
]
COVERAGE_SCORE_FIELDS = {"presence", "presence_weighted", "see_coverage"}


def _coverage_fields(item: Any, columns: Sequence[str], collection: str) -> dict[str, Any]:
    return {
        column: collection if column == "collection" else getattr(item, column)
        for column in columns
    }


def _coverage_csv(items: Iterable[Any], columns: Sequence[str], collection: str) -> str:
    writer = csv.writer(_Line(), lineterminator="\n")
    lines = [writer.writerow(columns)]
    for item in items:
        fields = _coverage_fields(item, columns, collection)
        lines.append(
            writer.writerow(
                four_decimals(value) if column in COVERAGE_SCORE_FIELDS else value
                for column, value in fields.items()
            )
        )
    return "".join(lines)


def coverage_to_csv(rows: Iterable[Any], collection: str) -> str:
    """Coverage rows (scoring.coverage.records.CoverageRow) as CSV, a line each."""
    return _coverage_csv(rows, COVERAGE_COLUMNS, collection)


def coverage_systems_to_csv(means: Iterable[Any], collection: str) -> str:
    """Each system's coverage means (scoring.coverage.tables.CoverageSystemMean) as CSV."""
    return _coverage_csv(means, ["collection", *COVERAGE_SYSTEM_COLUMNS], collection)


def coverage_to_json(rows: Iterable[Any], collection: str) -> str:
    """{"collection": ..., "rows": [...]}: undefined scores null."""
    document = {
        "collection": collection,
        "rows": [_coverage_fields(row, COVERAGE_COLUMNS[1:], collection) for row in rows],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def coverage_systems_to_json(means: Iterable[Any], collection: str) -> str:
    """{"collection": ..., "systems": [...]}: undefined means null."""
    document = {
        "collection": collection,
        "systems": [_coverage_fields(mean, COVERAGE_SYSTEM_COLUMNS, collection) for mean in means],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


COVERAGE_FORMATS = {
    ("csv", False): coverage_to_csv,
    ("json", False): coverage_to_json,
    ("csv", True): coverage_systems_to_csv,
    ("json", True): coverage_systems_to_json,
}
