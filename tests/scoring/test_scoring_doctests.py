"""The examples in the pure modules' docstrings hold (the papers' worked numbers among them)."""

import doctest
import importlib

import pytest

MODULES = [
    "scoring.scores.pyramid",
    "scoring.statistics.significance",
    "scoring.scores.variants",
    "scoring.stability.analysis",
    "scoring.scores.formats",
    "scoring.judgments.correlation",
    "scoring.numbers",
    "scoring.coverage.scores",
    "annotator.coverage.majority",
    "annotator.text.words",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
