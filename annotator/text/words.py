"""The words of a text, and which spans touch which words: the unit both apps count in.

Words are runs of letters and digits (`\\w+`), so texts that differ only in whitespace or in the
spacing of punctuation have the same words. The pages shade and compare by these words
(annotator.text.textmarks, annotator.adjudication) and agreement counts them
(scoring.agreement.units, Passonneau 2009 §4.1.4). Pure functions, no Django.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, TypeVar

WORD = re.compile(r"\w+")
SCU = TypeVar("SCU", bound=Hashable)  # what names an SCU (a primary key, a label)


def words(text: str) -> list[tuple[int, int]]:
    """The words of a text, as (start, end) offsets in code points.

    >>> words("Apollo 11, July 1969.")
    [(0, 6), (7, 9), (11, 15), (16, 20)]
    """
    return [match.span() for match in WORD.finditer(text)]


def words_of_texts(texts: Sequence[str]) -> tuple[Any, Any]:
    """The words of many texts at once, as words() finds them, with NumPy (agreement reads
    thousands of model summaries): every text's (start, end) rows laid end to end, and where each
    text's rows begin (len(texts) + 1 indices; text i's words are rows first[i]:first[i + 1]).
    A word character is what `\\w` matches in a str pattern: str.isalnum(), or "_".

    >>> bounds, first = words_of_texts(["Apollo 11,", "", "July"])
    >>> bounds.tolist(), first.tolist()
    ([[0, 6], [7, 9], [0, 4]], [0, 2, 2, 3])
    """
    import numpy as np

    joined = "\x00".join(texts)  # a separator that is no word character
    codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    latin = np.array([chr(c).isalnum() or c == 95 for c in range(256)])
    is_word = latin[np.minimum(codes, 255)]
    wide = np.flatnonzero(codes > 255)
    if len(wide):  # the few distinct characters beyond Latin-1, asked once each
        distinct, which = np.unique(codes[wide], return_inverse=True)
        is_word[wide] = np.array([chr(c).isalnum() for c in distinct.tolist()])[which.ravel()]
    edges = np.diff(is_word.astype(np.int8), prepend=0, append=0)
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    text_start = np.cumsum([0] + [len(text) + 1 for text in texts])
    first = np.searchsorted(starts, text_start)
    own_start = np.repeat(text_start[:-1], np.diff(first))
    return np.column_stack([starts - own_start, ends - own_start]).astype(np.int64), first


# English function words: words that carry no content of their own. A run of them left in no PSE
# (a stray "and", "of the") is no uncovered content: nothing to match, and matching it to nothing
# would add a zero-weight PSE to the peer's SCU count (issue 32).
FUNCTION_WORDS = frozenset(
    """a about above after against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each either few for from
    further had has have having he her here hers him his how i if in into is it its itself just
    me more most my neither no nor not now of off on once only or other our ours out over own
    same she should so some such than that the their theirs them then there these they this
    those through to too under until up very was we were what when where which while who whom
    whose why will with would yet you your""".split()
)


def carries_content(text: str) -> bool:
    """Whether `text` holds a word that is not a function word (digits count as content).

    >>> carries_content("and the"), carries_content("of 1969"), carries_content(", which")
    (False, True, False)
    """
    return any(word.lower() not in FUNCTION_WORDS for word in WORD.findall(text))


def word_scus(text: str, spans: Iterable[tuple[int, int, SCU]]) -> list[frozenset[SCU]]:
    """For each word of the text, the SCUs whose contributor spans (start, end, scu) touch it.

    >>> [sorted(scus) for scus in word_scus("a b c", [(0, 3, "x"), (2, 5, "y")])]
    [['x'], ['x', 'y'], ['y']]
    """
    offsets = words(text)
    starts = [start for start, _ in offsets]
    ends = [end for _, end in offsets]
    found: list[set[SCU]] = [set() for _ in offsets]
    for start, end, scu in spans:
        # The words ending after the span starts and starting before it ends.
        for w in range(bisect_right(ends, start), bisect_left(starts, end)):
            found[w].add(scu)
    return [frozenset(s) for s in found]
