"""How the reports and the commands print statistics, in one place: a p-value never reads 0.0, and
what is undefined (None or NaN: too few observations for a test, an ANOVA with no error term)
reads "—", in tables and text alike, and null in JSON. Pure functions; no Django.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

DASH = "—"
SMALLEST_P = (
    1e-16  # below this a p-value is "< 1e-16" (as R's "< 2.2e-16": beyond a double's precision)
)


Cell = str | float | None  # a cell of a report table, as its JSON holds it (ints are floats too)


def undefined(value: object) -> bool:
    """None, NaN or infinite."""
    return value is None or (isinstance(value, float) and not math.isfinite(value))


def p_value(p: float | None) -> str:
    """A p-value as the reports and commands print it: three significant digits, in scientific
    notation below 0.001, "< 1e-16" for what a double cannot tell from 0, "—" where there is none.

    >>> [p_value(v) for v in (1.0, 0.3333, 0.0208, 0.00123, 0.000185, 3.2e-12, 3.2e-50, 0.0,
    ...                       None, float("nan"))]
    ['1', '0.333', '0.0208', '0.00123', '1.85e-04', '3.20e-12', '< 1e-16', '< 1e-16', '—', '—']
    """
    if p is None or undefined(p):
        return DASH
    if p < SMALLEST_P:
        return f"< {SMALLEST_P:.0e}"
    if p < 0.001:
        return f"{p:.2e}"
    return f"{p:.3g}"


def p_equals(p: float | None) -> str:
    """ "p=0.0208", "p<1e-16", "p=—": a p-value beside a statistic in a command's table.

    >>> [p_equals(v) for v in (0.0208, 0.0, None)]
    ['p=0.0208', 'p<1e-16', 'p=—']
    """
    shown = p_value(p)
    return f"p{shown.replace(' ', '')}" if shown.startswith("<") else f"p={shown}"


def p_stored(p: float | None) -> float | None:
    """A p-value for JSON and CSV: four significant digits (never rounded to 0), None where
    undefined.

    >>> [p_stored(v) for v in (0.000185234, 0.333333, 0.0, float("nan"))]
    [0.0001852, 0.3333, 0.0, None]
    """
    return None if undefined(p) else float(f"{p:.4g}")


def number(value: float | None, decimals: int = 4) -> str:
    """A statistic in a command's table: fixed decimals, "—" where undefined.

    >>> [number(v) for v in (0.36, float("nan"), None)]
    ['0.3600', '—', '—']
    """
    return DASH if undefined(value) else f"{value:.{decimals}f}"


def json_ready(value: object) -> object:
    """Data for JSON: NaN and infinities (which JSON cannot hold) as null, in dicts, lists and
    tuples."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value


def shown_rows(rows: Sequence[Sequence[Cell]], p_columns: Collection[int] = ()) -> list[list[str]]:
    """A report table's rows as the page shows them: p-values by `p_value`, what is undefined as
    "—".

    >>> shown_rows([["10", 0.2571, 2e-05, None]], p_columns=[2])
    [['10', '0.2571', '2.00e-05', '—']]
    """
    return [
        [
            p_value(v)
            if i in p_columns and not isinstance(v, str)
            else DASH
            if undefined(v)
            else str(v)
            for i, v in enumerate(row)
        ]
        for row in rows
    ]
