"""Pyramid scores of a peer summary: pure functions, no Django.

Notation (Passonneau 2009 §2.4; Nenkova & Passonneau 2004 §2): a pyramid of order n has tiers
T_1..T_n, tier T_i holding the SCUs of weight i. A peer's PSEs are matched to SCUs (or to none:
weight zero). D, the peer's raw score, is the sum of the weights of the *distinct* SCUs it
expresses (repetitions count once).

    original score  = D / Max(X),   X = number of PSEs, zero-weight ones and repetitions included
    modified score  = D / Max(X_a), X_a = average number of SCUs per model summary

where Max(X) = sum of the X largest SCU weights (Passonneau 2009 eq. 1). X_a is made whole by
a named convention, or left fractional as PyrEval v2 leaves it (`average_scu_count`). DUCView 1.5
names the original score "quality", calls min(1, modified) "coverage", and reports their harmonic
mean as "comprehensive".
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar, overload

HALF_UP = "half_up"
FLOOR = "floor"
CEIL = "ceil"
FRACTIONAL = "fractional"
ROUNDINGS = (HALF_UP, FLOOR, CEIL, FRACTIONAL)

Count = int | Fraction  # a number of SCUs: whole, or X_a left fractional (FRACTIONAL)
SCU = TypeVar("SCU", bound=Hashable)  # what names an SCU (a primary key, a label)


@overload
def max_weight(weights: Sequence[int], count: int) -> int: ...
@overload
def max_weight(weights: Sequence[int], count: Count) -> Count: ...
def max_weight(weights: Sequence[int], count: Count) -> Count:
    """Max(X): the largest sum of weights of `count` SCUs drawn from the pyramid without
    replacement.

    Passonneau 2009 eq. (1), Nenkova & Passonneau 2004 §2:

        Max = sum_{i=j+1}^{n} i*|T_i| + j*(X - sum_{i=j+1}^{n} |T_i|),
        j = max_i (sum_{t=i}^{n} |T_t| >= X)

    which is the sum of the X largest weights. When X exceeds the number of SCUs every SCU
    is counted (as DUCView does).

    The same formula read with a fractional X (X_a under FRACTIONAL) takes the floor(X) heaviest
    SCUs and the fractional share of the next heaviest one: j * (X - sum |T_i|) with a fractional
    remainder. So PyrEval v2 fills its ideal summary (psunlpgroup/PyrEvalv2,
    Scoring/lib_scoring_mongo_min.py, `maxRawScore`: whole tiers from the top while the count
    lasts, then count x weight in the tier where it runs out; called with `new_getlayersize`'s
    avg = total weight / number of models). Exact: a Fraction in, a Fraction out.

    >>> max_weight([4, 4, 3, 2, 1], 3)
    11
    >>> max_weight([4, 4, 3, 2, 1], Fraction(5, 2))  # 4 + 4 + 1/2 * 3
    Fraction(19, 2)
    """
    if count <= 0:
        return 0
    ordered = sorted(weights, reverse=True)
    whole = math.floor(count)
    total: Count = sum(ordered[:whole])
    share = count - whole
    if share and whole < len(ordered):
        total += share * ordered[whole]
    return total


def average_scu_count(total_weight: int, model_count: int, rounding: str = HALF_UP) -> Count:
    """X_a, the average number of SCUs per model summary, made whole or left fractional.

    Passonneau 2009 eq. (2): X_a = (sum_{i=1}^{n} i*|T_i|) / n, the total weight of the pyramid
    over the number of models. The papers leave it fractional; most tools make it whole:

    - HALF_UP: DUCView 1.4 (Java Math.round), which reproduces every NIST DUC table (D0640:
      154/4 = 38.5 -> 39). Computed on the exact fraction, so no float error can flip a tie.
    - FLOOR: DUCView 1.5 (integer division).
    - CEIL: SacreROUGE.
    - FRACTIONAL: not rounded, as PyrEval v2 (psunlpgroup/PyrEvalv2,
      Scoring/lib_scoring_mongo_min.py, `new_getlayersize`: avg = count / numsmodel). The exact
      Fraction (an int when whole); `max_weight` takes a share of the SCU after the whole ones.

    PyrEval v2's crypto pyramid (Baseline/cc/sizes/pyr_111121_curated.size: tiers of 1, 2, 3,
    7 and 13 SCUs of weight 5 down to 1, five models) has total weight 49: X_a = 9.8.

    >>> average_scu_count(154, 4), average_scu_count(154, 4, FLOOR), average_scu_count(111, 4, CEIL)
    (39, 38, 28)
    >>> average_scu_count(49, 5, FRACTIONAL), average_scu_count(8, 4, FRACTIONAL)
    (Fraction(49, 5), 2)
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
    if rounding == FRACTIONAL:
        return average.numerator if average.denominator == 1 else average
    raise ValueError(f"unknown rounding {rounding!r}; expected one of {ROUNDINGS}")


