"""Statistical tests the papers use, as thin pure functions over SciPy and statsmodels.

Passonneau 2009 §4.1 and §5.1: Pearson's correlation of two annotators' scores (a rejection test)
and a one-way ANOVA with annotator as the factor (an acceptance test). §4.2 and §5.2: the ANOVA
with the peer system as the factor, Tukey's HSD between systems, and the ANOVA power test.

SciPy, statsmodels and pandas are imported in the functions that use them: the site and every
command import this module, and must not pay for them at start-up (issue 19).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from statistics import fmean as mean
from statistics import variance

from scoring.judgments.correlation import MIN_PAIRS_FOR_P


def pearson(
    x: Sequence[float], y: Sequence[float], confidence: float = 0.95
) -> tuple[float, float | None, float | None, float | None] | None:
    """Pearson's r, its two-sided p-value and its confidence interval (Fisher's z, as R's
    cor.test gives it); None where r is undefined (fewer than 3 pairs, or a constant series). With
    fewer than scoring.judgments.correlation.MIN_PAIRS_FOR_P pairs, r alone: Fisher's interval
    needs n > 3
    (with 3 it spans -1 to 1) and the test has one degree of freedom."""
    from scipy import stats

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
    from scipy import stats

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
    from scipy import optimize, stats

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
    additive factor (e.g. the docset): type I sums of squares, as statsmodels' OLS and anova_lm
    give them. The one-way table in closed form (below); with a block, statsmodels' OLS."""
    groups: dict[str, list[float]] = {}
    for value, name in zip(values, factor):
        groups.setdefault(name, []).append(value)
    # R's power.anova.test's inputs: the variance of the group means, and the mean of the groups'
    # variances (groups of one value have none, and are left out of that mean).
    group_means = [mean(v) for v in groups.values()]
    spreads = [variance(v) for v in groups.values() if len(v) > 1]
    between_var = variance(group_means) if len(group_means) > 1 else math.nan
    within_var = mean(spreads) if spreads else math.nan
    if block is None:
        f, p, df_factor, df_residual, mse = _one_way(values, groups)
    else:
        f, p, df_factor, df_residual, mse = _with_block(values, factor, block)
    return AnovaTable(f, p, df_factor, df_residual, mse, between_var, within_var)


def _one_way(
    values: Sequence[float], groups: Mapping[str, Sequence[float]]
) -> tuple[float, float, int, int, float]:
    """F, p, df, residual df and MSE of the one-way ANOVA (Fisher; e.g. Montgomery, Design and
    Analysis of Experiments, §3.3): with grand mean m, group means m_g and sizes n_g,

        SS_between = sum_g n_g (m_g - m)^2,   SS_within = sum_g sum_i (x_gi - m_g)^2
        F = (SS_between / (k - 1)) / (SS_within / (N - k)),   p = P(F_{k-1, N-k} > F)

    No residual degrees of freedom (one value per group): no error term, so F, p and the MSE are
    undefined (NaN), not F = 0."""
    from scipy import stats

    grand = mean(values)
    means = {name: mean(v) for name, v in groups.items()}
    between = sum(len(v) * (means[name] - grand) ** 2 for name, v in groups.items())
    within = sum(sum((x - means[name]) ** 2 for x in v) for name, v in groups.items())
    df_factor, df_residual = len(groups) - 1, len(values) - len(groups)
    if df_residual <= 0 or df_factor <= 0:
        return math.nan, math.nan, df_factor, df_residual, math.nan
    mse = within / df_residual
    if mse == 0:  # no variation within the groups: any difference between them is certain
        f = math.inf if between > 0 else math.nan
    else:
        f = between / df_factor / mse
    return f, float(stats.f.sf(f, df_factor, df_residual)), df_factor, df_residual, mse


