"""Building blocks of every report's result: its tables and their numbers."""

from __future__ import annotations

import math

from scoring.numbers import p_stored


def rounded(value, digits: int = 4):
    """Numbers for JSON: rounded, and None where undefined."""
    if value is None or (isinstance(value, float) and (math.isnan(value) or math.isinf(value))):
        return None
    return round(value, digits) if isinstance(value, float) else value


def result_table(
    title: str,
    columns: list[str],
    rows: list[list],
    note: str = "",
    p_columns: tuple[int, ...] = (),
    empty: str = "",
) -> dict:
    """A table of a result; `p_columns`: the columns (by index) holding p-values, kept to four
    significant digits rather than four decimals (a p of 0.00002 is not 0.0) and shown as
    scoring.numbers.p_value prints them; `empty`: why the table has no rows, where the reason is
    not that the collection has no such data yet (the page's default)."""
    return {
        "title": title,
        "columns": columns,
        "note": note,
        "p_columns": list(p_columns),
        "empty": empty,
        "rows": [
            [p_stored(v) if i in p_columns else rounded(v) for i, v in enumerate(row)]
            for row in rows
        ],
    }


def joined_sentences(*parts: str) -> str:
    return " ".join(part for part in parts if part)


NOT_TWICE = "No peer is annotated twice against the same pyramid: nothing to compare."
