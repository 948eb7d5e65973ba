"""scoring.statistics: the tests the papers use, over SciPy."""

import math

import pytest

from scoring.statistics import anova_oneway, pearson


def test_pearson_with_its_interval():
    r, p, low, high = pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])
    assert r == pytest.approx(0.7745967, abs=1e-6) and p == pytest.approx(0.1240, abs=1e-4)
    # Fisher's z: tanh(atanh(r) -/+ 1.96 / sqrt(n - 3)), as R's cor.test computes it.
    assert low == pytest.approx(math.tanh(math.atanh(r) - 1.959964 / math.sqrt(2)), abs=1e-6)
    assert high == pytest.approx(math.tanh(math.atanh(r) + 1.959964 / math.sqrt(2)), abs=1e-6)
    assert pearson([1, 2], [1, 2]) is None and pearson([1, 1, 1], [1, 2, 3]) is None


def test_anova_by_group():
    f, p = anova_oneway({"a": [1, 2, 3], "b": [4, 5, 6]})
    assert f == pytest.approx(13.5) and p == pytest.approx(0.02131, abs=1e-5)
    assert anova_oneway({"a": [1, 3], "b": [3, 1]}) == (0.0, 1.0)  # equal means
    assert anova_oneway({"a": [1, 2]}) is None
