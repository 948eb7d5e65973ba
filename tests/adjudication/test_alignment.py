"""annotator.adjudication.alignment: two pyramids' SCUs aligned by the words their contributors
cover."""

from annotator.adjudication.alignment import (
    ONE_TO_ONE,
    ONLY_A,
    ONLY_B,
    PARTIAL,
    SPLIT,
    TANGLE,
    align,
    align_many,
    only_in,
    overlap,
    summary,
)


def words(model, *indices):
    return {(model, i) for i in indices}


def test_matches_splits_and_scus_of_one_side():
    a = {
        "landing": words(0, 1, 2, 3) | words(1, 5, 6),  # the same as B's, but one word more
        "crew": words(0, 7, 8, 9, 10) | words(1, 1, 2, 3),  # B split it in two
        "rocks": words(2, 4, 5),  # B has nothing like it
    }
    b = {
        "landed": words(0, 1, 2) | words(1, 5, 6),
        "armstrong": words(0, 7, 8),
        "aldrin": words(0, 9, 10) | words(1, 1, 2, 3),
        "orbit": words(3, 0, 1, 2),  # A has nothing like it
    }
    groups = {tuple(g.a) + tuple(g.b): g for g in align(a, b)}
    landing = groups[("landing", "landed")]
    assert landing.kind == ONE_TO_ONE
    assert landing.only_a_words == {(0, 3)}
    assert not landing.identical
    crew = groups[("crew", "aldrin", "armstrong")]
    assert crew.kind == SPLIT
    assert not crew.only_a_words
    assert not crew.only_b_words
    assert groups[("rocks",)].kind == ONLY_A
    assert groups[("orbit",)].kind == ONLY_B
    assert summary(align(a, b)) == {
        ONE_TO_ONE: 1,
        SPLIT: 1,
        TANGLE: 0,
        ONLY_A: 1,
        ONLY_B: 1,
        "identical": 0,
    }


def test_a_small_overlap_does_not_link_and_chains_make_tangles():
    a = {"x": words(0, 1, 2, 3, 4), "y": words(0, 10, 11, 12)}
    b = {"p": words(0, 4, 5, 6, 7, 8)}  # shares one word of five with x: not the same SCU
    assert {g.kind for g in align(a, b)} == {ONLY_A, ONLY_B}
    a = {"x": words(0, 1, 2), "y": words(0, 3, 4)}
    b = {"p": words(0, 1, 2, 3), "q": words(0, 4, 5)}
    (group,) = [g for g in align(a, b) if g.a]
    assert group.kind == TANGLE
    assert group.a == ["x", "y"]
    assert group.b == ["p", "q"]


def test_identical_pyramids_align_one_to_one():
    a = {1: words(0, 1, 2), 2: words(1, 3)}
    assert all(g.identical for g in align(a, dict(a)))
    assert overlap(words(0, 1), set()) == 0.0


def test_three_pyramids_aligned_at_once():
    a = {"landing": words(0, 1, 2, 3), "crew": words(0, 7, 8, 9, 10), "rocks": words(2, 4, 5)}
    b = {"landed": words(0, 1, 2, 3), "armstrong": words(0, 7, 8), "aldrin": words(0, 9, 10)}
    c = {
        "moon": words(0, 1, 2),
        "crew": words(0, 7, 8, 9, 10),
        "rocks": words(2, 4, 5),
        "tv": words(4, 1),
    }
    groups = {tuple(tuple(side) for side in g.sides): g for g in align_many([a, b, c])}
    landing = groups[(("landing",), ("landed",), ("moon",))]
    # One SCU in each; C's lacks a word A and B have: those words differ, for A and B.
    assert landing.kind == ONE_TO_ONE
    assert not landing.identical
    assert landing.differing == [words(0, 3), words(0, 3), set()]
    assert landing.shared_words == words(0, 1, 2)
    assert groups[(("crew",), ("aldrin", "armstrong"), ("crew",))].kind == SPLIT
    # Found by A and C, not B: in some pyramids only; and by C alone.
    assert groups[(("rocks",), (), ("rocks",))].kind == PARTIAL
    assert groups[((), (), ("tv",))].kind == only_in(2) == "only in C"


def test_two_pyramids_aligned_as_many_as_a_pair():
    a = {"x": words(0, 1, 2), "y": words(0, 3, 4), "z": words(1, 9)}
    b = {"p": words(0, 1, 2, 3), "q": words(0, 4, 5)}
    pairs = align(a, b)
    many = align_many([a, b])
    assert [(g.kind, g.a, g.b, g.only_a_words, g.only_b_words) for g in pairs] == [
        (g.kind, *g.sides, *g.differing) for g in many
    ]
    assert only_in(0) == ONLY_A
    assert only_in(1) == ONLY_B
