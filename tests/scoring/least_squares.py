"""Sequential (type I) sums of squares by plain least squares on dummy columns built here: the
independent check of scoring.coverage.scores.three_factor_anova (statsmodels) in the tests."""

import itertools

import numpy as np


def dummies(labels):
    levels = sorted(set(labels))
    return np.array([[1.0 if label == level else 0.0 for level in levels[1:]] for label in labels])


def interaction(a, b):
    left, right = dummies(a), dummies(b)
    pairs = itertools.product(range(left.shape[1]), range(right.shape[1]))
    return np.hstack([left[:, [i]] * right[:, [k]] for i, k in pairs])


def type_one_sums_of_squares(y, columns_by_term):
    """Each term's drop in the residual sum of squares when added after the ones before; and the
    residual sum of squares of the full model."""
    y = np.asarray(y, dtype=float)
    design = np.ones((len(y), 1))
    previous = float(((y - y.mean()) ** 2).sum())
    sums = []
    for columns in columns_by_term:
        design = np.hstack([design, columns])
        fitted = design @ np.linalg.lstsq(design, y, rcond=None)[0]
        residual = float(((y - fitted) ** 2).sum())
        sums.append(previous - residual)
        previous = residual
    return sums, previous


def judge_system_docset_terms(judges, systems, docsets):
    """The columns of Harman & Over 2004 Table 1's terms, in its order."""
    j, s, d = judges, systems, docsets
    return [dummies(j), dummies(s), dummies(d), interaction(j, s), interaction(j, d),
            interaction(s, d)]  # fmt: skip
