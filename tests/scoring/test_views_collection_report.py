"""GET /collections/<pk>/reports/<kind>/: computed in the background, kept until the records
change."""

import csv
import io
import re

import pytest
from django.urls import reverse

from annotator.models import PeerAnnotation
from annotator.peer_annotation import editing as peer_editing
from scoring.models import Report
from tests.helpers import refuses_nul

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


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("pyramids", "SCUs per tier (weight)"),
        ("peer-agreement", "Per peer, worst agreement first"),
        ("pyramid-agreement", "Per docset"),
        ("ranking", "Mean modified score per system"),
        ("stability", "pyramid DEMO01: by order"),
    ],
)
def test_each_report_renders_its_tables(organizer, kind, expected):
    response = organizer(kind)
    assert response.status_code == 200
    assert expected in response.content.decode()


def test_plots_are_inline_svg(organizer):
    page = organizer("ranking").content.decode()
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg"') == 2
    assert "<script" not in page.split('<main id="content" tabindex="-1">')[1]


def test_a_report_is_kept_until_the_records_change(organizer, demo):
    organizer("ranking")
    organizer("ranking")
    assert Report.objects.filter(kind="ranking").count() == 1
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    organizer("ranking")
    assert Report.objects.filter(kind="ranking").count() == 2


def test_tables_download_as_csv_and_the_result_as_json(organizer):
    organizer("ranking")
    table = list(
        csv.reader(io.StringIO(organizer("ranking", "?format=csv&table=0").content.decode()))
    )
    assert table[0] == ["system", "observations", "mean", "95% low", "95% high"]
    assert len(table) == 4
    document = organizer("ranking", "?format=json").json()
    assert document["tables"][0]["title"] == "Mean modified score per system"
    assert organizer("ranking", "?format=csv&table=9").status_code == 404


@pytest.mark.parametrize("export", ["xml", "html"])
def test_an_unknown_format_is_400_naming_the_formats_and_no_report_is_queued(client, demo, export):
    """A tester found ?format=xml answering the page: refused, as the units download refuses an
    unknown format (annotator.transfer.views.downloads), before any report is queued."""
    client.force_login(demo["organizer"])
    response = client.get(url(demo, "ranking", f"?format={export}"))
    assert response.status_code == 400
    assert response.content.decode() == "format: one of csv, json"
    assert not Report.objects.exists()
    # No format, or an empty one: the page.
    assert client.get(url(demo, "ranking", "?format=")).status_code == 200


def test_a_report_the_data_do_not_allow_says_why(organizer, demo):
    PeerAnnotation.objects.exclude(peer__author="1").delete()
    assert "at least two systems" in organizer("ranking").content.decode()


def test_a_queued_report_polls(client, demo):
    client.force_login(demo["organizer"])  # without running the on-commit enqueue: it stays queued
    page = client.get(url(demo, "pyramids")).content.decode()
    assert 'hx-trigger="every 1s"' in page
    assert "Queued" in page


@pytest.mark.parametrize(("who", "status"), [("annotator", 403), ("outsider", 404), ("admin", 200)])
def test_who_may_read_reports(client, demo, who, status):
    client.force_login(demo[who])
    assert client.get(url(demo, "pyramids")).status_code == status
    assert (
        client.get(reverse("collection-reports", args=[demo["collection"].pk])).status_code
        == status
    )


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
    table = list(
        csv.reader(
            io.StringIO(
                organizer(
                    "correlation", f"?tac_recall={recall}&format=csv&table=0"
                ).content.decode()
            )
        )
    )
    assert table[0][-1] == "convention"
    conventions = {row[0]: row[-1] for row in table[1:]}
    assert conventions["tac2008"] == f"recall: {recall}"
    assert conventions["power_mean"] == "alpha = 1"
    assert conventions["modified"] == "SCU weight: contributors; X_a: half_up"


def test_an_unknown_tac_2008_recall_falls_back_to_eq_4(organizer):
    organizer("correlation", "?tac_recall=nonsense")
    assert Report.objects.get(kind="correlation").parameters["tac_recall"] == "references"


def test_the_reports_page_offers_both_recalls(client, demo):
    client.force_login(demo["organizer"])
    page = client.get(reverse("collection-reports", args=[demo["collection"].pk])).content.decode()
    assert '<option value="references"' in page
    assert '<option value="pyramid"' in page


def test_every_select_of_the_reports_page_has_a_name(client, demo):
    # axe-core's critical "select-name" (found by a tester): the text beside a select is no label.
    client.force_login(demo["organizer"])
    page = client.get(reverse("collection-reports", args=[demo["collection"].pk])).content.decode()
    selects = re.findall(r"<select [^>]*>", page)
    assert {"score", "criterion", "pyramid"} <= {re.search(r'name="(\w+)"', s)[1] for s in selects}
    assert all("aria-label=" in select for select in selects), selects


def test_the_stability_report_with_a_fractional_x_a(organizer, demo):
    demo["collection"].average_rounding = "fractional"
    demo["collection"].save()
    organizer("stability")
    note = organizer("stability", "?format=json").json()["tables"][0]["note"]
    assert note.startswith("X_a = 6.25; ")  # 25 / 4 models, not rounded


