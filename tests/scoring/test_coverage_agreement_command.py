"""python manage.py coverage_agreement: the judges' alpha, Harman & Over 2004's coverage
differences, correlations between judgment sets and ANOVA (Table 1), as printed and as JSON, against
scoring.coverage.analysis on the same records; and alpha over REALSumm's crowd answers against
NLTK's."""

import json
import os
from dataclasses import asdict
from pathlib import Path

import pytest
from django.core.management.base import CommandError
from nltk.metrics.agreement import AnnotationTask  # type: ignore[import-untyped]
from nltk.metrics.distance import binary_distance  # type: ignore[import-untyped]

from annotator.models import JudgmentTask
from scoring.coverage.analysis import analyses
from scoring.coverage.records import collection_tasks, counted_tasks
from scoring.numbers import number, p_value
from tests.conftest import shared_data_root
from tests.helpers import run
from tests.scoring.see_study import DOCSETS, JUDGES, MODELS, SYSTEMS, UNITS, make_judged

pytestmark = pytest.mark.django_db


@pytest.fixture
def judged():
    collection, _ = make_judged()
    return collection


def as_json(value):
    """A value as the command's JSON gives it back (tuples as lists, NaN as null)."""
    return json.loads(json.dumps(value))


def test_json_holds_the_analyses_of_the_same_records(judged):
    out, err = run("coverage_agreement", collection="SEE study", format="json")
    document = json.loads(out)
    found = analyses(collection_tasks(judged))
    assert document["agreement"] == as_json([asdict(a) for a in found["agreement"]])
    (alpha,) = document["agreement"]
    assert (alpha["method"], alpha["metric"], alpha["judges"]) == ("see", "interval", 2)
    assert alpha["items"] == len(DOCSETS) * len(MODELS) * len(SYSTEMS) * UNITS
    # Per docset: each peer between the two models; each (model, peer) between the two judges.
    for between, compared in (("models", len(SYSTEMS)), ("judges", len(MODELS) * len(SYSTEMS))):
        key = f"differences_between_{between}"
        assert sorted(document[key]) == DOCSETS
        assert document[key] == {d: asdict(v) for d, v in found[key].items()}
        assert {v["peers"] for v in document[key].values()} == {compared}
    models, judges = (
        document["correlations_between_models"],
        document["correlations_between_judges"],
    )
    assert models == [asdict(c) for c in found["correlations_between_models"]]
    assert judges == [asdict(c) for c in found["correlations_between_judges"]]
    assert [(c["first"], c["second"], c["systems"]) for c in models] == [
        ("SEE model 1", "SEE model 2", len(SYSTEMS))
    ]
    assert [(c["first"], c["second"]) for c in judges] == [tuple(JUDGES)]
    assert document["anova"] == as_json([asdict(row) for row in found["anova"]])
    assert [row["source"] for row in document["anova"]] == [
        "judge", "system", "docset", "jud/sys", "jud/ds", "sys/ds", "resid"
    ]  # fmt: skip
    # 2 judges x 3 systems x 3 docsets x 2 models = 36 observations, 35 df in all.
    assert sum(row["df"] for row in document["anova"]) == 35
    assert document["tasks_in_progress_left_out"] == 0
    assert err == ""


def test_table_prints_each_figure_formatted(judged):
    out, err = run("coverage_agreement", collection="SEE study")
    lines = out.splitlines()
    found = analyses(collection_tasks(judged))
    (a,) = found["agreement"]
    assert f"see\tinterval\t{number(a.alpha)}\t{a.items}\t2" in lines
    for between in ("models", "judges"):
        for docset, d in found[f"differences_between_{between}"].items():
            row = f"{between}\t{docset}\t{d.peers}\t{number(d.average)}\t{number(d.relative)}"
            assert row in lines
    (c,) = found["correlations_between_models"]
    assert f"unit set\tSEE model 1\tSEE model 2\t3\t{number(c.r)}\t{p_value(c.p)}" in lines
    (c,) = found["correlations_between_judges"]
    assert f"judge\tJ1\tJ2\t3\t{number(c.r)}\t{p_value(c.p)}" in lines
    assert "source\tdf\tSS\tMS\tF\tp" in lines
    for r in found["anova"]:
        f, p = ("", "") if r.source == "resid" else (number(r.f), p_value(r.p))
        assert f"{r.source}\t{r.df}\t{number(r.ss)}\t{number(r.ms)}\t{f}\t{p}" in lines
    assert err == ""


