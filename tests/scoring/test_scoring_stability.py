"""scoring.stability.analysis: sub-pyramids, scores by pyramid order, error probabilities,
jackknife."""

import pytest

from scoring.scores.pyramid import score_peer
from scoring.stability.analysis import (
    error_probabilities,
    jackknife_model,
    jackknife_peer,
    optimal_summaries,
    order_summaries,
    scores_by_order,
    sub_pyramid,
)

# Three models A, B, C; SCU s1 held by all, s2 by A and B, s3 by C, s4 by A.
PYRAMID = {
    "s1": frozenset("ABC"),
    "s2": frozenset("AB"),
    "s3": frozenset("C"),
    "s4": frozenset("A"),
}
MODELS = ["A", "B", "C"]
PEERS = {"good": ["s1", "s2"], "fair": ["s2", "s4"], "poor": ["s3", None]}


def test_a_sub_pyramid_counts_only_its_models():
    assert sub_pyramid(PYRAMID, "AC") == {"s1": 2, "s2": 1, "s3": 1, "s4": 1}
    assert sub_pyramid(PYRAMID, "B") == {"s1": 1, "s2": 1, "s3": 0, "s4": 0}


def test_scores_at_every_order():
    by_order = scores_by_order(PYRAMID, PEERS, MODELS, score="original")
    assert [len(by_order[n]) for n in (1, 2, 3)] == [3, 3, 1]
    (full,) = by_order[3]
    assert (
        full["good"]
        == score_peer(["s1", "s2"], {"s1": 3, "s2": 2, "s3": 1, "s4": 1}, 3).original
        == 1.0
    )
    summaries = order_summaries(by_order)
    low, mean, high = summaries[0].scores["poor"]
    assert low == 0.0
    assert high == pytest.approx(0.5)
    assert summaries[-1].spearman == pytest.approx(1.0)


def test_error_probabilities_count_pairs_over_pyramids():
    by_order = {
        2: [{"x": 0.50, "y": 0.52, "z": 0.20}],  # the full pyramid: x == y, both above z
        1: [{"x": 0.60, "y": 0.40, "z": 0.30}, {"x": 0.30, "y": 0.30, "z": 0.31}],
    }
    (order1,) = error_probabilities(by_order)
    # x~y: different in the first pyramid (E1), the same in the second: p1 = 1/2.
    # x>z, y>z: the first keeps both; the second makes both the same (E2): p2 = 2/4; nothing
    # reversed.
    assert (order1.p1, order1.p2, order1.p3) == (0.5, 0.5, 0.0)
    assert order1.p == pytest.approx(0.5 * (1 / 3) + 0.5 * (2 / 3))
    assert order1.data_points == 6


def test_figure_2_six_optimal_summaries():
    assert optimal_summaries({4: 2, 3: 4}, 4) == 6
    assert optimal_summaries({4: 2, 3: 4}, 2) == 1
    assert optimal_summaries({4: 2, 3: 4}, 9) == 1


def test_jackknife():
    # Leaving out A: s1 2, s2 1, s3 1; B: s1 2, s2 1, s3 1, s4 1; C: s1 2, s2 2, s4 1.
    expected = (
        sum(
            score_peer(
                ["s1", "s2"], sub_pyramid(PYRAMID, [m for m in MODELS if m != out]), 2
            ).modified
            for out in MODELS
        )
        / 3
    )
    assert jackknife_peer(["s1", "s2"], PYRAMID, MODELS) == pytest.approx(expected)
    # Model C against A and B: its SCUs s1 (2) and s3 (0 there).
    assert (
        jackknife_model("C", PYRAMID, MODELS)
        == score_peer(["s1", "s3"], {"s1": 2, "s2": 2, "s3": 0, "s4": 1}, 2).modified
    )
