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

Several set distances at once (krippendorff_alphas, the pyramids' agreement) never build a V x V
matrix: a distance is only computed for the pairs of values that coincide in a unit (D_o) and for
those that share an element or involve the empty set (D_e). Every other pair of distinct values is
two disjoint non-empty sets, at distance 1 under every distance here, so with n = sum_c n_c

    sum_ck n_c n_k delta_ck = (n^2 - sum_c n_c^2) + sum over those pairs of n_c n_k (delta_ck - 1)

NumPy and SciPy are imported where used: the site imports this module, and must not pay for them
at start-up (issue 19).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

V = TypeVar("V", bound=Hashable)  # the values the annotators give (sets of PSEs, of words, labels)
Matrix: TypeAlias = "npt.NDArray[np.float64]"
# A distance: the matrix of the distances between distinct values, in their order.
Distance: TypeAlias = Callable[[Sequence[V]], Matrix]
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
    """Alpha under several of the set distances named in SET_DISTANCES at once: the coincidences
    and the sets' intersections are computed once for all of them, and only for the pairs of
    values that need them (the module's docstring), never V x V."""
    import numpy as np

    found = coincidences(units)
    if found is None:
        return {name: float("nan") for name in names}
    matrix, values = found
    totals = np.asarray(matrix.sum(axis=1), dtype=np.float64).ravel()
    n = float(totals.sum())
    if n <= 1:
        return {name: float("nan") for name in names}
    observed = _coincident_pairs(matrix)
    sets = _Sets(values)
    coincident = sets.pairs(observed.row, observed.col)
    special = sets.special_pairs()
    weights = totals[special.rows] * totals[special.columns]
    disjoint = n * n - float(totals @ totals)  # every pair of distinct values at distance 1
    alphas = {}
    for name in names:
        distance = SET_DISTANCES[name]
        expected = (disjoint + float(weights @ (distance(special) - 1))) / (n * (n - 1))
        if expected == 0:
            alphas[name] = float("nan")
            continue
        disagreement = float(observed.data @ distance(coincident)) / n
        alphas[name] = float(1 - disagreement / expected)
    return alphas


def grouped_alphas(values: Any, groups: Any, count: int, deltas: Matrix) -> Matrix:
    """Alpha for each of `count` groups of units at once (the peers' agreement: a group per peer,
    per docset, or one for all). `values` is an N x A integer array, a row per unit, the values
    its annotators gave as indices into `deltas` (-1: not coded); `groups[u]` is unit u's group.
    The same alphas krippendorff_alpha gives each group's units, without a call per group:

        D_o = sum over units u of sum over a != b of delta(v_au, v_bu) / (m_u - 1), over n
        D_e = sum_ck n_c n_k delta_ck / (n (n - 1))

    n_c counting the values of the pairable units (m_u >= 2) only. NaN where undefined."""
    import numpy as np

    groups = np.asarray(groups, dtype=np.int64)
    values = np.asarray(values, dtype=np.int64)
    values = values.reshape(len(groups), -1) if len(groups) else np.zeros((0, 1), dtype=np.int64)
    coded = values >= 0
    m = coded.sum(axis=1)
    pairable = m >= 2
    share = np.where(pairable, 1 / np.maximum(m - 1, 1), 0.0)  # each ordered pair's weight
    observed = np.zeros(count)
    for a in range(values.shape[1]):
        for b in range(a + 1, values.shape[1]):
            both = coded[:, a] & coded[:, b] & pairable
            pair = (
                deltas[values[both, a], values[both, b]] + deltas[values[both, b], values[both, a]]
            )
            observed += np.bincount(groups[both], pair * share[both], minlength=count)
    kinds = len(deltas)
    totals = np.zeros((count, kinds))  # n_c per group
    for a in range(values.shape[1]):
        chosen = coded[:, a] & pairable
        totals += np.bincount(
            groups[chosen] * kinds + values[chosen, a], minlength=count * kinds
        ).reshape(count, kinds)
    n = totals.sum(axis=1)
    expected = np.einsum("gc,ck,gk->g", totals, deltas, totals)
    with np.errstate(divide="ignore", invalid="ignore"):
        alphas: Matrix = 1 - (observed / n) / (expected / (n * (n - 1)))
    alphas[(n <= 1) | (expected == 0)] = np.nan
    return alphas


def coincidences(units: Sequence[Sequence[V | None]]) -> tuple[Coincidences, list[V]] | None:
    """The coincidence matrix of the pairable units (sparse: a unit pairs only the few values it
    holds), and the distinct values it is indexed by.

    o_ck = Σ_u (number of c-k pairs in unit u) / (m_u − 1) (Krippendorff 2011, "Computing
    Krippendorff's alpha-reliability", eq. for o_ck). Units that repeat (the same values from the
    same coders, common when few values occur) are counted once and weighted by how often they
    occur.
    """
    import numpy as np
    from scipy import sparse

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
    import numpy as np

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
    import numpy as np
    from scipy import sparse

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
    import numpy as np

    # The values are distinct by construction: 0 on the diagonal only.
    return 1 - np.eye(len(values))


binary = nominal


def interval(values: Sequence[float]) -> Matrix:
    """(c - k)^2: Krippendorff's interval metric (Content Analysis, 2004, §11.4.2), for ratings
    read as equally spaced numbers, e.g. SEE's 0-4 coverage (Harman & Over 2004 §2)."""
    import numpy as np

    numbers = np.asarray(values, dtype=np.float64)
    return (numbers[:, None] - numbers[None, :]) ** 2


def _coincident_pairs(matrix: Coincidences) -> Any:
    """The coincidence matrix's cells that are not 0 and off its diagonal (the diagonal's distance
    is 0), as a scipy.sparse COO matrix (row, col, data)."""
    from scipy import sparse

    cells = sparse.coo_matrix(matrix)
    off = cells.row != cells.col
    return sparse.coo_matrix((cells.data[off], (cells.row[off], cells.col[off])), cells.shape)


class _Sets:
    """Distinct sets as a sparse membership matrix (a row per set, a column per element), to
    count the elements pairs of them share without looking at pairs one by one."""

    def __init__(self, values: Sequence[SetValue]) -> None:
        import numpy as np
        from scipy import sparse

        elements: dict[Hashable, int] = {}
        rows = [v for v, value in enumerate(values) for _ in value]
        columns = [elements.setdefault(e, len(elements)) for value in values for e in value]
        shape = (len(values), max(len(elements), 1))
        self.membership = sparse.csr_matrix((np.ones(len(rows)), (rows, columns)), shape=shape)
        self.sizes: Matrix = np.asarray(self.membership.sum(axis=1), dtype=np.float64).ravel()

    def pairs(self, rows: Any, columns: Any) -> _SetStatistics:
        """The statistics of the pairs (rows[i], columns[i])."""
        import numpy as np

        shared = self.membership[rows].multiply(self.membership[columns]).sum(axis=1)
        statistics = _SetStatistics(
            np.asarray(shared, dtype=np.float64).ravel(), self.sizes[rows], self.sizes[columns]
        )
        statistics.rows, statistics.columns = rows, columns
        return statistics

    def special_pairs(self) -> _SetStatistics:
        """The pairs of distinct values whose distance may not be 1: those that share elements,
        and the empty set with every other (MASI calls it a subset of each: 1/3)."""
        import numpy as np

        shared = (self.membership @ self.membership.T).tocoo()
        off = shared.row != shared.col
        rows, columns, counts = [shared.row[off]], [shared.col[off]], [shared.data[off]]
        for empty in np.flatnonzero(self.sizes == 0):
            others = np.delete(np.arange(len(self.sizes)), empty)
            rows += [np.full(len(others), empty), others]
            columns += [others, np.full(len(others), empty)]
            counts += [np.zeros(len(others))] * 2
        row, column = np.concatenate(rows), np.concatenate(columns)
        statistics = _SetStatistics(
            np.concatenate(counts).astype(np.float64), self.sizes[row], self.sizes[column]
        )
        statistics.rows, statistics.columns = row, column
        return statistics


class _SetStatistics:
    """What the set distances share for some pairs of sets X, Y: |X ∩ Y|, |X| and |Y| (arrays that
    broadcast: a V x V matrix for every pair, or one entry per chosen pair), and from them Jaccard
    and which of identity, subset, overlap, disjoint relates each pair."""

    rows: Any = None  # the pairs' indices, where chosen (_Sets)
    columns: Any = None

    def __init__(self, intersections: Matrix, left: Matrix, right: Matrix) -> None:
        self.intersections = intersections
        self.left = left
        self.right = right

    @classmethod
    def of_every_pair(cls, values: Sequence[SetValue]) -> _SetStatistics:
        """Every pair of `values`: V x V (the distances' matrices, for few values)."""
        import numpy as np

        sets = _Sets(values)
        if sets.membership.shape[0] * sets.membership.shape[1] <= DENSE_LIMIT:
            # small: a dense product costs less than a sparse one
            membership = sets.membership.toarray()
            intersections = membership @ membership.T
        else:
            intersections = (sets.membership @ sets.membership.T).toarray()
        return cls(
            np.asarray(intersections, dtype=np.float64),
            sets.sizes[:, None],
            sets.sizes[None, :],
        )

    @cached_property
    def union(self) -> Matrix:
        return self.left + self.right - self.intersections

    @cached_property
    def jaccard(self) -> Matrix:
        return _safe_ratio(self.intersections, self.union)

    @cached_property
    def identical(self) -> npt.NDArray[np.bool_]:
        identical: npt.NDArray[np.bool_] = (self.intersections == self.left) & (
            self.intersections == self.right
        )
        return identical

    @cached_property
    def scale_index(self) -> npt.NDArray[np.int8]:
        """0 identity, 1 subset, 2 overlap, 3 disjoint (the order both MASIs test them in)."""
        import numpy as np

        identical = self.identical
        subset = ~identical & (self.intersections == np.minimum(self.left, self.right))
        index = np.where(self.intersections > 0, 2, 3).astype(np.int8)
        index[subset] = 1
        index[identical] = 0
        return index


def _safe_ratio(numerator: Matrix, denominator: Matrix) -> Matrix:
    """numerator / denominator, 1 where both are 0 (two empty sets are identical)."""
    import numpy as np

    ratio = np.ones(np.broadcast(numerator, denominator).shape, dtype=np.float64)
    np.divide(numerator, denominator, out=ratio, where=denominator > 0)
    return ratio


def _dice(stats: _SetStatistics) -> Matrix:
    return 1 - _safe_ratio(2 * stats.intersections, stats.left + stats.right)


def _jaccard(stats: _SetStatistics) -> Matrix:
    return 1 - stats.jaccard


MASI_SCALE = (0.0, 1 / 3, 2 / 3, 1.0)  # identity, subset, overlap, disjoint
MASI_NLTK_SCALE = (1.0, 2 / 3, 1 / 3, 0.0)


def _masi(stats: _SetStatistics) -> Matrix:
    import numpy as np

    scale: Matrix = np.array(MASI_SCALE)[stats.scale_index]
    return (1 - stats.jaccard) * scale


def _masi_nltk(stats: _SetStatistics) -> Matrix:
    import numpy as np

    scale: Matrix = np.array(MASI_NLTK_SCALE)[stats.scale_index]
    return 1 - stats.jaccard * scale


def _nominal(stats: _SetStatistics) -> Matrix:
    return 1 - stats.identical.astype("float64")


SET_DISTANCES = {
    "dice": _dice,
    "jaccard": _jaccard,
    "masi": _masi,
    "masi_nltk": _masi_nltk,
    "nominal": _nominal,
    "binary": _nominal,
}


def dice(values: Sequence[SetValue]) -> Matrix:
    """1 - 2|X ∩ Y| / (|X| + |Y|) (Passonneau 2009 §4.1.3)."""
    return _dice(_SetStatistics.of_every_pair(values))


def jaccard(values: Sequence[SetValue]) -> Matrix:
    return _jaccard(_SetStatistics.of_every_pair(values))


def masi(values: Sequence[SetValue]) -> Matrix:
    """Passonneau 2009 §4.1.4: (1 - J) * M, M = 0, 1/3, 2/3, 1 (identity, subset, overlap,
    disjoint)."""
    return _masi(_SetStatistics.of_every_pair(values))


def masi_nltk(values: Sequence[SetValue]) -> Matrix:
    """Passonneau 2006 and NLTK's masi_distance: 1 - J * M', M' = 1, 2/3, 1/3, 0."""
    return _masi_nltk(_SetStatistics.of_every_pair(values))


def pairwise(function: Callable[[V, V], float]) -> Distance[V]:
    """A distance from a two-argument function (e.g. NLTK's), called once per pair of values."""

    def matrix(values: Sequence[V]) -> Matrix:
        import numpy as np

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
