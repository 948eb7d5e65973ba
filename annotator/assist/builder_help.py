"""Help while building a pyramid (issue 20): with an SCU selected, each model summary that has no
contributor in it shows its clause-sized phrases most like the SCU, best first; the annotator adds
one as a contributor through the builder's own editing path
(annotator.pyramids.editing.add_contributor: one contributor per model, words snapped, undo).

How a model summary is cut into phrases (`phrases`), documented because the annotator sees it:
1. into sentences, where the suggestions cut them (at line breaks, and where pySBD ends a
   sentence: not after "Jan." or "U.S."; annotator.text.sentences);
2. each sentence at every comma, semicolon, colon and dash between spaces, and before a word that
   starts a clause (but, because, while, which, who, ... : CLAUSE_WORDS); "and" and "or" only after
   a comma (the comma cuts), so that "drug and alcohol addiction" stays whole;
3. a piece with fewer than MIN_WORDS content words joins the piece after it (the last one of a
   sentence joins the piece before it): "However," and "in 1969" are not phrases of their own;
4. a phrase's span runs from its first word to its last, a leading "and", "or" or "but" left out.
A list ("drug addiction, domestic violence, teen pregnancy") thus gives one phrase per item: SCUs
are often one item of such a list.

How phrases are ranked for an SCU: each phrase of the pyramid's models is a document of the
ranker's index (annotator.assist.rankers.prepare: BM25 by default, the same machinery as the peer
page's suggestions, not a copy); the SCU's label and each of its contributors is a query; a
phrase's score is the sum over those queries of its score divided by the query's best score
over all the pyramid's phrases (BM25 scores are comparable within one query only, so each query
is scaled to 1 before they are added). A phrase some contributors word like it comes first.

Phrases overlapping a contributor of any SCU are listed too (a phrase may express two SCUs), with
the uids of those SCUs (`taken`), so the page can say so.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from annotator.assist import caching, lexical
from annotator.assist.rankers import Index, ScuTexts, prepare

if TYPE_CHECKING:
    from annotator.pyramids.models import Pyramid
    from annotator.pyramids.parts import PyramidRows

RANKER = "lexical"  # measured best on DUC 2006 (bench/builder_help.py)
LIMIT = 3  # phrases shown per model
MIN_WORDS = 2  # content words a phrase needs (a shorter piece joins its neighbour)
CLAUSE_WORDS = (
    *"but because while whereas although though which who whom whose unless until".split(),
    r"so\s+that",
)
BREAK = re.compile(
    r"\s*[,;:]\s+|\s+(?:--|[—–-])\s+|\s*[—–]\s*|\s+(?:(?:and|or)\s+)?(?=(?:"
    + "|".join(CLAUSE_WORDS)
    + r")\b)",
    re.IGNORECASE,
)
WORD = re.compile(r"\w+")
LEADING_CONJUNCTION = re.compile(r"(?:and|or|but)\s+", re.IGNORECASE)


# -- cutting a model summary into phrases ---------------------------------------------------------


def phrases(text: str) -> list[tuple[int, int]]:
    """The clause-sized phrases of `text` as (start, end) code point offsets, in text order (the
    module's description says how it is cut).

    >>> text = "Casinos bring jobs, and money. However, few casinos profit, which hurts."
    >>> [text[s:e] for s, e in phrases(text)]
    ['Casinos bring jobs, and money', 'However, few casinos profit, which hurts']
    """
    found: list[tuple[int, int]] = []
    for sentence in lexical.cut(text, BREAK):
        pieces = [span for span in (_words_of(text, s, e) for s, e in sentence) if span]
        joined: list[tuple[int, int]] = []
        waiting: int | None = None  # the start of short pieces waiting for the next one
        for start, end in pieces:
            start = start if waiting is None else waiting
            if len(lexical.words(text[start:end])) < MIN_WORDS:
                waiting = start
                continue
            waiting = None
            joined.append((start, end))
        if waiting is not None:  # short pieces at the sentence's end join the phrase before
            if joined:
                joined[-1] = (joined[-1][0], pieces[-1][1])
            elif lexical.words(text[waiting : pieces[-1][1]]):  # a short sentence: one phrase
                joined.append((waiting, pieces[-1][1]))
        found.extend(joined)
    return found


def _words_of(text: str, start: int, end: int) -> tuple[int, int] | None:
    """[start, end) trimmed to its first and last word, a leading "and", "or", "but" left out."""
    inside = [m.span() for m in WORD.finditer(text, start, end)]
    return lexical.trimmed(text, inside, LEADING_CONJUNCTION)


# -- a pyramid as the help reads it ---------------------------------------------------------------


@dataclass(frozen=True)
class ModelText:
    summary_id: int
    author: str
    text: str


@dataclass(frozen=True)
class ContributorParts:
    id: int
    summary_id: int
    spans: tuple[tuple[int, int], ...]  # its parts in its model's text


@dataclass(frozen=True)
class ScuParts:
    uid: int
    label: str
    contributors: tuple[ContributorParts, ...]


@dataclass(frozen=True)
class BuilderTexts:
    """A pyramid's models and SCUs with their contributors' spans, read in three queries."""

    models: tuple[ModelText, ...]
    scus: dict[int, ScuParts]  # by uid

    def text_of(self, contributor: ContributorParts) -> str:
        text = next((m.text for m in self.models if m.summary_id == contributor.summary_id), "")
        return " ".join(text[s:e] for s, e in contributor.spans)


def builder_texts(pyramid: Pyramid, rows: PyramidRows | None = None) -> BuilderTexts:
    """The pyramid's models and SCUs with their contributors' parts; from `rows`
    (annotator.pyramids.parts) where the caller reads them too."""
    from annotator.pyramids.parts import PyramidRows

    rows = PyramidRows(pyramid.pk) if rows is None else rows

    models = tuple(
        ModelText(link.summary_id, link.summary.author, link.summary.text)
        for link in pyramid.model_texts
    )
    labels = rows.labels
    found: dict[int, dict[int, tuple[int, list[tuple[int, int]]]]] = {uid: {} for uid in labels}
    for part in rows.parts:
        _, spans = found[part.scu_uid].setdefault(
            part.contributor_id, (part.contributor_summary_id, [])
        )
        spans.append((part.start, part.end))
    return BuilderTexts(
        models,
        {
            uid: ScuParts(
                uid,
                label,
                tuple(
                    ContributorParts(cid, summary_id, tuple(spans))
                    for cid, (summary_id, spans) in found[uid].items()
                ),
            )
            for uid, label in labels.items()
        },
    )


# -- ranking phrases for an SCU -------------------------------------------------------------------


@dataclass(frozen=True)
class PhraseIndex:
    """Every phrase of a pyramid's models, prepared for a ranker (each phrase one document)."""

    spans: tuple[tuple[int, int, int], ...]  # (model position, start, end)
    index: Index


def prepare_phrases(models: Iterable[ModelText], ranker: str | None = None) -> PhraseIndex:
    spans: list[tuple[int, int, int]] = []
    documents: list[ScuTexts] = []
    for position, model in enumerate(models):
        for start, end in phrases(model.text):
            spans.append((position, start, end))
            documents.append(ScuTexts(len(documents), model.text[start:end], 1))
    return PhraseIndex(tuple(spans), prepare(documents, ranker or RANKER))


def pyramid_phrases(pyramid: Pyramid, texts: BuilderTexts, ranker: str | None = None):
    """`prepare_phrases` of the pyramid's models (annotator.assist.caching: in this process and in
    the cache every worker shares). Keyed by the models' texts, not the pyramid's version: the
    phrases are the models', which no edit of the pyramid changes (issue 32: each edit, whose
    answer now brings the help, prepared them again)."""
    ranker = ranker or RANKER
    made_of = hashlib.sha256(
        "\0".join(f"{m.summary_id}\0{m.text}" for m in texts.models).encode()
    ).hexdigest()
    key = f"assist:builder:{ranker}:{pyramid.pk}:{made_of}"
    return caching.shared(key, lambda: prepare_phrases(texts.models, ranker))


@dataclass(frozen=True)
class Phrase:
    start: int
    end: int
    text: str
    score: float
    # the content words it shares with the SCU's label and contributors, as the phrase writes them
    shared: tuple[str, ...]
    taken: tuple[int, ...]  # the SCUs (uids) with a contributor overlapping it


@dataclass(frozen=True)
class ModelHelp:
    summary_id: int
    author: str
    phrases: tuple[Phrase, ...]  # best first


def phrase_scores(phrase_index: PhraseIndex, queries: Iterable[str]) -> list[float]:
    """Each phrase's score for the SCU whose texts are `queries` (module description): the sum of
    its per-query scores, each query's scaled by that query's best."""
    total = [0.0] * len(phrase_index.spans)
    for query in queries:
        scores = phrase_index.index.scores(query)
        best = max(scores, default=0.0)
        if best <= 0:
            continue
        for position, score in enumerate(scores):
            if score > 0:
                total[position] += score / best
    return total


def help_for(
    texts: BuilderTexts,
    phrase_index: PhraseIndex,
    uid: int,
    limit: int | None = LIMIT,
    hold_out: int | None = None,
) -> list[ModelHelp]:
    """For each model with no contributor in SCU `uid`, its phrases most like the SCU, best first
    (at most `limit`; phrases sharing nothing with the SCU are left out). `hold_out`: a
    contributor id the ranking does not see (the evaluation's held-out contributor).
    KeyError if the SCU is not in `texts`."""
    scu = texts.scus[uid]
    contributors = [c for c in scu.contributors if c.id != hold_out]
    queries = [scu.label, *(texts.text_of(c) for c in contributors)]
    scores = phrase_scores(phrase_index, queries)
    query_words = frozenset().union(*(lexical.content_words(q) for q in queries))
    having = {c.summary_id for c in contributors}
    # Which SCUs' contributors lie where, per model (the held-out contributor is not there).
    covered: dict[int, list[tuple[int, int, int]]] = {}
    for other in texts.scus.values():
        for c in other.contributors:
            if c.id != hold_out:
                covered.setdefault(c.summary_id, []).extend((s, e, other.uid) for s, e in c.spans)
    helps = []
    for position, model in enumerate(texts.models):
        if model.summary_id in having:
            continue
        mine = [
            p for p, (at, _, _) in enumerate(phrase_index.spans) if at == position and scores[p] > 0
        ]
        mine.sort(key=lambda p: (-scores[p], phrase_index.spans[p][1]))
        if limit is not None:
            mine = mine[:limit]
        found = []
        for p in mine:
            _, start, end = phrase_index.spans[p]
            words = model.text[start:end]
            taken = sorted(
                {u for s, e, u in covered.get(model.summary_id, []) if s < end and start < e}
            )
            found.append(
                Phrase(
                    start,
                    end,
                    words,
                    round(scores[p], 4),
                    lexical.as_written(words, lexical.content_words(words) & query_words),
                    tuple(taken),
                )
            )
        helps.append(ModelHelp(model.summary_id, model.author, tuple(found)))
    return helps


def pyramid_help(
    pyramid: Pyramid, uid: int, limit: int | None = LIMIT, rows: PyramidRows | None = None
) -> list[ModelHelp]:
    """`help_for` the pyramid as it is now (the phrases' index cached per pyramid version); from
    `rows` (annotator.pyramids.parts) where the caller reads them too."""
    texts = builder_texts(pyramid, rows)
    return help_for(texts, pyramid_phrases(pyramid, texts), uid, limit)
