"""scoring.scores.tables: systems' means over docsets, and sorting."""

from types import SimpleNamespace

import pytest

from scoring.scores.tables import sorted_rows, system_means


def row(docset, peer, modified, annotator="x", original=0.5):
    scores = SimpleNamespace(
        modified=modified,
        original=original,
        coverage=modified,
        comprehensive=modified,
        unique_scus=1,
        repetitions=0,
        non_matching=0,
    )
    return SimpleNamespace(
        docset=docset, peer=peer, annotator=annotator, pyramid="p", scores=scores
    )


def test_a_docset_annotated_twice_weighs_as_one():
    rows = [
        row("D1", "10", 0.2, "a"),
        row("D1", "10", 0.4, "b"),
        row("D2", "10", 0.6),
        row("D1", "9", 0.1),
    ]
    means = system_means(rows)
    assert [(m.peer, m.docsets) for m in means] == [("10", 2), ("9", 1)]
    assert means[0].modified == pytest.approx((0.3 + 0.6) / 2)  # not (0.2 + 0.4 + 0.6) / 3


def test_undefined_scores_are_left_out_of_means_and_sorted_last():
    rows = [row("D1", "1", None), row("D1", "2", 0.5), row("D2", "10", 0.7), row("D2", "9", 0.7)]
    assert system_means(rows)[-1].modified is None
    assert [r.peer for r in sorted_rows(rows, "modified", descending=True)] == ["9", "10", "2", "1"]
    assert [r.peer for r in sorted_rows(rows, "peer")] == ["1", "2", "9", "10"]
    with pytest.raises(ValueError, match="cannot sort by 'secret'"):
        sorted_rows(rows, "secret")


def test_each_mean_counts_the_rows_in_progress_it_averages():
    """Issue 17: a mean that averages work in progress says how many such rows (rows without a
    status are submitted ones)."""
    rows = [row("D1", "10", 0.2), row("D2", "10", 0.4), row("D1", "9", 0.1)]
    rows[1].status, rows[0].status = "in_progress", "submitted"
    assert [(m.peer, m.in_progress) for m in system_means(rows)] == [("10", 1), ("9", 0)]


def test_rows_sort_by_status():
    rows = [row("D1", "1", 0.1), row("D1", "2", 0.2), row("D1", "3", 0.3)]
    for r, status in zip(rows, ["submitted", "in_progress", "submitted"]):
        r.status = status
    assert [r.peer for r in sorted_rows(rows, "status")] == ["2", "1", "3"]
    assert [r.peer for r in sorted_rows(rows, "status", descending=True)][-1] == "2"
