"""scoring.judgments.correlation: scores against human judgments, with p-values that mean
something."""

import math

import numpy as np
import pytest
from scipy import stats

from scoring.judgments.correlation import MIN_PAIRS_FOR_P, correlations, spearman_exact_p


def test_three_pairs_have_coefficients_but_no_p():
    """Issue 17: n = 3 printed Spearman's p as 0.0 (SciPy's t approximation of a perfect
    ranking)."""
    found = correlations([1.0, 0.3158, 0.1579], [5, 3, 2])  # the demo's three peers
    assert MIN_PAIRS_FOR_P == 4
    assert found["spearman"] == (1.0, None)
    assert found["kendall"] == (1.0, None)
    assert found["pearson"][0] == pytest.approx(stats.pearsonr([1.0, 0.3158, 0.1579], [5, 3, 2])[0])
    assert found["pearson"][1] is None
    assert correlations([1, 2], [1, 2]) == {"pearson": None, "spearman": None, "kendall": None}


def test_spearmans_p_is_exact_for_few_pairs():
    found = correlations([1, 2, 3, 4], [10, 20, 30, 40])
    assert found["spearman"] == (1.0, pytest.approx(2 / 24))  # not SciPy's 0.0
    assert found["kendall"] == (1.0, pytest.approx(2 / 24))  # SciPy's exact Kendall agrees
    x, y = [0.1, 0.5, 0.3, 0.3, 0.9, 0.2, 0.7], [2, 4, 3, 5, 5, 1, 4]  # ties too
    exact = stats.permutation_test(
        (x,), lambda a: stats.spearmanr(a, y)[0], permutation_type="pairings", n_resamples=np.inf
    )
    assert (
        spearman_exact_p(x, y) == pytest.approx(exact.pvalue) == correlations(x, y)["spearman"][1]
    )


def test_beyond_eight_pairs_a_perfect_ranking_is_never_p_0():
    n = 9
    coefficient, p = correlations(list(range(n)), [v * 2 for v in range(n)])["spearman"]
    assert coefficient == 1.0
    assert p == pytest.approx(2 / math.factorial(n))
    x, y = list(range(30)), [v + (3 if v % 4 == 0 else 0) for v in range(30)]
    assert correlations(x, y)["spearman"][1] == pytest.approx(stats.spearmanr(x, y)[1])
