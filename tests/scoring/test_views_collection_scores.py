import csv
import io
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.helpers import body, complete_consensus_of_peer_1, refuses_nul

pytestmark = pytest.mark.django_db


def url(demo, query=""):
    return scores_url(demo["pyramid"].docset.collection, query)


def scores_url(collection, query=""):
    return reverse("collection-scores", args=[collection.pk]) + query


def test_staff_see_the_score_table(client, demo):
    client.force_login(demo["admin"])
    page = body(client.get(url(demo))).decode()
    assert page.count("<tr>") == 4  # header + three peers
    assert '<td class="num">1.0000</td>' in page
    assert '<td class="num">0.3158</td>' in page


@pytest.mark.parametrize(
    ("fmt", "content_type", "first_line"),
    [
        ("csv", "text/csv", "collection,docset,peer"),
        (
            "duc",
            "text/tab-separated-values",
            "DEMO01\t1\t1\t6\t0\tdemo",
        ),  # NIST's numbers: 1, not 1.0000
        ("json", "application/json", "{"),
    ],
)
def test_downloads(client, demo, fmt, content_type, first_line):
    client.force_login(demo["admin"])
    response = client.get(url(demo, f"?format={fmt}"))
    assert response["Content-Type"].startswith(content_type)
    assert "attachment" in response["Content-Disposition"]
    assert body(response).decode().startswith(first_line)


def test_csv_download_has_a_row_per_peer(client, demo):
    client.force_login(demo["admin"])
    rows = list(csv.DictReader(io.StringIO(body(client.get(url(demo, "?format=csv"))).decode())))
    assert [r["peer"] for r in rows] == ["1", "2", "3"]


@pytest.mark.parametrize(("who", "status"), [("annotator", 403), ("outsider", 404)])
def test_annotators_are_refused_and_outsiders_see_nothing(client, demo, who, status):
    client.force_login(demo[who])
    assert client.get(url(demo, "?format=csv")).status_code == status


def test_the_organizer_reads_the_scores(client, demo):
    client.force_login(demo["organizer"])
    assert client.get(url(demo, "?format=csv")).status_code == 200


def test_unknown_collection_is_404(client, demo):
    client.force_login(demo["admin"])
    assert client.get(reverse("collection-scores", args=[9999])).status_code == 404


def test_sorted_by_a_column_either_way(client, demo):
    client.force_login(demo["organizer"])

    def peers(query):
        page = body(client.get(url(demo, query))).decode()
        return re.findall(r'<td><a href="/annotations/\d+/">(\w+)</a></td>', page)

    ascending, descending = peers("?sort=modified"), peers("?sort=-modified")
    assert ascending == descending[::-1]
    assert len(ascending) == 3
    page = body(client.get(url(demo, "?sort=modified"))).decode()
    assert (
        'aria-sort="ascending"><a href="?docset=&amp;sort=-modified" '
        'title="Sort by Modified, descending">'
    ) in page
    assert 'title="Sort by SCUs, ascending"' in page  # the label as shown, not "scus"
    assert page.count("aria-sort=") == 1


def test_each_systems_mean_and_its_download(client, demo):
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo, "?view=systems"))).decode()
    assert "selected>each system's mean over docsets" in page
    assert '<td class="num">1.0000</td>' in page
    download = body(client.get(url(demo, "?view=systems&format=csv"))).decode().splitlines()
    header = (
        "peer,docsets,in_progress,modified,original,coverage,comprehensive,"
        "weight_convention,average_rounding,mean_per"
    )
    assert download[0] == header
    assert len(download) == 4
    assert download[1].endswith(",contributors,half_up,docset")
    assert download[1].split(",")[2] == "0"


