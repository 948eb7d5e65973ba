"""Correlation of scores with human judgments (Pearson, Spearman, Kendall, with p-values), as
Maskey & Rosenberg §5 report them. Pure functions over SciPy.

A p-value needs at least MIN_PAIRS_FOR_P pairs: with three, Pearson's test has one degree of
freedom and its interval spans (-1, 1), and no ranking of three can be significant (the exact p of
a perfect Spearman or Kendall agreement of three is 1/3). The coefficient is still given.
Spearman's p is exact (every permutation of the pairs counted) up to EXACT_SPEARMAN_UP_TO pairs,
where SciPy's t approximation is poor (it gives p = 0 for any perfect agreement); beyond, it is
that approximation, never below 2 / n! (the exact p of a perfect agreement of n pairs).

NumPy and SciPy are imported where used: the site imports this module and must not pay for them at
start-up (issue 19).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from functools import cache
from itertools import permutations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

METHODS = ("pearson", "spearman", "kendall")  # SciPy's pearsonr, spearmanr, kendalltau
MIN_PAIRS_FOR_P = 4
EXACT_SPEARMAN_UP_TO = 8  # 8! = 40,320 permutations


@cache
def _orders(n: int) -> np.ndarray:
    import numpy as np

    return np.array(list(permutations(range(n))), dtype=np.intp)


def spearman_exact_p(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's two-sided p by permutation, as scipy.stats.permutation_test gives it exactly
    (permutation_type="pairings"): twice the smaller share of the n! pairings of x with y whose
    rho is at least, or at most, the observed one; never above 1. Ties take average ranks.

    >>> spearman_exact_p([1, 2, 3], [1, 2, 3])  # 1 of the 6 orders agrees perfectly: 2 x 1/6
    0.3333333333333333
    >>> # rho = 0.9: 5 of 120 orders as high
    >>> round(spearman_exact_p([1, 2, 3, 4, 5], [1, 2, 3, 5, 4]), 4)
    0.0833
    """
    import numpy as np
    from scipy import stats

    rx, ry = stats.rankdata(x), stats.rankdata(y)
    rx, ry = rx - rx.mean(), ry - ry.mean()
    spread = math.sqrt(float(rx @ rx) * float(ry @ ry))
    observed = float(rx @ ry) / spread
    every = (ry[_orders(len(ry))] @ rx) / spread
    tolerance = 1e-12  # the same pairing computed in another order
    at_least, at_most = (
        np.mean(every >= observed - tolerance),
        np.mean(every <= observed + tolerance),
    )
    return float(min(1.0, 2 * min(at_least, at_most)))


def correlations(
    x: Sequence[float], y: Sequence[float]
) -> dict[str, tuple[float, float | None] | None]:
    """{method: (coefficient, two-sided p)}; None where undefined (fewer than 3 pairs, or a
    constant series); p None with fewer than MIN_PAIRS_FOR_P pairs."""
    from scipy import stats

    if len(x) < 3 or len(set(x)) < 2 or len(set(y)) < 2:
        return {name: None for name in METHODS}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = {
            name: [float(v) for v in method(x, y)[:2]]
            for name, method in zip(METHODS, (stats.pearsonr, stats.spearmanr, stats.kendalltau))
        }
    if len(x) < MIN_PAIRS_FOR_P:
        return {name: (coefficient, None) for name, (coefficient, _) in found.items()}
    if len(x) <= EXACT_SPEARMAN_UP_TO:
        found["spearman"][1] = spearman_exact_p(x, y)
    else:  # the t approximation, never below what a perfect agreement of n pairs has: 2 / n!
        found["spearman"][1] = max(found["spearman"][1], 2 / math.factorial(len(x)))
    return {name: (coefficient, p) for name, (coefficient, p) in found.items()}
