"""Which SCUs a peer sentence may express: ranked by lexical overlap, for the annotator to pick.

DUCView 1.4's "autoannotate" matched contributor strings exactly and annotated by itself; here the
pyramid's SCUs are only ranked, and the annotator decides. Lexical overlap is the measure: the
cosine between the sets of content words of the sentence and of an SCU's label or of any of its
contributors (the best of them), with plural "s" folded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
STOPWORDS = frozenset(
    "a an and are as at be been but by for from had has have he her his in into is it its of on or "
    "our she that the their them they this to was were which while who will with would".split()
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def content_words(text: str) -> frozenset[str]:
    words = set()
    for word in WORD.findall(text.lower()):
        word = word.replace("’", "'").removesuffix("'s")
        if word in STOPWORDS:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]  # rocks/rock, astronauts/astronaut: enough folding to start
        words.add(word)
    return frozenset(words)


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Cosine similarity of two word sets: |a ∩ b| / sqrt(|a| |b|)."""
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


@dataclass(frozen=True)
class Suggestion:
    uid: int
    label: str
    weight: int
    score: float
    shared: tuple[str, ...]  # the words the sentence shares with the best-matching text


def rank_scus(
    sentence: str, scus: Iterable[tuple[int, str, int, list[str]]], limit: int = 8
) -> list[Suggestion]:
    """SCUs (uid, label, weight, contributor texts) ranked by overlap with the sentence.

    Ties go to the heavier SCU (the pyramid's more important content), then to the lower uid.
    SCUs sharing no content word with the sentence are left out.
    """
    words = content_words(sentence)
    ranked = []
    for uid, label, weight, contributor_texts in scus:
        best = 0.0
        shared: frozenset[str] = frozenset()
        for text in [label, *contributor_texts]:
            other = content_words(text)
            score = overlap(words, other)
            if score > best:
                best, shared = score, words & other
        if best > 0:
            ranked.append(Suggestion(uid, label, weight, round(best, 4), tuple(sorted(shared))))
    ranked.sort(key=lambda s: (-s.score, -s.weight, s.uid))
    return ranked[:limit]


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or sentences) of `text` holding [start, end)."""
    bounds = [0] + [m.end() for m in SENTENCE_END.finditer(text)] + [len(text)]
    first = max(b for b in bounds if b <= start)
    last = min((b for b in bounds if b >= end and b > first), default=len(text))
    return first, last


def suggest(annotation, start: int, end: int, limit: int = 8) -> list[Suggestion]:
    """Suggestions for the peer sentence holding [start, end), from three queries."""
    from annotator.models import SCU, Span

    text = annotation.peer.text
    first, last = sentence_around(text, start, end)
    summaries = {
        link.summary_id: link.summary.text
        for link in annotation.pyramid.model_links.select_related("summary")
    }
    contributor_texts: dict[int, dict[int, list[str]]] = {}
    for scu_id, contributor_id, summary_id, span_start, span_end in (
        Span.objects.filter(contributor__scu__pyramid_id=annotation.pyramid_id)
        .order_by("contributor_id", "start")
        .values_list("contributor__scu_id", "contributor_id", "summary_id", "start", "end")
    ):
        parts = contributor_texts.setdefault(scu_id, {}).setdefault(contributor_id, [])
        parts.append(summaries.get(summary_id, "")[span_start:span_end])
    # Weights as the page's tiers show them: under the collection's convention.
    scus = SCU.objects.filter(pyramid_id=annotation.pyramid_id).with_weight()
    return rank_scus(
        text[first:last],
        (
            (
                scu.uid,
                scu.label,
                scu.weight,
                [" ".join(p) for p in contributor_texts.get(scu.id, {}).values()],
            )
            for scu in scus
        ),
        limit,
    )
