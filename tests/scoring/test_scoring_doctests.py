"""The examples in the pure modules' docstrings hold (the papers' worked numbers among them)."""

import doctest
import importlib

import pytest

MODULES = [
    "scoring.pyramid",
    "scoring.statistics",
    "scoring.variants",
    "scoring.stability",
    "scoring.formats",
    "scoring.correlation",
    "scoring.numbers",
    "scoring.coverage",
    "annotator.coverage.majority",
    "annotator.text.words",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
