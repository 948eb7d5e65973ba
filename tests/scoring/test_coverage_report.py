"""The report "Coverage judgments: agreement and variation"
(scoring.reports.coverage.coverage_report,
issue 21) and the ranking report on the coverage scores, from the page as an organizer sees it."""

import pytest
from django.urls import reverse

from annotator.models import Membership, Role
from scoring.coverage.analysis import analyses
from scoring.coverage.records import collection_tasks
from scoring.judgments.correlation import MIN_PAIRS_FOR_P
from scoring.models import Report
from scoring.reports.coverage import coverage_report
from scoring.reports.ranking import ranking_report
from tests.scoring.see_study import DOCSETS, make_judged

pytestmark = pytest.mark.django_db


@pytest.fixture
def judged():
    return make_judged()


def test_the_report_tables_what_the_analyses_give(judged):
    collection, _ = judged
    found = analyses(collection_tasks(collection))
    agreement, differences, correlations, anova = coverage_report(collection, {})["tables"]
    assert agreement["rows"] == [["see", "interval", round(found["agreement"][0].alpha, 4), 54, 2]]
    assert [row[:2] for row in differences["rows"]] == [
        *(["models", d] for d in DOCSETS),
        *(["judges", d] for d in DOCSETS),
    ]
    assert differences["rows"][0][3] == round(found["differences_between_models"]["D1"].average, 4)
    # Between the two unit set names, and between the two judges.
    assert [row[:3] for row in correlations["rows"]] == [
        ["unit set", "SEE model 1", "SEE model 2"],
        ["judge", "J1", "J2"],
    ]
    assert [row[0] for row in anova["rows"]] == [
        "judge", "system", "docset", "jud/sys", "jud/ds", "sys/ds", "resid"
    ]  # fmt: skip
    assert anova["rows"][1][2] == round(found["anova"][1].ss, 4)


def test_the_notes_say_who_the_judges_are_and_why_p_is_missing(judged):
    """A tester found p shown as "—" with three systems, and the judges column, unexplained."""
    collection, _ = judged
    agreement, _, correlations, _ = coverage_report(collection, {})["tables"]
    assert "judges: those with an answer in an item judged twice or more" in agreement["note"]
    assert {row[3] for row in correlations["rows"]} == {3}  # three systems: r alone
    assert {row[5] for row in correlations["rows"]} == {None}
    assert (
        f"Pearson's p needs at least {MIN_PAIRS_FOR_P} systems judged in both sets; with fewer, "
        "r alone (p “—”)." in correlations["note"]
    )


def test_tasks_in_progress_are_left_out_and_said(judged):
    collection, _ = judged
    task = collection.docsets.get(name="D1").unit_sets.first().tasks.first()
    type(task).objects.filter(pk=task.pk).update(status="in_progress")
    agreement = coverage_report(collection, {})["tables"][0]
    assert "1 judgment task in progress left out" in agreement["note"]
    assert agreement["rows"][0][3] == 51  # that task's three units now judged once only
    counted = coverage_report(collection, {"include_in_progress": True})["tables"][0]
    assert "Work in progress counted too: 1 judgment task." in counted["note"]
    assert counted["rows"][0][3] == 54


def test_systems_are_ranked_by_see_coverage(judged):
    collection, answers = judged
    means = ranking_report(collection, {"score": "see_coverage"})["tables"][0]["rows"]
    # Systems 3, 2, 1: the judgments were made with a system effect.
    assert [row[0] for row in means] == ["3", "2", "1"]
    expected = sum(sum(v) / len(v) / 4 for k, v in answers.items() if k[2] == "3") / 12
    assert means[0][2] == pytest.approx(expected, abs=1e-4)
    assert means[0][1] == 6  # one observation per docset and unit set


def test_an_organizer_reads_the_report_page(
    judged, client, django_user_model, django_capture_on_commit_callbacks
):  # noqa: E501
    collection, _ = judged
    organizer = django_user_model.objects.create_user("organizer", password="organizer-pass-1")
    Membership.objects.create(collection=collection, user=organizer, role=Role.ORGANIZER)
    client.force_login(organizer)
    url = reverse("collection-report", args=[collection.pk, "coverage"])
    with django_capture_on_commit_callbacks(execute=True):
        client.get(url)
    page = client.get(url).content.decode()
    assert "Agreement between judges (Krippendorff" in page
    assert "<svg" in page
    assert Report.objects.get(kind="coverage").status == Report.Status.DONE
    reports = client.get(reverse("collection-reports", args=[collection.pk])).content.decode()
    assert reverse("collection-report", args=[collection.pk, "coverage"]) in reports
    assert "<option>presence</option>" in reports


def test_an_outsider_gets_nothing(judged, client, django_user_model):
    collection, _ = judged
    client.force_login(django_user_model.objects.create_user("outsider", password="x-pass-12345"))
    url = reverse("collection-report", args=[collection.pk, "coverage"])
    assert client.get(url).status_code == 404
    assert not Report.objects.exists()
