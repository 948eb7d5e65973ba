"""scoring.agreement.alpha and scoring.agreement.units: the paper's worked numbers, and NLTK's
alpha."""

import math
import random

import numpy as np
import pytest
from nltk.metrics import masi_distance
from nltk.metrics.agreement import AnnotationTask

from annotator.text.words import word_scus, words, words_of_texts
from scoring.agreement import pyramids as agreement_pyramids
from scoring.agreement.alpha import (
    DISTANCES,
    dice,
    grouped_alphas,
    krippendorff_alpha,
    krippendorff_alphas,
    masi,
    masi_nltk,
    nominal,
    pairwise,
)
from scoring.agreement.pyramids import docset_pyramid_alphas, pyramid_alphas
from scoring.agreement.units import peer_units, pse_values, pyramid_units, span_words

# Passonneau 2009 Fig. 4: the PSEs two annotators found per SCU in one peer summary.
A1 = {1: 2, 3: 2, 4: 1, 7: 1, 17: 2, 19: 1, 23: 1, 34: 1}
A2 = {1: 2, 3: 1, 4: 1, 7: 1, 17: 0, 19: 1, 23: 1, 34: 0}


def test_figure_4_alphas():
    units = peer_units([A1, A2])
    assert len(units) == 8
    assert round(krippendorff_alpha(units, dice), 2) == 0.15
    assert round(krippendorff_alpha(units, nominal), 2) == 0.34  # Binary
    assert (
        round(krippendorff_alpha(peer_units([A1, A2], reduced=True), nominal), 2) == -0.07
    )  # Binary′


def test_figure_4_distances():
    row = dice([pse_values(2), pse_values(1), pse_values(0)])
    assert row[0, 1] == pytest.approx(1 / 3)
    assert row[0, 2] == 1
    assert row[2, 2] == 0


def test_figures_5_and_6_masi():
    a1 = frozenset([*range(1, 7), *range(10, 15), *range(21, 33)])  # N = 23
    a2 = frozenset(range(1, 39))  # N = 38: a subset relation
    assert len(a1) == 23
    assert masi([a1, a2])[0, 1] == pytest.approx((1 - 23 / 38) / 3)
    assert round(masi([a1, a2])[0, 1], 2) == 0.13
    scu94, scu39 = (
        frozenset(range(0, 40)),
        frozenset(range(33, 61)),
    )  # 7 shared of 61: set difference
    assert round(masi([scu94, scu39])[0, 1], 2) == 0.59
    assert masi_nltk([scu94, scu39])[0, 1] == pytest.approx(masi_distance(set(scu94), set(scu39)))


def random_sets(rng, count, universe=12):
    return [frozenset(rng.sample(range(universe), rng.randint(0, 6))) for _ in range(count)]


@pytest.mark.parametrize("name", sorted(DISTANCES))
def test_vectorised_distances_equal_their_pairwise_definition(name):
    rng = random.Random(7)
    values = random_sets(rng, 40)
    reference = {
        "dice": lambda a, b: 0.0 if not a and not b else 1 - 2 * len(a & b) / (len(a) + len(b)),
        "jaccard": lambda a, b: 0.0 if not a and not b else 1 - len(a & b) / len(a | b),
        "binary": lambda a, b: float(a != b),
        "nominal": lambda a, b: float(a != b),
        "masi_nltk": lambda a, b: 0.0 if not a and not b else masi_distance(a, b),
        "masi": lambda a, b: (
            0.0
            if a == b
            else (1 - len(a & b) / len(a | b))
            * (1 / 3 if a <= b or b <= a else 2 / 3 if a & b else 1)
        ),
    }[name]
    distinct = list(dict.fromkeys(values))
    assert np.allclose(DISTANCES[name](distinct), pairwise(reference)(distinct))


@pytest.mark.parametrize("name", ["dice", "jaccard", "masi", "masi_nltk", "nominal"])
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("few_distinct_units", [100, 0], ids=["summed per distinct unit", "arrays"])
def test_alpha_equals_nltks_on_random_data(name, seed, few_distinct_units, monkeypatch):
    # Both ways of counting coincidences (scoring.agreement.alpha.coincidences), with units that
    # repeat.
    monkeypatch.setattr("scoring.agreement.alpha.FEW_DISTINCT_UNITS", few_distinct_units)
    rng = random.Random(seed)
    coders, items = 3, 20
    labels = [
        [frozenset(rng.sample(range(8), rng.randint(1, 4))) for _ in range(coders)]
        for _ in range(items)
    ]
    labels += labels[:5]  # repeated units
    labels[3][1] = None  # and a value missing
    items = len(labels)
    ours = krippendorff_alpha(labels, DISTANCES[name])

    def distance(a, b):
        return float(DISTANCES[name]([a, b])[0, 1]) if a != b else 0.0

    task = AnnotationTask(
        data=[
            (f"c{c}", f"i{i}", labels[i][c])
            for i in range(items)
            for c in range(coders)
            if labels[i][c] is not None
        ],
        distance=distance,
    )
    assert ours == pytest.approx(task.alpha(), abs=1e-9)


