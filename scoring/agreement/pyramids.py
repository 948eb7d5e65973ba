"""Krippendorff's alpha for pyramids of the same model summaries (Passonneau 2009 §4.1.4), for
every docset of a collection at once. Pure functions, no Django.

A unit is a word u some annotator put in an SCU; annotator a's value for it is X - {u}, X the
words of the SCUs a put u in (scoring.agreement.units.pyramid_units says it with sets). The
words a put in the same SCUs form a class K, with the same X_K (the empty set for the words a
put in none: their value is empty). So every value is its class's X_K less the word itself, and
any two values, (K, u) and (L, v), share |X_K ∩ X_L - {u, v}| words: I_KL = |X_K ∩ X_L|, less 1
for each of u, v in X_K ∩ X_L (once if u = v). A docset has a few hundred classes against
thousands of values, so alpha's sums (scoring.agreement.alpha's docstring) are taken over pairs of
classes, with the number of pairs of values of each kind:

    sum_ck n_c n_k delta_ck = sum over every pair of values (i, j) of delta(v_i, v_j)
    D_o = sum over units of sum over a != b of delta(v_au, v_bu) / (A - 1) / n
    alpha = 1 - D_o / D_e,  D_e = sum_ck n_c n_k delta_ck / (n (n - 1))

with n = A U values (every annotator gives every unit a value). Two classes that share no word
are two disjoint non-empty sets, at distance 1 under every set distance, and are counted without
being paired.

Every docset of a collection is computed in one pass: its words, SCUs and classes are blocks of
the same sparse matrices, and each sum is split by docset at the end. A collection of a thousand
docsets costs a few large sparse products rather than a thousand rounds of small ones, where
SciPy's bookkeeping was nearly all the time (issue 32: `agreement --kind pyramids` at 50 DUC
years, 14 s -> under 2 s).

NumPy and SciPy are imported where used: the site imports this module and must not pay for them
at start-up (issue 19).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.agreement.alpha import SET_DISTANCES, _SetStatistics
from scoring.agreement.units import counted_within

DocsetAlphas = tuple[Any, dict[str, Any]]
CHUNK = 64  # docsets computed together  # units per docset, alphas per distance name per docset


def pyramid_alphas(incidences: Sequence[Any], names: Sequence[str]) -> tuple[int, dict[str, float]]:
    """The number of units and the alphas under the set distances `names` of one docset's
    pyramids, from each annotator's W x S word-SCU incidence matrix (a row per word of the
    models in order, a column per SCU): what krippendorff_alphas(pyramid_units(...)) gives, to
    1e-12. ValueError if the pyramids' models do not have the same words."""
    import numpy as np

    if len({b.shape[0] for b in incidences}) != 1:
        raise ValueError("the pyramids are not built from the same model summaries")
    owners, words, scus = [], [], []
    for a, incidence in enumerate(incidences):
        cells = incidence.tocoo()
        owners.append(np.full(cells.nnz, a))
        words.append(cells.row)
        scus.append(cells.col)
    units, alphas = docset_pyramid_alphas(
        [incidences[0].shape[0]],
        np.zeros(len(incidences), dtype=np.int64),
        np.concatenate(owners),
        np.concatenate(words),
        np.concatenate(scus),
        names,
    )
    return int(units[0]), {name: float(values[0]) for name, values in alphas.items()}


def docset_pyramid_alphas(
    docset_words: Any,
    owner_docset: Any,
    owner: Any,
    word: Any,
    scu: Any,
    names: Sequence[str],
) -> DocsetAlphas:
    """Units and alphas of every docset at once. Docset d's models have docset_words[d] words in
    all (numbered from 0, the models in order); its annotators are the owners o with
    owner_docset[o] == d (every annotator of a docset gives every unit a value, so two or more
    are needed); and (owner[i], word[i], scu[i]) says that annotator owner[i] put word[i] of its
    docset in its SCU scu[i] (SCUs are numbered per owner, any non-negative integers; repeats
    count once). Returns each docset's number of units and, per name, its alphas (NaN for a
    docset with fewer than two annotators, no unit, or no expected disagreement).

    The docsets are taken CHUNK at a time: arrays of a few hundred thousand pairs stay in the
    processor's cache, and cost half as much as the whole collection's at once."""
    import numpy as np

    docset_words = np.asarray(docset_words, dtype=np.int64)
    owner_docset = np.asarray(owner_docset, dtype=np.int64)
    owner, word, scu = (np.asarray(a, dtype=np.int64) for a in (owner, word, scu))
    entries = np.argsort(owner_docset[owner], kind="stable")
    entry_docset = owner_docset[owner][entries]
    owners = np.argsort(owner_docset, kind="stable")
    units = np.zeros(len(docset_words), dtype=np.int64)
    alphas = {name: np.full(len(docset_words), np.nan) for name in names}
    for low in range(0, len(docset_words), CHUNK):
        high = min(low + CHUNK, len(docset_words))
        in_chunk = np.searchsorted(owner_docset[owners], [low, high])
        mine = owners[in_chunk[0] : in_chunk[1]]
        chosen = entries[np.searchsorted(entry_docset, low) : np.searchsorted(entry_docset, high)]
        renumbered = np.empty(len(owner_docset), dtype=np.int64)
        renumbered[mine] = np.arange(len(mine))
        units[low:high], found = _chunk_alphas(
            docset_words[low:high],
            owner_docset[mine] - low,
            renumbered[owner[chosen]],
            word[chosen],
            scu[chosen],
            names,
        )
        for name in names:
            alphas[name][low:high] = found[name]
    return units, alphas


