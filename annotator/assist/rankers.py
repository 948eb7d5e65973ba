"""Ranking a pyramid's SCUs for a peer's words: the one API the page, proposals and the builder's
help call.

    index = pyramid_index(pyramid)          # prepared once per pyramid version, then cached
    rank(index, "the selected words")       # [Suggestion(uid, label, weight, score, shared)]

Rankers (RANKERS): "overlap" (word-set cosine), "lexical" (BM25, the default without the extra),
"semantic" (WordLlama + BM25, the default with `pip install -e '.[semantic]'`). Scores are
comparable within one ranker and one query only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from annotator.assist import caching, lexical

if TYPE_CHECKING:
    from annotator.pyramids.models import Pyramid

RANKERS = ("lexical", "semantic", "overlap")


@dataclass(frozen=True)
class ScuTexts:
    """What a ranker reads of an SCU: its label and its contributors' texts (one string each)."""

    uid: int
    label: str
    weight: int
    contributors: tuple[str, ...] = ()

    @property
    def texts(self) -> tuple[str, ...]:
        return (self.label, *self.contributors)


@dataclass(frozen=True)
class Suggestion:
    uid: int
    label: str
    weight: int
    score: float
    # the content words the text shares with the SCU's closest text, as the text writes them
    shared: tuple[str, ...]


class Index(Protocol):
    """A pyramid's SCUs prepared for one ranker: a score per SCU for any text, higher is closer."""

    name: str
    scus: tuple[ScuTexts, ...]

    def scores(self, text: str) -> list[float]: ...


def default_ranker() -> str:
    """The best ranker installed: the page never breaks without the semantic extra."""
    from annotator.assist import semantic

    return "semantic" if semantic.available() else "lexical"


def prepare(scus: Sequence[ScuTexts], ranker: str | None = None) -> Index:
    """`scus` prepared for `ranker` (default_ranker() if None). ValueError names an unknown one;
    ImportError says the semantic extra is missing."""
    ranker = ranker or default_ranker()
    if ranker == "lexical":
        return lexical.LexicalIndex(scus)
    if ranker == "overlap":
        return lexical.OverlapIndex(scus)
    if ranker == "semantic":
        from annotator.assist import semantic

        if not semantic.available():
            raise ImportError("the semantic ranker needs: pip install -e '.[semantic]'")
        return semantic.SemanticIndex(scus)
    raise ValueError(f"unknown ranker {ranker!r}: one of {', '.join(RANKERS)}")


def rank(index: Index, text: str, limit: int | None = 8) -> list[Suggestion]:
    """The SCUs of `index` closest to `text`, best first, at most `limit` (all with None).

    Ties go to the heavier SCU (the pyramid's more important content), then to the lower uid.
    SCUs scoring nothing (no shared word, for the lexical rankers) are left out.
    """
    scores = index.scores(text)
    order = ranked(index, scores)
    if limit is not None:
        order = order[:limit]
    query = lexical.content_words(text)
    suggestions = []
    for position in order:
        scu = index.scus[position]
        # The words shown beside a suggestion: those of its text closest to the query.
        closest = max(
            (lexical.content_words(t) for t in scu.texts),
            key=lambda other: lexical.overlap(query, other),
        )
        suggestions.append(
            Suggestion(
                scu.uid,
                scu.label,
                scu.weight,
                round(scores[position], 4),
                lexical.as_written(text, query & closest),
            )
        )
    return suggestions


def ranked(index: Index, scores: list[float]) -> list[int]:
    """The positions of the SCUs of `index` scoring above 0, best first (ties as in `rank`)."""
    return sorted(
        (position for position, score in enumerate(scores) if score > 0),
        key=lambda p: (-scores[p], -index.scus[p].weight, index.scus[p].uid),
    )


def pyramid_scus(pyramid: Pyramid) -> list[ScuTexts]:
    """The pyramid's SCUs with their weights (under the collection's convention, as the page's
    tiers show them) and contributor texts (a contributor's spans joined by a space): 3 queries."""
    from annotator.pyramids.models import SCU, Span

    summaries = {
        link.summary_id: link.summary.text for link in pyramid.model_links.select_related("summary")
    }
    texts: dict[int, dict[int, list[str]]] = {}
    for scu_id, contributor_id, summary_id, start, end in (
        Span.objects.filter(contributor__scu__pyramid_id=pyramid.pk)
        .order_by("contributor__position", "contributor_id", "start")
        .values_list("contributor__scu_id", "contributor_id", "summary_id", "start", "end")
    ):
        parts = texts.setdefault(scu_id, {}).setdefault(contributor_id, [])
        parts.append(summaries.get(summary_id, "")[start:end])
    return [
        ScuTexts(
            scu.uid,
            scu.label,
            scu.weight,
            tuple(" ".join(parts) for parts in texts.get(scu.id, {}).values()),
        )
        for scu in SCU.objects.filter(pyramid_id=pyramid.pk)
        .with_weight()
        .order_by("position", "uid")
    ]


def pyramid_index(pyramid: Pyramid, ranker: str | None = None) -> Index:
    """The pyramid's SCUs prepared for `ranker`, by pyramid id and version (kept by
    annotator.assist.caching: in this process and in the cache every worker shares): every change
    of the pyramid raises its version, so a stale index is never read. The weight convention is in
    the key too: the collection's settings change it, not the pyramid's version."""
    ranker = ranker or default_ranker()
    convention = pyramid.docset.collection.weight_convention
    key = f"assist:{ranker}:{pyramid.pk}:{pyramid.version}:{convention}"
    return caching.shared(key, lambda: prepare(pyramid_scus(pyramid), ranker))