@pytest.mark.shared_data
def test_one_mean_per_system_on_the_page_the_export_the_report_and_ranking(client, shared_data):
    """Issue 33: the scores page and `export_scores --systems` averaged each docset first, the
    "Systems compared" report and `ranking` counted every annotation (D0631, annotated by two sites,
    twice), and none said which. One default everywhere, said on each, the other by name: all four
    agree either way, and differ from each other only where a docset was annotated twice."""
    from django.contrib.auth import get_user_model

    from annotator.models import Collection
    from scoring.reports.ranking import ranking_report
    from tests.helpers import import_duc2006, run

    collection = import_duc2006(shared_data, "D0601", "D0631")
    client.force_login(get_user_model().objects.create_superuser("organizer"))
    found = {}
    for per in ("docset", "annotation"):
        query = "?view=systems" + ("&per=annotation" if per == "annotation" else "")
        page = body(client.get(scores_url(collection, query))).decode()
        said = "each docset counts once" if per == "docset" else "every annotation counts"
        assert said in page
        downloaded = body(client.get(scores_url(collection, query + "&format=csv")))
        page_means = {
            r["peer"]: r["modified"] for r in csv.DictReader(io.StringIO(downloaded.decode()))
        }
        assert {r["mean_per"] for r in csv.DictReader(io.StringIO(downloaded.decode()))} == {per}
        out, err = run("export_scores", collection=collection.name, systems=True, per=per)
        exported = {r["peer"]: r["modified"] for r in csv.DictReader(io.StringIO(out))}
        assert said in err
        ranked = json.loads(run("ranking", collection=collection.name, format="json", per=per)[0])
        ranking = {s: f"{m:.4f}" for s, _, m in ranked["means"]}
        report = ranking_report(Collection.objects.get(pk=collection.pk), {"per": per})
        table = report["tables"][0]
        assert said in table["note"]
        reported = {row[0]: f"{row[2]:.4f}" for row in table["rows"]}
        assert page_means == exported == ranking == reported, per
        found[per] = page_means
    # System 10 of D0631 was annotated twice with different scores: the two conventions differ.
    assert found["docset"]["10"] != found["annotation"]["10"]


def test_adjudicated_work_only(client, demo, django_user_model):
    """With a complete consensus of peer 1, "adjudicated work only" shows it instead of its sources,
    and the downloads keep the choice."""
    complete_consensus_of_peer_1(demo, mine_complete=True)
    client.force_login(demo["admin"])
    page = body(client.get(url(demo))).decode()
    assert page.count("<tr>") == 5
    assert "<td>consensus</td>" not in page
    assert "1 annotation of consensus work" in page
    page = body(client.get(url(demo, "?adjudicated=1"))).decode()
    assert page.count("<tr>") == 4
    assert "<td>consensus</td>" in page
    assert 'name="adjudicated" value="1" checked' in page
    assert (
        '<a href="?docset=&amp;adjudicated=1&amp;format=csv">CSV</a>' in page
    )  # the downloads keep the choice
    rows = list(
        csv.DictReader(
            io.StringIO(body(client.get(url(demo, "?adjudicated=1&format=csv"))).decode())
        )
    )
    assert [(r["peer"], r["annotator"]) for r in rows] == [
        ("1", "consensus"),
        ("2", "demo"),
        ("3", "demo"),
    ]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?docset=DEMO01%00", "docset"),
        ("?sort=%00peer", "sort"),
        ("?view=systems%00", "view"),
        ("?format=csv%00", "format"),
        ("?adjudicated=1%00", "adjudicated"),
        ("?x%00=1", "x\\0"),
    ],
)
def test_a_nul_character_in_the_query_is_refused_as_bad_input(client, demo, query, field):
    """The docset is looked up by name: a NUL was a 500 (issue 16). Any parameter: 400 naming it."""
    client.force_login(demo["organizer"])
    response = client.get(url(demo, query))
    assert refuses_nul(response, field)
    assert "<h1>Bad request</h1>" in body(response).decode()


