"""Selections snap to whole words, without the spaces and punctuation around them.

DUCView trims tab, newline, CR, form feed, "," "." "-" ":" from a selection's ends and extends it
to whole words; we trim the other common punctuation too. The browser does the same before it
sends a selection; the server applies it again, so what is stored never depends on the client.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

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
    return start, end


def overlapping(parts: Iterable[tuple[int, int]], spans: Collection[tuple[int, int]]) -> bool:
    """Whether any of `parts` shares a character with any of `spans` ((start, end) pairs)."""
    return any(
        start < other_end and other_start < end
        for start, end in parts
        for other_start, other_end in spans
    )
