"""Ranking the pyramid's SCUs for a peer sentence."""

import pytest

from annotator.models import PeerAnnotation
from annotator.peer_annotation.suggestions import (
    content_words,
    overlap,
    rank_scus,
    sentence_around,
    suggest,
)

SCUS = [
    (
        1,
        "Apollo 11 landed the first people on the Moon in July 1969",
        4,
        ["Apollo 11 landed on the Moon"],
    ),
    (2, "Aldrin also walked on the Moon", 4, ["followed by Buzz Aldrin"]),
    (
        4,
        "Michael Collins stayed in orbit",
        3,
        ["Collins stayed in lunar orbit", "Michael Collins remained in orbit"],
    ),
    (5, "The crew brought back lunar samples", 3, ["The astronauts brought back Moon rocks"]),
    (9, "It landed in the Sea of Tranquility", 1, ["in the Sea of Tranquility"]),
]


def test_content_words_drop_function_words_and_fold_plurals():
    assert content_words("The astronauts brought back Moon rocks.") == {
        "astronaut",
        "brought",
        "back",
        "moon",
        "rock",
    }
    assert content_words("Kennedy's goal of the decade") == {"kennedy", "goal", "decade"}


def test_overlap_is_the_cosine_of_word_sets():
    assert overlap(frozenset("ab"), frozenset("ab")) == 1.0
    assert overlap(frozenset("ab"), frozenset("bc")) == pytest.approx(0.5)
    assert overlap(frozenset(), frozenset("a")) == 0.0


def test_the_best_text_of_an_scu_decides_its_rank():
    ranked = rank_scus("Michael Collins remained in orbit.", SCUS)
    assert ranked[0].uid == 4
    assert ranked[0].score == 1.0
    assert ranked[0].shared == (
        "collin",
        "michael",
        "orbit",
        "remained",
    )  # folded, on both sides alike
    assert [s.uid for s in ranked] == [4]  # nothing else shares a content word


def test_ties_go_to_the_heavier_scu_and_unrelated_scus_are_left_out():
    ranked = rank_scus("the moon", SCUS)
    # SCU 1 (through "Apollo 11 landed on the Moon") and SCU 2 (its label) both score 0.5, both
    # weigh 4.
    assert [(s.uid, s.score) for s in ranked[:2]] == [(1, 0.5), (2, 0.5)]
    assert ranked[2].weight < 4  # then the lighter ones
    assert all(s.uid != 9 for s in ranked)
    assert rank_scus("nothing shared here", SCUS) == []


def test_limit():
    assert len(rank_scus("moon orbit collins apollo lunar", SCUS, limit=2)) == 2


def test_sentence_around_a_selection():
    text = "Apollo 11 landed. Collins stayed in orbit! Then home.\nNew line here."
    start = text.index("stayed")
    assert text[slice(*sentence_around(text, start, start + 6))] == "Collins stayed in orbit! "
    start = text.index("line")
    assert text[slice(*sentence_around(text, start, start + 4))] == "New line here."


@pytest.mark.django_db
def test_suggestions_for_a_demo_peer_sentence(demo):
    annotation = PeerAnnotation.objects.get(peer__author="1", annotator_code="demo")
    text = annotation.peer.text
    start = text.index("remained")  # inside "Michael Collins remained in orbit."
    suggestions = suggest(annotation, start, start + 8)
    assert suggestions[0].uid == 4
    assert suggestions[0].label == "Michael Collins stayed in orbit"
    start = text.index("Buzz Aldrin followed him")
    top = [s.uid for s in suggest(annotation, start, start + 4)[:3]]
    assert 2 in top
    assert 3 in top
