"""Correlation of scores with human judgments (Pearson, Spearman, Kendall, with p-values), as
Maskey & Rosenberg §5 report them. Pure functions over SciPy."""

from __future__ import annotations

import warnings
from typing import Sequence

from scipy import stats

METHODS = {"pearson": stats.pearsonr, "spearman": stats.spearmanr, "kendall": stats.kendalltau}


def correlations(x: Sequence[float], y: Sequence[float]) -> dict[str, tuple[float, float] | None]:
    """{method: (coefficient, two-sided p)}; None where undefined (fewer than 3 pairs, or a
    constant series)."""
    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return {name: None for name in METHODS}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: tuple(float(v) for v in method(x, y)[:2]) for name, method in METHODS.items()}
