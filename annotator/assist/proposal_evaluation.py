"""How right the proposals are (annotator.assist.proposals), on stored human matches.

Each stored peer annotation is replayed as its annotator began it: an empty annotation (the
pyramid only, none of its PSEs), proposed as `proposals.propose` would (its clauses, ranker and
rules). A proposal is correct when its words overlap a stored PSE of the same SCU. Printed:
- proposals made, and their precision (correct / made): the share an annotator would accept;
- recall of SCU matches: the stored PSEs with an SCU that some correct proposal overlaps, over the
  stored PSEs with an SCU (what the proposals spare the annotator);
- F0.5 (precision counts twice as much as recall: each wrong proposal costs a rejection);
- milliseconds per peer (cutting and ranking every clause; the pyramid prepared beforehand, as the
  page's cached index is, and timed apart).

`sweep` measures a grid of MIN_SCORE and MIN_MARGIN on half of the docsets
(evaluation.halves: sorted by name, alternately), chooses a point (`choose`) and reports it on the
other half too, so the figures documented in proposals.py are not only those it was chosen on.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from annotator.assist import proposals
from annotator.assist.evaluation import halves, timings
from annotator.assist.rankers import ScuTexts, prepare, pyramid_scus

# The grid: overlap's scores lie in [0, 1]; the semantic ranker's reach about 1.4.
GRID_SCORES = tuple(round(0.2 + 0.05 * i, 2) for i in range(21))  # 0.2 .. 1.2
GRID_MARGINS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3)
TARGET_PRECISION = 0.8  # annotators reject wrong proposals one by one
MIN_RECALL = 0.05  # below, a few proposals in all: too few to measure precision on


@dataclass(frozen=True)
class Replayed:
    """One stored annotation replayed: its clauses' candidates and its stored PSEs with an SCU."""

    docset: str
    candidates: list[proposals.Candidate]
    stored: list[tuple[int, tuple[tuple[int, int], ...]]]  # (SCU uid, spans) of each PSE
    seconds: float  # cutting the peer and ranking its clauses


@dataclass(frozen=True)
class Evaluation:
    ranker: str
    min_score: float
    min_margin: float
    docsets: list[str]
    annotations: int
    proposals: int  # made
    correct: int
    precision: float  # correct / made (0 for none made)
    stored: int  # stored PSEs with an SCU
    found: int  # of them, overlapped by a correct proposal
    recall: float
    f05: float
    ms_median: float  # milliseconds per peer
    ms_p95: float
    ms_max: float
    prepare_ms_mean: float  # milliseconds to prepare a pyramid (once per pyramid version)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Sweep:
    ranker: str
    tuning_docsets: list[str]
    held_out_docsets: list[str]
    grid: list[dict[str, float]]  # each point on the tuning docsets
    chosen: dict[str, float]  # min_score, min_margin
    tuning: Evaluation
    held_out: Evaluation | None  # None with one docset
    everything: Evaluation
    rule: str = field(default="")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _overlaps(a: tuple[int, int], spans) -> bool:
    return any(s < a[1] and a[0] < e for s, e in spans)


def replay(annotations, ranker: str) -> tuple[list[Replayed], list[float]]:
    """Every annotation of `annotations` (a PeerAnnotation queryset) replayed with `ranker`, and
    the seconds each pyramid took to prepare."""
    from annotator.peer_annotation.models import PSE
    from annotator.pyramids.models import Pyramid

    annotations = annotations.select_related("peer", "pyramid__docset")
    stored: dict[int, list[tuple[int, tuple[tuple[int, int], ...]]]] = {}
    for pse in (
        PSE.objects.filter(annotation__in=annotations, scu__isnull=False)
        .select_related("scu")
        .prefetch_related("spans")
    ):
        if pse.scu is None:  # never, by the filter: said for the type checker
            continue
        spans = tuple(sorted((span.start, span.end) for span in pse.spans.all()))
        stored.setdefault(pse.annotation_id, []).append((pse.scu.uid, spans))

    by_pyramid: dict[int, list] = {}
    for annotation in annotations.order_by("pk"):
        by_pyramid.setdefault(annotation.pyramid_id, []).append(annotation)
    replayed: list[Replayed] = []
    prepare_seconds: list[float] = []
    if by_pyramid:  # warm the ranker up (imports, the model) before anything is timed
        proposals.ranking(prepare([ScuTexts(1, "warm up", 1)], ranker))("warm up")
    for pyramid in Pyramid.objects.filter(pk__in=by_pyramid).order_by("pk"):
        started = time.perf_counter()
        index = prepare(pyramid_scus(pyramid), ranker)
        prepare_seconds.append(time.perf_counter() - started)
        rank = proposals.ranking(index)
        for annotation in by_pyramid[pyramid.pk]:
            started = time.perf_counter()
            found = proposals.candidates(annotation.peer.text, [], [], rank)
            seconds = time.perf_counter() - started
            replayed.append(
                Replayed(
                    annotation.pyramid.docset.name,
                    found,
                    stored.get(annotation.pk, []),
                    seconds,
                )
            )
    return replayed, prepare_seconds


