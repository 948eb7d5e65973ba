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

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from scipy import sparse

V = TypeVar("V", bound=Hashable)  # the values the annotators give (sets of PSEs, of words, labels)
Matrix = npt.NDArray[np.float64]
# A distance: the matrix of the distances between distinct values, in their order.
Distance = Callable[[Sequence[V]], Matrix]
Coincidences = Any  # a coincidence matrix: a dense Matrix or a scipy.sparse.csr_matrix (untyped)
SetValue = frozenset[Hashable]  # a value of the set distances (a PSE count's set, an SCU's words)
DENSE_LIMIT = 200_000  # values x elements up to which set statistics use a dense matrix
FEW_DISTINCT_UNITS = 100  # up to which coincidences are summed per distinct unit, in Python


def krippendorff_alpha(units: Sequence[Sequence[V | None]], distance: Distance[V]) -> float:
    """Krippendorff's alpha over `units`, each the values its annotators gave (None: not coded).

    Units with fewer than two values are not pairable and are left out, as Krippendorff says.
    Returns NaN when alpha is undefined: no pairable unit, or no variation at all (D_e = 0).
    """
    found = coincidences(units)
    if found is None:
        return float("nan")
    matrix, values = found
    return alpha_from_coincidences(matrix, distance(values))


def krippendorff_alphas(
    units: Sequence[Sequence[SetValue | None]], names: Sequence[str]
) -> dict[str, float]:
    """Alpha under several of the set distances named in DISTANCES at once: the coincidences and
    the sets' intersections are computed once for all of them."""
    found = coincidences(units)
    if found is None:
        return {name: float("nan") for name in names}
    matrix, values = found
    statistics = _SetStatistics(values)
    return {
        name: alpha_from_coincidences(matrix, SET_DISTANCES[name](statistics))
        if name in SET_DISTANCES
        else alpha_from_coincidences(matrix, DISTANCES[name](values))
        for name in names
    }


def coincidences(units: Sequence[Sequence[V | None]]) -> tuple[Coincidences, list[V]] | None:
    """The coincidence matrix of the pairable units (sparse: a unit pairs only the few values it
    holds), and the distinct values it is indexed by.

    o_ck = Σ_u (number of c-k pairs in unit u) / (m_u − 1) (Krippendorff 2011, "Computing
    Krippendorff's alpha-reliability", eq. for o_ck). Units that repeat (the same values from the
    same coders, common when few values occur) are counted once and weighted by how often they
    occur.
    """
    distinct = Counter(map(tuple, units))  # counted in C: cheap beside everything below
    if len(distinct) <= FEW_DISTINCT_UNITS:
        return _coincidences_of_distinct(distinct)
    index: dict[V, int] = {}
    columns = [
        index.setdefault(value, len(index)) for unit in units for value in unit if value is not None
    ]
    if not index:
        return None
    rows = [u for u, unit in enumerate(units) for value in unit if value is not None]
    if (
        len(units) * len(index) <= DENSE_LIMIT
    ):  # small: dense arrays cost less than sparse bookkeeping
        counts = (
            np.bincount(
                np.array(rows) * len(index) + np.array(columns), minlength=len(units) * len(index)
            )
            .reshape(len(units), len(index))
            .astype(float)
        )
        counts = counts[counts.sum(axis=1) >= 2]
        if counts.shape[0] == 0:
            return None
        weighted = counts / (counts.sum(axis=1, keepdims=True) - 1)
        return weighted.T @ counts - np.diag(weighted.sum(axis=0)), list(index)
    counts = sparse.csr_matrix(
        (np.ones(len(rows)), (rows, columns)), shape=(len(units), len(index))
    )
    pairable = np.asarray(counts.sum(axis=1)).ravel()
    counts = counts[pairable >= 2]
    if counts.shape[0] == 0:
        return None
    weighted = sparse.diags(1 / (pairable[pairable >= 2] - 1)) @ counts
    matrix = (weighted.T @ counts).tocsr() - sparse.diags(np.asarray(weighted.sum(axis=0)).ravel())
    return sparse.csr_matrix(matrix), list(index)


def _coincidences_of_distinct(
    distinct: Counter[tuple[V | None, ...]],
) -> tuple[Matrix, list[V]] | None:
    """coincidences() for few distinct units: their pairs summed in Python, no array per unit."""
    index: dict[V, int] = {}
    cells: dict[tuple[int, int], float] = {}
    for unit, times in distinct.items():
        coded = [index.setdefault(value, len(index)) for value in unit if value is not None]
        if len(coded) < 2:
            continue
        weight = times / (len(coded) - 1)
        if len(coded) == 2:  # the usual unit: two coders
            a, b = coded
            cells[a, b] = cells.get((a, b), 0.0) + weight
            cells[b, a] = cells.get((b, a), 0.0) + weight
            continue
        for i, a in enumerate(coded):
            for j, b in enumerate(coded):
                if i != j:
                    cells[a, b] = cells.get((a, b), 0.0) + weight
    if not cells:
        return None
    matrix = np.zeros((len(index), len(index)))
    for (a, b), value in cells.items():
        matrix[a, b] = value
    return matrix, list(index)


