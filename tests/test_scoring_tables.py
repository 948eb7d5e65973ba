"""scoring.tables: systems' means over docsets, and sorting."""

from types import SimpleNamespace

import pytest

from scoring.tables import sorted_rows, system_means


def row(docset, peer, modified, annotator="x", original=0.5):
    scores = SimpleNamespace(modified=modified, original=original, coverage=modified, comprehensive=modified,
                             unique_scus=1, repetitions=0, non_matching=0)
    return SimpleNamespace(docset=docset, peer=peer, annotator=annotator, pyramid="p", scores=scores)


def test_a_docset_annotated_twice_weighs_as_one():
    rows = [row("D1", "10", 0.2, "a"), row("D1", "10", 0.4, "b"), row("D2", "10", 0.6), row("D1", "9", 0.1)]
    means = system_means(rows)
    assert [(m.peer, m.docsets) for m in means] == [("10", 2), ("9", 1)]
    assert means[0].modified == pytest.approx((0.3 + 0.6) / 2)  # not (0.2 + 0.4 + 0.6) / 3


def test_undefined_scores_are_left_out_of_means_and_sorted_last():
    rows = [row("D1", "1", None), row("D1", "2", 0.5), row("D2", "10", 0.7), row("D2", "9", 0.7)]
    assert system_means(rows)[-1].modified is None
    assert [r.peer for r in sorted_rows(rows, "modified", descending=True)] == ["9", "10", "2", "1"]
    assert [r.peer for r in sorted_rows(rows, "peer")] == ["1", "2", "9", "10"]
    with pytest.raises(ValueError):
        sorted_rows(rows, "secret")