@pytest.mark.parametrize(
    ("kind", "field"),
    [("correlation", "criterion"), ("ranking", "score"), ("stability", "pyramid")],
)
def test_a_nul_character_in_a_parameter_is_refused_as_bad_input_and_no_report_is_queued(
    client, demo, kind, field
):
    """Issue 16: 400 naming the parameter, nothing computed or kept."""
    client.force_login(demo["organizer"])
    response = client.get(url(demo, kind, f"?{field}=x%00"))
    assert refuses_nul(response, field)
    assert not Report.objects.exists()


def table_on_page(page: str, title: str) -> list[list[str]]:
    """The cells of the report table titled `title`, as the page shows them."""
    import html
    import re

    section = page[page.index(f"<h2>{html.escape(title)}") :]
    body = section[section.index("<tbody>") : section.index("</tbody>")]
    return [
        [html.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body)
    ]


def test_the_anova_of_one_docset_per_system_shows_dashes_not_f_0(organizer):
    """Issue 17: the demo's three systems have one score each: no residual degrees of freedom, so
    no F, p or HSD, where the page said F 0.0."""
    page = organizer("ranking").content.decode()
    ((f, df, df_residual, p, hsd, needed),) = table_on_page(page, "ANOVA, system as factor")
    assert (df, df_residual) == ("2", "0")
    assert f == p == hsd == needed == "—"
    assert "nothing is left to estimate the error with" in page
    anova = organizer("ranking", "?format=json").json()["tables"][1]
    assert anova["rows"] == [[None, 2, 0, None, None, None]]
    assert anova["p_columns"] == [3]


def test_correlations_of_three_systems_show_no_p_and_never_p_0(organizer):
    """Issue 17: with three judged peers (the demo) Spearman's p read 0.0 (SciPy's t approximation
    of a perfect ranking); three pairs are too few for any p: "—", the coefficients shown."""
    page = organizer("correlation", "?criterion=content+responsiveness").content.decode()
    rows = table_on_page(page, "Scores against content responsiveness")
    modified = next(row for row in rows if row[:2] == ["modified", "system"])
    assert modified[2] == "3"
    assert modified[5] == "1.0"
    assert modified[7] == "1.0"
    assert modified[4] == modified[6] == modified[8] == "—"
    assert all(row[i] != "0.0" for row in rows for i in (4, 6, 8))
    document = organizer("correlation", "?criterion=content+responsiveness&format=json").json()
    assert {row[4] for row in document["tables"][0]["rows"]} == {None}


def test_p_values_are_shown_with_significant_digits(organizer, demo):
    """A fourth judged peer: Spearman's exact p of a perfect ranking (2/24, where SciPy's t
    approximation says 0) and Pearson's p to three significant digits, never rounded to 0.0."""
    from scipy import stats

    from annotator.models import HumanJudgment, PeerAnnotation, Summary
    from annotator.peer_annotation import editing as peer_editing
    from scoring.numbers import p_value
    from scoring.scores.records import score_collection

    peer = Summary.objects.create(
        docset=demo["pyramid"].docset, kind="peer", author="4", text="Apollo 11 went to the Moon."
    )
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=peer, annotator_code="100"
    )
    peer_editing.assign(
        annotation.pk, demo["admin"], 1, [(0, len(peer.text))], 0
    )  # matches nothing: scores 0
    peer_editing.complete(annotation.pk, demo["admin"], 2)
    HumanJudgment.objects.create(summary=peer, criterion="content responsiveness", value=1)
    judged = dict(HumanJudgment.objects.values_list("summary__author", "value"))
    scored = {row.peer: row.scores.modified for row in score_collection(demo["collection"])}
    x, y = [scored[peer] for peer in sorted(judged)], [judged[peer] for peer in sorted(judged)]
    assert len(x) == 4
    assert stats.spearmanr(x, y) == (1.0, 0.0)

    page = organizer("correlation", "?criterion=content+responsiveness").content.decode()
    modified = next(
        row
        for row in table_on_page(page, "Scores against content responsiveness")
        if row[:2] == ["modified", "system"]
    )
    assert modified[2] == "4"
    assert modified[5] == "1.0"
    assert modified[6] == "0.0833"
    assert modified[8] == "0.0833"
    assert modified[4] == p_value(stats.pearsonr(x, y)[1])
    assert modified[4] != "0.0"


def test_pyramid_agreement_compares_submitted_pyramids_and_says_what_in_progress_it_left_out(
    organizer, demo
):
    """Issue 17: an empty pyramid in progress beside the demo's was compared with it (the demo as
    `load_demo` installs it for a user: MASI 0.1403 against nothing yet)."""
    from tests.helpers import empty_pyramid

    empty_pyramid(demo, name="DEMO01-annotator", assign_to="annotator")
    page = organizer("pyramid-agreement").content.decode()
    assert table_on_page(page, "Per docset") == [
        [
            "No docset has two or more submitted pyramids of the same model summaries: "
            "nothing to compare."
        ]
    ]
    assert "1 pyramid in progress left out (count work in progress to compare it)." in page
    assert "Units:" not in page  # a note speaks only of what is shown
    assert Report.objects.get(kind="pyramid-agreement").parameters == {"include_in_progress": False}

    page = organizer("pyramid-agreement", "?include=in-progress").content.decode()
    ((docset, pyramids, *_),) = table_on_page(page, "Per docset")
    assert (docset, pyramids) == ("DEMO01", "DEMO01, DEMO01-annotator (in progress)")
    assert "Work in progress counted too: 1 pyramid in progress, marked." in page
    assert "left out" not in page
    assert Report.objects.get(kind="pyramid-agreement", parameters__include_in_progress=True)


