"""How scores behave as the pyramid grows (Nenkova & Passonneau 2004 §3.3), optimal summaries
(their Fig. 2), and jackknifed scores as TAC reports them. Pure functions, no Django.

A pyramid is given as `contributions`: for every SCU, the models contributing to it. A
sub-pyramid of a subset of the models weighs each SCU by the number of those models that
contribute to it; SCUs that none of them holds weigh 0 (a peer expressing one has expressed
content that pyramid does not hold). A peer is given as its PSEs' SCUs (None: zero weight).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from statistics import fmean
from typing import Generic, TypeVar

from scoring.scores.pyramid import HALF_UP, score_peer

SAME_THRESHOLD = 0.06  # scores closer than this are "roughly the same" (N&P 2004 §3.3)

SCU = TypeVar("SCU", bound=Hashable)  # what names an SCU (a primary key, a label)
Peer = TypeVar("Peer", bound=Hashable)  # what names a peer
Contributions = Mapping[SCU, frozenset[Hashable]]  # SCU -> the models contributing to it
# {order n: [{peer: score} for every pyramid of n models]}; None: the score is undefined.
ByOrder = dict[int, list[dict[Peer, float | None]]]


def sub_pyramid(contributions: Contributions[SCU], models: Iterable[Hashable]) -> dict[SCU, int]:
    """Every SCU's weight in the pyramid of these models only (0 where none of them holds it)."""
    chosen = set(models)
    return {scu: len(holders & chosen) for scu, holders in contributions.items()}


def score_against(
    pses: Sequence[SCU | None],
    weights: Mapping[SCU, int],
    model_count: int,
    score: str = "modified",
    rounding: str = HALF_UP,
) -> float | None:
    """A peer's score against a (sub-)pyramid. Zero-weight SCUs stay in the pyramid's list of
    weights, where they change no Max()."""
    value: float | None = getattr(score_peer(pses, weights, model_count, rounding), score)
    return value


def optimal_summaries(tier_sizes: Mapping[int, int], size: int | Fraction) -> int:
    """How many different summaries of `size` SCUs reach the highest total weight: all SCUs of the
    tiers above some tier j, and the rest chosen from tier j (N&P 2004 §2, Fig. 2: a pyramid with
    two SCUs on top and four in the next tier predicts six optimal summaries of four SCUs).

    A fractional size (X_a under the FRACTIONAL convention) counts the summaries of ceil(size)
    SCUs: PyrEval v2's ideal summary holds floor(size) whole SCUs and a share of one more
    (scoring.scores.pyramid.max_weight), and any optimal choice of ceil(size) SCUs makes one.

    >>> optimal_summaries({4: 2, 3: 4, 2: 5}, 4)
    6
    >>> # both 4s and a share of one of four 3s
    >>> optimal_summaries({4: 2, 3: 4, 2: 5}, Fraction(5, 2))
    4
    """
    remaining = math.ceil(size)
    for weight in sorted(tier_sizes, reverse=True):
        available = tier_sizes[weight]
        if remaining <= available:
            return math.comb(available, remaining)
        remaining -= available
    return 1  # the summary holds every SCU


@dataclass(frozen=True)
class OrderSummary(Generic[Peer]):
    order: int
    pyramids: int  # how many subsets of this many models
    scores: dict[Peer, tuple[float, float, float]]  # peer -> (min, mean, max)
    spearman: (
        float  # the mean rank correlation of the peers' ranking with the full pyramid's (Table 4)
    )


def scores_by_order(
    contributions: Contributions[SCU],
    peers: Mapping[Peer, Sequence[SCU | None]],
    models: Sequence[Hashable],
    score: str = "modified",
    rounding: str = HALF_UP,
) -> ByOrder[Peer]:
    """{order n: [ {peer: score} for every subset of n models ]}, n = 1 .. number of models."""
    by_order: ByOrder[Peer] = {}
    for n in range(1, len(models) + 1):
        by_order[n] = []
        for subset in combinations(models, n):
            weights = sub_pyramid(contributions, subset)
            by_order[n].append(
                {
                    peer: score_against(pses, weights, n, score, rounding)
                    for peer, pses in peers.items()
                }
            )
    return by_order


