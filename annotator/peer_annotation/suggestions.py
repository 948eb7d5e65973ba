"""Which SCUs a peer selection may express: ranked for the annotator to pick (issue 20).

The rankers live in annotator.assist (lexical BM25 by default, WordLlama + BM25 with the semantic
extra); this module answers the page: the selected words are ranked (the sentence around the caret
only when nothing is selected), against the pyramid's index cached per pyramid version.
"""

from __future__ import annotations

from annotator.assist.lexical import content_words, overlap, query_text, sentence_around, words
from annotator.assist.rankers import ScuTexts, Suggestion, prepare, pyramid_index, rank

__all__ = [
    "Suggestion",
    "content_words",
    "overlap",
    "rank_scus",
    "selects_words",
    "sentence_around",
    "suggest",
]


def rank_scus(
    text: str,
    scus: list[tuple[int, str, int, list[str]]],
    limit: int = 8,
    ranker: str | None = None,
) -> list[Suggestion]:
    """SCUs given as (uid, label, weight, contributor texts) ranked for `text`."""
    index = prepare([ScuTexts(u, label, w, tuple(c)) for u, label, w, c in scus], ranker)
    return rank(index, text, limit)


def _clamped(text: str, start: int, end: int) -> tuple[int, int]:
    first, last = sorted((min(max(start, 0), len(text)), min(max(end, 0), len(text))))
    return first, last


def suggest(annotation, start: int, end: int, limit: int = 8) -> list[Suggestion]:
    """Suggestions for the selection [start, end) of the annotation's peer."""
    peer_text = annotation.peer.text
    text = query_text(peer_text, *_clamped(peer_text, start, end))
    return rank(pyramid_index(annotation.pyramid), text, limit)


def selects_words(annotation, start: int, end: int) -> bool:
    """Whether `suggest` ranks the selected words (False: the sentence around the caret), as
    query_text decides, for the page to say which."""
    first, last = _clamped(annotation.peer.text, start, end)
    return bool(words(annotation.peer.text[first:last]))