def _chunk_alphas(
    docset_words: Any, owner_docset: Any, owner: Any, word: Any, scu: Any, names: Sequence[str]
) -> DocsetAlphas:
    """docset_pyramid_alphas for a few docsets: their words, SCUs and classes are blocks of the
    same sparse matrices, and each sum is split by docset at the end."""
    import numpy as np
    from scipy import sparse

    docsets, owners = len(docset_words), len(owner_docset)  # int64 arrays, as the caller gives
    word_base = np.concatenate([[0], np.cumsum(docset_words)])
    total_words = int(word_base[-1])
    global_word = word_base[owner_docset[owner]] + word

    # Each owner's SCUs numbered 0..S-1 across owners; each (SCU, word) once.
    scu_key = owner * (int(scu.max(initial=0)) + 1) + scu
    scu_names, scu_index = np.unique(scu_key, return_inverse=True)
    scu_owner = scu_names // (int(scu.max(initial=0)) + 1)
    cell = _distinct(scu_index.ravel() * total_words + global_word)
    cell_scu, cell_word = np.divmod(cell, total_words)
    scu_words = _binary(cell_scu, cell_word, (len(scu_names), total_words))

    # The units: the words some annotator of their docset put in an SCU, in order (so by docset).
    unit_word = _distinct(cell_word)
    unit_docset = np.searchsorted(word_base, unit_word, side="right") - 1
    units = np.bincount(unit_docset, minlength=docsets)
    unit_base = np.concatenate([[0], np.cumsum(units)])
    annotators = np.bincount(owner_docset, minlength=docsets)

    # A row per (owner, unit of its docset): the value the owner gives the unit.
    per_owner = units[owner_docset]
    row_owner = np.repeat(np.arange(owners), per_owner)
    row_unit = unit_base[owner_docset][row_owner] + counted_within(per_owner)
    row_base = np.concatenate([[0], np.cumsum(per_owner)])
    # The SCUs of each row: a cell's word is a unit of the SCU owner's docset.
    unit_of_cell = np.searchsorted(unit_word, cell_word)
    owner_of_cell = scu_owner[cell_scu]
    cell_row = row_base[owner_of_cell] + unit_of_cell - unit_base[owner_docset[owner_of_cell]]

    of_row, first = _classes(row_owner, cell_row, cell_scu)
    classes = len(first)
    # The classes in docset order (the owners are not), so that a docset's classes are a range.
    class_docset = owner_docset[row_owner[first]]
    order = np.argsort(class_docset, kind="stable")
    rank = np.empty(classes, dtype=np.int64)
    rank[order] = np.arange(classes)
    of_row, first, class_docset = rank[of_row], first[order], class_docset[order]
    class_owner = row_owner[first]

    # X_K: the words of the class's SCUs (those of its first row), as a class x word matrix.
    is_first = np.zeros(len(of_row), dtype=bool)
    is_first[first] = True
    chosen = is_first[cell_row]
    class_scus = _binary(of_row[cell_row[chosen]], cell_scu[chosen], (classes, len(scu_names)))
    x = _binary_of(class_scus @ scu_words)
    # Each class's units (the words whose value it is).
    m = _binary(of_row, unit_word[row_unit], (classes, total_words))

    size = np.asarray(x.sum(axis=1)).ravel()
    size -= size > 0  # |X_K - {u}|: u is in X_K, unless X_K is empty
    count = np.bincount(of_row, minlength=classes).astype(np.float64)  # the class's values
    has_words = np.diff(x.indptr) > 0  # X_K is not empty: it holds every unit of K
    inside = sparse.diags(has_words.astype(np.float64)) @ m  # K's units in X_K
    empty = size == 0  # the classes whose values are all the empty set
    # The pairs of classes that share words or units (of one docset: two docsets share neither).
    # Every other pair of values is two disjoint sets: at distance 1 if neither is empty, and
    # counted below, without being paired, if one is. Every sum below is symmetric in K and L:
    # the pairs K <= L are taken, those K < L twice.
    shared = sparse.triu(x @ x.T, format="csr")
    both_units, both_in = _shared_units(of_row, row_base, owner_docset, units, has_words)
    pattern = _binary_of(shared + both_units)
    row = np.repeat(np.arange(classes), np.diff(pattern.indptr))
    col = pattern.indices.astype(np.int64)

    def at(matrix: Any) -> Any:
        """The entries of the upper triangle of `matrix` (its pattern within `pattern`) at the
        pairs (row, col), in their order: added to the pattern's ones, it has the pattern's
        cells, in the same (canonical) order."""
        summed = (sparse.triu(matrix, format="csr") + pattern).tocsr()
        summed.sort_indices()
        return summed.data - 1

    intersections = at(shared)  # I_KL
    p_kl = inside @ x.T  # the units of K in X_K ∩ X_L
    p, pt = at(p_kl), at(p_kl.T)
    q = at(both_in + sparse.diags(count * has_words))  # units of K and L in X_K ∩ X_L
    both = at(both_units)  # the units of both K and L
    ck, cl = count[row], count[col]
    other = class_owner[row] != class_owner[col]
    twice = np.where(row == col, 1.0, 2.0)
    with_empty = empty[row] | empty[col]
    # The pairs of values (u of K, v of L) by the words their intersection loses (0, 1, 2);
    # those of one unit from two annotators (u = v: 0 or 1). A pair with an empty value loses
    # nothing: its intersection is empty.
    loses = [
        (
            np.where(with_empty, 0, (ck - p) * (cl - pt)),
            np.where(other, np.where(with_empty, both, both - q), 0),
        ),
        (
            np.where(with_empty, 0, q + p * (cl - pt) + (ck - p) * pt),
            np.where(other & ~with_empty, q, 0),
        ),
        (np.where(with_empty, 0, p * pt - q), np.zeros(len(row))),
    ]
    n = (annotators * units).astype(np.float64)

    # The pairs in row order are in docset order (so are the classes): a docset's are a range.
    class_base = np.searchsorted(class_docset, np.arange(docsets + 1))
    starts = np.searchsorted(row, class_base[:-1])
    has_pairs = starts < np.searchsorted(row, class_base[1:])

    def by_docset(weights: Any) -> Any:
        """Each docset's sum of `weights` (one per pair), each pair K < L counted twice."""
        sums = np.zeros(docsets)
        if len(row):
            sums[has_pairs] = np.add.reduceat(weights * twice, starts[has_pairs])
        return sums

    statistics = []
    for lost, (pairs, observed) in enumerate(loses):
        stats = _SetStatistics(np.where(with_empty, 0, intersections - lost), size[row], size[col])
        statistics.append((stats, pairs, observed))
    # The pairs of two non-empty values not paired above: disjoint, at distance 1.
    full = np.bincount(class_docset, weights=np.where(empty, 0, count), minlength=docsets)
    disjoint = full * full - by_docset(np.where(with_empty, 0, ck * cl))
    # The pairs of an empty value (every class's empty values, per docset) with any other: the
    # distance depends only on the other's size (the empty set's intersection with it is empty).
    empties = np.bincount(class_docset, weights=np.where(empty, count, 0), minlength=docsets)
    with_an_empty = _SetStatistics(np.zeros(classes), np.zeros(classes), size.astype(np.float64))
    its_mirror = _SetStatistics(np.zeros(classes), size.astype(np.float64), np.zeros(classes))
    defined = (annotators >= 2) & (units > 0)
    alphas = {}
    for name in names:
        distance = SET_DISTANCES[name]
        expected, observed_sum = disjoint.copy(), np.zeros(docsets)
        for stats, pairs, observed in statistics:
            deltas = distance(stats)
            expected += by_docset(pairs * deltas)
            observed_sum += by_docset(observed * deltas)
        # (empty value, a value of L) and (a value of L, empty value), for every class L; an
        # empty L's pairs with the empty values of the others are at distance 0.
        weight = np.bincount(
            class_docset,
            weights=count * (distance(with_an_empty) + distance(its_mirror)),
            minlength=docsets,
        )
        expected += empties * weight
        with np.errstate(divide="ignore", invalid="ignore"):
            alpha = 1 - (observed_sum / ((annotators - 1) * n)) / (expected / (n * (n - 1)))
        alpha[~defined | (expected == 0)] = np.nan
        alphas[name] = alpha
    return units, alphas