def plain_number(value: Count) -> int | float:
    """A count for records and exports: an int if whole, else the nearest float (9.8, not 49/5)."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def ratio(numerator: Count, denominator: Count) -> float | None:
    """numerator / denominator as a float, or None when the denominator is zero (the score is
    undefined). Exact fractions are divided exactly and then rounded once."""
    return float(numerator / denominator) if denominator else None


def original_score(raw_score: int, pse_count: int, weights: Sequence[int]) -> float | None:
    """Passonneau 2009 eq. (1): D / Max(X), X = all PSEs (zero-weight and repeated ones too).

    DUCView 1.5 reports the same number as "quality".

    A summary with no PSE (an empty one: a system that produced nothing) expresses nothing and
    scores 0, as NIST scored the empty peers of DUC 2006/2007 ("0 0 0"), not undefined 0/0.

    >>> original_score(0, 0, [3, 2, 1])
    0.0
    """
    if pse_count == 0:
        return 0.0
    return ratio(raw_score, max_weight(weights, pse_count))


def modified_score(raw_score: int, average_count: Count, weights: Sequence[int]) -> float | None:
    """Passonneau 2009 §2.4 with eq. (2): D / Max(X_a). Not capped: it can exceed 1 (DUCView 1.4;
    NIST DUC 2007 D0736-C peer 46 has 14/13 = 1.0769). X_a may be fractional (`max_weight`).

    PyrEval v2's crypto peer 16495 (Baseline/cc/expected_results.csv: raw 4, coverage 0.1351),
    X_a = 9.8: Max = 5 + 4 + 4 + 3 + 3 + 3 + 2 + 2 + 2 + 0.8 * 2 = 29.6.

    >>> crypto = [5, 4, 4, 3, 3, 3] + [2] * 7 + [1] * 13
    >>> round(modified_score(4, Fraction(49, 5), crypto), 4)
    0.1351
    """
    return ratio(raw_score, max_weight(weights, average_count))


def coverage_score(raw_score: int, average_count: Count, weights: Sequence[int]) -> float | None:
    """DUCView 1.5 "coverage": the modified score capped at 1 (PyrEval v2 caps its coverage too)."""
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
    average_scu_count: int | float  # X_a of eq. (2): whole, or fractional under FRACTIONAL
    max_original: int  # Max(X)
    max_modified: int | float  # Max(X_a): fractional with a fractional X_a
    original: float | None
    modified: float | None
    quality: float | None
    coverage: float | None
    comprehensive: float | None


def score_peer(
    pse_scus: Iterable[SCU | None],
    weights: Mapping[SCU, int],
    model_count: int,
    rounding: str = HALF_UP,
) -> PeerScores:
    """Every score of one peer annotation.

    pse_scus: the SCU (any hashable id) of each PSE, None for a zero-weight PSE.
    weights: the weight of every SCU of the pyramid.
    X_a and Max(X_a) are computed exactly and recorded as `plain_number`s.
    """
    per_scu: Counter[SCU] = Counter()
    non_matching = 0
    for scu in pse_scus:
        if scu is None:
            non_matching += 1
        else:
            per_scu[scu] += 1
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
        average_scu_count=plain_number(average),
        max_original=max_weight(all_weights, pse_count),
        max_modified=plain_number(max_weight(all_weights, average)),
        original=original,
        modified=modified,
        quality=original,
        coverage=coverage,
        comprehensive=comprehensive_score(original, coverage),
    )
