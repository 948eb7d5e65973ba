"""scoring.coverage.scores: presence, SEE coverage, coverage differences and the three-factor ANOVA
(Harman & Over 2004 Table 1), against values computed independently here; the interval alpha
against NLTK."""

import itertools
import math
import random

import numpy as np
import pytest
from nltk.metrics.agreement import AnnotationTask
from nltk.metrics.distance import interval_distance

from scoring.agreement.alpha import interval, krippendorff_alpha, nominal
from scoring.coverage.scores import (
    coverage_difference,
    majority_present,
    presence_score,
    see_coverage,
    three_factor_anova,
)
from tests.scoring.least_squares import judge_system_docset_terms, type_one_sums_of_squares


@pytest.mark.parametrize(
    ("answers", "present"),
    [([True], True), ([False], False), ([True, False], False), ([True, True, False], True),
     ([True, True, False, False], False), ([True, True, True, False], True)],
)  # fmt: skip
def test_majority_is_strictly_more_than_half(answers, present):
    assert majority_present(answers) is present


def test_majority_of_no_answer_is_refused():
    with pytest.raises(ValueError, match="no answer"):
        majority_present([])


def test_presence_is_the_fraction_present_and_weighted_by_weight():
    assert presence_score([True, True, False]) == pytest.approx(2 / 3)
    # weights 4, 1, 1: the present units weigh 5 of 6
    assert presence_score([True, True, False], [4, 1, 1]) == pytest.approx(5 / 6)
    with pytest.raises(ValueError, match="one weight per unit"):
        presence_score([True], [1, 2])


def test_see_coverage_reads_both_scales_as_fractions():
    # all, some, none on the five-point scale: (4 + 2 + 0) / 3 / 4
    assert see_coverage([4, 2, 0], 4) == pytest.approx(0.5)
    assert see_coverage([80, 20, 0, 100], 100) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="no unit"):
        see_coverage([], 4)


def test_coverage_difference_is_the_mean_range_and_its_share_of_the_highest():
    found = coverage_difference({"a": [0.5, 0.2], "b": [0.9, 0.6, 0.3], "alone": [1.0]})
    assert found.peers == 2
    assert found.average == pytest.approx((0.3 + 0.6) / 2)
    assert found.relative == pytest.approx(0.45 / ((0.5 + 0.9) / 2))
    assert coverage_difference({"alone": [1.0]}) is None


def test_interval_alpha_equals_nltk():
    rng = random.Random(7)
    units = [[rng.choice([0, 1, 2, 3, 4]) for _ in range(3)] for _ in range(40)]
    for unit in units[:20]:  # judges who mostly agree
        unit[1] = unit[0] if rng.random() < 0.7 else unit[1]
    ours = krippendorff_alpha([[float(v) for v in u] for u in units], interval)
    data = [(f"j{j}", f"u{i}", v) for i, unit in enumerate(units) for j, v in enumerate(unit)]
    theirs = AnnotationTask(data=data, distance=interval_distance).alpha()
    assert ours == pytest.approx(theirs, abs=1e-9)
    assert not math.isclose(ours, krippendorff_alpha(units, nominal))  # the metric matters


def test_three_factor_anova_matches_sequential_least_squares():
    rng = random.Random(3)
    judges, systems, docsets = ["J1", "J2", "J3"], ["S1", "S2", "S3", "S4"], ["D1", "D2", "D3"]
    cells = list(itertools.product(judges, systems, docsets))
    # two observations a cell (two units' coverage), so that the residual has degrees of freedom
    rows = [(j, s, d) for j, s, d in cells for _ in range(2)]
    effect = {"J1": 0.1, "J2": 0.0, "J3": -0.1, "S1": 0.2, "S2": 0.1, "S3": 0.0, "S4": -0.1}
    y = np.array([0.5 + effect[j] + effect[s] + rng.gauss(0, 0.05) for j, s, _ in rows])
    table = three_factor_anova(list(y), *[list(c) for c in zip(*rows)])

    j, s, d = ([row[i] for row in rows] for i in range(3))
    sums, residual = type_one_sums_of_squares(y, judge_system_docset_terms(j, s, d))
    assert [row.source for row in table] == [
        "judge", "system", "docset", "jud/sys", "jud/ds", "sys/ds", "resid"
    ]  # fmt: skip
    assert [row.df for row in table] == [2, 3, 2, 6, 4, 6, len(rows) - 1 - 23]
    for row, expected in zip(table, [*sums, residual]):
        assert row.ss == pytest.approx(expected, rel=1e-9)
    residual_ms = residual / table[-1].df
    for row in table[:-1]:
        assert row.f == pytest.approx(row.ss / row.df / residual_ms, rel=1e-9)
        assert 0 <= row.p <= 1
    assert table[-1].f is None
    assert table[0].p < 0.001  # the judges' effect is there
    assert table[3].p > 0.01  # no judge/system interaction was put in


def test_three_factor_anova_copes_with_the_designs_real_judgments_make():
    """Found by a tester: judges nested in docsets (each docset its own judges, as in the demo)
    made statsmodels' anova_lm fail ("shapes not aligned") and the whole report with it. The sums
    of squares still equal sequential least squares; the degrees of freedom are the rank each term
    adds, and terms that add nothing are left out."""
    rng = random.Random(5)
    rows = [("J1", s, "D1") for s in ("1", "2", "3")] * 2 + [("J2", s, "D2") for s in ("1", "2")]
    rows += [("J3", "1", "D1"), ("J3", "3", "D2")]
    y = [rng.random() for _ in rows]
    table = three_factor_anova(y, *[list(c) for c in zip(*rows)])
    j, s, d = ([row[i] for row in rows] for i in range(3))
    terms = judge_system_docset_terms(j, s, d)
    sums, residual = type_one_sums_of_squares(y, terms)
    ranks, design = [], np.ones((len(y), 1))
    for columns in terms:
        before = np.linalg.matrix_rank(design)
        design = np.hstack([design, columns])
        ranks.append(np.linalg.matrix_rank(design) - before)
    names = ["judge", "system", "docset", "jud/sys", "jud/ds", "sys/ds"]
    expected = [(n, r, ss) for n, r, ss in zip(names, ranks, sums) if r > 0]
    assert [(row.source, row.df) for row in table[:-1]] == [(n, r) for n, r, _ in expected]
    for row, (_, _, ss) in zip(table, expected):
        assert row.ss == pytest.approx(ss, abs=1e-12)
    assert table[-1].source == "resid"
    assert table[-1].ss == pytest.approx(residual, abs=1e-12)
    assert table[-1].df == len(y) - np.linalg.matrix_rank(design)
