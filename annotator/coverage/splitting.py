"""Cutting a text into clauses: the units SEE's judges step through (issue 21), and the peer
clauses that proposals rank (annotator.assist.proposals, issue 20). One cutter for both; pure, no
Django. Offsets are (start, end) code points into the text, end exclusive, as a Span's are.

How a text is cut, documented because administrators and annotators see its effect:
1. into sentences, where the suggestions cut them (at line breaks, and where pySBD ends a
   sentence: not after "Jan." or "U.S."; annotator.text.sentences);
2. each sentence into clauses at ; and : and at a dash between spaces, and at a comma followed by
   a word that starts a clause (and, but, or, while, which, who, because, ...: CLAUSE_WORDS);
3. a piece with fewer than MIN_WORDS content words joins the piece before it (or after it, for the
   first): "in 1969" is not a clause of its own;
4. each clause trimmed to its first and last word (no surrounding spaces or final full stop), its
   leading conjunction ("and Buzz Aldrin followed him") left out. A piece without a word gives no
   clause: a unit is never empty.

SEE (Harman & Over 2004) judged ~4 units (elementary discourse units) per 50-word model. These
clauses come near: 3.66 per 50 words over the 28 model summaries of the shared DUC 2006/2007
folders (bench/see_units.py; cut after every full stop, 3.74, some at "Jan." or "U.S."). An
administrator merges, splits and relabels the rest (annotator.coverage.unit_editing).
"""

from __future__ import annotations

import re

from annotator.assist import lexical
from annotator.text.words import words

MIN_WORDS = 2  # content words a piece needs to stand as a clause of its own
CLAUSE_WORDS = (
    "and but or nor yet so while whereas which who whom whose because although though after "
    "before when where since until unless if"
)
CLAUSE_BREAK = re.compile(
    r"\s*[;:]\s+|\s+[—–-]{1,2}\s+|\s*[—–]\s*|,\s+(?=(?:" + "|".join(CLAUSE_WORDS.split()) + r")\b)",
    re.IGNORECASE,
)
LEADING_CONJUNCTION = re.compile(r"(?:and|but|or|nor|yet|so)\s+", re.IGNORECASE)

Span = tuple[int, int]


def content_count(text: str) -> int:
    """The number of distinct content words (no stopwords) of `text`."""
    return len(lexical.content_words(text))


def clauses(text: str) -> list[Span]:
    """The text's clauses as (start, end), in text order (see the module's description).

    >>> text = "Armstrong walked first, and Aldrin followed him. Collins stayed in orbit."
    >>> [text[s:e] for s, e in clauses(text)]
    ['Armstrong walked first', 'Aldrin followed him', 'Collins stayed in orbit']
    >>> text = "In 1969, and then, Apollo 11 landed on the Moon."
    >>> [text[s:e] for s, e in clauses(text)]
    ['In 1969, and then, Apollo 11 landed on the Moon']
    """
    found: list[Span] = []
    for pieces in lexical.cut(text, CLAUSE_BREAK):
        joined: list[Span] = []
        for start, end in pieces:
            if joined and content_count(text[start:end]) < MIN_WORDS:
                joined[-1] = (joined[-1][0], end)
            elif joined and content_count(text[slice(*joined[-1])]) < MIN_WORDS:
                joined[-1] = (joined[-1][0], end)  # a short first piece joins the next
            else:
                joined.append((start, end))
        for start, end in joined:
            span = words_of(text, start, end)
            if span is not None:
                found.append(span)
    return found


def words_of(text: str, start: int, end: int) -> Span | None:
    """[start, end) trimmed to its first and last word, a leading conjunction left out (unless it
    is the only word); None where there is no word.

    >>> words_of("  and the Moon. ", 0, 16)
    (6, 14)
    """
    inside = [(s + start, e + start) for s, e in words(text[start:end])]
    return lexical.trimmed(text, inside, LEADING_CONJUNCTION)


def units(text: str) -> list[Span]:
    """SEE's units of a model summary: its clauses.

    >>> text = ("Apollo 11 landed on the Moon on July 20, 1969. Armstrong stepped out first, "
    ...         "while Collins orbited above; the crew returned safely.")
    >>> for start, end in units(text):
    ...     print(start, end, text[start:end])
    0 45 Apollo 11 landed on the Moon on July 20, 1969
    47 74 Armstrong stepped out first
    76 103 while Collins orbited above
    105 129 the crew returned safely
    """
    return clauses(text)


def trimmed(text: str, start: int, end: int) -> Span | None:
    """[start, end) without the spaces around it; None if nothing else is there.

    >>> trimmed(" a b. ", 0, 6)
    (1, 5)
    """
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def split_at(text: str, at: int) -> tuple[Span, Span]:
    """`text` cut in two before the word at offset `at` (the word holding it, or the first after
    it): each part trimmed of spaces, the first keeping its punctuation ("landed," stays whole).
    ValueError if either part would have no word.

    >>> text = "Armstrong walked first, Aldrin followed"
    >>> first, second = split_at(text, 24)
    >>> text[slice(*first)], text[slice(*second)]
    ('Armstrong walked first,', 'Aldrin followed')
    >>> split_at(text, 26) == split_at(text, 24)  # inside "Aldrin": before it
    True
    >>> split_at(text, 0)
    Traceback (most recent call last):
    ...
    ValueError: nothing to split off before the first word
    """
    found = words(text)
    second = next((i for i, (s, e) in enumerate(found) if e > at), len(found))
    if second == 0:
        raise ValueError("nothing to split off before the first word")
    if second == len(found):
        raise ValueError("nothing to split off after the last word")
    head = trimmed(text, 0, found[second][0])
    tail = trimmed(text, found[second][0], len(text))
    assert head is not None  # each part holds a word
    assert tail is not None
    return head, tail


def word_starts(text: str) -> list[tuple[int, str]]:
    """Where a text may be split (`split_at`): before each word but the first, as (offset, word).

    >>> word_starts("Apollo 11 landed.")
    [(7, '11'), (10, 'landed')]
    """
    return [(start, text[start:end]) for start, end in words(text)[1:]]