def test_one_docsets_scores_lead_back_to_the_docset(client, demo):
    """The docset page's link to its scores answered 500: the crumbs wanted the docset's record."""
    client.force_login(demo["admin"])
    docset = demo["pyramid"].docset
    response = client.get(url(demo, "?docset=DEMO01"))
    assert response.status_code == 200
    page = body(response).decode()
    assert f'<a href="{reverse("docset-detail", args=[docset.pk])}">Docset DEMO01</a>' in page
    assert "Scores of Demo: Apollo 11, docset DEMO01" in page
    assert page.count("<tr>") == 4
    assert client.get(url(demo, "?docset=DEMO01&view=systems")).status_code == 200


def test_a_docset_the_collection_does_not_have_answers_400(client, demo):
    client.force_login(demo["admin"])
    response = client.get(url(demo, "?docset=NOPE"))
    assert response.status_code == 400
    assert (
        f"The collection {demo['collection'].name} has no docset NOPE." in body(response).decode()
    )


# -- work in progress (issue 17) -----------------------------------------------------------------


def peer_3_in_progress(demo):
    from annotator.models import PeerAnnotation

    PeerAnnotation.objects.filter(pk=demo["annotations"]["3"].pk).update(
        status=PeerAnnotation.Status.IN_PROGRESS
    )


def peers_shown(page: str) -> list[str]:
    return re.findall(r'<td><a href="/annotations/\d+/">(\w+)</a></td>', page)


def test_work_in_progress_is_not_counted_and_the_page_says_so(client, demo):
    """An annotation in progress was scored and exported with nothing to mark it (issue 17)."""
    peer_3_in_progress(demo)
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo))).decode()
    assert peers_shown(page) == ["1", "2"]
    assert "<td>Submitted</td>" in page
    assert "In progress</strong>" not in page
    assert (
        '<p id="counted">2 submitted annotations counted; 1 in progress not counted '
        '(<a href="?docset=&amp;include=in-progress">show them</a>).</p>'
    ) in page
    assert 'name="include" value="in-progress" data-auto-submit' in page  # the checkbox, not ticked
    rows = list(csv.DictReader(io.StringIO(body(client.get(url(demo, "?format=csv"))).decode())))
    assert [(r["peer"], r["status"]) for r in rows] == [("1", "submitted"), ("2", "submitted")]
    duc = body(client.get(url(demo, "?format=duc"))).decode().splitlines()
    assert [line.split("\t")[:2] for line in duc] == [["DEMO01", "1"], ["DEMO01", "2"]]
    assert all(len(line.split("\t")) == 6 for line in duc)  # NIST's columns, no mark
    means = body(client.get(url(demo, "?view=systems&format=csv"))).decode().splitlines()
    assert [line.split(",")[:3] for line in means[1:]] == [["1", "1", "0"], ["2", "1", "0"]]


def test_work_in_progress_is_shown_marked_when_asked_for_and_every_link_keeps_the_choice(
    client, demo
):
    peer_3_in_progress(demo)
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo, "?include=in-progress"))).decode()
    assert peers_shown(page) == ["1", "2", "3"]
    assert page.count('<tr class="in-progress">') == 1
    assert page.count("<strong>In progress</strong>") == 1
    assert (
        '<p id="counted">2 submitted annotations and 1 in progress (marked) counted '
        '(<a href="?docset=">count submitted work only</a>).</p>'
    ) in page
    assert 'name="include" value="in-progress" checked data-auto-submit' in page
    for fmt in ("csv", "json", "duc"):  # the downloads, the sorting
        assert f'<a href="?docset=&amp;include=in-progress&amp;format={fmt}">' in page
    assert (
        '<a href="?docset=&amp;include=in-progress&amp;sort=modified" '
        'title="Sort by Modified, ascending">'
    ) in page
    assert (
        peers_shown(body(client.get(url(demo, "?include=in-progress&sort=status"))).decode())[0]
        == "3"
    )

    rows = list(
        csv.DictReader(
            io.StringIO(body(client.get(url(demo, "?include=in-progress&format=csv"))).decode())
        )
    )
    assert [(r["peer"], r["status"]) for r in rows] == [
        ("1", "submitted"),
        ("2", "submitted"),
        ("3", "in_progress"),
    ]
    document = json.loads(body(client.get(url(demo, "?include=in-progress&format=json"))))
    assert [r["status"] for r in document["rows"]] == ["submitted", "submitted", "in_progress"]
    duc = body(client.get(url(demo, "?include=in-progress&format=duc"))).decode().splitlines()
    submitted = body(client.get(url(demo, "?format=duc"))).decode().splitlines()
    assert duc[:2] == submitted
    assert len(duc) == 3
    fields = duc[2].split("\t")
    assert fields[:2] == ["DEMO01", "3"]
    assert fields[5:] == ["demo", "#in_progress"]

    systems = body(client.get(url(demo, "?view=systems&include=in-progress"))).decode()
    assert 'title="Sort by In progress, ascending">In progress</a>' in systems
    assert systems.count('<tr class="in-progress">') == 1
    assert (
        '<a href="?docset=&amp;view=systems&amp;include=in-progress&amp;format=json">JSON</a>'
        in systems
    )
    means = json.loads(
        body(client.get(url(demo, "?view=systems&include=in-progress&format=json")))
    )["systems"]
    assert {m["peer"]: m["in_progress"] for m in means} == {"1": 0, "2": 0, "3": 1}


