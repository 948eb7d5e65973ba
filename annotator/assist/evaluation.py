"""How well a ranker finds the SCU: every stored PSE with an SCU replayed as the annotator saw it.

For each PSE, its words (its spans' text, joined by a space) are ranked against all the SCUs of its
annotation's pyramid (the pyramid, not that annotation's own PSEs), and the rank of the SCU the
annotator chose is kept: top-1, top-3, top-5, mean reciprocal rank (0 where the SCU is not ranked
at all) and the milliseconds each ranking took: `rank` as the page calls it (8 suggestions), the
pyramid prepared beforehand as the page's cached index is (preparing is timed apart, once per
pyramid), after one ranking that warms the ranker up (imports, the model).

`query="sentence"` ranks the sentence around the PSE instead: what the page did before issue 20.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass
from typing import Any, TypedDict

from annotator.assist import lexical
from annotator.assist.rankers import (
    ScuTexts,
    default_ranker,
    prepare,
    pyramid_scus,
    rank,
    ranked,
)

QUERIES = ("span", "sentence")


@dataclass(frozen=True)
class Evaluation:
    ranker: str
    query: str
    pyramids: int
    rankings: int  # the PSEs with an SCU replayed
    top1: float
    top3: float
    top5: float
    mrr: float
    ms_median: float  # milliseconds per ranking
    ms_p95: float
    ms_max: float
    prepare_ms_mean: float  # milliseconds to prepare a pyramid (once per pyramid version)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def percentile(values: list[float], share: float) -> float:
    """The smallest value that `share` of the values do not exceed (0 for none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def top(ranks: list[int | None], k: int) -> float:
    """The share of `ranks` at most `k` (None: not ranked), to 4 places (0 for none)."""
    if not ranks:
        return 0.0
    return round(sum(1 for r in ranks if r is not None and r <= k) / len(ranks), 4)


class Timings(TypedDict):
    ms_median: float  # milliseconds per ranking (or per help)
    ms_p95: float
    ms_max: float
    prepare_ms_mean: float  # milliseconds to prepare a pyramid


def timings(seconds: list[float], prepare_seconds: list[float]) -> Timings:
    """The milliseconds of each ranking (median, 95th percentile, max) and of preparing a pyramid
    (mean), as both evaluations report them (0 for none)."""
    return Timings(
        ms_median=round(1000 * statistics.median(seconds), 3) if seconds else 0.0,
        ms_p95=round(1000 * percentile(seconds, 0.95), 3),
        ms_max=round(1000 * max(seconds, default=0.0), 3),
        prepare_ms_mean=round(1000 * sum(prepare_seconds) / len(prepare_seconds), 1)
        if prepare_seconds
        else 0.0,
    )


@dataclass(frozen=True)
class Split:
    """The same evaluation on each half of the docsets (`halves`): a ranker's constants chosen on
    the tuning half are checked on the held-out one."""

    tuning_docsets: list[str]
    held_out_docsets: list[str]
    tuning: Evaluation
    held_out: Evaluation | None  # None with one docset

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def split(annotations, ranker: str | None = None, query: str = "span") -> Split:
    """`evaluate` on the tuning docsets and on the held-out ones apart."""
    tune, hold = halves(annotations.values_list("pyramid__docset__name", flat=True))
    return Split(
        tune,
        hold,
        evaluate(annotations.filter(pyramid__docset__name__in=tune), ranker, query),
        evaluate(annotations.filter(pyramid__docset__name__in=hold), ranker, query)
        if hold
        else None,
    )


def halves(docsets) -> tuple[list[str], list[str]]:
    """Docset names sorted, then dealt alternately: the 1st, 3rd, ... to tune on, the 2nd, 4th,
    ... held out (figures measured on them were not chosen on them). One docset: none held out."""
    ordered = sorted(set(docsets))
    return ordered[0::2], ordered[1::2]


def evaluate(annotations, ranker: str | None = None, query: str = "span") -> Evaluation:
    """Replay the PSEs of `annotations` (a PeerAnnotation queryset) with `ranker`."""
    from annotator.peer_annotation.models import PSE
    from annotator.pyramids.models import Pyramid

    if query not in QUERIES:
        raise ValueError(f"unknown query {query!r}: one of {', '.join(QUERIES)}")
    ranker = ranker or default_ranker()
    pses: dict[int, list[tuple[str, int]]] = {}  # per pyramid: (query text, the chosen SCU's uid)
    for pse in (
        PSE.objects.filter(annotation__in=annotations, scu__isnull=False)
        .select_related("annotation__peer", "scu")
        .prefetch_related("spans")
        .order_by("annotation_id", "position", "id")
    ):
        text = pse.annotation.peer.text
        spans = sorted((span.start, span.end) for span in pse.spans.all())
        if not spans or pse.scu is None:  # None never, by the filter: said for the type checker
            continue
        if query == "span":
            words = " ".join(text[start:end] for start, end in spans)
        else:
            first, last = lexical.sentence_around(text, spans[0][0], spans[-1][1])
            words = text[first:last]
        pses.setdefault(pse.annotation.pyramid_id, []).append((words, pse.scu.uid))

    ranks: list[int | None] = []
    ranking_seconds: list[float] = []
    prepare_seconds: list[float] = []
    if pses:
        rank(prepare([ScuTexts(1, "warm up", 1)], ranker), "warm up")
    for pyramid in Pyramid.objects.filter(pk__in=pses).order_by("pk"):
        scus = pyramid_scus(pyramid)
        started = time.perf_counter()
        index = prepare(scus, ranker)
        prepare_seconds.append(time.perf_counter() - started)
        for words, uid in pses[pyramid.pk]:
            started = time.perf_counter()
            rank(index, words)
            ranking_seconds.append(time.perf_counter() - started)
            order = [index.scus[p].uid for p in ranked(index, index.scores(words))]
            ranks.append(order.index(uid) + 1 if uid in order else None)

    count = len(ranks)  # one ranking timed per rank
    return Evaluation(
        ranker=ranker,
        query=query,
        pyramids=len(prepare_seconds),
        rankings=count,
        top1=top(ranks, 1),
        top3=top(ranks, 3),
        top5=top(ranks, 5),
        mrr=round(sum(1 / r for r in ranks if r is not None) / count, 4) if count else 0.0,
        **timings(ranking_seconds, prepare_seconds),
    )
