"""Score tables as CSV, JSON or NIST's tab-separated layout."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Sequence
from typing import Any

from scoring.records import PeerScoreRow
from scoring.tables import SystemMean

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


def _flat(row: PeerScoreRow) -> dict[str, Any]:
    data = row.as_dict()
    return {column: data[column] for column in SCORE_COLUMNS}


def to_csv(rows: list[PeerScoreRow]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=SCORE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        flat = _flat(row)
        writer.writerow({k: four_decimals(v) if k in SCORE_FIELDS else v for k, v in flat.items()})
    return out.getvalue()


def to_json(rows: list[PeerScoreRow]) -> str:
    conventions = sorted({(r.weight_convention, r.average_rounding) for r in rows})
    document = {
        "conventions": [{"weight": w, "average_rounding": a} for w, a in conventions],
        "rows": [_flat(row) for row in rows],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def to_duc(rows: list[PeerScoreRow]) -> str:
    """NIST's columns: setid peerid modifiedscore numSCUs numrepetitions, then the annotator, with
    NIST's numbers (`nist_decimals`) in NIST's order: by setid, annotator, then peer id as text
    (1, 10, 14, ..., 2, 22), so that a `diff` against the first columns of NIST's table is empty.

    A row of work in progress (only there when asked for: `--include-in-progress`) ends with one
    more field, `#in_progress` (never read as an annotator: no annotator id starts with `#`);
    submitted rows are NIST's, so a table of submitted work is byte for byte what it was."""
    ordered = sorted(rows, key=lambda row: (row.collection, row.docset, row.annotator, row.peer))
    lines = [
        "\t".join(
            [
                row.docset,
                row.peer,
                nist_decimals(row.scores.modified),
                str(row.scores.unique_scus),
                str(row.scores.repetitions),
                *([row.annotator] if row.annotator else []),
                *([IN_PROGRESS_MARK] if row.status != SUBMITTED else []),
            ]
        )  # NIST's DUC 2007 main table has no annotator column: none is written where there is none
        for row in ordered
    ]
    return "".join(line + "\n" for line in lines)


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


def systems_to_csv(means: Iterable[SystemMean], rows: Sequence[PeerScoreRow] = ()) -> str:
    """Each system's mean scores over the docsets (scoring.tables.system_means), each row with the
    conventions of the rows (scoring.records.PeerScoreRow) it averages, as `to_csv` gives them."""
    weights = " ".join(sorted({r.weight_convention for r in rows}))
    roundings = " ".join(sorted({r.average_rounding for r in rows}))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*SYSTEM_COLUMNS, "weight_convention", "average_rounding"])
    for mean in means:
        scores = (four_decimals(getattr(mean, c)) for c in SYSTEM_COLUMNS[3:])
        writer.writerow([mean.peer, mean.docsets, mean.in_progress, *scores, weights, roundings])
    return out.getvalue()


def systems_to_json(means: Iterable[SystemMean], rows: Sequence[PeerScoreRow] = ()) -> str:
    """Each system's mean scores over the docsets, as JSON, with the conventions of the rows
    (scoring.records.PeerScoreRow) they average, as `to_json` gives them."""
    conventions = sorted({(r.weight_convention, r.average_rounding) for r in rows})
    document = {
        "conventions": [{"weight": w, "average_rounding": a} for w, a in conventions],
        "systems": [{column: getattr(mean, column) for column in SYSTEM_COLUMNS} for mean in means],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