def _shared_units(
    of_row: Any, row_base: Any, owner_docset: Any, units: Any, has_words: Any
) -> tuple[Any, Any]:
    """For each pair of classes K < L, the units they share (the values two annotators gave the
    same unit), and those of them in both X_K and X_L (both classes have words: each holds its
    units), as upper triangular matrices; from each unit's class per annotator, without a
    product. (A class shares no unit with another class of its annotator.)"""
    import numpy as np
    from scipy import sparse

    owners = np.argsort(owner_docset, kind="stable")
    pairs: list[tuple[int, int]] = []  # each docset's pairs of annotators
    for docset in range(len(units)):
        mine = owners[owner_docset[owners] == docset].tolist()
        pairs += [(a, b) for i, a in enumerate(mine) for b in mine[i + 1 :]]
    first, second = np.array(pairs, dtype=np.int64).reshape(-1, 2).T
    lengths = units[owner_docset[first]]
    within = counted_within(lengths)
    one = of_row[np.repeat(row_base[first], lengths) + within]
    other = of_row[np.repeat(row_base[second], lengths) + within]
    low, high = np.minimum(one, other), np.maximum(one, other)
    classes = len(has_words)
    both = sparse.csr_matrix((np.ones(len(low)), (low, high)), shape=(classes, classes))
    inner = has_words[low] & has_words[high]
    both_in = sparse.csr_matrix(
        (np.ones(int(inner.sum())), (low[inner], high[inner])), shape=(classes, classes)
    )
    return both, both_in


