"""The analyses of coverage judgments (issue 21), from the stored records: agreement between
judges, and Harman & Over 2004's studies of variation between models and between judges.

- Krippendorff's alpha over the judges: an item is one unit in one peer, its values the judges'
  answers; nominal for presence (present/absent), interval for the SEE scale
  (scoring.agreement.alpha).
- The average absolute coverage difference per docset (Harman & Over 2004 Figs. 3, 6 and 9):
  between models, a peer's coverages against each unit set (model) of its docset, each the mean
  over its judges; between judges, a peer's coverages by each judge against one unit set.
- Pearson's r of system means between judgment sets (Figs. 5, 7 and 10): a judgment set is the
  unit sets of one name across docsets (e.g. "SEE extra model 1"), or one judge's judgments.
- The ANOVA with judge, system and docset and their two-way interactions (Table 1), one
  observation per judge's coverage of a peer against a unit set.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean

from annotator.coverage.models import UnitSet
from scoring.agreement.alpha import interval, krippendorff_alpha, nominal
from scoring.coverage.records import TOPS, JudgedTask, load_tasks, system_mean
from scoring.coverage.scores import (
    AnovaRow,
    CoverageDifference,
    coverage_difference,
    three_factor_anova,
)
from scoring.statistics.significance import pearson

GROUPINGS = ("unit_set", "judge")


@dataclass(frozen=True)
class JudgeAgreement:
    method: str
    metric: str  # "nominal" or "interval"
    alpha: float  # NaN where undefined (no item with two answers, or no variation)
    items: int  # (unit, peer) pairs with at least two answers
    judges: int  # those with an answer in such an item: the judges alpha compares


def judge_agreement(tasks: list[JudgedTask]) -> list[JudgeAgreement]:
    """Alpha over the judges, per method (presence nominal; SEE interval on the 0-1 fraction, so
    that both SEE scales pool)."""
    results = []
    for method in (UnitSet.Method.PRESENCE, UnitSet.Method.SEE):
        of_method = [task for task in tasks if task.method == method]
        if not of_method:
            continue
        items: defaultdict[tuple[int, str], list[float]] = defaultdict(list)
        judges_of: defaultdict[tuple[int, str], set[str]] = defaultdict(set)
        for task in of_method:
            top = TOPS[task.scale]
            for unit_id, value in task.answers.items():
                items[(unit_id, task.peer)].append(value / top)
                judges_of[(unit_id, task.peer)].add(task.judge)
        units = list(items.values())
        # A judge with no answer in an item judged twice or more takes no part in alpha.
        compared = set().union(*(judges_of[key] for key, unit in items.items() if len(unit) >= 2))
        presence = method == UnitSet.Method.PRESENCE
        alpha = krippendorff_alpha(units, nominal if presence else interval)
        results.append(
            JudgeAgreement(
                method,
                "nominal" if presence else "interval",
                alpha,
                sum(len(unit) >= 2 for unit in units),
                len(compared),
            )
        )
    return results


def _see(tasks: list[JudgedTask]) -> list[JudgedTask]:
    return [task for task in tasks if task.method == UnitSet.Method.SEE and task.answers]


def coverage_differences(tasks: list[JudgedTask], between: str) -> dict[str, CoverageDifference]:
    """{docset: its average absolute coverage difference} between "models" (the docset's unit
    sets) or "judges" (of one unit set); docsets where no peer has two coverages are left out."""
    if between not in ("models", "judges"):
        raise ValueError('between "models" or "judges"')
    per_docset: defaultdict[str, defaultdict[tuple, list[float]]] = defaultdict(
        lambda: defaultdict(list)
    )
    if between == "judges":
        for task in _see(tasks):
            per_docset[task.docset][(task.unit_set, task.peer)].append(task.coverage)
    else:
        by_model: defaultdict[tuple, list[float]] = defaultdict(list)
        for task in _see(tasks):
            by_model[(task.docset, task.peer, task.unit_set)].append(task.coverage)
        for (docset, peer, _), values in by_model.items():
            per_docset[docset][(peer,)].append(fmean(values))
    found = {}
    for docset, coverages in per_docset.items():
        difference = coverage_difference({str(key): v for key, v in coverages.items()})
        if difference is not None:
            found[docset] = difference
    return found


@dataclass(frozen=True)
class SetCorrelation:
    first: str
    second: str
    systems: int
    r: float | None  # None where undefined (fewer than 3 systems in both, or constant means)
    p: float | None


def system_means_by_set(tasks: list[JudgedTask], grouping: str) -> dict[str, dict[str, float]]:
    """{judgment set: {system: mean coverage}}: each system's mean over its judged peers (a peer's
    coverage per set: the mean of its judges' in that set)."""
    if grouping not in GROUPINGS:
        raise ValueError(f"grouping one of {', '.join(GROUPINGS)}")
    cells: defaultdict[tuple[str, str, str], list[float]] = defaultdict(list)
    for task in _see(tasks):
        name = task.unit_set if grouping == "unit_set" else task.judge
        cells[(name, task.peer, task.docset)].append(task.coverage)
    per_set: defaultdict[str, defaultdict[str, list[float]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for (name, system, _), values in cells.items():
        per_set[name][system].append(fmean(values))
    return {
        name: {system: system_mean(v) for system, v in systems.items()}
        for name, systems in sorted(per_set.items())
    }


def set_correlations(tasks: list[JudgedTask], grouping: str) -> list[SetCorrelation]:
    """Pearson's r of system means between every two judgment sets (Harman & Over 2004 §2.5:
    "the correlation (Pearson's) between median coverage scores for the systems using the two
    extra model sets"; means here, as the system scores are)."""
    means = system_means_by_set(tasks, grouping)
    found = []
    for first, second in itertools.combinations(means, 2):
        systems = sorted(set(means[first]) & set(means[second]))
        result = pearson([means[first][s] for s in systems], [means[second][s] for s in systems])
        r, p = (result[0], result[1]) if result else (None, None)
        found.append(SetCorrelation(first, second, len(systems), r, p))
    return found


def coverage_anova(tasks: list[JudgedTask]) -> list[AnovaRow]:
    """Harman & Over 2004 Table 1 over the SEE judgments: one observation per judge's coverage of
    a peer against a unit set. Empty where the design leaves no residual to test against."""
    see = _see(tasks)
    if len(see) < 3:
        return []
    rows = three_factor_anova(
        [task.coverage for task in see],
        [task.judge for task in see],
        [task.peer for task in see],
        [task.docset for task in see],
    )
    residual = next((row for row in rows if row.source == "resid"), None)
    return rows if residual and residual.df > 0 and not math.isnan(residual.ms) else []


def analyses(tasks) -> dict:
    """Everything above for a queryset of tasks (two queries)."""
    loaded = load_tasks(tasks)
    return {
        "agreement": judge_agreement(loaded),
        "differences_between_models": coverage_differences(loaded, "models"),
        "differences_between_judges": coverage_differences(loaded, "judges"),
        "correlations_between_models": set_correlations(loaded, "unit_set"),
        "correlations_between_judges": set_correlations(loaded, "judge"),
        "anova": coverage_anova(loaded),
    }