def test_the_counts_say_consensus_work_and_work_in_progress_apart(client, demo):
    """The annotator's own annotation of peer 1 is in progress; the consensus of it and the demo's
    is consensus work: each is said as what it is, and the link to adjudicated work keeps the
    choice."""
    complete_consensus_of_peer_1(demo)
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo))).decode()
    assert "3 submitted annotations counted; 1 in progress not counted" in page
    assert "1 annotation of consensus work" in page
    page = body(client.get(url(demo, "?include=in-progress"))).decode()
    assert "3 submitted annotations and 1 in progress (marked) counted" in page
    assert "1 annotation of consensus work" in page
    assert (
        '<a href="?docset=&amp;include=in-progress&amp;adjudicated=1">Adjudicated work only</a>'
        in page
    )
    page = body(
        client.get(url(demo, "?adjudicated=1"))
    ).decode()  # the consensus replaces both sources
    assert "3 submitted annotations counted." in page
    assert "2 annotations not counted: replaced" in page


@pytest.mark.parametrize("choices", ["", "&include=in-progress", "&adjudicated=1"])
def test_the_systems_view_counts_what_the_table_counts(client, demo, choices):
    # The systems view counts its rows by status from those it averages (no query of its own).
    complete_consensus_of_peer_1(demo)
    client.force_login(demo["organizer"])
    table = client.get(url(demo, "?docset=" + choices))
    systems = client.get(url(demo, "?view=systems" + choices))
    assert systems.context["counts"] == table.context["counts"]
    assert table.context["counts"].submitted >= 3


def test_the_systems_view_reads_the_means_kept_until_the_collection_changes(client, demo):
    """The whole collection's means are kept (scoring.scores.system_means): a second view shows the
    kept
    row; an edit of an annotation computes them again."""
    from scoring.models import StoredSystemMeans

    client.force_login(demo["organizer"])
    assert '<td class="num">1.0000</td>' in body(client.get(url(demo, "?view=systems"))).decode()
    kept = StoredSystemMeans.objects.get(adjudicated=False, include_in_progress=False)
    kept.means = [mean | {"modified": 0.123456} for mean in kept.means]
    kept.save()
    assert '<td class="num">0.1235</td>' in body(client.get(url(demo, "?view=systems"))).decode()
    annotation = demo["annotations"]["1"]
    annotation.version += 1
    annotation.save()  # as every edit saves it
    page = body(client.get(url(demo, "?view=systems"))).decode()
    assert '<td class="num">0.1235</td>' not in page
    assert '<td class="num">1.0000</td>' in page
    # One docset's means are averaged afresh, not kept.
    docset = body(client.get(url(demo, "?docset=DEMO01&view=systems"))).decode()
    assert '<td class="num">1.0000</td>' in docset
    assert StoredSystemMeans.objects.count() == 1


