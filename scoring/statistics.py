"""Statistical tests the papers use, as thin pure functions over SciPy and statsmodels.

Passonneau 2009 §4.1 and §5.1: Pearson's correlation of two annotators' scores (a rejection test)
and a one-way ANOVA with annotator as the factor (an acceptance test). §4.2 and §5.2: the ANOVA
with the peer system as the factor, Tukey's HSD between systems, and the ANOVA power test.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean as mean

import numpy as np
from scipy import optimize, stats

from scoring.correlation import MIN_PAIRS_FOR_P


def pearson(
    x: Sequence[float], y: Sequence[float], confidence: float = 0.95
) -> tuple[float, float | None, float | None, float | None] | None:
    """Pearson's r, its two-sided p-value and its confidence interval (Fisher's z, as R's
    cor.test gives it); None where r is undefined (fewer than 3 pairs, or a constant series). With
    fewer than scoring.correlation.MIN_PAIRS_FOR_P pairs, r alone: Fisher's interval needs n > 3
    (with 3 it spans -1 to 1) and the test has one degree of freedom."""
    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return None
    result = stats.pearsonr(x, y)
    if len(x) < MIN_PAIRS_FOR_P:
        return float(result.statistic), None, None, None
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


def anova_power_n(
    groups: int,
    between_var: float,
    within_var: float,
    power: float = 0.99,
    significance: float = 0.01,
) -> float:
    """The number of observations per group an ANOVA needs for `power` at `significance`, as R's
    power.anova.test solves it (Passonneau 2009 §5.2.2, Table 10: power 0.99, level 0.01):

        lambda = (groups - 1) * n * between_var / within_var
        power  = P(F'(groups - 1, (n - 1) * groups, lambda) > F_crit(1 - significance))

    >>> round(anova_power_n(16, 0.0393, 0.0314), 2)  # Table 10, DUC 2003
    3.45
    """

    def shortfall(n: float) -> float:
        df1, df2 = groups - 1, (n - 1) * groups
        critical = stats.f.isf(significance, df1, df2)
        noncentrality = (groups - 1) * n * between_var / within_var
        return float(stats.ncf.sf(critical, df1, df2, noncentrality)) - power

    return float(optimize.brentq(shortfall, 2, 1e7))


@dataclass(frozen=True)
class AnovaTable:
    """A linear model's ANOVA: the factor's F and p, with what the power test needs."""

    f: float
    p: float
    df_factor: int
    df_residual: int
    mse: float  # the residual mean square (the error term of Tukey's HSD)
    between_var: float  # variance of the group means (R's between.var)
    within_var: float  # mean of the groups' variances (R's within.var)


def anova_by_factor(
    values: Sequence[float], factor: Sequence[str], block: Sequence[str] | None = None
) -> AnovaTable:
    """ANOVA of `values` with `factor` (e.g. the peer system), and optionally `block` as a second,
    additive factor (e.g. the docset); statsmodels' OLS and anova_lm (type I sums of squares)."""
    import pandas as pd
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    frame = pd.DataFrame({"value": list(values), "factor": list(factor)})
    formula = "value ~ C(factor)"
    if block is not None:
        frame["block"] = list(block)
        formula += " + C(block)"
    model = smf.ols(formula, frame).fit()
    with np.errstate(
        divide="ignore", invalid="ignore"
    ):  # no residual: F and p are NaN, said so by the caller
        table = anova_lm(model)
    grouped = frame.groupby("factor")["value"]
    # No residual degrees of freedom (one observation per system, say): no error term, so neither
    # F nor p (statsmodels says F = 0 there).
    defined = model.df_resid > 0
    return AnovaTable(
        f=float(table.loc["C(factor)", "F"]) if defined else math.nan,
        p=float(table.loc["C(factor)", "PR(>F)"]) if defined else math.nan,
        df_factor=int(table.loc["C(factor)", "df"]),
        df_residual=int(model.df_resid),
        mse=float(model.mse_resid),
        between_var=float(grouped.mean().var(ddof=1)),
        within_var=float(grouped.var(ddof=1).mean()),
    )


@dataclass(frozen=True)
class TukeyPair:
    better: str
    worse: str
    difference: float  # mean(better) - mean(worse)
    p: float
    significant: bool


def tukey_hsd(
    values: Sequence[float],
    factor: Sequence[str],
    mse: float | None = None,
    df_residual: int | None = None,
    significance: float = 0.05,
) -> tuple[list[TukeyPair], float]:
    """Tukey's honest significant differences between every pair of groups (Tukey-Kramer for
    unequal group sizes), and the HSD for the mean group size.

    With the one-way ANOVA's error term this is statsmodels' pairwise_tukeyhsd. With the error
    term of another model (`mse`, `df_residual`: e.g. with the docset as a second factor, which
    statsmodels' Tukey does not take) the same Tukey-Kramer comparisons use SciPy's studentized
    range with that error term.
    """
    groups: dict[str, list[float]] = {}
    for value, name in zip(values, factor):
        groups.setdefault(name, []).append(value)
    k = len(groups)
    mean_size = sum(len(v) for v in groups.values()) / k
    if mse is None or df_residual is None:
        from statsmodels.stats.multicomp import pairwise_tukeyhsd

        result = pairwise_tukeyhsd(list(values), list(factor), alpha=significance)
        pairs = []
        for (a, b), difference, p, reject in zip(
            [(result.groupsunique[i], result.groupsunique[j]) for i, j in zip(*_pair_indices(k))],
            result.meandiffs,
            result.pvalues,
            result.reject,
        ):
            better, worse = (b, a) if difference >= 0 else (a, b)  # meandiff = mean(b) - mean(a)
            pairs.append(
                TukeyPair(str(better), str(worse), abs(float(difference)), float(p), bool(reject))
            )
        one_way_mse = sum(sum((x - mean(v)) ** 2 for x in v) for v in groups.values()) / (
            len(values) - k
        )
        return pairs, float(result.q_crit * math.sqrt(one_way_mse / mean_size))
    pairs = []
    names = list(groups)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            difference = mean(groups[a]) - mean(groups[b])
            error = math.sqrt(mse / 2 * (1 / len(groups[a]) + 1 / len(groups[b])))
            p = float(stats.studentized_range.sf(abs(difference) / error, k, df_residual))
            better, worse = (a, b) if difference >= 0 else (b, a)
            pairs.append(TukeyPair(better, worse, abs(difference), p, p < significance))
    hsd = float(
        stats.studentized_range.isf(significance, k, df_residual) * math.sqrt(mse / mean_size)
    )
    return pairs, hsd


def _pair_indices(k: int) -> tuple[np.ndarray[tuple[int], np.dtype[np.intp]], ...]:
    """The (i, j) index pairs, i < j, in statsmodels' order."""
    return np.triu_indices(k, 1)
