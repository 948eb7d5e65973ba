"""Coverage judgments (issue 21): unit presence and SEE coverage. Pure functions, no Django.

Unit presence (Shapira et al. 2019, "Crowdsourcing Lightweight Pyramids", §3; Bhandari et al.
2020, REALSumm §3.2): judges mark each unit present or absent in a peer; a unit is present when
strictly more than half of its judges say so (a tie counts absent, as REALSumm's labels have it);
a peer's score is the fraction of its units present, optionally each weighted by its SCU's weight.

SEE coverage (Harman & Over 2004, "The Effects of Human Variation in DUC Summarization
Evaluation", §2): for each unit of a model summary, a judge says how much of it the peer expresses,
all (4), most (3), some (2), hardly any (1) or none (0), read as an interval scale, or in DUC 2002 a
percentage 0, 20, ..., 100; a peer's coverage is the mean over the model's units, here divided by
the scale's top so that both scales give a fraction 0-1.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

# The majority rule is the annotator app's too (the Lite Pyramid labels an export writes): one
# definition, there, pure.
from annotator.coverage.majority import majority_present  # noqa: F401


def presence_score(present: Sequence[bool], weights: Sequence[float] | None = None) -> float:
    """The fraction of a peer's units present (Lite Pyramid's score: Shapira et al. 2019 §3,
    "the percentage of SCUs judged present"); with `weights` (each unit's SCU weight), the present
    units' weight over the total weight, a pyramid-style weighted variant.

    >>> presence_score([True, False, True, False]), presence_score([True, False], [3, 1])
    (0.5, 0.75)
    """
    if not present:
        raise ValueError("a peer judged against no unit has no presence score")
    if weights is None:
        return sum(present) / len(present)
    if len(weights) != len(present):
        raise ValueError("one weight per unit")
    total = sum(weights)
    return sum(w for p, w in zip(present, weights) if p) / total


def see_coverage(values: Sequence[float], top: float) -> float:
    """A peer's SEE coverage: the mean of its scores over the model's units (Harman & Over 2004
    §2: "the mean of its scores against the EDUs of the associated model"), divided by the scale's
    top (4, or 100 for percentages) to lie in 0-1.

    >>> see_coverage([4, 2, 0, 2], 4), see_coverage([100, 60], 100)
    (0.5, 0.8)
    """
    if not values:
        raise ValueError("a peer judged against no unit has no coverage")
    return fmean(values) / top


@dataclass(frozen=True)
class CoverageDifference:
    """How much a peer's coverage moves between judgment sets (other models, or other judges)."""

    average: float  # mean over peers of max - min of the peer's coverages
    relative: float  # that mean over the mean of the peers' highest coverage
    peers: int


def coverage_difference(coverages: Mapping[str, Sequence[float]]) -> CoverageDifference | None:
    """The average absolute coverage difference (Harman & Over 2004 §2.3, Fig. 3: two models;
    §3.2 and §4.3, Figs. 6 and 9: "the highest and lowest" of three or four judgment sets): for each
    peer with at least two coverages, its highest minus its lowest; their mean, and that mean as a
    share of the mean highest coverage (the paper's "0.437 or 47.8% of the highest scoring model").
    None when no peer has two coverages.

    >>> coverage_difference({"p1": [0.5, 0.25], "p2": [0.75, 0.75, 0.5]})
    CoverageDifference(average=0.25, relative=0.4, peers=2)
    """
    ranges = [(max(v), max(v) - min(v)) for v in coverages.values() if len(v) >= 2]
    if not ranges:
        return None
    average = fmean(spread for _, spread in ranges)
    highest = fmean(top for top, _ in ranges)
    return CoverageDifference(average, average / highest if highest else float("nan"), len(ranges))


@dataclass(frozen=True)
class AnovaRow:
    source: str
    df: int
    ss: float
    ms: float
    f: float | None
    p: float | None


def three_factor_anova(
    values: Sequence[float],
    judges: Sequence[str],
    systems: Sequence[str],
    docsets: Sequence[str],
) -> list[AnovaRow]:
    """Harman & Over 2004 Table 1: coverage = grand mean + judge + system + docset + judge/system
    + judge/docset + system/docset (+ residual), with sequential (type I) sums of squares, as S's
    and R's aov give them: each term's sum of squares is the drop in the residual sum of squares
    when it joins the terms before it, its degrees of freedom the rise in the model's rank. Each
    model is fitted with statsmodels' OLS, whose pseudo-inverse copes with the designs real
    judgments make (judges nested in docsets, a single docset, empty cells), where statsmodels'
    anova_lm fails on a rank-deficient design. A term that adds nothing to the rank (aliased with
    the terms before it, or a factor of one level) is left out; rows in the paper's order, then
    "resid" (no F or p). F = MS_term / MS_resid, p from the F distribution (SciPy)."""
    import pandas as pd
    import statsmodels.formula.api as smf
    from scipy import stats

    frame = pd.DataFrame(
        {"value": list(values), "judge": judges, "system": systems, "docset": docsets}
    )
    terms = [
        ("judge", "C(judge)"),
        ("system", "C(system)"),
        ("docset", "C(docset)"),
        ("jud/sys", "C(judge):C(system)"),
        ("jud/ds", "C(judge):C(docset)"),
        ("sys/ds", "C(system):C(docset)"),
    ]
    y = frame["value"].to_numpy(dtype=float)
    residual_ss, rank = float(((y - y.mean()) ** 2).sum()), 1  # the grand mean alone
    found: list[tuple[str, int, float]] = []
    for k, (name, _) in enumerate(terms, start=1):
        with warnings.catch_warnings():
            # A rank-deficient design is expected here (see above): its rank is what counts.
            warnings.simplefilter("ignore")
            model = smf.ols("value ~ " + " + ".join(term for _, term in terms[:k]), frame).fit()
        model_rank = int(model.df_model) + 1
        if model_rank > rank:
            found.append((name, model_rank - rank, residual_ss - float(model.ssr)))
        residual_ss, rank = float(model.ssr), model_rank
    residual_df = len(y) - rank
    residual_ms = residual_ss / residual_df if residual_df > 0 else math.nan
    rows = []
    for name, df, ss in found:
        ms = ss / df
        testable = residual_df > 0 and residual_ms > 0  # else no error term: no F, no p
        f = ms / residual_ms if testable else None
        p = float(stats.f.sf(f, df, residual_df)) if f is not None else None
        rows.append(AnovaRow(name, df, ss, ms, f, p))
    rows.append(AnovaRow("resid", residual_df, residual_ss, residual_ms, None, None))
    return rows