def test_the_links_that_change_what_is_counted_keep_the_sort(client, demo):
    complete_consensus_of_peer_1(demo)
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo, "?sort=-modified&page=1"))).decode()
    assert '<a href="?docset=&amp;include=in-progress&amp;sort=-modified">show them</a>' in page
    assert '<a href="?docset=&amp;adjudicated=1&amp;sort=-modified">Adjudicated' in page
    page = body(client.get(url(demo, "?sort=-modified&include=in-progress"))).decode()
    assert '<a href="?docset=&amp;sort=-modified">count submitted work only</a>' in page


def test_the_page_takes_the_same_queries_whatever_the_number_of_rows(client, demo):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.scoring.test_api_scores import more_annotations

    client.force_login(demo["organizer"])

    def queries(query):
        with CaptureQueriesContext(connection) as done:
            assert client.get(url(demo, query)).status_code == 200
        return len(done)

    before = {
        q: queries(q) for q in ("", "?include=in-progress", "?view=systems&include=in-progress")
    }
    more_annotations(demo, 6)
    more_annotations(demo, 6, complete=False, prefix="y")
    assert {q: queries(q) for q in before} == before
    assert (
        "9 submitted annotations counted; 6 in progress not counted"
        in body(client.get(url(demo))).decode()
    )


def _more_peers(demo, count: int) -> None:
    """`count` more submitted annotations of new peers of the demo docset, with no PSE."""
    from annotator.models import PeerAnnotation, Summary

    for n in range(count):
        peer = Summary.objects.create(
            docset=demo["pyramid"].docset, kind="peer", author=str(10 + n), text=f"Peer {n}."
        )
        PeerAnnotation.objects.create(
            pyramid=demo["pyramid"], peer=peer, annotator_code="X", status="submitted"
        )


def _peers(page: str) -> list[str]:
    return re.findall(r'<td><a href="/annotations/\d+/">([^<]+)</a></td>', page)


def test_the_table_is_cut_into_pages_that_keep_the_choices_made(client, demo, monkeypatch):
    monkeypatch.setattr("scoring.scores.score_table.PAGE_SIZE", 2)
    _more_peers(demo, 3)
    client.force_login(demo["organizer"])
    first = body(client.get(url(demo, "?sort=-modified&docset=DEMO01"))).decode()
    assert "Rows 1–2 of 6 · page 1 of 3" in first
    assert len(_peers(first)) == 2
    assert 'href="?docset=DEMO01&amp;sort=-modified&amp;page=2">Next' in first
    last = body(client.get(url(demo, "?sort=-modified&docset=DEMO01&page=3"))).decode()
    assert "Rows 5–6 of 6 · page 3 of 3" in last
    beyond = body(client.get(url(demo, "?sort=-modified&docset=DEMO01&page=99"))).decode()
    assert "Rows 5–6 of 6" in beyond  # a page beyond the last shows the last
    assert "Rows 1–2 of 6" in body(client.get(url(demo, "?page=x"))).decode()


@pytest.mark.parametrize("sort", ["", "-modified", "original", "peer", "-annotator"])
def test_the_pages_join_into_the_whole_table_in_its_order(client, demo, monkeypatch, sort):
    from scoring.scores.records import score_collection
    from scoring.scores.tables import sorted_rows

    _more_peers(demo, 3)
    client.force_login(demo["admin"])
    whole = _peers(body(client.get(url(demo, f"?sort={sort}"))).decode())
    monkeypatch.setattr("scoring.scores.score_table.PAGE_SIZE", 2)
    paged = [
        peer
        for n in (1, 2, 3)
        for peer in _peers(body(client.get(url(demo, f"?sort={sort}&page={n}"))).decode())
    ]
    assert paged == whole
    rows = score_collection(demo["collection"])
    if sort:
        rows = sorted_rows(rows, sort.lstrip("-"), sort.startswith("-"))
    assert whole == [row.peer for row in rows]