def order_summaries(by_order: ByOrder[Peer]) -> list[OrderSummary[Peer]]:
    """Per order: each peer's min, mean and max score (Fig. 3), and the mean Spearman correlation of
    the peers' ranking under each pyramid of that order with the ranking under the full pyramid."""
    from scipy import stats  # here: the site imports this module, and must start without SciPy

    full_order = max(by_order)
    (full,) = by_order[full_order]
    peers = [p for p in full if full[p] is not None]
    summaries = []
    for n, pyramids in sorted(by_order.items()):
        scores: dict[Peer, tuple[float, float, float]] = {}
        for peer in peers:
            values = [value for s in pyramids if (value := s[peer]) is not None]
            scores[peer] = (min(values), fmean(values), max(values)) if values else (math.nan,) * 3
        correlations: list[float] = []
        for s in pyramids:
            if (
                all(s[p] is not None for p in peers)
                and len(set(s[p] for p in peers)) > 1
                and len(set(full[p] for p in peers)) > 1
            ):
                correlations.append(
                    stats.spearmanr([s[p] for p in peers], [full[p] for p in peers]).statistic
                )
        summaries.append(
            OrderSummary(
                n, len(pyramids), scores, fmean(correlations) if correlations else math.nan
            )
        )
    return summaries


def _relation(a: float, b: float, threshold: float) -> int:
    """0: roughly the same; 1: a above b; -1: b above a."""
    if abs(a - b) < threshold:
        return 0
    return 1 if a > b else -1


@dataclass(frozen=True)
class ErrorProbabilities:
    order: int
    p1: float  # same under the full pyramid, different at this order (E1)
    # different under the full pyramid, the same at this order (E2: losing the ability to discern)
    p2: float
    p3: float  # different under the full pyramid, reversed at this order (E3: the worst)
    p: float  # p1 * P(same) + (p2 + p3) * (1 - P(same))
    data_points: int  # pairs of peers times pyramids of this order


def error_probabilities(
    by_order: ByOrder[Peer], threshold: float = SAME_THRESHOLD
) -> list[ErrorProbabilities]:
    """N&P 2004 §3.3, Table 3: for every pair of peers and every pyramid of a lower order, whether
    their relation (the same within `threshold`, or one above the other) differs from the one the
    full pyramid gives. Counted over all pairs and pyramids, as the paper sums its counts."""
    full_order = max(by_order)
    (full,) = by_order[full_order]
    known = {peer: value for peer, value in full.items() if value is not None}
    reference = {
        (a, b): _relation(known[a], known[b], threshold) for a, b in combinations(known, 2)
    }
    same_share = sum(r == 0 for r in reference.values()) / len(reference) if reference else math.nan
    results = []
    for n in range(1, full_order):
        counts: Counter[str] = Counter()
        for scores in by_order[n]:
            for (a, b), truth in reference.items():
                score_a, score_b = scores[a], scores[b]
                if score_a is None or score_b is None:
                    continue
                now = _relation(score_a, score_b, threshold)
                counts["same" if truth == 0 else "different"] += 1
                if truth == 0 and now != 0:
                    counts["e1"] += 1
                elif truth != 0 and now == 0:
                    counts["e2"] += 1
                elif truth != 0 and now == -truth:
                    counts["e3"] += 1
        p1 = counts["e1"] / counts["same"] if counts["same"] else 0.0
        p2 = counts["e2"] / counts["different"] if counts["different"] else 0.0
        p3 = counts["e3"] / counts["different"] if counts["different"] else 0.0
        p = (
            p1 * same_share + (p2 + p3) * (1 - same_share)
            if not math.isnan(same_share)
            else math.nan
        )
        results.append(ErrorProbabilities(n, p1, p2, p3, p, counts["same"] + counts["different"]))
    return results


def jackknife_peer(
    pses: Sequence[SCU | None],
    contributions: Contributions[SCU],
    models: Sequence[Hashable],
    score: str = "modified",
    rounding: str = HALF_UP,
) -> float | None:
    """A peer's score averaged over the pyramids that leave one model out each (TAC's jackknife),
    so that systems are scored as the model summaries are (against the other models)."""
    scores = [
        score_against(
            pses,
            sub_pyramid(contributions, [m for m in models if m != left_out]),
            len(models) - 1,
            score,
            rounding,
        )
        for left_out in models
    ]
    known = [s for s in scores if s is not None]
    return fmean(known) if known else None


def jackknife_model(
    model: Hashable,
    contributions: Contributions[SCU],
    models: Sequence[Hashable],
    score: str = "modified",
    rounding: str = HALF_UP,
) -> float | None:
    """A model summary scored against the pyramid of the other models: its PSEs are its own
    contributions (an SCU only it holds counts as content that pyramid lacks)."""
    others = [m for m in models if m != model]
    pses = [scu for scu, holders in contributions.items() if model in holders]
    return score_against(pses, sub_pyramid(contributions, others), len(others), score, rounding)
