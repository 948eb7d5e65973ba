"""annotator.alignment: two pyramids' SCUs aligned by the words their contributors cover."""

from annotator.alignment import ONE_TO_ONE, ONLY_A, ONLY_B, SPLIT, TANGLE, align, overlap, summary


def words(model, *indices):
    return {(model, i) for i in indices}


def test_matches_splits_and_scus_of_one_side():
    a = {
        "landing": words(0, 1, 2, 3) | words(1, 5, 6),           # the same as B's, but one word more
        "crew": words(0, 7, 8, 9, 10) | words(1, 1, 2, 3),        # B split it in two
        "rocks": words(2, 4, 5),                                   # B has nothing like it
    }
    b = {
        "landed": words(0, 1, 2) | words(1, 5, 6),
        "armstrong": words(0, 7, 8),
        "aldrin": words(0, 9, 10) | words(1, 1, 2, 3),
        "orbit": words(3, 0, 1, 2),                                # A has nothing like it
    }
    groups = {tuple(g.a) + tuple(g.b): g for g in align(a, b)}
    landing = groups[("landing", "landed")]
    assert landing.kind == ONE_TO_ONE and landing.only_a_words == {(0, 3)} and not landing.identical
    crew = groups[("crew", "aldrin", "armstrong")]
    assert crew.kind == SPLIT and not crew.only_a_words and not crew.only_b_words
    assert groups[("rocks",)].kind == ONLY_A and groups[("orbit",)].kind == ONLY_B
    assert summary(align(a, b)) == {ONE_TO_ONE: 1, SPLIT: 1, TANGLE: 0, ONLY_A: 1, ONLY_B: 1, "identical": 0}


def test_a_small_overlap_does_not_link_and_chains_make_tangles():
    a = {"x": words(0, 1, 2, 3, 4), "y": words(0, 10, 11, 12)}
    b = {"p": words(0, 4, 5, 6, 7, 8)}  # shares one word of five with x: not the same SCU
    assert {g.kind for g in align(a, b)} == {ONLY_A, ONLY_B}
    a = {"x": words(0, 1, 2), "y": words(0, 3, 4)}
    b = {"p": words(0, 1, 2, 3), "q": words(0, 4, 5)}
    (group,) = [g for g in align(a, b) if g.a]
    assert group.kind == TANGLE and group.a == ["x", "y"] and group.b == ["p", "q"]


def test_identical_pyramids_align_one_to_one():
    a = {1: words(0, 1, 2), 2: words(1, 3)}
    assert all(g.identical for g in align(a, dict(a)))
    assert overlap(words(0, 1), set()) == 0.0