def _with_block(
    values: Sequence[float], factor: Sequence[str], block: Sequence[str]
) -> tuple[float, float, int, int, float]:
    """The factor's F and p (type I: the factor first, then the block), with statsmodels' OLS."""
    import numpy as np
    import pandas as pd
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    frame = pd.DataFrame({"value": list(values), "factor": list(factor), "block": list(block)})
    model = smf.ols("value ~ C(factor) + C(block)", frame).fit()
    with np.errstate(
        divide="ignore", invalid="ignore"
    ):  # no residual: F and p are NaN, said so by the caller
        table = anova_lm(model)
    # No residual degrees of freedom (one observation per system, say): no error term, so neither
    # F nor p (statsmodels says F = 0 there).
    defined = model.df_resid > 0
    return (
        float(table.loc["C(factor)", "F"]) if defined else math.nan,
        float(table.loc["C(factor)", "PR(>F)"]) if defined else math.nan,
        int(table.loc["C(factor)", "df"]),
        int(model.df_resid),
        float(model.mse_resid),
    )


@dataclass(frozen=True)
class TukeyPair:
    better: str
    worse: str
    difference: float  # mean(better) - mean(worse)
    p: float | None  # None unless asked for (tukey_hsd's p_values): each costs an integration
    significant: bool


@cache
def studentized_range_critical(significance: float, groups: int, df: float) -> float:
    """q_{alpha,k,df}: the studentized range's upper `significance` quantile for k groups and df
    error degrees of freedom (SciPy's studentized_range.ppf(1 - alpha), the very call statsmodels'
    pairwise_tukeyhsd makes). A numerical integration: computed once per test, not per pair."""
    from scipy import stats

    return float(stats.studentized_range.ppf(1 - significance, groups, df))


def tukey_hsd(
    values: Sequence[float],
    factor: Sequence[str],
    mse: float | None = None,
    df_residual: int | None = None,
    significance: float = 0.05,
    *,
    p_values: bool = False,
) -> tuple[list[TukeyPair], float]:
    """Tukey's honest significant differences between every pair of groups, Tukey-Kramer for
    unequal group sizes (Tukey 1953; Kramer 1956; Hochberg & Tamhane 1987 §3.2): groups i and j
    differ significantly when

        |mean_i - mean_j| > HSD_ij = q_{alpha,k,df} * sqrt(MSE / 2 * (1/n_i + 1/n_j))

    with q_{alpha,k,df} the studentized range's critical value for k groups and the error term's
    df (studentized_range_critical: one integration for every pair). Returns the pairs (names in
    sorted order, as statsmodels' pairwise_tukeyhsd lists them) and the HSD for the mean group
    size n̄, q_{alpha,k,df} * sqrt(MSE / n̄).

    The error term is the one-way ANOVA's (MSE = within-group sum of squares / (N - k), df = N - k:
    the decisions of statsmodels' pairwise_tukeyhsd) unless another model's is given (`mse`,
    `df_residual`: e.g. with the docset as a second factor, which statsmodels' Tukey does not
    take). Each pair's adjusted p, P(Q_{k,df} > |mean_i - mean_j| / sqrt(MSE / 2 * (1/n_i +
    1/n_j))), only with `p_values`: it is one more integration per pair.
    """
    groups: dict[str, list[float]] = {}
    for value, name in zip(values, factor):
        groups.setdefault(name, []).append(value)
    k = len(groups)
    if (df_residual if df_residual is not None else len(values) - k) <= 0:
        raise ValueError("Tukey's HSD needs residual degrees of freedom (more than one value)")
    means = {name: mean(v) for name, v in groups.items()}
    if mse is None or df_residual is None:
        df_residual = len(values) - k
        mse = sum(sum((x - means[g]) ** 2 for x in v) for g, v in groups.items()) / df_residual
    q_critical = studentized_range_critical(significance, k, df_residual)
    names = sorted(groups)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            difference = means[a] - means[b]
            error = math.sqrt(mse / 2 * (1 / len(groups[a]) + 1 / len(groups[b])))
            # No error at all (every group constant): any difference is significant, none else.
            if error > 0:
                statistic = abs(difference) / error
            else:
                statistic = math.inf if difference else 0.0
            p = None
            if p_values:
                from scipy import stats

                p = float(stats.studentized_range.sf(statistic, k, df_residual))
            better, worse = (a, b) if difference > 0 else (b, a)
            pairs.append(TukeyPair(better, worse, abs(difference), p, statistic > q_critical))
    mean_size = len(values) / k
    return pairs, q_critical * math.sqrt(mse / mean_size)
