"""Where SCUs stand in a pyramid's order, written with as little as possible (pure, no Django).

An SCU's `position` is only a sort key: positions need not be contiguous (a removal leaves a gap)
but no two SCUs may share one, or their order would be whatever the database returns. A move, an
undo or DUCView's Order gives the order wanted; the SCUs that already stand in that order keep
their positions (the longest run of them), the others take the next free place, and every SCU
moved by the same amount is written by one UPDATE (issue 32: an undo renumbered every SCU of a
128-SCU pyramid, one CASE branch each, half of the action's CPU).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict


def longest_increasing(values: list[int]) -> set[int]:
    """The indices of a longest strictly increasing subsequence of `values` (patience sorting,
    O(n log n))."""
    tails: list[int] = []  # tails[k]: the smallest last value of an increasing run of length k+1
    tail_index: list[int] = []  # the index of that value
    previous: list[int | None] = [None] * len(values)
    for i, value in enumerate(values):
        k = bisect_left(tails, value)
        if k == len(tails):
            tails.append(value)
            tail_index.append(i)
        else:
            tails[k], tail_index[k] = value, i
        previous[i] = tail_index[k - 1] if k else None
    chosen: set[int] = set()
    at: int | None = tail_index[-1] if tail_index else None
    while at is not None:
        chosen.add(at)
        at = previous[at]
    return chosen


def positions_in_order(positions: list[int]) -> list[int]:
    """New positions for SCUs listed in the order wanted (their current `positions`): strictly
    increasing, non-negative, equal to the current ones for a longest run already in order."""
    kept = longest_increasing(positions)
    placed: list[int] = []
    last = -1
    for i, position in enumerate(positions):
        last = position if i in kept and position > last else last + 1
        placed.append(last)
    return placed


def shifts(ids: list[int], old: list[int], new: list[int]) -> dict[int, list[int]]:
    """{amount: ids} of the SCUs whose position changes, by how much it changes: each group is
    one UPDATE (position + amount)."""
    moved: defaultdict[int, list[int]] = defaultdict(list)
    for pk, before, after in zip(ids, old, new, strict=True):
        if before != after:
            moved[after - before].append(pk)
    return dict(moved)
