"""annotator.text.sentences: where the sentences of a summary start (pySBD within each line), on
the abbreviations of news text that a cut after every full stop broke (issue 33)."""

import doctest

import pytest

from annotator.text import sentences


def cut(text: str) -> list[str]:
    starts = [*sentences.sentence_starts(text), len(text)]
    return [text[a:b].strip() for a, b in zip(starts, starts[1:])]


@pytest.mark.parametrize(
    "text",
    [
        "The launch of the euro on Jan. 1, 1999 was a success.",
        "The euro will not replace the U.S. dollar as the choice for foreign reserves.",
        "Less than 1 percent of the U.S. population today served.",
        "Mr. Bush met Gov. Jane Dee Hull of Ariz. on Tuesday at 3 p.m. in St. Louis.",
        "Exxon Corp. and Mobil Inc. merged, Dr. Smith of the U.N. said.",
        "Prices rose 2.5 percent, No. 1 in the E.U. and the U.K.",
        "The Oct. 12 attack on the U.S.S. Cole killed 17 sailors.",
    ],
)
def test_an_abbreviation_does_not_end_a_sentence(text):
    assert cut(text) == [text]


def test_sentences_end_at_their_full_stops_and_at_line_breaks():
    text = (
        "Sales of the euro on Jan. 1, 1999 were up. The dollar fell. Was it the U.S. Treasury?\n"
        "A heading without a stop\nThe last line."
    )
    assert cut(text) == [
        "Sales of the euro on Jan. 1, 1999 were up.",
        "The dollar fell.",
        "Was it the U.S. Treasury?",
        "A heading without a stop",
        "The last line.",
    ]


def test_starts_are_offsets_of_the_text_after_the_spaces_before_them():
    text = "  One two.   Three four.\n\n  Five."
    assert sentences.sentence_starts(text) == (2, 13, 28)
    assert sentences.sentence_starts("") == ()


def test_the_doctests_hold():
    result = doctest.testmod(sentences)
    assert result.attempted >= 1
    assert result.failed == 0
