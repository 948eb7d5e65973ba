"""Score variants of the pyramid method. Pure functions, no Django.

Power-mean pyramid scores (Maskey & Rosenberg, "Power Mean Pyramid Scores for Summarization
Evaluation", eq. 2), and the TAC 2008 F-measure (the same paper's eqs. 3-5).
"""

from __future__ import annotations

import math
from typing import Sequence

NWS_CHARACTERS_PER_SCU = 100  # TAC 2008's length allowance per SCU
TAC_BETA = 3


def power_mean(alpha: float, values: Sequence[float]) -> float:
    """M(alpha, x) = ((1/n) sum x_i^alpha)^(1/alpha)  (Maskey & Rosenberg eq. 2), with its limits:
    alpha -> 0 the geometric mean, -inf the minimum, +inf the maximum (their Fig. 1).

    >>> power_mean(1, [1, 2, 3]), round(power_mean(0, [1, 4]), 6), power_mean(-1, [2, 2])
    (2.0, 2.0, 2.0)
    """
    if not values:
        raise ValueError("the power mean of nothing is undefined")
    if math.isinf(alpha):
        return float(max(values) if alpha > 0 else min(values))
    if alpha == 0:
        return math.exp(sum(math.log(x) for x in values) / len(values))
    return (sum(x ** alpha for x in values) / len(values)) ** (1 / alpha)


def power_mean_score(alpha: float, expressed: Sequence[int], pyramid_weights: Sequence[int]) -> float:
    """Power-mean pyramid score (PMP): the power mean of the weights of the distinct SCUs a summary
    expresses, normalised by the best power mean attainable with as many SCUs of the pyramid —
    that of its |x| heaviest (a power mean grows with every value), "consistent with the original
    formulation of Pyramid Scores" (Maskey & Rosenberg §3). 0 for a summary expressing no SCU.
    At alpha = 1 it is the original score without zero-weight PSEs: D / Max(|x|).
    """
    if not expressed:
        return 0.0
    best = sorted(pyramid_weights, reverse=True)[: len(expressed)]
    return power_mean(alpha, expressed) / power_mean(alpha, best)


def nws_length(text: str) -> int:
    """L of eq. 3: the number of non-whitespace characters."""
    return sum(1 for character in text if not character.isspace())


def tac2008_precision(length: int, scus: int, allowance: int = NWS_CHARACTERS_PER_SCU) -> float:
    """TAC 2008's length-based precision: 1 within the allowance of `allowance` non-whitespace
    characters per SCU, else 1 - (L - allowance * N) / L.

    Maskey & Rosenberg print eq. 3 as min(1, (L - N*100)/L), which would fall as SCUs are added;
    TAC 2008 defines the penalty as the share of the response beyond its allowance, which is what
    is computed here: min(1, 1 - (L - 100 N) / L) = min(1, 100 N / L).
    """
    if length <= 0:
        return 0.0
    return min(1.0, 1 - (length - allowance * scus) / length)


def tac2008_recall(expressed: Sequence[int], reference_weights: Sequence[int]) -> float:
    """Eq. 4: R = sum_i w(S_i) / sum_j w(R_j), the weight of the response's SCUs over the total SCU
    weight of the reference (model) summaries, each reference's being that of the SCUs it holds."""
    total = sum(reference_weights)
    return sum(expressed) / total if total else 0.0


def tac2008_f_measure(recall: float, precision: float, beta: float = TAC_BETA) -> float:
    """Eq. 5: ((beta^2 + 1) R P) / (beta^2 P + R), beta = 3 in TAC 2008."""
    denominator = beta ** 2 * precision + recall
    return (beta ** 2 + 1) * recall * precision / denominator if denominator else 0.0
