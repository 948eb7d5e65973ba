"""GET /collections/<pk>/reports/<kind>/: computed in the background, kept until the records change."""

import csv
import io

import pytest
from django.urls import reverse

from annotator import peer_editing
from annotator.models import PeerAnnotation
from scoring.models import Report

from .helpers import refuses_nul

pytestmark = pytest.mark.django_db


def url(demo, kind, query=""):
    return reverse("collection-report", args=[demo["collection"].pk, kind]) + query


@pytest.fixture
def organizer(client, demo, django_capture_on_commit_callbacks):
    client.force_login(demo["organizer"])

    def get(kind, query="", **headers):
        # The first view queues the report (its task runs once the request's transaction commits,
        # here at the end of the block); the page then shows it computed.
        with django_capture_on_commit_callbacks(execute=True):
            client.get(url(demo, kind, query), **headers)
        return client.get(url(demo, kind, query), **headers)

    return get


@pytest.mark.parametrize("kind, expected", [
    ("pyramids", "SCUs per tier (weight)"),
    ("peer-agreement", "Per peer, worst agreement first"),
    ("pyramid-agreement", "Per docset"),
    ("ranking", "Mean modified score per system"),
    ("stability", "pyramid DEMO01: by order"),
])
def test_each_report_renders_its_tables(organizer, kind, expected):
    response = organizer(kind)
    assert response.status_code == 200 and expected in response.content.decode()


def test_plots_are_inline_svg(organizer):
    page = organizer("ranking").content.decode()
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg"') == 2 and "<script" not in page.split("<main id=\"content\" tabindex=\"-1\">")[1]


def test_a_report_is_kept_until_the_records_change(organizer, demo):
    organizer("ranking")
    organizer("ranking")
    assert Report.objects.filter(kind="ranking").count() == 1
    annotation = PeerAnnotation.objects.create(pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer,
                                               annotator=demo["annotator"])
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    organizer("ranking")
    assert Report.objects.filter(kind="ranking").count() == 2


def test_tables_download_as_csv_and_the_result_as_json(organizer):
    organizer("ranking")
    table = list(csv.reader(io.StringIO(organizer("ranking", "?format=csv&table=0").content.decode())))
    assert table[0] == ["system", "observations", "mean", "95% low", "95% high"] and len(table) == 4
    document = organizer("ranking", "?format=json").json()
    assert document["tables"][0]["title"] == "Mean modified score per system"
    assert organizer("ranking", "?format=csv&table=9").status_code == 404


def test_a_report_the_data_do_not_allow_says_why(organizer, demo):
    PeerAnnotation.objects.exclude(peer__author="1").delete()
    assert "at least two systems" in organizer("ranking").content.decode()


def test_a_queued_report_polls(client, demo):
    client.force_login(demo["organizer"])  # without running the on-commit enqueue: it stays queued
    page = client.get(url(demo, "pyramids")).content.decode()
    assert 'hx-trigger="every 1s"' in page and "Queued" in page


@pytest.mark.parametrize("who, status", [("annotator", 403), ("outsider", 404), ("admin", 200)])
def test_who_may_read_reports(client, demo, who, status):
    client.force_login(demo[who])
    assert client.get(url(demo, "pyramids")).status_code == status
    assert client.get(reverse("collection-reports", args=[demo["collection"].pk])).status_code == status


def test_unknown_reports_are_404(client, demo):
    client.force_login(demo["admin"])
    assert client.get(url(demo, "nonsense")).status_code == 404


def test_the_ranking_report_can_keep_to_adjudicated_work(organizer):
    page = organizer("ranking", "?adjudicated=1").content.decode()
    assert "Mean modified score per system" in page
    assert Report.objects.get(kind="ranking").parameters["adjudicated"] is True


@pytest.mark.parametrize("recall", ["references", "pyramid"])
def test_the_correlation_report_names_its_tac_2008_recall(organizer, demo, recall):
    page = organizer("correlation", f"?tac_recall={recall}").content.decode()
    assert f"recall {recall}:" in page
    assert Report.objects.get(kind="correlation").parameters["tac_recall"] == recall
    table = list(csv.reader(io.StringIO(organizer("correlation", f"?tac_recall={recall}&format=csv&table=0").content.decode())))
    assert table[0][-1] == "convention"
    conventions = {row[0]: row[-1] for row in table[1:]}
    assert conventions["tac2008"] == f"recall: {recall}" and conventions["power_mean"] == "alpha = 1"
    assert conventions["modified"] == "SCU weight: contributors; X_a: half_up"


def test_an_unknown_tac_2008_recall_falls_back_to_eq_4(organizer):
    organizer("correlation", "?tac_recall=nonsense")
    assert Report.objects.get(kind="correlation").parameters["tac_recall"] == "references"


def test_the_reports_page_offers_both_recalls(client, demo):
    client.force_login(demo["organizer"])
    page = client.get(reverse("collection-reports", args=[demo["collection"].pk])).content.decode()
    assert '<option value="references"' in page and '<option value="pyramid"' in page


def test_the_stability_report_with_a_fractional_x_a(organizer, demo):
    demo["collection"].average_rounding = "fractional"
    demo["collection"].save()
    organizer("stability")
    note = organizer("stability", "?format=json").json()["tables"][0]["note"]
    assert note.startswith("X_a = 6.25; ")  # 25 / 4 models, not rounded


@pytest.mark.parametrize("kind, field", [("correlation", "criterion"), ("ranking", "score"), ("stability", "pyramid")])
def test_a_nul_character_in_a_parameter_is_refused_as_bad_input_and_no_report_is_queued(client, demo, kind, field):
    """Issue 16: 400 naming the parameter, nothing computed or kept."""
    client.force_login(demo["organizer"])
    response = client.get(url(demo, kind, f"?{field}=x%00"))
    assert refuses_nul(response, field)
    assert not Report.objects.exists()
