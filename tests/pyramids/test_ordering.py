"""annotator.pyramids.ordering: the SCUs' positions in the order wanted, moving as few as
possible (issue 32)."""

import random

import pytest

from annotator.pyramids.ordering import longest_increasing, positions_in_order, shifts


def _is_increasing(values):
    return all(a < b for a, b in zip(values, values[1:]))


@pytest.mark.parametrize(
    ("values", "length"),
    [([], 0), ([5], 1), ([3, 1, 2], 2), ([0, 1, 2, 3], 4), ([3, 2, 1, 0], 1), ([2, 2, 2], 1)],
)
def test_the_longest_increasing_run(values, length):
    chosen = sorted(longest_increasing(values))
    assert len(chosen) == length
    assert _is_increasing([values[i] for i in chosen])


def test_the_longest_increasing_run_against_every_subsequence():
    rng = random.Random(7)
    for _ in range(300):
        values = [rng.randrange(8) for _ in range(rng.randrange(1, 9))]
        best = max(
            bin(mask).count("1")
            for mask in range(1, 2 ** len(values))
            if _is_increasing([v for i, v in enumerate(values) if mask >> i & 1])
        )
        assert len(longest_increasing(values)) == best


@pytest.mark.parametrize(
    ("now", "placed"),
    [
        ([0, 1, 2, 3], [0, 1, 2, 3]),  # in order: nothing moves
        ([0, 2, 5, 9], [0, 2, 5, 9]),  # gaps are kept
        ([0, 1, 2, 3, 0], [0, 1, 2, 3, 4]),  # restored with the default position, last: it alone
        ([0, 1, 3, 2, 4], [0, 1, 2, 3, 4]),  # Alt+Up: a swap
        ([0, 4, 1, 2, 3], [0, 1, 2, 3, 4]),  # moved to the second place: the rest shift by one
        ([4, 0, 1, 2, 3], [0, 1, 2, 3, 4]),  # moved to the top
        ([0, 2, 1, 3], [0, 1, 2, 3]),  # an SCU restored at a place taken meanwhile
        ([0, 0, 1], [0, 1, 2]),  # two at one position: never shared
        ([0, 5, 2, 9], [0, 1, 2, 9]),  # moved into a gap
    ],
)
def test_positions_in_order(now, placed):
    assert positions_in_order(now) == placed


def test_positions_in_order_keep_the_longest_run_in_place_where_there_is_room():
    """Increasing and non-negative always; and where the SCUs between two of the longest run
    fit between their positions (so do those before the first), the whole run stays."""
    rng = random.Random(11)
    for _ in range(2000):
        now = [rng.randrange(30) for _ in range(rng.randrange(0, 15))]
        placed = positions_in_order(now)
        assert _is_increasing(placed)
        assert min(placed, default=0) >= 0
        run = sorted(longest_increasing(now))
        bounds = [(-1, -1), *((i, now[i]) for i in run)]
        if all(p - q >= i - j for (j, q), (i, p) in zip(bounds, bounds[1:])):
            assert all(placed[i] == now[i] for i in run)


def test_shifts_group_the_scus_moved_by_one_amount():
    # Moved to the top: that SCU up by 4, the four others down by one; two UPDATEs in all.
    now = [4, 0, 1, 2, 3]
    assert shifts([50, 10, 20, 30, 40], now, positions_in_order(now)) == {
        -4: [50],
        1: [10, 20, 30, 40],
    }
    assert shifts([1, 2], [0, 1], [0, 1]) == {}
