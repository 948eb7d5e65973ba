"""Selections snap to whole words, without the spaces and punctuation around them.

DUCView trims tab, newline, CR, form feed, "," "." "-" ":" from a selection's ends and extends it
to whole words; we trim the other common punctuation too. The browser does the same before it
sends a selection; the server applies it again, so what is stored never depends on the client.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator

SEPARATORS = frozenset(" \t\n\r\f\v,.-:;!?\"'()[]{}…–—“”‘’")


def is_word_char(ch: str) -> bool:
    return not ch.isspace() and ch not in SEPARATORS


def snap_to_words(text: str, start: int, end: int) -> tuple[int, int]:
    """Extend [start, end) to whole words, then trim separators from both ends.

    Returns an empty span (start == end) when the selection holds no word.

    >>> text = "The quick, brown fox."
    >>> text[slice(*snap_to_words(text, 5, 12))]  # "uick, b"
    'quick, brown'
    >>> start, end = snap_to_words(text, 9, 11)  # ", "
    >>> start == end
    True
    """
    start, end = max(0, min(start, len(text))), max(0, min(end, len(text)))
    if end < start:
        start, end = end, start
    # Trim first, so that a selection ending in ", " does not grow into the next word.
    while start < end and not is_word_char(text[start]):
        start += 1
    while end > start and not is_word_char(text[end - 1]):
        end -= 1
    if start == end:
        return start, start
    # Punctuation inside the selection (the comma of "quick, brown") stays; only the ends grow.
    while start > 0 and is_word_char(text[start - 1]):
        start -= 1
    while end < len(text) and is_word_char(text[end]):
        end += 1
    # An abbreviation's periods are part of it: "Ariz.", "U.S." whole (issue 32).
    start, end = initialism_bounds(text, start, end)
    if ends_in_abbreviation(text, end):
        end += 1
    return start, end


# Abbreviations whose period belongs to them (issue 32: "Ariz." stored as "Ariz"): titles, states
# as the AP writes them, months, companies. As written (case matters: "no." ends a sentence).
ABBREVIATIONS = frozenset(
    """Mr Mrs Ms Dr Jr Sr St Mt Ft Gen Sen Rep Gov Lt Col Capt Sgt Cmdr Adm Maj Prof Rev Gens Sens
    Reps Inc Corp Ltd Co Bros Dept Univ Assn Ave Blvd Jan Feb Mar Apr Aug Sept Sep Oct Nov Dec
    Ala Ariz Ark Calif Colo Conn Del Fla Ga Ill Ind Kan Kans Ky La Md Mass Mich Minn Miss Mo Mont
    Neb Nev Okla Ore Pa Tenn Tex Va Vt Wash Wis Wyo etc vs approx""".split()
)


# Letters joined by periods: "U.S.", "D.C.", "e.g." (at least two, each a single letter).
INITIALISM = re.compile(r"(?<![^\W_])(?:[^\W\d_]\.){2,}")


def _initialisms_near(text: str, at: int) -> Iterator[re.Match[str]]:
    window = max(0, at - 40)
    return INITIALISM.finditer(text, window, min(len(text), at + 40))


def initialism_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) grown to whole initialisms where either end falls inside one ("S" of "U.S."
    is "U.S.")."""
    for found in _initialisms_near(text, start):
        if found.start() < start < found.end():
            start = found.start()
    for found in _initialisms_near(text, end):
        if found.start() < end < found.end():
            end = found.end()
    return start, end


def ends_in_abbreviation(text: str, end: int) -> bool:
    """Whether the word that ends at `end` is an abbreviation and `text[end]` its period: one of
    ABBREVIATIONS ("Ariz."), or an initialism ("U.S.")."""
    if end >= len(text) or text[end] != "." or end == 0 or not is_word_char(text[end - 1]):
        return False
    start = end
    while start > 0 and is_word_char(text[start - 1]):
        start -= 1
    if text[start:end] in ABBREVIATIONS:
        return True
    return any(found.end() == end + 1 for found in _initialisms_near(text, end))


def overlapping(parts: Iterable[tuple[int, int]], spans: Collection[tuple[int, int]]) -> bool:
    """Whether any of `parts` shares a character with any of `spans` ((start, end) pairs)."""
    return any(
        start < other_end and other_start < end
        for start, end in parts
        for other_start, other_end in spans
    )