def test_a_sort_by_score_follows_the_latest_edit(client, demo):
    from annotator.models import PSE

    client.force_login(demo["admin"])
    before = _peers(body(client.get(url(demo, "?sort=-modified"))).decode())
    best = demo["annotations"][before[0]]
    PSE.objects.filter(annotation=best).delete()
    best.save()  # as every edit does: its updated_at is raised
    after = _peers(body(client.get(url(demo, "?sort=-modified"))).decode())
    assert after[-1] == before[0]
    assert after[:-1] == before[1:]


@pytest.mark.parametrize("query", ["", "?sort=-modified", "?sort=peer", "?view=systems"])
def test_the_page_costs_the_same_queries_whatever_the_number_of_annotations(client, demo, query):
    client.force_login(demo["admin"])
    client.get(url(demo, query))  # stored scores brought up to date once
    with CaptureQueriesContext(connection) as few:
        client.get(url(demo, query))
    _more_peers(demo, 12)
    client.get(url(demo, query))
    with CaptureQueriesContext(connection) as many:
        assert client.get(url(demo, query)).status_code == 200
    assert len(many) == len(few)


def test_the_table_does_not_load_the_peers_texts(client, demo):
    client.force_login(demo["admin"])
    with CaptureQueriesContext(connection) as queries:
        client.get(url(demo))
    summary_columns = [q["sql"] for q in queries if '"annotator_summary"' in q["sql"]]
    assert summary_columns
    assert not any('"annotator_summary"."text"' in sql for sql in summary_columns)


@pytest.mark.parametrize(("asked", "shown"), [("0", 1), ("-1", 1), ("abc", 1), ("9", 3)])
def test_a_page_out_of_range_shows_the_nearest(client, demo, monkeypatch, asked, shown):
    monkeypatch.setattr("scoring.scores.score_table.PAGE_SIZE", 1)
    client.force_login(demo["admin"])
    assert f"page {shown} of 3</p>" in body(client.get(url(demo, f"?page={asked}"))).decode()


def test_the_page_links_come_before_the_table_and_the_filters_keep_the_sort(client, demo):
    client.force_login(demo["admin"])
    page = body(client.get(url(demo, "?sort=-modified&page=1"))).decode()
    assert page.index('class="pagination"') < page.index("<table")
    assert '<input type="hidden" name="sort" value="-modified">' in page
    systems = body(client.get(url(demo, "?sort=-modified&view=systems"))).decode()
    assert '<input type="hidden" name="sort" value="-modified">' in systems


@pytest.mark.parametrize("column", ["peer", "docsets", "modified", "original", "coverage"])
def test_the_systems_table_sorts_by_any_column_either_way(client, demo, column):
    client.force_login(demo["organizer"])

    def shown(query):
        response = client.get(url(demo, "?view=systems" + query))
        return [(m.peer, getattr(m, column)) for m in response.context["means"]]

    best_first = shown("")
    ascending, descending = shown(f"&sort={column}"), shown(f"&sort=-{column}")
    key = (lambda pair: int(pair[0])) if column == "peer" else (lambda pair: pair[1])
    assert ascending == sorted(best_first, key=key)  # stable: ties stay best first
    assert descending == sorted(best_first, key=key, reverse=True)
    assert len(ascending) == 3
    page = body(client.get(url(demo, f"?view=systems&sort={column}"))).decode()
    assert page.count('aria-sort="ascending"') == 1
    assert f'href="?docset=&amp;view=systems&amp;sort=-{column}"' in page


# -- coverage judgments (issue 21) ----------------------------------------------------------------


def _coverage_rows(page: str) -> list[list[str]]:
    """The cells of each row of the coverage table (the page's last table)."""
    table = page[page.index('<h2 id="coverage">') :]
    return [
        re.findall(r"<td[^>]*>([^<]*)</td>", row)
        for row in re.findall(r"<tr(?: class=\"in-progress\")?><td>.*?</tr>", table)
    ]


def test_no_coverage_table_without_judgments(client, demo):
    client.force_login(demo["organizer"])
    assert "Coverage judgments" not in body(client.get(url(demo))).decode()