def test_peer_agreement_with_nothing_to_compare_says_so_and_no_note_of_what_is_not_shown(organizer):
    """Issue 17: "With three peers, r alone…" above an empty table."""
    page = organizer("peer-agreement").content.decode()
    assert "With three peers" not in page
    assert "With fewer than" not in page
    assert "Units:" not in page
    assert "A p above 0.05" not in page
    assert "Nothing to show" not in page
    assert table_on_page(page, "Pooled") == [
        ["No peer is annotated twice against the same pyramid: nothing to compare."]
    ]


def test_peer_agreement_counts_annotations_in_progress_only_when_asked(organizer, demo):
    first = demo["annotations"]["1"]
    PeerAnnotation.objects.create(pyramid=first.pyramid, peer=first.peer, annotator_code="200")
    page = organizer("peer-agreement").content.decode()
    assert "1 peer annotation in progress left out" in page
    assert table_on_page(page, "Pooled")[0][0].startswith("No peer")
    page = organizer("peer-agreement", "?include=in-progress").content.decode()
    assert [row[:2] for row in table_on_page(page, "Pooled")] == [["DEMO01", "1"], ["all", "1"]]
    assert "Work in progress counted too: 1 peer annotation in progress." in page


def test_tukeys_groups_without_residual_degrees_of_freedom_say_why(organizer):
    """Issue 17: "Nothing to show: the collection has no such data yet" where the HSD is
    undefined."""
    page = organizer("ranking").content.decode()
    (row,) = table_on_page(page, "Significantly distinct groups (Tukey's HSD)")
    assert "HSD is undefined" in row[0]
    assert "no residual degrees of freedom" in row[0]
    assert "Nothing to show" not in page


def test_the_stability_form_offers_submitted_pyramids_first_the_annotated_one_chosen(client, demo):
    """Issue 17: the empty pyramid in progress was the form's first choice."""
    from tests.helpers import empty_pyramid

    new = empty_pyramid(demo, name="AAA", assign_to="annotator")  # first by name
    client.force_login(demo["organizer"])
    page = client.get(reverse("collection-reports", args=[demo["collection"].pk])).content.decode()
    select = page[
        page.index('<select name="pyramid" aria-label="Pyramid">') : page.index(
            "</select>", page.index('<select name="pyramid" aria-label="Pyramid">')
        )
    ]
    assert select.index(
        f'<option value="{demo["pyramid"].pk}" selected>DEMO01: DEMO01 (3 peer annotations)'
    ) < select.index(
        f'<optgroup label="In progress"><option value="{new.pk}">DEMO01: AAA (in progress)'
    )


def test_the_stability_report_chooses_an_annotated_submitted_pyramid_by_default(organizer, demo):
    from tests.helpers import empty_pyramid

    empty_pyramid(demo, name="AAA", assign_to="annotator")
    assert "pyramid DEMO01: by order" in organizer("stability").content.decode()
    assert Report.objects.get(kind="stability").parameters["pyramid"] == demo["pyramid"].pk


def test_the_stability_report_of_a_pyramid_in_progress_says_so(organizer, demo):
    from tests.helpers import empty_pyramid

    new = empty_pyramid(demo, name="AAA", assign_to="annotator")
    page = organizer("stability", f"?pyramid={new.pk}").content.decode()
    assert "The pyramid AAA is still in progress" in page
    assert (
        "the pyramid predicts 1 optimal summary of that size" in page
    )  # not "1 optimal summaries"
    assert table_on_page(page, "DEMO01, pyramid AAA: by order") == [
        ["No submitted peer annotation against this pyramid: no scores to compare."]
    ]


def test_the_pyramid_shapes_count_contributors_in_words(organizer, demo):
    from annotator.models import Contributor

    Contributor.objects.exclude(pk=Contributor.objects.order_by("pk").first().pk).delete()
    page = organizer("pyramids").content.decode()
    assert "1 contributor. " in page
    assert "1 contributors" not in page


def test_a_systems_box_has_its_quartiles_within_its_values():
    """A tester's find: with two observations a system (each docset once), the quartiles fell
    outside the values (a first quartile of -0.11 for scores of 0 and more)."""
    from scoring.reports.ranking import _five_numbers

    low, q1, median, q3, high = _five_numbers([0.2644, 0.5707])
    assert low <= q1 <= median <= q3 <= high
    assert (low, median, high) == (0.2644, 0.4175, 0.5707)  # (0.41755, kept to 4 decimals)
