"""annotator.coverage.splitting: the clauses of a text, SEE's units (pure, no database)."""

import doctest
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from annotator.coverage import splitting
from annotator.text.words import words

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "annotator" / "demo" / "apollo11.json"


def test_the_splitter_loads_without_django():
    """Pure: importing it (and what it imports) loads no Django, with no settings at all."""
    code = (
        "import sys, annotator.coverage.splitting; "
        "sys.exit(any(name.split('.')[0] == 'django' for name in sys.modules))"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env).returncode == 0


def test_the_doctests_hold():
    result = doctest.testmod(splitting)
    assert result.attempted >= 10
    assert result.failed == 0


def texts(text, spans):
    return [text[start:end] for start, end in spans]


def test_sentences_then_clauses_at_semicolons_dashes_and_commas_before_a_conjunction():
    text = (
        "Apollo 11 landed on July 20, 1969; Armstrong stepped out first, and Aldrin followed "
        "him \u2014 Collins stayed in orbit.\nThe crew came home, which ended the mission."
    )
    assert texts(text, splitting.units(text)) == [
        "Apollo 11 landed on July 20, 1969",  # a comma before a number does not cut
        "Armstrong stepped out first",
        "Aldrin followed him",  # the leading "and" left out
        "Collins stayed in orbit",
        "The crew came home",
        "which ended the mission",
    ]


def test_a_short_piece_joins_its_neighbour_and_no_unit_is_empty_or_padded():
    text = "  In 1969 , and then , it landed.  ...  !  Yes: the crew came home, so all was well.  "
    spans = splitting.units(text)
    assert texts(text, spans) == [
        "In 1969 , and then , it landed",
        # "...  !" has no word: no unit. "Yes" (one word) joins the next piece.
        "Yes: the crew came home",
        "all was well",  # the leading "so" left out
    ]
    for start, end in spans:
        assert start < end
        assert text[start:end] == text[start:end].strip()


def test_offsets_are_code_points_as_a_span_s_are():
    text = "Über 🚀 den Mond; die Crew kehrte heim."
    spans = splitting.units(text)
    assert texts(text, spans) == ["Über 🚀 den Mond", "die Crew kehrte heim"]
    assert spans[1] == (text.index("die"), len(text) - 1)


def test_the_demo_models_cut_near_four_units_per_fifty_words():
    """SEE judged ~4 units per 50-word model; the demo's models come near it."""
    models = json.loads(DEMO.read_text())["models"]
    n_units = sum(len(splitting.units(text)) for text in models.values())
    n_words = sum(len(words(text)) for text in models.values())
    assert 3 <= 50 * n_units / n_words <= 5
    text = models["A"]
    assert texts(text, splitting.units(text))[-1] == (
        "The crew collected rock samples and returned safely to Earth on July 24"
    )


@pytest.mark.parametrize(
    ("at", "parts"),
    [
        (8, ("Apollo", "11, landed safely")),  # inside "11": before it
        (10, ("Apollo 11,", "landed safely")),  # between words: before the next
        (16, ("Apollo 11,", "landed safely")),  # inside "landed"
        (18, ("Apollo 11, landed", "safely")),
    ],
)
def test_split_at_cuts_before_the_word_holding_or_after_the_offset(at, parts):
    text = "Apollo 11, landed safely"
    head, tail = splitting.split_at(text, at)
    assert (text[slice(*head)], text[slice(*tail)]) == parts


def test_split_at_refuses_a_cut_with_nothing_on_one_side():
    with pytest.raises(ValueError, match="first word"):
        splitting.split_at("  Apollo landed", 1)
    with pytest.raises(ValueError, match="last word"):
        splitting.split_at("Apollo landed.", 14)
    assert splitting.word_starts("One") == []


def test_proposals_cut_a_peer_with_the_same_clauses():
    from annotator.assist import proposals

    assert proposals.clauses is splitting.clauses


def test_units_are_not_cut_at_the_abbreviations_of_news_text():
    """Issue 33: 56 of 3,781 units over the DUC 2006/2007 models began with a lower-case word or a
    digit after a full stop ("…the euro on Jan" / "1, 1999 were positive")."""
    text = (
        "The launch of the euro on Jan. 1, 1999 was positive. The euro will not replace the U.S. "
        "dollar, which stays the reserve currency."
    )
    assert texts(text, splitting.units(text)) == [
        "The launch of the euro on Jan. 1, 1999 was positive",
        "The euro will not replace the U.S. dollar",
        "which stays the reserve currency",
    ]


def test_a_proposal_never_stops_inside_an_abbreviation():
    """A proposal was cut at "…less than 1 percent of the U.S" (the text goes on "U.S. population
    today"): accepted as proposed, its PSE stopped mid-phrase."""
    text = "Veterans make up less than 1 percent of the U.S. population today. They served abroad."
    assert texts(text, splitting.clauses(text)) == [
        "Veterans make up less than 1 percent of the U.S. population today",
        "They served abroad",
    ]