def test_missing_values_and_undefined_alpha():
    assert krippendorff_alpha([["a", "a"], ["b", None], ["a", "b"]], nominal) == pytest.approx(
        krippendorff_alpha([["a", "a"], ["a", "b"]], nominal)
    )
    assert np.isnan(krippendorff_alpha([["a", "a"], ["a", "a"]], nominal))  # no variation at all
    assert np.isnan(krippendorff_alpha([["a", None]], nominal))


def test_words_are_aligned_whatever_the_whitespace():
    text = "Saudi Arabian officials,  under\nAmerican pressure"
    assert word_scus(text, [(0, 13, "s1"), (26, 50, "s2")]) == [
        frozenset({"s1"}),
        frozenset({"s1"}),
        frozenset(),
        frozenset({"s2"}),
        frozenset({"s2"}),
        frozenset({"s2"}),
    ]


def test_pyramid_units_hold_the_other_words_of_the_scu():
    # One model of three words; annotator 1 groups words 0-1, annotator 2 words 0-2.
    one = [[frozenset({"a"}), frozenset({"a"}), frozenset()]]
    two = [[frozenset({"x"}), frozenset({"x"}), frozenset({"x"})]]
    units = pyramid_units([one, two])
    assert units == [
        [frozenset({(0, 1)}), frozenset({(0, 1), (0, 2)})],
        [frozenset({(0, 0)}), frozenset({(0, 0), (0, 2)})],
        [frozenset(), frozenset({(0, 0), (0, 1)})],
    ]
    with pytest.raises(ValueError, match="not built from the same model summaries"):
        pyramid_units([one, [[frozenset()]]])


def random_pyramid_annotators(rng, annotators=3, models=4, words=120):
    """Each annotator's SCUs over the same models: runs of words, some words in none (an empty
    value), some SCUs of one word (an empty value too), one annotator leaving words out."""
    everyone = []
    for a in range(annotators):
        built = []
        for _ in range(models):
            model, w = [], 0
            while w < words:
                length = rng.randint(1, 9)
                scu = None if rng.random() < 0.15 else f"a{a}-scu{rng.randint(0, 60)}"
                model += [frozenset({scu}) if scu else frozenset()] * min(length, words - w)
                w += length
            built.append(model)
        everyone.append(built)
    return everyone


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("dense_limit", [200_000, 0], ids=["dense coincidences", "sparse"])
def test_several_alphas_without_a_v_by_v_matrix_equal_the_dense_computation(
    seed, dense_limit, monkeypatch
):
    """krippendorff_alphas (the pyramids' agreement) computes distances only for the pairs that
    need them; on pyramid units with a thousand distinct values, empty sets among them, it gives
    what the V x V distance matrices give, to 1e-12 (issue 19)."""
    monkeypatch.setattr("scoring.agreement.alpha.DENSE_LIMIT", dense_limit)
    units = pyramid_units(random_pyramid_annotators(random.Random(seed)))
    units += units[:50]  # units that repeat
    distinct = {value for unit in units for value in unit}
    assert len(distinct) > 1000
    assert frozenset() in distinct
    names = ["masi", "masi_nltk", "jaccard", "nominal", "dice"]
    ours = krippendorff_alphas(units, names)
    for name in names:
        assert ours[name] == pytest.approx(krippendorff_alpha(units, DISTANCES[name]), abs=1e-12)
    assert len(set(ours.values())) == len(names)  # five different numbers, each checked


