"""annotator.assist.rankers: the SCUs ranked for a peer's selected words, by each ranker, on a small
pyramid of our own; the pyramid's index cached per version."""

import pytest

from annotator.assist import lexical, semantic
from annotator.assist.rankers import (
    RANKERS,
    ScuTexts,
    default_ranker,
    prepare,
    pyramid_index,
    pyramid_scus,
    rank,
)

SCUS = [
    ScuTexts(
        1,
        "Apollo 11 landed the first people on the Moon in July 1969",
        4,
        ("Apollo 11 landed on the Moon",),
    ),
    ScuTexts(2, "Aldrin also walked on the Moon", 4, ("followed by Buzz Aldrin",)),
    ScuTexts(
        4,
        "Michael Collins stayed in orbit",
        3,
        ("Collins stayed in lunar orbit", "Michael Collins remained in orbit"),
    ),
    ScuTexts(
        5, "The crew brought back lunar samples", 3, ("The astronauts brought back Moon rocks",)
    ),
    ScuTexts(9, "It landed in the Sea of Tranquility", 1, ("in the Sea of Tranquility",)),
]
# A peer sentence expressing two SCUs: Collins's orbit, then the rocks.
SENTENCE = "Michael Collins remained in orbit while the astronauts brought back Moon rocks."

needs_semantic = pytest.mark.skipif(
    not semantic.available(),
    reason="the semantic extra is not installed (pip install -e '.[semantic]')",
)
ALL_RANKERS = [
    pytest.param(name, marks=needs_semantic) if name == "semantic" else name for name in RANKERS
]


def uids(suggestions):
    return [s.uid for s in suggestions]


def test_content_words_drop_function_words_and_fold_plurals():
    assert lexical.content_words("The astronauts brought back Moon rocks.") == {
        "astronaut",
        "brought",
        "back",
        "moon",
        "rock",
    }
    assert lexical.content_words("Kennedy's goal of the decade") == {"kennedy", "goal", "decade"}


def test_bm25_terms_are_stemmed():
    assert lexical.terms("landing landed lands") == ["land", "land", "land"]


def test_overlap_is_the_cosine_of_word_sets():
    assert lexical.overlap(frozenset("ab"), frozenset("ab")) == 1.0
    assert lexical.overlap(frozenset("ab"), frozenset("bc")) == pytest.approx(0.5)
    assert lexical.overlap(frozenset(), frozenset("a")) == 0.0


@pytest.mark.parametrize("ranker", ALL_RANKERS)
def test_the_selected_words_find_their_scu_where_the_sentence_does_not(ranker):
    index = prepare(SCUS, ranker)
    assert uids(rank(index, "the astronauts brought back Moon rocks"))[0] == 5
    assert uids(rank(index, "Michael Collins remained in orbit"))[0] == 4
    # The whole sentence can put only one of its two SCUs first.
    assert uids(rank(index, SENTENCE))[0] in (4, 5)


@pytest.mark.parametrize("ranker", ALL_RANKERS)
def test_contributors_count_not_only_the_label(ranker):
    # "Buzz Aldrin" is only in a contributor of SCU 2; "Tranquility" in both texts of SCU 9.
    assert uids(rank(prepare(SCUS, ranker), "Buzz Aldrin came next"))[0] == 2
    without_contributors = [ScuTexts(s.uid, s.label, s.weight) for s in SCUS]
    assert 2 not in uids(rank(prepare(without_contributors, "lexical"), "Buzz came next"))


@pytest.mark.parametrize("ranker", ["lexical", "overlap"])
def test_lexical_rankers_leave_out_what_shares_no_word(ranker):
    index = prepare(SCUS, ranker)
    assert rank(index, "nothing shared here") == []
    assert 9 not in uids(rank(index, "Collins orbit"))


def test_the_best_text_decides_and_the_shared_words_are_those_of_the_closest_text():
    top = rank(prepare(SCUS, "overlap"), "Michael Collins remained in orbit.")[0]
    assert top.uid == 4
    assert top.score == 1.0
    # As the text writes them, in its order (found by a tester: "shares collin, michael, ...").
    assert top.shared == ("Michael", "Collins", "remained", "orbit")