def test_the_coverage_table_has_each_peers_scores_against_each_unit_set(client, demo):
    from tests.scoring.coverage_scores import ROWS, coverage_collection

    coverage_collection(demo)
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo))).decode()
    assert '<h2 id="coverage">Coverage judgments</h2>' in page
    assert (
        '<p id="coverage-counted">16 submitted judgment tasks counted; 1 not submitted yet '
        "(assigned or "
        "in progress) not counted "
        '(<a href="?docset=&amp;include=in-progress">show them</a>).'
    ) in page
    shown = _coverage_rows(page)
    assert [row[:4] for row in shown] == [
        ["DEMO01", "Lite", "Presence", "1"],
        ["DEMO01", "Lite", "Presence", "2"],
        ["DEMO01", "Lite", "Presence", "3"],
        ["DEMO01", "SEE model A", "SEE", "1"],
        ["DEMO01", "SEE model A", "SEE", "2"],
        ["DEMO01", "SEE model A", "SEE", "3"],
        ["DEMO02", "Lite", "Presence", "1"],
        ["DEMO02", "Lite", "Presence", "2"],
    ]
    units = {("DEMO01", "Lite"): "4", ("DEMO01", "SEE model A"): "3", ("DEMO02", "Lite"): "2"}
    for row in shown:
        assert row[4:6] == ["2", units[(row[0], row[1])]]  # judges, units
        expected = ROWS[(row[0], row[1], row[3])]
        assert row[6:] == ["" if v is None else f"{v:.4f}" for v in expected]
    assert shown[0][4:] == ["2", "4", "0.5000", "0.7143", ""]  # 2/4, 5/7
    assert shown[3][4:] == ["2", "3", "", "", "0.7917"]  # 19/24


def test_the_coverage_systems_view_has_each_systems_means(client, demo):
    from tests.scoring.coverage_scores import SYSTEMS, coverage_collection

    coverage_collection(demo)
    client.force_login(demo["organizer"])
    response = client.get(url(demo, "?view=systems"))
    means = response.context["coverage"]["means"]
    assert [m.peer for m in means] == ["2", "1", "3"]  # best presence first
    for mean in means:
        assert (mean.docsets, mean.presence, mean.presence_weighted, mean.see_coverage) == (
            pytest.approx(SYSTEMS[mean.peer])
        )
    assert _coverage_rows(body(response).decode())[0] == [
        "2",
        "2",
        "0.6250",
        "0.5714",
        "0.3333",
    ]


def test_coverage_work_in_progress_only_when_asked_for_marked(client, demo):
    from tests.scoring.coverage_scores import coverage_collection

    coverage_collection(demo)
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo, "?include=in-progress"))).decode()
    assert (
        "16 submitted judgment tasks and 1 not submitted yet (assigned or in progress; marked) "
        "counted." in page
    )
    shown = _coverage_rows(page)
    assert shown[-1] == ["DEMO02", "Lite", "Presence", "3", "1", "2", "1", "1.0000", "1.0000", ""]
    assert page.count('<tr class="in-progress"><td>DEMO02</td>') == 1
    systems = client.get(url(demo, "?view=systems&include=in-progress")).context["coverage"]
    peer_3 = next(m for m in systems["means"] if m.peer == "3")
    assert (peer_3.docsets, peer_3.in_progress, peer_3.presence) == (2, 1, 0.5)  # (0 + 1) / 2


@pytest.mark.parametrize(
    ("query", "column", "expected"),
    [
        ("?sort=presence", "presence", ["3", "2", "1", "1", "2"]),
        ("?sort=-see_coverage", "see_coverage", ["1", "2", "3"]),
        ("?view=systems&sort=see_coverage", "see_coverage", ["3", "2", "1"]),
        ("?view=systems&sort=-peer", "peer", ["3", "2", "1"]),
    ],
)
def test_the_coverage_table_sorts_by_its_columns(client, demo, query, column, expected):
    from tests.scoring.coverage_scores import coverage_collection

    coverage_collection(demo)
    client.force_login(demo["organizer"])
    response = client.get(url(demo, query))
    coverage = response.context["coverage"]
    items = coverage["means"] if "systems" in query else coverage["rows"]
    assert [i.peer for i in items if getattr(i, column) is not None] == expected
    page = body(response).decode()
    table = page[page.index('<h2 id="coverage">') :]
    assert table.count("aria-sort=") == 1


