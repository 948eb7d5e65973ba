"""scoring.statistics.significance: the tests the papers use, over SciPy."""

import math

import pytest

from scoring.statistics.significance import anova_oneway, pearson


def test_pearson_with_its_interval():
    r, p, low, high = pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])
    assert r == pytest.approx(0.7745967, abs=1e-6)
    assert p == pytest.approx(0.1240, abs=1e-4)
    # Fisher's z: tanh(atanh(r) -/+ 1.96 / sqrt(n - 3)), as R's cor.test computes it.
    assert low == pytest.approx(math.tanh(math.atanh(r) - 1.959964 / math.sqrt(2)), abs=1e-6)
    assert high == pytest.approx(math.tanh(math.atanh(r) + 1.959964 / math.sqrt(2)), abs=1e-6)
    assert pearson([1, 2], [1, 2]) is None
    assert pearson([1, 1, 1], [1, 2, 3]) is None


def test_anova_by_group():
    f, p = anova_oneway({"a": [1, 2, 3], "b": [4, 5, 6]})
    assert f == pytest.approx(13.5)
    assert p == pytest.approx(0.02131, abs=1e-5)
    assert anova_oneway({"a": [1, 3], "b": [3, 1]}) == (0.0, 1.0)  # equal means
    assert anova_oneway({"a": [1, 2]}) is None


def test_an_anova_with_no_residual_degrees_of_freedom_has_no_f_and_no_p():
    """One observation per system (one docset): nothing is left to estimate the error with, so F and
    p are undefined, not F = 0 (issue 17)."""
    from scoring.statistics.significance import anova_by_factor

    table = anova_by_factor([0.1, 0.5, 0.3], ["a", "b", "c"])
    assert table.df_factor == 2
    assert table.df_residual == 0
    assert math.isnan(table.f)
    assert math.isnan(table.p)
    assert math.isnan(table.mse)
    # With the docset as a second factor, the same when it uses up what was left.
    table = anova_by_factor([0.1, 0.5, 0.3, 0.2], ["a", "b", "a", "b"], ["d1", "d1", "d2", "d2"])
    assert table.df_residual == 1
    assert table.f == pytest.approx(0.36)


def test_pearson_of_three_pairs_gives_r_without_p_or_interval():
    """Fisher's interval needs n > 3 (SciPy gives -1 to 1 for three pairs): not a result to
    print."""
    r, p, low, high = pearson([1, 2, 3], [1, 2, 3.5])
    assert r == pytest.approx(0.9934, abs=1e-4)
    assert (p, low, high) == (None, None, None)
