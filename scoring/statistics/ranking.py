"""Comparing systems, as Passonneau 2009 §4.2 and §5.2 do: each system's mean score, the ANOVA with
the system as the factor (optionally the docset as a second one), Tukey's HSD, the significantly
distinct groups of systems presented as Tables 7-9 ("peers ... better than ..."), and the number
of docsets the ANOVA power test asks for. Pure functions over score rows; no Django.

One observation per system and docset by default, as every system mean of the tool counts
(scoring.scores.tables.SYSTEM_MEAN_PER: a docset annotated twice, like DUC 2006's D0631, is averaged
first); with `per` PER_ANNOTATION every scored annotation is one, as in the paper (D0631 counts
twice): that reproduces Table 9's means and Table 6's p.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from statistics import fmean

from scoring.scores.tables import (
    PER_ANNOTATION,
    PER_DOCSET,
    SYSTEM_MEAN_PER,
    ScoreRow,
    natural_peer_key,
)
from scoring.statistics.significance import (
    AnovaTable,
    TukeyPair,
    anova_by_factor,
    anova_power_n,
    tukey_hsd,
)


@dataclass(frozen=True)
class BetterThan:
    """One row of Tables 7-9: these systems are significantly better than those."""

    better: list[str]
    better_mean: float
    worse: list[str]
    worse_mean: float


@dataclass(frozen=True)
class SystemRanking:
    score: str
    per: str  # what an observation is: a system's docset, or each annotation (SYSTEM_MEAN_PER)
    means: list[tuple[str, int, float]]  # (system, observations, mean), best first
    anova: AnovaTable
    hsd: float
    pairs: list[TukeyPair]
    groups: list[BetterThan]
    docsets_needed: float | None  # the power test's n (per system)


def observations(
    rows: Iterable[ScoreRow], score: str, per: str = PER_DOCSET
) -> list[tuple[str, str, float]]:
    """(system, docset, value): per docset, one for each system and docset, the mean of its
    annotations' defined scores (in the order the pairs first come); per annotation, every row
    whose score is defined."""
    if per not in SYSTEM_MEAN_PER:
        raise ValueError(f"an observation is per {' or '.join(SYSTEM_MEAN_PER)}, not {per!r}")
    found = [
        (row.peer, row.docset, value)
        for row in rows
        if (value := getattr(row.scores, score)) is not None
    ]
    if per == PER_ANNOTATION:
        return found
    pairs: dict[tuple[str, str], list[float]] = {}
    for system, docset, value in found:
        pairs.setdefault((system, docset), []).append(value)
    return [(system, docset, fmean(values)) for (system, docset), values in pairs.items()]


def what_is_observed(per: str, coverage: bool = False) -> str:
    """What one observation of a ranking is, in words: the pyramid scores' `per` (SYSTEM_MEAN_PER),
    or the coverage judgments' rows (each judged row, the means as published)."""
    if coverage:
        return "one observation per judged row (a peer against a unit set), the means as published"
    return f"one observation per {per}: {SYSTEM_MEAN_PER[per]}"


def better_than_groups(means: dict[str, float], pairs: list[TukeyPair]) -> list[BetterThan]:
    """Systems grouped by the set of systems they are significantly better than (Tables 7-9);
    each side's mean is the mean of its systems' means. Best first."""
    worse_than: dict[str, frozenset[str]] = defaultdict(frozenset)
    for pair in pairs:
        if pair.significant:
            worse_than[pair.better] |= {pair.worse}
    by_set: dict[frozenset[str], list[str]] = defaultdict(list)
    for system, worse in worse_than.items():
        by_set[worse].append(system)
    rows = []
    for worse, better in by_set.items():
        better = sorted(better, key=lambda s: -means[s])
        worse_sorted = sorted(worse, key=lambda s: -means[s])
        rows.append(
            BetterThan(
                better,
                fmean(means[s] for s in better),
                worse_sorted,
                fmean(means[s] for s in worse),
            )
        )
    return sorted(rows, key=lambda r: (-r.better_mean, r.worse_mean))


def rank_systems(
    rows: Iterable[ScoreRow],
    score: str = "modified",
    docset_factor: bool = False,
    significance: float = 0.05,
    power: float = 0.99,
    power_level: float = 0.01,
    *,
    p_values: bool = False,
    mean: Callable[[list[float]], float] = fmean,
    per: str = PER_DOCSET,
) -> SystemRanking:
    """The ranking of the systems by `score`. Tukey's groups need one critical value; each pair's
    p-value is one more integration of the studentized range, so only with `p_values`. `mean`:
    how a system's mean is taken over its rows, in their order (the coverage scores' is
    scoring.coverage.records.system_mean). `per`: what one observation is (`observations`)."""
    data = observations(rows, score, per)
    systems = [s for s, _, _ in data]
    values = [v for _, _, v in data]
    if len(set(systems)) < 2:
        raise ValueError("comparing systems needs scores of at least two systems")
    anova = anova_by_factor(values, systems, [d for _, d, _ in data] if docset_factor else None)
    if anova.df_residual > 0:
        # The ANOVA's error term: the one-way one, or with the docset as a factor, that model's.
        pairs, hsd = tukey_hsd(
            values, systems, anova.mse, anova.df_residual, significance, p_values=p_values
        )
    else:  # one score per system: no error term, so no test (the means are still worth reading)
        pairs, hsd = [], math.nan
    grouped = defaultdict(list)
    for system, value in zip(systems, values):
        grouped[system].append(value)
    means = {system: mean(v) for system, v in grouped.items()}
    order = sorted(means, key=lambda s: (-means[s], natural_peer_key(s)))
    needed = None
    if anova.df_residual > 0 and anova.between_var > 0 and anova.within_var > 0:
        needed = anova_power_n(len(means), anova.between_var, anova.within_var, power, power_level)
    return SystemRanking(
        score=score,
        per=per,
        means=[(s, len(grouped[s]), means[s]) for s in order],
        anova=anova,
        hsd=hsd,
        pairs=pairs,
        groups=better_than_groups(means, pairs),
        docsets_needed=needed,
    )
