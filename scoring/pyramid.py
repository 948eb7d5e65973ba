"""Pyramid scores of a peer summary: pure functions, no Django.

Notation (Passonneau 2009 §2.4; Nenkova & Passonneau 2004 §2): a pyramid of order n has tiers
T_1..T_n, tier T_i holding the SCUs of weight i. A peer's PSEs are matched to SCUs (or to none:
weight zero). D, the peer's raw score, is the sum of the weights of the *distinct* SCUs it
expresses (repetitions count once).

    original score  = D / Max(X),   X = number of PSEs, zero-weight ones and repetitions included
    modified score  = D / Max(X_a), X_a = average number of SCUs per model summary

where Max(X) = sum of the X largest SCU weights (Passonneau 2009 eq. 1). DUCView 1.5 names the
original score "quality", calls min(1, modified) "coverage", and reports their harmonic mean as
"comprehensive".
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

HALF_UP = "half_up"
FLOOR = "floor"
CEIL = "ceil"
ROUNDINGS = (HALF_UP, FLOOR, CEIL)


def max_weight(weights: Sequence[int], count: int) -> int:
    """Max(X): the largest sum of weights of `count` SCUs drawn from the pyramid without replacement.

    Passonneau 2009 eq. (1), Nenkova & Passonneau 2004 §2:

        Max = sum_{i=j+1}^{n} i*|T_i| + j*(X - sum_{i=j+1}^{n} |T_i|),
        j = max_i (sum_{t=i}^{n} |T_t| >= X)

    which is the sum of the X largest weights. When X exceeds the number of SCUs every SCU
    is counted (as DUCView does).

    >>> max_weight([4, 4, 3, 2, 1], 3)
    11
    """
    if count <= 0:
        return 0
    return sum(sorted(weights, reverse=True)[:count])


def average_scu_count(total_weight: int, model_count: int, rounding: str = HALF_UP) -> int:
    """X_a, the average number of SCUs per model summary, made whole.

    Passonneau 2009 eq. (2): X_a = (sum_{i=1}^{n} i*|T_i|) / n, the total weight of the pyramid
    over the number of models. The papers leave it fractional; the tools make it whole:

    - HALF_UP: DUCView 1.4 (Java Math.round), which reproduces every NIST DUC table (D0640:
      154/4 = 38.5 -> 39). Computed on the exact fraction, so no float error can flip a tie.
    - FLOOR: DUCView 1.5 (integer division).
    - CEIL: SacreROUGE.

    >>> average_scu_count(154, 4), average_scu_count(154, 4, FLOOR), average_scu_count(111, 4, CEIL)
    (39, 38, 28)
    """
    if model_count <= 0:
        raise ValueError("a pyramid needs at least one model summary")
    average = Fraction(total_weight, model_count)
    if rounding == HALF_UP:
        return math.floor(average + Fraction(1, 2))
    if rounding == FLOOR:
        return math.floor(average)
    if rounding == CEIL:
        return math.ceil(average)
    raise ValueError(f"unknown rounding {rounding!r}; expected one of {ROUNDINGS}")


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when the denominator is zero (the score is undefined)."""
    return numerator / denominator if denominator else None


def original_score(raw_score: int, pse_count: int, weights: Sequence[int]) -> float | None:
    """Passonneau 2009 eq. (1): D / Max(X), X = all PSEs (zero-weight and repeated ones too).

    DUCView 1.5 reports the same number as "quality".
    """
    return ratio(raw_score, max_weight(weights, pse_count))


def modified_score(raw_score: int, average_count: int, weights: Sequence[int]) -> float | None:
    """Passonneau 2009 §2.4 with eq. (2): D / Max(X_a). Not capped: it can exceed 1 (DUCView 1.4;
    NIST DUC 2007 D0736-C peer 46 has 14/13 = 1.0769)."""
    return ratio(raw_score, max_weight(weights, average_count))


def coverage_score(raw_score: int, average_count: int, weights: Sequence[int]) -> float | None:
    """DUCView 1.5 "coverage": the modified score capped at 1."""
    score = modified_score(raw_score, average_count, weights)
    return None if score is None else min(1.0, score)


def comprehensive_score(quality: float | None, coverage: float | None) -> float | None:
    """DUCView 1.5 "comprehensive": the harmonic mean of quality and coverage, 0 if either is 0.

    Computed as DUCView 1.5 does, 2 / (1/quality + 1/coverage) in floating point: on exact ties
    the last printed digit depends on it (PyrEvalv2 crypto 33342: 0.34374999... -> 0.3437).
    """
    if quality is None or coverage is None:
        return None
    if quality == 0 or coverage == 0:
        return 0.0
    return 2 / (1 / quality + 1 / coverage)


@dataclass(frozen=True)
class PeerScores:
    unique_scus: int  # distinct SCUs expressed (NIST numSCUs)
    repetitions: int  # further PSEs of an SCU already expressed (NIST numrepetitions)
    non_matching: int  # zero-weight PSEs
    pse_count: int  # X of eq. (1): unique + repetitions + non-matching
    raw_score: int  # D: total weight of the distinct SCUs expressed
    model_count: int
    average_scu_count: int  # X_a of eq. (2), made whole
    max_original: int  # Max(X)
    max_modified: int  # Max(X_a)
    original: float | None
    modified: float | None
    quality: float | None
    coverage: float | None
    comprehensive: float | None


def score_peer(
    pse_scus: Iterable[object | None],
    weights: dict[object, int],
    model_count: int,
    rounding: str = HALF_UP,
) -> PeerScores:
    """Every score of one peer annotation.

    pse_scus: the SCU (any hashable id) of each PSE, None for a zero-weight PSE.
    weights: the weight of every SCU of the pyramid.
    """
    per_scu = Counter(pse_scus)
    non_matching = per_scu.pop(None, 0)
    unknown = [scu for scu in per_scu if scu not in weights]
    if unknown:
        raise ValueError(f"PSEs name SCUs the pyramid does not have: {unknown[:5]}")
    unique = len(per_scu)
    repetitions = sum(per_scu.values()) - unique
    pse_count = unique + repetitions + non_matching
    raw = sum(weights[scu] for scu in per_scu)
    all_weights = list(weights.values())
    average = average_scu_count(sum(all_weights), model_count, rounding)
    original = original_score(raw, pse_count, all_weights)
    modified = modified_score(raw, average, all_weights)
    coverage = coverage_score(raw, average, all_weights)
    return PeerScores(
        unique_scus=unique,
        repetitions=repetitions,
        non_matching=non_matching,
        pse_count=pse_count,
        raw_score=raw,
        model_count=model_count,
        average_scu_count=average,
        max_original=max_weight(all_weights, pse_count),
        max_modified=max_weight(all_weights, average),
        original=original,
        modified=modified,
        quality=original,
        coverage=coverage,
        comprehensive=comprehensive_score(original, coverage),
    )