@pytest.mark.parametrize("name", ["masi", "masi_nltk", "jaccard", "nominal", "dice"])
def test_several_alphas_equal_nltks(name):
    units = pyramid_units(
        random_pyramid_annotators(random.Random(5), annotators=2, models=2, words=12)
    )
    units[0] = [units[0][0], None]  # a value missing
    reference = {
        "masi": masi,
        "masi_nltk": masi_nltk,
        "jaccard": DISTANCES["jaccard"],
        "nominal": nominal,
        "dice": dice,
    }[name]

    def distance(a, b):
        return float(reference([a, b])[0, 1]) if a != b else 0.0

    task = AnnotationTask(
        data=[
            (f"c{c}", f"i{i}", value)
            for i, unit in enumerate(units)
            for c, value in enumerate(unit)
            if value is not None
        ],
        distance=distance,
    )
    assert krippendorff_alphas(units, [name])[name] == pytest.approx(task.alpha(), abs=1e-12)


def test_several_alphas_undefined():
    assert math.isnan(krippendorff_alphas([[frozenset({1}), None]], ["masi"])["masi"])
    same = [[frozenset({1}), frozenset({1})]] * 3  # no variation: D_e = 0
    assert math.isnan(krippendorff_alphas(same, ["masi"])["masi"])


def incidence(models):
    """An annotator's word x SCU matrix from the SCUs of each word of each model."""
    from scipy import sparse

    rows, columns, scus = [], [], {}
    words_before = 0
    for model in models:
        for w, found in enumerate(model):
            for scu in sorted(found):
                rows.append(words_before + w)
                columns.append(scus.setdefault(scu, len(scus)))
        words_before += len(model)
    return sparse.csr_matrix((np.ones(len(rows)), (rows, columns)), shape=(words_before, len(scus)))


def overlapping(rng, annotators):
    """Some words put in a second SCU (one of a few), a few in a third, shared by many words."""
    return [
        [
            [
                scus
                | ({f"b{a}-{rng.randint(0, 8)}"} if rng.random() < 0.2 else set())
                | ({f"c{a}"} if rng.random() < 0.05 else set())
                for scus in model
            ]
            for model in models
        ]
        for a, models in enumerate(annotators)
    ]


@pytest.mark.parametrize("seed", range(12))
def test_pyramid_alphas_equal_those_of_the_units(seed):
    """pyramid_alphas, over pairs of classes of words rather than pairs of values, gives what
    krippendorff_alphas gives on pyramid_units' units, to 1e-12 (issue 19): two to four
    annotators; words in no SCU, in an SCU of one word (an empty value), in two or three SCUs;
    one annotator with no SCU at all."""
    rng = random.Random(seed)
    annotators = random_pyramid_annotators(
        rng, annotators=2 + seed % 3, models=1 + seed % 4, words=rng.randint(20, 150)
    )
    if seed % 2:
        annotators = overlapping(rng, annotators)
    if seed % 4 == 3:
        annotators[1] = [[frozenset()] * len(model) for model in annotators[1]]
    annotators = [[[frozenset(scus) for scus in model] for model in a] for a in annotators]
    units = pyramid_units(annotators)
    names = ["masi", "masi_nltk", "jaccard", "nominal", "dice"]
    expected = krippendorff_alphas(units, names)
    count, ours = pyramid_alphas([incidence(a) for a in annotators], names)
    assert count == len(units)
    for name in names:
        assert ours[name] == pytest.approx(expected[name], abs=1e-12)
    assert len(set(ours.values())) == len(names)


def test_pyramid_alphas_undefined_and_perfect():
    names = ["masi", "nominal"]
    in_none = [[frozenset(), frozenset()]]
    assert pyramid_alphas([incidence(in_none)] * 2, names)[0] == 0  # no unit
    alone = [[frozenset({"s"}), frozenset({"t"})]]  # SCUs of one word: every value empty
    count, alphas = pyramid_alphas([incidence(alone)] * 2, names)
    assert count == 2
    assert all(math.isnan(a) for a in alphas.values())
    same = random_pyramid_annotators(random.Random(3), annotators=1)[0]
    assert pyramid_alphas([incidence(same)] * 2, names)[1] == {"masi": 1.0, "nominal": 1.0}
    with pytest.raises(ValueError, match="not built from the same model summaries"):
        pyramid_alphas([incidence(same), incidence(in_none)], names)


def test_span_words_finds_the_words_word_scus_finds():
    rng = random.Random(4)
    texts = ["Saudi Arabian officials,  under\nAmerican pressure", "a b  c, d. e f g h i", ""]
    spans = [
        [(start, rng.randint(start, len(text)), rng.randint(1, 5)) for start in starts]
        for text in texts
        for starts in [sorted(rng.sample(range(len(text)), min(6, len(text))))]
    ]
    rows = [(k, start, end) for k, found in enumerate(spans) for start, end, _ in found]
    scus = [scu for found in spans for *_, scu in found]
    span, word = span_words(*words_of_texts(texts), rows)
    found = [[set() for _ in words(t)] for t in texts]
    for s, w in zip(span.tolist(), word.tolist()):
        found[rows[s][0]][w].add(scus[s])
    assert found == [[set(x) for x in word_scus(t, s)] for t, s in zip(texts, spans)]
    assert span_words(*words_of_texts(["a b"]), np.zeros((0, 3)))[0].size == 0


