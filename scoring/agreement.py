"""Krippendorff's alpha with pluggable distances, vectorised with NumPy. Pure functions, no Django.

Krippendorff (1980), as Passonneau 2009 §4.1.1 uses it: alpha = 1 - D_o / D_e, the observed
disagreement within units over the disagreement expected from all values pooled. With the
coincidence matrix o (o_ck = sum over units u of the number of c-k pairs of values in u, over
m_u - 1, where m_u is the number of values u holds), n_c = sum_k o_ck and n = sum_c n_c:

    D_o = sum_ck o_ck * delta_ck / n
    D_e = sum_ck n_c * n_k * delta_ck / (n * (n - 1))

delta is a distance between values (0 for identity). A distance here takes the list of the
distinct values and returns the matrix of their distances (NumPy, no Python loop over pairs);
`pairwise` turns a two-argument function (NLTK's kind) into one, for values few enough.

Set-valued distances (Passonneau 2009 §4.1.3-4.1.4), for X and Y with intersection I and union U:
    dice        1 - 2|I| / (|X| + |Y|)                          (peer annotation, §4.1.3)
    binary      0 if X = Y else 1  (= nominal)
    jaccard     1 - |I| / |U|
    masi        (1 - J) * M, M = 0, 1/3, 2/3, 1 for identity, subset, overlap, disjoint
                (Passonneau 2009 §4.1.4, the pyramids' distance)
    masi_nltk   1 - J * M', M' = 1, 2/3, 1/3, 0 for the same relations (Passonneau 2006, NLTK's
                masi_distance): another number for the same idea, so it has its own name.
Two empty sets are identical (distance 0).
"""

from __future__ import annotations

from typing import Callable, Hashable, Sequence

import numpy as np
from scipy import sparse

Distance = Callable[[Sequence[Hashable]], np.ndarray]
DENSE_LIMIT = 200_000  # values x elements up to which set statistics use a dense matrix


def krippendorff_alpha(units: Sequence[Sequence[Hashable | None]], distance: Distance) -> float:
    """Krippendorff's alpha over `units`, each the values its annotators gave (None: not coded).

    Units with fewer than two values are not pairable and are left out, as Krippendorff says.
    Returns NaN when alpha is undefined: no pairable unit, or no variation at all (D_e = 0).
    """
    index: dict[Hashable, int] = {}
    columns = [index.setdefault(value, len(index)) for unit in units for value in unit if value is not None]
    if not index:
        return float("nan")
    rows = [u for u, unit in enumerate(units) for value in unit if value is not None]
    counts = np.bincount(np.array(rows) * len(index) + np.array(columns),
                         minlength=len(units) * len(index)).reshape(len(units), len(index)).astype(float)
    pairable = counts.sum(axis=1)
    counts = counts[pairable >= 2]
    if counts.shape[0] == 0:
        return float("nan")
    weighted = counts / (counts.sum(axis=1, keepdims=True) - 1)
    coincidences = weighted.T @ counts - np.diag(weighted.sum(axis=0))
    return alpha_from_coincidences(coincidences, distance(list(index)))


def alpha_from_coincidences(coincidences: np.ndarray, deltas: np.ndarray) -> float:
    """alpha = 1 - D_o / D_e from the coincidence matrix and the values' distance matrix."""
    totals = coincidences.sum(axis=1)
    n = totals.sum()
    if n <= 1:
        return float("nan")
    observed = (coincidences * deltas).sum() / n
    expected = (np.outer(totals, totals) * deltas).sum() / (n * (n - 1))
    if expected == 0:
        return float("nan")
    return float(1 - observed / expected)


# -- distances -------------------------------------------------------------------------------------

def nominal(values: Sequence[Hashable]) -> np.ndarray:
    """0 for equal values, 1 otherwise (categorical data; "Binary" on sets)."""
    codes = np.arange(len(values))
    return (codes[:, None] != codes[None, :]).astype(float)  # the values are distinct by construction


binary = nominal


def _set_statistics(values: Sequence[frozenset]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sizes of every intersection, and each value's size (as column and row), via a sparse
    membership matrix: the product counts shared elements without looking at pairs one by one."""
    elements: dict[Hashable, int] = {}
    rows, columns = [], []
    for v, value in enumerate(values):
        for element in value:
            rows.append(v)
            columns.append(elements.setdefault(element, len(elements)))
    shape = (len(values), max(len(elements), 1))
    if shape[0] * shape[1] <= DENSE_LIMIT:  # small: a dense product costs less than building a sparse one
        membership = np.zeros(shape)
        membership[rows, columns] = 1
        intersections = membership @ membership.T
    else:
        membership = sparse.csr_matrix((np.ones(len(rows)), (rows, columns)), shape=shape)
        intersections = (membership @ membership.T).toarray()
    sizes = np.asarray(membership.sum(axis=1)).ravel()
    return intersections, sizes[:, None], sizes[None, :]


def _safe_ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 1 where both are 0 (two empty sets are identical)."""
    return np.divide(numerator, denominator, out=np.ones_like(numerator, dtype=float), where=denominator > 0)


def dice(values: Sequence[frozenset]) -> np.ndarray:
    intersections, left, right = _set_statistics(values)
    return 1 - _safe_ratio(2 * intersections, left + right)


def jaccard(values: Sequence[frozenset]) -> np.ndarray:
    intersections, left, right = _set_statistics(values)
    return 1 - _safe_ratio(intersections, left + right - intersections)


def _relations(values: Sequence[frozenset]):
    """Jaccard, and which of identity, subset, overlap, disjoint relates each pair (in that order)."""
    intersections, left, right = _set_statistics(values)
    similarity = _safe_ratio(intersections, left + right - intersections)
    identical = (intersections == left) & (intersections == right)
    subset = ~identical & (intersections == np.minimum(left, right))
    overlap = ~identical & ~subset & (intersections > 0)
    return similarity, identical, subset, overlap


def masi(values: Sequence[frozenset]) -> np.ndarray:
    """Passonneau 2009 §4.1.4: (1 - J) * M, M = 0, 1/3, 2/3, 1 (identity, subset, overlap, disjoint)."""
    similarity, identical, subset, overlap = _relations(values)
    scale = np.select([identical, subset, overlap], [0.0, 1 / 3, 2 / 3], default=1.0)
    return (1 - similarity) * scale


def masi_nltk(values: Sequence[frozenset]) -> np.ndarray:
    """Passonneau 2006 and NLTK's masi_distance: 1 - J * M', M' = 1, 2/3, 1/3, 0."""
    similarity, identical, subset, overlap = _relations(values)
    scale = np.select([identical, subset, overlap], [1.0, 2 / 3, 1 / 3], default=0.0)
    return 1 - similarity * scale


def pairwise(function: Callable[[Hashable, Hashable], float]) -> Distance:
    """A distance from a two-argument function (e.g. NLTK's), called once per pair of values."""

    def matrix(values: Sequence[Hashable]) -> np.ndarray:
        return np.array([[function(a, b) for b in values] for a in values], dtype=float)

    return matrix


DISTANCES: dict[str, Distance] = {
    "dice": dice, "binary": binary, "nominal": nominal, "jaccard": jaccard, "masi": masi, "masi_nltk": masi_nltk,
}