def measure(
    replayed: list[Replayed],
    ranker: str,
    min_score: float,
    min_margin: float,
    prepare_seconds: list[float] | None = None,
) -> Evaluation:
    """The proposals at `min_score` and `min_margin` against the stored PSEs."""
    made = correct = stored = found = 0
    for one in replayed:
        # An empty annotation: nothing matched yet, so no SCU is left out as matched.
        chosen = proposals.confident(one.candidates, set(), min_score, min_margin)
        made += len(chosen)
        right = [
            c
            for c in chosen
            if any(
                uid == c.ranked[0].uid and _overlaps((c.start, c.end), spans)
                for uid, spans in one.stored
            )
        ]
        correct += len(right)
        stored += len(one.stored)
        found += sum(
            1
            for uid, spans in one.stored
            if any(c.ranked[0].uid == uid and _overlaps((c.start, c.end), spans) for c in right)
        )
    precision = correct / made if made else 0.0
    recall = found / stored if stored else 0.0
    f05 = 1.25 * precision * recall / (0.25 * precision + recall) if precision + recall else 0.0
    return Evaluation(
        ranker=ranker,
        min_score=min_score,
        min_margin=min_margin,
        docsets=sorted({one.docset for one in replayed}),
        annotations=len(replayed),
        proposals=made,
        correct=correct,
        precision=round(precision, 4),
        stored=stored,
        found=found,
        recall=round(recall, 4),
        f05=round(f05, 4),
        **timings([one.seconds for one in replayed], prepare_seconds or []),
    )


def evaluate(
    annotations,
    ranker: str | None = None,
    min_score: float | None = None,
    min_margin: float | None = None,
) -> Evaluation:
    """The proposals for `annotations` replayed with `ranker` (default: the proposals' own) at the
    thresholds given (default: the proposals' MIN_SCORE and MIN_MARGIN)."""
    ranker = ranker or proposals.RANKER
    replayed, prepare_seconds = replay(annotations, ranker)
    return measure(
        replayed,
        ranker,
        proposals.MIN_SCORE if min_score is None else min_score,
        proposals.MIN_MARGIN if min_margin is None else min_margin,
        prepare_seconds,
    )


RULE = (
    f"the grid point with precision >= {TARGET_PRECISION} and recall >= {MIN_RECALL} of the best "
    "recall (ties: the better precision, then the lower thresholds); if none, the best F0.5"
)


def choose(points: list[Evaluation]) -> Evaluation:
    """The point RULE names."""
    good = [p for p in points if p.precision >= TARGET_PRECISION and p.recall >= MIN_RECALL]
    if good:
        return max(good, key=lambda p: (p.recall, p.precision, -p.min_score, -p.min_margin))
    return max(points, key=lambda p: (p.f05, p.precision, -p.min_score, -p.min_margin))


def sweep(annotations, ranker: str | None = None) -> Sweep:
    """The grid on the tuning half of the docsets, the point chosen there, and its figures on the
    held-out half and on everything."""
    ranker = ranker or proposals.RANKER
    replayed, prepare_seconds = replay(annotations, ranker)
    tune, hold = halves(one.docset for one in replayed)
    tuning = [one for one in replayed if one.docset in tune]
    held = [one for one in replayed if one.docset in hold]
    points = [
        measure(tuning, ranker, score, margin, prepare_seconds)
        for score in GRID_SCORES
        for margin in GRID_MARGINS
    ]
    best = choose(points)
    return Sweep(
        ranker=ranker,
        tuning_docsets=tune,
        held_out_docsets=hold,
        grid=[
            {
                "min_score": p.min_score,
                "min_margin": p.min_margin,
                "proposals": p.proposals,
                "precision": p.precision,
                "recall": p.recall,
                "f05": p.f05,
            }
            for p in points
        ],
        chosen={"min_score": best.min_score, "min_margin": best.min_margin},
        tuning=best,
        held_out=measure(held, ranker, best.min_score, best.min_margin, prepare_seconds)
        if held
        else None,
        everything=measure(replayed, ranker, best.min_score, best.min_margin, prepare_seconds),
        rule=RULE,
    )
