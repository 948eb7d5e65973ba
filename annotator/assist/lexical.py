"""Lexical rankers: the content words a peer's selection shares with an SCU's label or contributors.

- `OverlapIndex`: the cosine between word sets (DUCView 1.4's autoannotate matched contributor
  strings exactly; this is the measure the page first ranked by).
- `LexicalIndex`: Okapi BM25 (bm25s), which weighs the words a pyramid's SCUs rarely share: "Moon"
  in a pyramid about Apollo says less than "Collins". The default ranker without the semantic extra.

An SCU scores by its best text (its label or one of its contributors), not by their sum: one
contributor worded like the selection is the evidence an annotator looks for.
"""

from __future__ import annotations

import functools
import logging
import math
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from annotator.text.sentences import sentence_starts

if TYPE_CHECKING:
    from annotator.assist.rankers import ScuTexts

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
STOPWORDS = frozenset(
    "a an and are as at be been but by for from had has have he her his in into is it its of on or "
    "our she that the their them they this to was were which while who will with would".split()
)


def words(text: str) -> list[str]:
    """The content words of `text` in order (repeats kept), lower case, plural "s" folded."""
    found = []
    for word in WORD.findall(text.lower()):
        word = word.replace("’", "'").removesuffix("'s")
        if word in STOPWORDS:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]  # rocks/rock, astronauts/astronaut: enough folding to start
        found.append(word)
    return found


def as_written(text: str, shared: Iterable[str]) -> tuple[str, ...]:
    """The words of `text` whose content word (`words`: lower case, plural folded) is in `shared`,
    as `text` writes them, each once, in the text's order: what the pages show of the words a
    ranker found shared ("Michael Collins", "samples"; not the folded "collin", "sample"). The
    peer page's suggestions and the builder's help both say them so.

    >>> as_written("Michael Collins took rock samples; Collins", {"collin", "sample", "moon"})
    ('Collins', 'samples')
    """
    wanted = set(shared)
    found: dict[str, str] = {}
    for written in WORD.findall(text):
        folded = words(written)  # one word: itself folded, or none (a stopword)
        if folded and folded[0] in wanted and folded[0] not in found:
            found[folded[0]] = written
    return tuple(found.values())


def sentence_bounds(text: str) -> list[int]:
    """Where the sentences of `text` start, and its end: [0, ..., len(text)]
    (annotator.text.sentences: pySBD, which does not cut at "Jan." or "U.S.")."""
    return [0, *(start for start in sentence_starts(text) if start), len(text)]


def cut(text: str, breaks: re.Pattern[str]) -> list[list[tuple[int, int]]]:
    """Each sentence of `text` cut at every match of `breaks`: per sentence, its pieces as (start,
    end), the breaks themselves left out (a piece may be empty or only spaces). The builder's
    phrases (annotator.assist.builder_help) and the proposals' clauses
    (annotator.assist.proposals) are cut so, each at its own breaks.

    >>> text = "Jobs, money. Few"
    >>> [[text[s:e] for s, e in pieces] for pieces in cut(text, re.compile(r",\\s+"))]
    [['Jobs', 'money. '], ['Few']]
    """
    bounds = sentence_bounds(text)
    sentences = []
    for first, last in zip(bounds, bounds[1:]):
        pieces = []
        at = first
        for match in breaks.finditer(text, first, last):
            pieces.append((at, match.start()))
            at = match.end()
        pieces.append((at, last))
        sentences.append(pieces)
    return sentences


def trimmed(
    text: str, inside: list[tuple[int, int]], leading: re.Pattern[str]
) -> tuple[int, int] | None:
    """The span from the first of the words `inside` (their (start, end) in `text`) to the last,
    a leading word matching `leading` (a conjunction) left out unless it is the only word; None
    where there is no word."""
    if not inside:
        return None
    start, end = inside[0][0], inside[-1][1]
    conjunction = leading.match(text, start, end)
    if conjunction and len(inside) > 1:
        start = conjunction.end()
    return start, end


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or sentences) of `text` holding [start, end). A caret at the very end of the
    text is in its last sentence (the end is a bound too, and would give an empty one)."""
    bounds = sentence_bounds(text)
    first = max(b for b in bounds if b <= start and (b < len(text) or b == 0))
    last = min((b for b in bounds if b >= end and b > first), default=len(text))
    return first, last


def query_text(text: str, start: int, end: int) -> str:
    """What to rank for a selection [start, end) of `text`: the selected words; the sentence
    around the caret only when nothing is selected (or only spaces and punctuation are)."""
    selected = text[start:end]
    if words(selected):
        return selected
    first, last = sentence_around(text, start, end)
    return text[first:last]


@functools.cache
def _stemmer() -> Any:
    import Stemmer  # PyStemmer: Snowball's English stemmer, in C

    return Stemmer.Stemmer("english")


def terms(text: str) -> list[str]:
    """What BM25 counts: the content words of `text`, stemmed (Snowball): "landing" finds "landed".
    Stemming raises top-1 from 0.64 to 0.66 and top-5 from 0.86 to 0.88 on DUC 2006."""
    return list(_stemmer().stemWords(words(text)))


def content_words(text: str) -> frozenset[str]:
    return frozenset(words(text))


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Cosine similarity of two word sets: |a ∩ b| / sqrt(|a| |b|)."""
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


class OverlapIndex:
    """Each SCU's best word-set cosine with the text."""

    name = "overlap"

    def __init__(self, scus: Sequence[ScuTexts]):
        self.scus = tuple(scus)
        self.word_sets = [[content_words(t) for t in scu.texts] for scu in self.scus]

    def scores(self, text: str) -> list[float]:
        query = content_words(text)
        return [max(overlap(query, other) for other in sets) for sets in self.word_sets]


class LexicalIndex:
    """Each SCU's best BM25 score (bm25s) over its label and contributors, as separate documents:
    the collection statistics (how rare a word is) are the pyramid's."""

    name = "lexical"

    def __init__(self, scus: Sequence[ScuTexts]):
        import bm25s
        import numpy as np

        # bm25s sets its own logger to DEBUG: every index built would be logged, whatever the
        # site's LOG_LEVEL says.
        logging.getLogger("bm25s").setLevel(logging.WARNING)
        self.scus = tuple(scus)
        documents, owners = [], []
        for position, scu in enumerate(self.scus):
            for text in scu.texts:
                documents.append(terms(text))
                owners.append(position)
        self.owners = np.array(owners, dtype=np.intp)
        self.bm25 = None  # no word at all (no SCU, or only function words): nothing to index
        if any(documents):
            self.bm25 = bm25s.BM25()
            self.bm25.index(documents, show_progress=False)

    def scores(self, text: str) -> list[float]:
        import numpy as np

        best = np.zeros(len(self.scus))
        if self.bm25 is None:
            return [0.0] * len(self.scus)
        vocabulary = self.bm25.vocab_dict
        query = [term for term in terms(text) if term in vocabulary]
        if query:
            np.maximum.at(best, self.owners, self.bm25.get_scores(query))
        return [float(score) for score in best]
