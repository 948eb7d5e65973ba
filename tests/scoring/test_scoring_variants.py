"""scoring.scores.variants: power-mean pyramid scores and the TAC 2008 F-measure."""

import math

import pytest

from scoring.scores.pyramid import max_weight
from scoring.scores.variants import (
    RECALL_PYRAMID,
    RECALL_REFERENCES,
    TAC2008_RECALLS,
    nws_length,
    power_mean,
    power_mean_score,
    tac2008_f_measure,
    tac2008_precision,
    tac2008_pyramid_recall,
    tac2008_recall,
    tac2008_score,
)


def test_the_power_means_special_cases():  # Maskey & Rosenberg Fig. 1
    x = [1, 2, 4]
    assert power_mean(1, x) == pytest.approx(7 / 3)  # arithmetic
    assert power_mean(0, x) == pytest.approx(2.0)  # geometric: (1 * 2 * 4) ** (1/3)
    assert power_mean(-1, x) == pytest.approx(3 / (1 + 1 / 2 + 1 / 4))  # harmonic
    assert power_mean(2, x) == pytest.approx(math.sqrt(21 / 3))  # root mean square
    assert power_mean(-math.inf, x) == 1
    assert power_mean(math.inf, x) == 4
    assert power_mean(-60, x) == pytest.approx(1, abs=0.02)
    assert power_mean(60, x) == pytest.approx(4, abs=0.1)


def test_power_mean_scores_normalise_by_the_best_of_as_many_scus():
    pyramid = [4, 4, 3, 2, 2, 1, 1]
    expressed = [4, 2, 1]
    assert power_mean_score(1, expressed, pyramid) == pytest.approx(
        sum(expressed) / max_weight(pyramid, 3)
    )
    assert power_mean_score(0, expressed, pyramid) == pytest.approx(
        (4 * 2 * 1) ** (1 / 3) / (4 * 4 * 3) ** (1 / 3)
    )
    assert (
        power_mean_score(math.inf, expressed, pyramid) == 1.0
    )  # recall-biased: its best SCU is the best
    assert power_mean_score(-math.inf, expressed, pyramid) == pytest.approx(
        1 / 3
    )  # precision-biased
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


def test_the_two_readings_of_the_tac_2008_recall():
    # Three references; SCU a (weight 3) is in all, b (weight 2) in two, c (weight 1) in one:
    # w(R_1) = 3 + 2 + 1, w(R_2) = 3 + 2, w(R_3) = 3. A response expressing a and c.
    pyramid, references, expressed = [3, 2, 1], [6, 5, 3], [3, 1]
    assert tac2008_recall(expressed, references) == pytest.approx(4 / 14)  # eq. 4 as printed
    assert tac2008_pyramid_recall(expressed, pyramid) == pytest.approx(4 / 6)  # each SCU once
    assert tac2008_pyramid_recall([], []) == tac2008_recall([], []) == 0.0
    # Expressing every SCU reaches recall 1 only when each SCU counts once.
    assert tac2008_pyramid_recall(pyramid, pyramid) == 1.0
    assert tac2008_recall(pyramid, references) < 1
    assert set(TAC2008_RECALLS) == {RECALL_REFERENCES, RECALL_PYRAMID}


def test_the_f_measure_with_the_recall_named():
    pyramid, references, expressed = [3, 2, 1], [6, 5, 3], [3, 1]
    length = 500  # 200 characters allowed for two SCUs: precision 0.4
    for name, recall in ((RECALL_REFERENCES, 4 / 14), (RECALL_PYRAMID, 4 / 6)):
        assert tac2008_score(expressed, pyramid, references, length, name) == pytest.approx(
            tac2008_f_measure(recall, 0.4)
        )
    assert tac2008_score(expressed, pyramid, references, length) == tac2008_score(
        expressed, pyramid, references, length, RECALL_REFERENCES
    )  # today's reading stays the default
    with pytest.raises(ValueError, match="unknown TAC 2008 recall"):
        tac2008_score(expressed, pyramid, references, length, "models")