def test_tasks_in_progress_are_left_out_and_said_unless_asked_for(judged):
    JudgmentTask.objects.filter(judge_code="J2", unit_set__docset__name="D1").update(
        status="in_progress"
    )
    out, err = run("coverage_agreement", collection="SEE study", format="json")
    document = json.loads(out)
    assert document["tasks_in_progress_left_out"] == len(MODELS) * len(SYSTEMS)
    submitted = analyses(counted_tasks(collection_tasks(judged)))
    assert document["agreement"] == as_json([asdict(a) for a in submitted["agreement"]])
    # D1 has one judge left: no difference between judges there.
    assert sorted(document["differences_between_judges"]) == ["D2", "D3"]

    out, err = run("coverage_agreement", collection="SEE study")
    assert (
        err.strip() == "6 judgment tasks in progress left out (--include-in-progress counts them)"
    )

    out, _ = run(
        "coverage_agreement", collection="SEE study", format="json", include_in_progress=True
    )
    everything = json.loads(out)
    assert everything["tasks_in_progress_left_out"] == 0
    assert sorted(everything["differences_between_judges"]) == DOCSETS
    assert everything["agreement"] == as_json(
        [asdict(a) for a in analyses(collection_tasks(judged))["agreement"]]
    )


def test_one_docset(judged):
    out, _ = run("coverage_agreement", collection="SEE study", docset="D2", format="json")
    document = json.loads(out)
    assert list(document["differences_between_models"]) == ["D2"]
    assert list(document["differences_between_judges"]) == ["D2"]
    found = analyses(collection_tasks(judged, "D2"))
    assert document["agreement"] == as_json([asdict(a) for a in found["agreement"]])
    assert document["agreement"][0]["items"] == len(MODELS) * len(SYSTEMS) * UNITS
    # One docset: no docset term, nor its interactions.
    assert [row["source"] for row in document["anova"]] == ["judge", "system", "jud/sys", "resid"]


def test_unknown_collection_or_docset_and_no_judgments():
    with pytest.raises(CommandError, match="no collection 'Nowhere'"):
        run("coverage_agreement", collection="Nowhere")
    collection, _ = make_judged()
    with pytest.raises(CommandError, match="has no docset 'D9'"):
        run("coverage_agreement", collection=collection.name, docset="D9")
    JudgmentTask.objects.all().delete()
    out, err = run("coverage_agreement", collection=collection.name)
    assert out.splitlines() == ["method\tmetric\talpha\titems judged twice or more\tjudges"]
    assert err.strip() == "No judgment task to compare."
    out, _ = run("coverage_agreement", collection=collection.name, format="json")
    assert json.loads(out)["agreement"] == []
    assert json.loads(out)["anova"] == []


@pytest.fixture(scope="module")
def realsumm_annotations() -> Path:
    folder = shared_data_root() / "realsumm" / "human_annotations"
    if not folder.is_dir():
        where = "$PYRAMID_DATA" if "PYRAMID_DATA" in os.environ else "../shared/data/pyramids"
        pytest.skip(f"REALSumm data not found at {folder} (set {where})")
    return folder


@pytest.mark.shared_data
def test_realsumm_presence_alpha_equals_nltk(realsumm_annotations):
    run(
        "import_units",
        str(realsumm_annotations / "SCUs_list.csv"),
        str(realsumm_annotations / "bart_out_Batch_crowd_3.csv"),
        format="realsumm",
        collection="REALSumm",
        no_progress=True,
    )
    out, err = run("coverage_agreement", collection="REALSumm", format="json")
    document = json.loads(out)
    (alpha,) = document["agreement"]
    assert (alpha["method"], alpha["metric"]) == ("presence", "nominal")
    # The crowd's answers, each (coder, item, label) with the item a unit in the peer.
    rows = JudgmentTask.objects.values_list(
        "judge_code",
        "peer__author",
        "judgments__unit__unit_set__docset__name",
        "judgments__unit__position",
        "judgments__value",
    )
    data = [
        (code, f"{peer}|{docset}|{position}", value) for code, peer, docset, position, value in rows
    ]
    assert len(data) == 3329  # 895 units judged three times, 161 four times
    expected = AnnotationTask(data=data, distance=binary_distance).alpha()
    assert alpha["alpha"] == pytest.approx(expected, abs=1e-9)
    assert alpha["items"] == 1056
    # No SEE judgment: nothing else to report.
    assert document["differences_between_models"] == {}
    assert document["correlations_between_judges"] == []
    assert document["anova"] == []
    assert document["tasks_in_progress_left_out"] == 0
