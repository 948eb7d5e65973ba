"""scoring.coverage.records and scoring.coverage.analysis on a small SEE docset of our own: each
peer's coverage, alpha over the judges, the coverage differences, the correlations between
judgment sets and Harman & Over 2004's three-factor ANOVA, each against values computed here
independently of the code under test."""

from statistics import fmean

import numpy as np
import pytest
from nltk.metrics.agreement import AnnotationTask  # type: ignore[import-untyped]
from nltk.metrics.distance import binary_distance, interval_distance  # type: ignore[import-untyped]

from annotator.models import Judgment, JudgmentTask, Summary
from scoring.coverage.analysis import analyses
from scoring.coverage.records import collection_tasks, counted_tasks, score_coverage
from tests.scoring.least_squares import judge_system_docset_terms, type_one_sums_of_squares
from tests.scoring.see_study import DOCSETS, JUDGES, MODELS, SYSTEMS, UNITS, make_judged

pytestmark = pytest.mark.django_db


@pytest.fixture
def judged():
    return make_judged()


def test_each_peer_coverage_is_the_mean_over_its_judges_of_their_mean_over_units(judged):
    collection, answers = judged
    rows = {(r.docset, r.unit_set, r.peer): r for r in score_coverage(collection)}
    assert len(rows) == len(DOCSETS) * len(MODELS) * len(SYSTEMS)
    for (docset, unit_set, system), row in rows.items():
        expected = fmean(fmean(answers[(docset, unit_set, system, j)]) / 4 for j in JUDGES)
        assert row.see_coverage == pytest.approx(expected, abs=1e-12)
        assert (row.judges, row.units, row.presence, row.method) == (2, UNITS, None, "see")


def test_tasks_in_progress_are_left_out_unless_asked_for(judged):
    collection, _ = judged
    JudgmentTask.objects.filter(judge_code="J2").update(status="in_progress")
    assert {row.judges for row in score_coverage(collection)} == {1}
    rows = score_coverage(collection, include_in_progress=True)
    assert {(row.judges, row.in_progress) for row in rows} == {(2, 1)}


def test_alpha_over_the_judges_equals_nltk_interval(judged):
    collection, answers = judged
    (agreement,) = analyses(collection_tasks(collection))["agreement"]
    data = [
        (judge, f"{docset}|{unit_set}|{system}|{i}", value)
        for (docset, unit_set, system, judge), values in answers.items()
        for i, value in enumerate(values)
    ]
    expected = AnnotationTask(data=data, distance=interval_distance).alpha()
    assert agreement.alpha == pytest.approx(expected, abs=1e-9)
    assert agreement.alpha != pytest.approx(
        AnnotationTask(data=data, distance=binary_distance).alpha(), abs=1e-3
    )
    assert (agreement.metric, agreement.items, agreement.judges) == (
        "interval", len(DOCSETS) * len(MODELS) * len(SYSTEMS) * UNITS, 2
    )  # fmt: skip


def test_coverage_differences_between_models_and_between_judges(judged):
    collection, answers = judged
    found = analyses(collection_tasks(collection))

    def coverage(docset, unit_set, system, judges):
        return fmean(fmean(answers[(docset, unit_set, system, j)]) / 4 for j in judges)

    for docset in DOCSETS:
        between_models = [
            abs(
                coverage(docset, "SEE model 1", s, JUDGES)
                - coverage(docset, "SEE model 2", s, JUDGES)
            )  # noqa: E501
            for s in SYSTEMS
        ]
        difference = found["differences_between_models"][docset]
        assert difference.average == pytest.approx(fmean(between_models))
        highest = fmean(
            max(coverage(docset, m, s, JUDGES) for m in ("SEE model 1", "SEE model 2"))
            for s in SYSTEMS
        )
        assert difference.relative == pytest.approx(fmean(between_models) / highest)
        between_judges = [
            abs(coverage(docset, m, s, ["J1"]) - coverage(docset, m, s, ["J2"]))
            for m in ("SEE model 1", "SEE model 2")
            for s in SYSTEMS
        ]
        assert found["differences_between_judges"][docset].average == pytest.approx(
            fmean(between_judges)
        )
        assert found["differences_between_judges"][docset].peers == 6


def test_pearson_of_system_means_between_judges(judged):
    collection, answers = judged
    (correlation,) = analyses(collection_tasks(collection))["correlations_between_judges"]
    means = {
        judge: [
            fmean(
                fmean(answers[(d, m, s, judge)]) / 4
                for d in DOCSETS
                for m in ("SEE model 1", "SEE model 2")
            )
            for s in SYSTEMS
        ]
        for judge in JUDGES
    }
    assert (correlation.first, correlation.second, correlation.systems) == ("J1", "J2", 3)
    assert correlation.r == pytest.approx(np.corrcoef(means["J1"], means["J2"])[0, 1])


def test_three_factor_anova_equals_least_squares_on_the_judgments(judged):
    collection, answers = judged
    table = analyses(counted_tasks(collection_tasks(collection)))["anova"]
    keys = list(answers)
    y = [fmean(answers[key]) / 4 for key in keys]  # one observation per judge, peer, unit set
    sums, residual = type_one_sums_of_squares(
        y,
        judge_system_docset_terms([k[3] for k in keys], [k[2] for k in keys], [k[0] for k in keys]),
    )
    assert [row.source for row in table] == [
        "judge", "system", "docset", "jud/sys", "jud/ds", "sys/ds", "resid"
    ]  # fmt: skip
    # 36 observations: 1 + 1 + 2 + 2 (judge x system) + 2 + 4 parameters after the grand mean
    assert [row.df for row in table] == [1, 2, 2, 2, 2, 4, 36 - 1 - 13]
    for row, expected in zip(table, [*sums, residual]):
        assert row.ss == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert table[1].p < 0.001  # the systems differ, as made


def test_judges_counts_only_those_with_an_answer_in_an_item_judged_twice(judged):
    """A tester found the judges column counting judges with nothing to compare: J3 judged a peer
    nobody else judged (each of its items answered once), J4 opened a task and answered nothing.
    Neither counts; the items and alpha are as before."""
    collection, _ = judged
    before = analyses(collection_tasks(collection))["agreement"][0]
    unit_set = collection.docsets.get(name="D1").unit_sets.get(name="SEE model 1")
    docset = unit_set.docset
    lone_peer = Summary.objects.create(docset=docset, kind="peer", author="4", text="Peer 4.")
    lone = JudgmentTask.objects.create(
        unit_set=unit_set, peer=lone_peer, judge_code="J3", status="submitted"
    )
    Judgment.objects.bulk_create(
        Judgment(task=lone, unit=unit, value=2.0) for unit in unit_set.units.all()
    )
    JudgmentTask.objects.create(
        unit_set=unit_set, peer=lone_peer, judge_code="J4", status="submitted"
    )
    (after,) = analyses(collection_tasks(collection))["agreement"]
    assert Judgment.objects.filter(task__judge_code="J3").count() == UNITS
    assert (after.items, after.judges) == (before.items, 2)
    assert after.alpha == pytest.approx(before.alpha, abs=1e-12)