def _classes(row_owner: Any, cell_row: Any, cell_scu: Any) -> tuple[Any, Any]:
    """The class of each row (rows of one owner with the same set of SCUs) and each class's first
    row. The sets are told apart by a random 64-bit sum of their SCUs, salted by owner (an empty
    set is its owner's own), and the classes then checked exactly: every row of a class has the
    class's size, and the class holds as many distinct SCUs. A collision (~ rows² / 2^64) is
    caught, and the sums drawn again."""
    import numpy as np

    rows = len(row_owner)
    sizes = np.bincount(cell_row, minlength=rows)
    for seed in range(8):
        rng = np.random.default_rng(seed)
        salt = rng.integers(0, 2**63, size=int(row_owner.max(initial=0)) + 1, dtype=np.uint64)
        weight = rng.integers(0, 2**63, size=int(cell_scu.max(initial=0)) + 1, dtype=np.uint64)
        digest = salt[row_owner].copy()
        np.add.at(digest, cell_row, weight[cell_scu])
        _, first, of_row = np.unique(digest, return_index=True, return_inverse=True)
        of_row = of_row.ravel()
        same_owner = np.array_equal(row_owner, row_owner[first][of_row])
        same_size = np.array_equal(sizes, sizes[first][of_row])
        distinct = _distinct(of_row[cell_row] * (int(cell_scu.max(initial=0)) + 1) + cell_scu)
        held = np.bincount(distinct // (int(cell_scu.max(initial=0)) + 1), minlength=len(first))
        if same_owner and same_size and np.array_equal(held, sizes[first]):
            return of_row, first
    raise RuntimeError("the classes of words could not be told apart")  # pragma: no cover


def _distinct(values: Any) -> Any:
    """The distinct values, sorted: np.unique by a sort (NumPy 2's np.unique hashes integers
    without return_* options, 80 times slower on millions of them)."""
    import numpy as np

    ordered = np.sort(np.asarray(values).ravel())
    return ordered[np.concatenate([ordered[:1] == ordered[:1], ordered[1:] != ordered[:-1]])]


def _binary(rows: Any, columns: Any, shape: tuple[int, int]) -> Any:
    """A 0/1 CSR matrix with ones at (rows, columns), repeats counted once."""
    import numpy as np
    from scipy import sparse

    return _binary_of(sparse.csr_matrix((np.ones(len(rows)), (rows, columns)), shape=shape))


def _binary_of(matrix: Any) -> Any:
    matrix = matrix.tocsr()
    matrix.sum_duplicates()
    matrix.data[:] = 1
    return matrix
