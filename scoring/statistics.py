"""Statistical tests the papers use, as thin pure functions over SciPy and statsmodels.

Passonneau 2009 §4.1 and §5.1: Pearson's correlation of two annotators' scores (a rejection test)
and a one-way ANOVA with annotator as the factor (an acceptance test).
"""

from __future__ import annotations

import math
import warnings
from typing import Mapping, Sequence

from scipy import stats


def pearson(x: Sequence[float], y: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float, float] | None:
    """Pearson's r, its two-sided p-value and its confidence interval (Fisher's z, as R's
    cor.test gives it); None where r is undefined (fewer than 3 pairs, or a constant series)."""
    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    result = stats.pearsonr(x, y)
    interval = result.confidence_interval(confidence)
    return float(result.statistic), float(result.pvalue), float(interval.low), float(interval.high)


def anova_oneway(groups: Mapping[str, Sequence[float]]) -> tuple[float, float] | None:
    """One-way ANOVA: F and p for the null hypothesis that the groups' means are equal; None where
    it is undefined (fewer than two groups with values, or no variance within them)."""
    samples = [list(values) for values in groups.values() if len(values) > 0]
    if len(samples) < 2 or sum(len(s) for s in samples) <= len(samples):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: reported as None below
        result = stats.f_oneway(*samples)
    if math.isnan(result.statistic):
        return None
    if result.statistic <= 1e-12:  # equal means (rounding can even make F a hair below 0): p = 1
        return 0.0, 1.0
    return float(result.statistic), float(result.pvalue)
