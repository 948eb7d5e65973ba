"""The majority vote of unit presence judgments: the rule of REALSumm's labels (Shapira et al. 2019
§3; Bhandari et al. 2020), shared by the scores (scoring.coverage.scores) and the Lite Pyramid
labels an
export writes (annotator.coverage.importing). Pure, no Django."""

from collections.abc import Sequence


def majority_present(answers: Sequence[bool]) -> bool:
    """Present when strictly more than half the answers say so; a tie (2 of 4) is absent
    (REALSumm's majority; Shapira et al. 2019 §3).

    >>> majority_present([True, True, False]), majority_present([True, True, False, False])
    (True, False)
    """
    if not answers:
        raise ValueError("a unit with no answer has no majority")
    return 2 * sum(answers) > len(answers)