@pytest.mark.parametrize("chunk", [64, 2], ids=["one chunk", "chunks of two docsets"])
def test_docset_pyramid_alphas_equal_each_docsets_alone(chunk, monkeypatch):
    """Every docset at once (the collection's pass) gives each docset what it gives alone:
    docsets of two to four annotators, one annotator alone (NaN), one without any SCU (no unit),
    SCUs numbered alike in every docset (an SCU belongs to its owner); in one chunk or several,
    the owners and entries given in no particular order."""
    monkeypatch.setattr(agreement_pyramids, "CHUNK", chunk)
    rng = random.Random(7)
    names = ["masi", "masi_nltk", "jaccard", "nominal"]
    docsets = []
    for d in range(9):
        annotators = random_pyramid_annotators(
            rng, annotators=1 if d == 4 else 2 + d % 3, models=1 + d % 3, words=rng.randint(5, 60)
        )
        if d % 2:
            annotators = overlapping(rng, annotators)
        if d == 6:
            annotators = [[[frozenset()] * len(m) for m in a] for a in annotators]
        docsets.append([incidence([[frozenset(s) for s in m] for m in a]) for a in annotators])
    owner_docset, owner, word, scu = [], [], [], []
    for d, incidences in enumerate(docsets):
        for matrix in incidences:
            cells = matrix.tocoo()
            owner += [len(owner_docset)] * cells.nnz
            owner_docset.append(d)
            word += cells.row.tolist()
            scu += cells.col.tolist()
    renamed = rng.sample(range(len(owner_docset)), len(owner_docset))  # owners in any order
    owner_docset = [d for _, d in sorted(zip(renamed, owner_docset))]
    entries = rng.sample(list(zip((renamed[o] for o in owner), word, scu)), len(owner))
    owner, word, scu = (list(column) for column in zip(*entries))
    units, alphas = docset_pyramid_alphas(
        [m[0].shape[0] for m in docsets], owner_docset, owner, word, scu, names
    )
    for d, incidences in enumerate(docsets):
        if len(incidences) == 1:
            assert math.isnan(alphas["masi"][d])
            assert units[d] > 0
            continue
        count, alone = pyramid_alphas(incidences, names)
        assert units[d] == count
        for name in names:
            assert alphas[name][d] == pytest.approx(alone[name], abs=1e-12, nan_ok=True)
    assert units[6] == 0
    assert math.isnan(alphas["masi"][6])
    assert not math.isnan(alphas["masi"][0])


def test_grouped_alphas_equal_each_groups_alpha():
    """grouped_alphas (the peers' agreement: every peer, docset and the whole collection at once)
    gives each group krippendorff_alpha's value on its units, to 1e-12: units of two or three
    values, values missing, a unit of one value, a group with none pairable, one with no
    variation (both NaN)."""
    rng = random.Random(11)
    sets = [pse_values(k) for k in range(6)]
    values, groups = [], []
    for group in range(40):
        for _ in range(rng.randint(1, 15)):
            row = [rng.randint(0, 5) for _ in range(3)]
            for a in rng.sample(range(3), rng.randint(0, 2)):
                row[a] = -1  # not coded
            values.append(row)
            groups.append(group)
    values += [[2, -1, -1], [4, 4, -1], [4, 4, 4]]  # a group with no pairable unit; one all 4s
    groups += [40, 41, 41]
    for name, distance in [("dice", dice), ("binary", nominal)]:
        ours = grouped_alphas(values, groups, 42, distance(sets))
        for group in range(42):
            units = [
                [sets[v] if v >= 0 else None for v in row]
                for row, g in zip(values, groups)
                if g == group
            ]
            expected = krippendorff_alpha(units, distance)
            if math.isnan(expected):
                assert math.isnan(ours[group]), (name, group)
            else:
                assert ours[group] == pytest.approx(expected, abs=1e-12), (name, group)
    assert math.isnan(ours[40])
    assert math.isnan(ours[41])
    assert sum(not math.isnan(a) for a in ours) >= 35
