"""Selections snap to whole words (annotator/text/selection.py), and the browser's copy of the rule
(static/js/text-selection.js) snaps them the same: an abbreviation keeps its period (issue 32: a
selection ending in "Ariz." or "U.S." was stored without it)."""

from pathlib import Path

import pytest

from annotator.text.selection import snap_to_words
from tests.conftest import CHROMIUM

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "text-selection.js"

# (text, the characters selected, what is stored)
CASES = [
    ("He lives in Ariz. now", "Ariz", "Ariz."),
    ("He lives in Ariz. now", "Ar", "Ariz."),
    ("the U.S. army", "U.S.", "U.S."),
    ("the U.S. army", "S.", "U.S."),
    ("the U.S. army", "U.", "U.S."),
    ("in Washington, D.C.", "D.C", "D.C."),
    ("a U.S.-led war", "U.S.-led", "U.S.-led"),
    ("Mr. Putin said", "Mr", "Mr."),
    ("e.g. this", "e.g", "e.g."),
    # No abbreviation: the period ends the sentence, and goes as before.
    ("I said no.", "no.", "no"),
    ("the end.", "end.", "end"),
    ("A. Smith", "A.", "A"),
    ("The quick, brown fox.", "uick, b", "quick, brown"),
]


def select(text: str, chosen: str) -> tuple[int, int]:
    start = text.index(chosen)
    return start, start + len(chosen)


@pytest.mark.parametrize(("text", "chosen", "stored"), CASES)
def test_the_server_snaps_to_words_keeping_an_abbreviations_period(text, chosen, stored):
    start, end = snap_to_words(text, *select(text, chosen))
    assert text[start:end] == stored


@pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed (apt-get install -y chromium)"
)
def test_the_browser_snaps_as_the_server_does(browser_page):
    page = browser_page
    page.set_content("<!doctype html><title>t</title><p>x</p>")
    page.add_script_tag(path=str(SCRIPT))
    for text, chosen, stored in CASES:
        start, end = select(text, chosen)
        snapped = page.evaluate(
            "([text, s, e]) => window.TextSelection.snap(Array.from(text), s, e)",
            [text, start, end],
        )
        assert snapped == list(snap_to_words(text, start, end)), (text, chosen)
        assert text[snapped[0] : snapped[1]] == stored