def alpha_from_coincidences(coincidences: Coincidences, deltas: Matrix) -> float:
    """alpha = 1 - D_o / D_e from the coincidence matrix (dense or sparse) and the values'
    distance matrix. D_e's double sum is the quadratic form n' delta n (no V x V product built)."""
    totals = np.asarray(coincidences.sum(axis=1)).ravel()
    n = totals.sum()
    if n <= 1:
        return float("nan")
    observed = (
        coincidences.multiply(deltas).sum()
        if sparse.issparse(coincidences)
        else (coincidences * deltas).sum()
    ) / n
    expected = float(totals @ (deltas @ totals)) / (n * (n - 1))
    if expected == 0:
        return float("nan")
    return float(1 - observed / expected)


# -- distances -------------------------------------------------------------------------------------


def nominal(values: Sequence[Hashable]) -> Matrix:
    """0 for equal values, 1 otherwise (categorical data; "Binary" on sets)."""
    # The values are distinct by construction: 0 on the diagonal only.
    return 1 - np.eye(len(values))


binary = nominal


class _SetStatistics:
    """What the set distances share, computed once: every intersection's size (a sparse
    membership product counts shared elements without looking at pairs one by one), each value's
    size, Jaccard, and which of identity, subset, overlap, disjoint relates each pair."""

    def __init__(self, values: Sequence[SetValue]) -> None:
        elements: dict[Hashable, int] = {}
        rows: list[int] = []
        columns: list[int] = []
        self.intersections: Matrix
        for v, value in enumerate(values):
            for element in value:
                rows.append(v)
                columns.append(elements.setdefault(element, len(elements)))
        shape = (len(values), max(len(elements), 1))
        if (
            shape[0] * shape[1] <= DENSE_LIMIT
        ):  # small: a dense product costs less than building a sparse one
            membership = np.zeros(shape)
            membership[rows, columns] = 1
            self.intersections = membership @ membership.T
        else:
            membership = sparse.csr_matrix((np.ones(len(rows)), (rows, columns)), shape=shape)
            self.intersections = (membership @ membership.T).toarray()
        sizes: Matrix = np.asarray(membership.sum(axis=1), dtype=np.float64).ravel()
        self.left: Matrix = sizes[:, None]
        self.right: Matrix = sizes[None, :]

    @cached_property
    def union(self) -> Matrix:
        return self.left + self.right - self.intersections

    @cached_property
    def jaccard(self) -> Matrix:
        return _safe_ratio(self.intersections, self.union)

    @cached_property
    def scale_index(self) -> npt.NDArray[np.int8]:
        """0 identity, 1 subset, 2 overlap, 3 disjoint (the order both MASIs test them in)."""
        identical = (self.intersections == self.left) & (self.intersections == self.right)
        subset = ~identical & (self.intersections == np.minimum(self.left, self.right))
        index = np.where(self.intersections > 0, 2, 3).astype(np.int8)
        index[subset] = 1
        index[identical] = 0
        return index


def _safe_ratio(numerator: Matrix, denominator: Matrix) -> Matrix:
    """numerator / denominator, 1 where both are 0 (two empty sets are identical)."""
    ratio = np.ones_like(numerator, dtype=np.float64)
    np.divide(numerator, denominator, out=ratio, where=denominator > 0)
    return ratio


def _dice(stats: _SetStatistics) -> Matrix:
    return 1 - _safe_ratio(2 * stats.intersections, stats.left + stats.right)


def _jaccard(stats: _SetStatistics) -> Matrix:
    return 1 - stats.jaccard


MASI_SCALE: Matrix = np.array([0.0, 1 / 3, 2 / 3, 1.0])  # identity, subset, overlap, disjoint
MASI_NLTK_SCALE: Matrix = np.array([1.0, 2 / 3, 1 / 3, 0.0])


def _masi(stats: _SetStatistics) -> Matrix:
    return (1 - stats.jaccard) * MASI_SCALE[stats.scale_index]


def _masi_nltk(stats: _SetStatistics) -> Matrix:
    return 1 - stats.jaccard * MASI_NLTK_SCALE[stats.scale_index]


SET_DISTANCES = {"dice": _dice, "jaccard": _jaccard, "masi": _masi, "masi_nltk": _masi_nltk}


def dice(values: Sequence[SetValue]) -> Matrix:
    """1 - 2|X ∩ Y| / (|X| + |Y|) (Passonneau 2009 §4.1.3)."""
    return _dice(_SetStatistics(values))


def jaccard(values: Sequence[SetValue]) -> Matrix:
    return _jaccard(_SetStatistics(values))


def masi(values: Sequence[SetValue]) -> Matrix:
    """Passonneau 2009 §4.1.4: (1 - J) * M, M = 0, 1/3, 2/3, 1 (identity, subset, overlap,
    disjoint)."""
    return _masi(_SetStatistics(values))


def masi_nltk(values: Sequence[SetValue]) -> Matrix:
    """Passonneau 2006 and NLTK's masi_distance: 1 - J * M', M' = 1, 2/3, 1/3, 0."""
    return _masi_nltk(_SetStatistics(values))


def pairwise(function: Callable[[V, V], float]) -> Distance[V]:
    """A distance from a two-argument function (e.g. NLTK's), called once per pair of values."""

    def matrix(values: Sequence[V]) -> Matrix:
        return np.array([[function(a, b) for b in values] for a in values], dtype=float)

    return matrix


DISTANCES: dict[str, Distance[SetValue]] = {
    "dice": dice,
    "binary": binary,
    "nominal": nominal,
    "jaccard": jaccard,
    "masi": masi,
    "masi_nltk": masi_nltk,
}
