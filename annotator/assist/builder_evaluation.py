"""How well the builder's help finds a model's contributor (issue 20), on stored pyramids.

For each SCU with at least two contributors, one of them (the last, by position: the one an
annotator would add next) is held out: removed from the SCU as the ranker sees it (its words no
longer a query, no longer marked as taken). The help (annotator.assist.builder_help.help_for) then
ranks the phrases of that contributor's model; a suggestion is right when it shares a content word
(annotator.assist.lexical.words) with the held-out contributor's spans. Reported: how often the
first suggestion is right (top-1), any of the first three (top-3), how well the first fits the
contributor's words (word precision: its words in the contributor; word recall: the contributor's
words it holds; means over the SCUs, 0 where nothing is suggested), the SCUs evaluated and the
milliseconds each help took (every model lacking a contributor ranked, as the page asks for it;
the pyramid's phrases prepared beforehand, as the page's cached index is; preparing timed apart).

SCUs whose held-out model still has another contributor in the SCU (imported pyramids may break
the one-per-model rule) are skipped: the help lists no phrase for that model.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass
from typing import Any

from annotator.assist import lexical
from annotator.assist.builder_help import RANKER, builder_texts, help_for, prepare_phrases
from annotator.assist.evaluation import timings, top


@dataclass(frozen=True)
class BuilderEvaluation:
    ranker: str
    pyramids: int
    scus: int  # SCUs evaluated (one contributor held out of each)
    top1: float
    top3: float
    word_precision: float  # of the first suggestion
    word_recall: float
    ms_median: float  # milliseconds per help (one SCU, every model lacking a contributor)
    ms_p95: float
    ms_max: float
    prepare_ms_mean: float  # milliseconds to cut and index a pyramid's models (once per version)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def shares_a_word(text: str, start: int, end: int, spans) -> bool:
    """Whether [start, end) of `text` and any of `spans` have a content word in common (in the
    same place, not just the same word)."""
    return any(
        lexical.words(text[max(start, s) : min(end, e)])
        for s, e in spans
        if max(start, s) < min(end, e)
    )


def word_positions(text: str, spans) -> set[int]:
    """The start offsets of the content words of `text` inside `spans`."""
    return {
        word.start()
        for s, e in spans
        for word in lexical.WORD.finditer(text, s, e)
        if lexical.words(word.group())  # not a function word
    }


def evaluate(pyramids, ranker: str | None = None) -> BuilderEvaluation:
    """Hold out one contributor of each SCU with >= 2 contributors of `pyramids` (a queryset)."""
    ranker = ranker or RANKER
    ranks: list[int | None] = []
    precisions: list[float] = []
    recalls: list[float] = []
    help_seconds: list[float] = []
    prepare_seconds: list[float] = []
    warmed = False
    for pyramid in pyramids.order_by("pk"):
        texts = builder_texts(pyramid)
        held = [
            (scu.uid, scu.contributors[-1])
            for scu in texts.scus.values()
            if len(scu.contributors) >= 2
        ]
        if not held:
            continue
        if not warmed:  # imports, a model: not what a page waits for once running
            help_for(texts, prepare_phrases(texts.models, ranker), held[0][0])
            warmed = True
        started = time.perf_counter()
        phrase_index = prepare_phrases(texts.models, ranker)
        prepare_seconds.append(time.perf_counter() - started)
        text_of = {m.summary_id: m.text for m in texts.models}
        for uid, contributor in held:
            started = time.perf_counter()
            helps = help_for(texts, phrase_index, uid, limit=3, hold_out=contributor.id)
            help_seconds.append(time.perf_counter() - started)
            mine = next((h for h in helps if h.summary_id == contributor.summary_id), None)
            if mine is None:
                continue
            text = text_of.get(contributor.summary_id, "")
            right = [
                n
                for n, phrase in enumerate(mine.phrases, 1)
                if shares_a_word(text, phrase.start, phrase.end, contributor.spans)
            ]
            ranks.append(right[0] if right else None)
            held_words = word_positions(text, contributor.spans)
            first = mine.phrases[0] if mine.phrases else None
            shown = word_positions(text, [(first.start, first.end)]) if first else set()
            precisions.append(len(shown & held_words) / len(shown) if shown else 0.0)
            recalls.append(len(shown & held_words) / len(held_words) if held_words else 0.0)

    return BuilderEvaluation(
        ranker=ranker,
        pyramids=len(prepare_seconds),
        scus=len(ranks),
        top1=top(ranks, 1),
        top3=top(ranks, 3),
        word_precision=round(statistics.fmean(precisions), 4) if precisions else 0.0,
        word_recall=round(statistics.fmean(recalls), 4) if recalls else 0.0,
        **timings(help_seconds, prepare_seconds),
    )