def test_shared_words_are_said_as_written():
    """lexical.as_written: the folded words a ranker shares, mapped back to the text's words."""
    text = "The astronauts returned with lunar rock samples; the samples' Rocks."
    assert lexical.as_written(text, {"sample", "rock", "astronaut", "moon"}) == (
        "astronauts",
        "rock",
        "samples",
    )
    assert lexical.as_written("Collins’s orbit", {"collin"}) == ("Collins’s",)
    assert lexical.as_written("the and of", {"the"}) == ()  # stopwords are never shared
    assert lexical.as_written("Apollo", set()) == ()


@pytest.mark.parametrize("ranker", ["lexical", "overlap"])
def test_ties_go_to_the_heavier_scu_then_to_the_lower_uid(ranker):
    tied = [
        ScuTexts(7, "landed", 1),
        ScuTexts(3, "landed", 2),
        ScuTexts(8, "landed", 2),
    ]
    assert uids(rank(prepare(tied, ranker), "landed")) == [3, 8, 7]


def test_limit():
    assert len(rank(prepare(SCUS, "lexical"), "moon orbit collins apollo lunar", limit=2)) == 2
    assert (
        len(rank(prepare(SCUS, "lexical"), "moon orbit collins apollo lunar", limit=None)) == 4
    )  # SCU 9 shares no word


def test_an_empty_pyramid_or_query_ranks_nothing():
    for ranker in ["lexical", "overlap", *(["semantic"] if semantic.available() else [])]:
        assert rank(prepare([], ranker), "Collins") == []
        assert rank(prepare(SCUS, ranker), " ... ") == []


def test_unknown_ranker():
    with pytest.raises(ValueError, match="unknown ranker 'magic'"):
        prepare(SCUS, "magic")


def test_without_the_extra_the_lexical_ranker_serves(monkeypatch):
    monkeypatch.setattr(semantic, "available", lambda: False)
    assert default_ranker() == "lexical"
    assert prepare(SCUS).name == "lexical"
    with pytest.raises(ImportError, match=r"pip install -e '\.\[semantic\]'"):
        prepare(SCUS, "semantic")


@needs_semantic
def test_semantic_is_the_default_with_the_extra_and_finds_a_paraphrase():
    assert default_ranker() == "semantic"
    # No word in common with SCU 5's texts but "back": WordLlama still puts it first.
    assert uids(rank(prepare(SCUS, "semantic"), "they returned with lunar stones"))[0] == 5


@needs_semantic
def test_semantic_model_loads_offline_from_its_package(monkeypatch):
    import requests

    def no_network(*args, **kwargs):
        raise AssertionError("WordLlama tried to download")

    monkeypatch.setattr(requests, "get", no_network)
    semantic.model.cache_clear()
    assert semantic.model().embed(["Collins"]).shape == (1, 256)


@pytest.mark.django_db
def test_a_pyramids_index_is_cached_per_version(demo, django_assert_num_queries, monkeypatch):
    from django.core.cache import cache

    from annotator.assist import caching, rankers

    cache.clear()
    caching.RECENT.clear()
    pyramid = demo["pyramid"]
    scus = pyramid_scus(pyramid)
    assert next(s for s in scus if s.uid == 4).contributors[0] == (
        "Michael Collins orbited above in the command module"
    )
    first = pyramid_index(pyramid, "lexical")
    assert uids(rank(first, "Collins remained in orbit"))[0] == 4
    with django_assert_num_queries(0):  # this process keeps it
        assert pyramid_index(pyramid, "lexical") is first
    # Another worker (this process's own copy gone) reads it from the shared cache: it prepares
    # nothing (issue 32: each worker's first suggestion took 0.9-2.6 s).
    caching.RECENT.clear()
    monkeypatch.setattr(rankers, "prepare", lambda *_: pytest.fail("prepared again"))
    again = pyramid_index(pyramid, "lexical")
    assert uids(rank(again, "Collins remained in orbit"))[0] == 4
    monkeypatch.undo()
    pyramid.version += 1  # every change of the pyramid raises it: the index is prepared again
    prepared = []
    monkeypatch.setattr(rankers, "prepare", lambda *a: prepared.append(a) or first)
    pyramid_index(pyramid, "lexical")
    assert len(prepared) == 1