def test_the_coverage_downloads(client, demo):
    from tests.scoring.coverage_scores import ROWS, SYSTEMS, close, coverage_collection

    coverage_collection(demo)
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo))).decode()
    assert '<a href="?docset=&amp;table=coverage&amp;format=csv">CSV</a>' in page
    response = client.get(url(demo, "?table=coverage&format=csv"))
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="Demo_Apollo_11-coverage.csv"' in response["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(body(response).decode())))
    assert list(rows[0]) == [
        "collection",
        "docset",
        "unit_set",
        "method",
        "peer",
        "judges",
        "units",
        "in_progress",
        "presence",
        "presence_weighted",
        "see_coverage",
    ]
    assert len(rows) == len(ROWS)
    assert rows[0]["presence_weighted"] == "0.7143"
    document = json.loads(body(client.get(url(demo, "?table=coverage&format=json"))))
    found = {(r["docset"], r["unit_set"], r["peer"]): r for r in document["rows"]}
    assert close(
        {
            key: (r["presence"], r["presence_weighted"], r["see_coverage"])
            for key, r in found.items()
        },
        ROWS,
    )
    systems = json.loads(body(client.get(url(demo, "?view=systems&table=coverage&format=json"))))
    assert close(
        {
            m["peer"]: (m["docsets"], m["presence"], m["presence_weighted"], m["see_coverage"])
            for m in systems["systems"]
        },
        SYSTEMS,
    )
    one = json.loads(body(client.get(url(demo, "?docset=DEMO02&table=coverage&format=json"))))
    assert {r["docset"] for r in one["rows"]} == {"DEMO02"}
    assert len(one["rows"]) == 2


@pytest.mark.parametrize("query", ["", "?view=systems", "?include=in-progress&sort=presence"])
def test_the_coverage_table_costs_the_same_queries_whatever_its_rows(
    client, demo, query, django_assert_max_num_queries
):
    from tests.scoring.coverage_scores import coverage_collection, more_judged_peers

    client.force_login(demo["organizer"])
    client.get(url(demo, query))  # stored scores brought up to date once
    with CaptureQueriesContext(connection) as without:
        client.get(url(demo, query))
    coverage_collection(demo)
    client.get(url(demo, query))
    with CaptureQueriesContext(connection) as few:
        client.get(url(demo, query))
    # Without judgments, the task counts alone; with them, the tasks, their answers and the
    # units' weights: 3 more.
    assert len(few) == len(without) + 3
    more_judged_peers(demo, 10)
    with django_assert_max_num_queries(len(few)):
        response = client.get(url(demo, query))
    coverage = response.context["coverage"]
    assert len(coverage["means"] if "systems" in query else coverage["rows"]) > 10


def test_the_filters_and_the_downloads_keep_counting_every_annotation(client, demo):
    """A tester's find: changing the docset or ticking "work in progress too" on the systems view
    counting every annotation went back to each docset once (the form had no `per`); both
    conventions downloaded under one name."""
    client.force_login(demo["organizer"])
    page = body(client.get(url(demo, "?view=systems&per=annotation"))).decode()
    assert '<input type="hidden" name="per" value="annotation">' in page
    assert "every annotation counts" in page
    default = body(client.get(url(demo, "?view=systems"))).decode()
    assert 'name="per"' not in default
    every = client.get(url(demo, "?view=systems&per=annotation&format=csv"))
    once = client.get(url(demo, "?view=systems&format=csv"))
    assert "system-scores-per-annotation.csv" in every["Content-Disposition"]
    assert "system-scores.csv" in once["Content-Disposition"]
