"""Score variants of the pyramid method. Pure functions, no Django.

Power-mean pyramid scores (Maskey & Rosenberg, "Power Mean Pyramid Scores for Summarization
Evaluation", eq. 2), and the TAC 2008 F-measure (the same paper's eqs. 3-5), whose recall can be
read two ways (`TAC2008_RECALLS`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

NWS_CHARACTERS_PER_SCU = 100  # TAC 2008's length allowance per SCU
TAC_BETA = 3

# The two readings of the TAC 2008 recall (Maskey & Rosenberg §4), by name, with what each says.
RECALL_REFERENCES = "references"
RECALL_PYRAMID = "pyramid"
TAC2008_RECALLS = {
    RECALL_REFERENCES: "matched weight / the sum over the reference summaries of the weight of "
    "the SCUs each holds (Maskey & Rosenberg eq. 4 as printed)",
    RECALL_PYRAMID: "matched weight / the total weight of the pyramid's SCUs, each counted once "
    "(Maskey & Rosenberg §4's prose)",
}


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
    return float((sum(x**alpha for x in values) / len(values)) ** (1 / alpha))


def power_mean_score(
    alpha: float, expressed: Sequence[int], pyramid_weights: Sequence[int]
) -> float:
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
    """Eq. 4 as printed (RECALL_REFERENCES): R = sum_i w(S_i) / sum_{j=1}^{M} w(R_j), the weight of
    the response's SCUs over the sum, over the M reference (model) summaries, of each reference's
    weight: that of the SCUs it holds. An SCU held by k references counts k times below.

    Two references holding SCUs of weight 2 (both) and 1 (one of them): w(R_1) = 3, w(R_2) = 2.

    >>> tac2008_recall([2], [3, 2])
    0.4
    """
    total = sum(reference_weights)
    return sum(expressed) / total if total else 0.0


def tac2008_pyramid_recall(expressed: Sequence[int], pyramid_weights: Sequence[int]) -> float:
    """The other reading (RECALL_PYRAMID): R = sum_i w(S_i) / sum_k w(SCU_k), the weight of the
    response's SCUs over the total weight of the pyramid's SCUs, each counted once: Maskey &
    Rosenberg §4's words, "the total weight of the SCUs included in a response normalized by the
    total weight of all SCUs across all reference summaries", where eq. 4 sums over the M
    reference summaries instead.

    The same two references: the pyramid holds SCUs of weight 2 and 1.

    >>> tac2008_pyramid_recall([2], [2, 1])
    0.6666666666666666
    """
    total = sum(pyramid_weights)
    return sum(expressed) / total if total else 0.0


def tac2008_f_measure(recall: float, precision: float, beta: float = TAC_BETA) -> float:
    """Eq. 5: ((beta^2 + 1) R P) / (beta^2 P + R), beta = 3 in TAC 2008."""
    denominator = beta**2 * precision + recall
    return (beta**2 + 1) * recall * precision / denominator if denominator else 0.0


def tac2008_score(
    expressed: Sequence[int],
    pyramid_weights: Sequence[int],
    reference_weights: Sequence[int],
    length: int,
    recall: str = RECALL_REFERENCES,
) -> float:
    """The TAC 2008 F-measure of one response (eqs. 3-5) with the recall named by `recall`
    (`TAC2008_RECALLS`): `expressed` the weights of the distinct SCUs it expresses,
    `pyramid_weights` every SCU weight of the pyramid, `reference_weights` each reference summary's
    weight (eq. 4), `length` its non-whitespace characters (eq. 3).

    A response of 100 characters (precision 1) expressing the weight-2 SCU of the examples above:

    >>> by_references = tac2008_score([2], [2, 1], [3, 2], 100)
    >>> by_pyramid = tac2008_score([2], [2, 1], [3, 2], 100, RECALL_PYRAMID)
    >>> round(by_references, 4), round(by_pyramid, 4)
    (0.4255, 0.6897)
    """
    if recall == RECALL_REFERENCES:
        r = tac2008_recall(expressed, reference_weights)
    elif recall == RECALL_PYRAMID:
        r = tac2008_pyramid_recall(expressed, pyramid_weights)
    else:
        raise ValueError(
            f"unknown TAC 2008 recall {recall!r}; expected one of {', '.join(TAC2008_RECALLS)}"
        )
    return tac2008_f_measure(r, tac2008_precision(length, len(expressed)))
