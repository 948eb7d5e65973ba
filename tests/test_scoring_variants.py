"""scoring.variants: power-mean pyramid scores and the TAC 2008 F-measure."""

import math

import pytest

from scoring.pyramid import max_weight
from scoring.variants import (
    nws_length,
    power_mean,
    power_mean_score,
    tac2008_f_measure,
    tac2008_precision,
    tac2008_recall,
)


def test_the_power_means_special_cases():  # Maskey & Rosenberg Fig. 1
    x = [1, 2, 4]
    assert power_mean(1, x) == pytest.approx(7 / 3)  # arithmetic
    assert power_mean(0, x) == pytest.approx(2.0)  # geometric: (1 * 2 * 4) ** (1/3)
    assert power_mean(-1, x) == pytest.approx(3 / (1 + 1 / 2 + 1 / 4))  # harmonic
    assert power_mean(2, x) == pytest.approx(math.sqrt(21 / 3))  # root mean square
    assert power_mean(-math.inf, x) == 1 and power_mean(math.inf, x) == 4
    assert power_mean(-60, x) == pytest.approx(1, abs=0.02) and power_mean(60, x) == pytest.approx(4, abs=0.1)


def test_power_mean_scores_normalise_by_the_best_of_as_many_scus():
    pyramid = [4, 4, 3, 2, 2, 1, 1]
    expressed = [4, 2, 1]
    assert power_mean_score(1, expressed, pyramid) == pytest.approx(sum(expressed) / max_weight(pyramid, 3))
    assert power_mean_score(0, expressed, pyramid) == pytest.approx((4 * 2 * 1) ** (1 / 3) / (4 * 4 * 3) ** (1 / 3))
    assert power_mean_score(math.inf, expressed, pyramid) == 1.0  # recall-biased: its best SCU is the best
    assert power_mean_score(-math.inf, expressed, pyramid) == pytest.approx(1 / 3)  # precision-biased
    assert power_mean_score(0.5, [], pyramid) == 0.0


def test_tac_2008_f_measure():
    assert nws_length(" A b\nc\t") == 3
    assert tac2008_precision(250, 3) == 1.0  # within 300 characters' allowance
    assert tac2008_precision(500, 3) == pytest.approx(1 - 200 / 500)
    recall = tac2008_recall([4, 2], [10, 8, 6])
    assert recall == pytest.approx(6 / 24)
    f = tac2008_f_measure(recall, 0.6)
    assert f == pytest.approx(10 * 0.25 * 0.6 / (9 * 0.6 + 0.25))
    assert tac2008_f_measure(0.0, 0.0) == 0.0
