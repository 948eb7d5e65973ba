"""The report "Systems compared": each system's mean, the ANOVA, Tukey's HSD groups and the power
test (Passonneau 2009 §4.2, §5.2)."""

from __future__ import annotations

import math
from collections import defaultdict
from statistics import fmean, quantiles, stdev

from annotator.campaigns.models import Collection
from scoring.coverage.records import (
    COVERAGE_SCORES,
    score_coverage,
    system_mean,
)
from scoring.reports.results import result_table, rounded
from scoring.scores.records import (
    score_collection,
)
from scoring.scores.tables import PER_ANNOTATION, PER_DOCSET
from scoring.statistics.ranking import observations, rank_systems, what_is_observed


def ranking_report(collection: Collection, parameters: dict) -> dict:
    from scipy import stats  # here: the site imports this module, and must start without SciPy

    score = parameters.get("score", "modified")
    per = parameters.get("per", PER_DOCSET)
    if score in COVERAGE_SCORES:  # the coverage judgments' (issue 21), their means as published
        rows: list = score_coverage(collection)
        per = PER_ANNOTATION  # each judged row an observation
        ranking = rank_systems(
            rows, score, bool(parameters.get("docset_factor")), mean=system_mean, per=per
        )
    else:
        rows = score_collection(collection, adjudicated=bool(parameters.get("adjudicated")))
        ranking = rank_systems(rows, score, bool(parameters.get("docset_factor")), per=per)
    values = defaultdict(list)
    for system, _, value in observations(rows, score, per):
        values[system].append(value)

    def interval(system):
        v = values[system]
        if len(v) < 2:
            return None, None
        half = stats.t.ppf(0.975, len(v) - 1) * stdev(v) / math.sqrt(len(v))
        return fmean(v) - half, fmean(v) + half

    means = [[s, n, m, *interval(s)] for s, n, m in ranking.means]
    a = ranking.anova
    return {
        "tables": [
            result_table(
                f"Mean {score} score per system",
                ["system", "observations", "mean", "95% low", "95% high"],
                means,
                _sentence(what_is_observed(per, score in COVERAGE_SCORES)),
            ),
            result_table(
                "ANOVA, system as factor"
                + (" (and docset)" if parameters.get("docset_factor") else ""),
                [
                    "F",
                    "df",
                    "df residual",
                    "p",
                    "Tukey's HSD (0.05)",
                    f"{per}s needed (power 0.99, level 0.01)",
                ],
                [[a.f, a.df_factor, a.df_residual, a.p, ranking.hsd, ranking.docsets_needed]],
                ""
                if a.df_residual > 0
                else "One score per system (one docset each): nothing is left to estimate the "
                "error with, so there is no F, p or HSD; the means are still worth reading.",
                p_columns=(3,),
            ),
            result_table(
                "Significantly distinct groups (Tukey's HSD)",
                ["peers", "mean", "better than", "mean"],
                [
                    [", ".join(g.better), g.better_mean, ", ".join(g.worse), g.worse_mean]
                    for g in ranking.groups
                ],
                empty="No groups: Tukey's HSD is undefined here, with no residual degrees of "
                "freedom (one score per system) to estimate the error with."
                if a.df_residual <= 0
                else "No two systems differ by more than Tukey's HSD: no significantly distinct "
                "groups.",
            ),
        ],
        "plots": [
            {
                "type": "intervals",
                "title": f"Mean {score} score with its 95% interval",
                "labels": [m[0] for m in means],
                "values": [rounded(m[2]) for m in means],
                "low": [rounded(m[3]) for m in means],
                "high": [rounded(m[4]) for m in means],
            },
            {
                "type": "boxes",
                "title": f"Distribution of {score} scores per system",
                "labels": [m[0] for m in means],
                "boxes": [_five_numbers(values[m[0]]) for m in means],
            },
        ],
    }


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + "."


def _five_numbers(values: list[float]) -> list[float]:
    ordered = sorted(values)
    # "inclusive": the quartiles of the values themselves, never outside them (the default
    # "exclusive" put system 6's first quartile at -0.11 with two observations)
    q1, median, q3 = (
        quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else (ordered[0],) * 3
    )
    return [rounded(ordered[0]), rounded(q1), rounded(median), rounded(q3), rounded(ordered[-1])]
