import csv
import re
import io

import pytest
from django.urls import reverse

from .helpers import complete_consensus_of_peer_1, refuses_nul

pytestmark = pytest.mark.django_db


def url(demo, query=""):
    return reverse("collection-scores", args=[demo["pyramid"].docset.collection.pk]) + query


def test_staff_see_the_score_table(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo)).content.decode()
    assert page.count("<tr>") == 4  # header + three peers
    assert '<td class="num">1.0000</td>' in page and '<td class="num">0.3158</td>' in page


@pytest.mark.parametrize("fmt, content_type, first_line", [
    ("csv", "text/csv", "collection,docset,peer"),
    ("duc", "text/tab-separated-values", "DEMO01\t1\t1\t6\t0\tdemo"),  # NIST's numbers: 1, not 1.0000
    ("json", "application/json", "{"),
])
def test_downloads(client, demo, fmt, content_type, first_line):
    client.force_login(demo["admin"])
    response = client.get(url(demo, f"?format={fmt}"))
    assert response["Content-Type"].startswith(content_type)
    assert "attachment" in response["Content-Disposition"]
    assert response.content.decode().startswith(first_line)


def test_csv_download_has_a_row_per_peer(client, demo):
    client.force_login(demo["admin"])
    rows = list(csv.DictReader(io.StringIO(client.get(url(demo, "?format=csv")).content.decode())))
    assert [r["peer"] for r in rows] == ["1", "2", "3"]


@pytest.mark.parametrize("who, status", [("annotator", 403), ("outsider", 404)])
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
        page = client.get(url(demo, query)).content.decode()
        return re.findall(r'<td><a href="/annotations/\d+/">(\w+)</a></td>', page)
    ascending, descending = peers("?sort=modified"), peers("?sort=-modified")
    assert ascending == descending[::-1] and len(ascending) == 3
    assert "Sort by modified" in client.get(url(demo)).content.decode()


def test_each_systems_mean_and_its_download(client, demo):
    client.force_login(demo["organizer"])
    page = client.get(url(demo, "?view=systems")).content.decode()
    assert 'selected>each system\'s mean over docsets' in page and '<td class="num">1.0000</td>' in page
    download = client.get(url(demo, "?view=systems&format=csv")).content.decode().splitlines()
    assert download[0] == "peer,docsets,modified,original,coverage,comprehensive,weight_convention,average_rounding"
    assert len(download) == 4 and download[1].endswith(",contributors,half_up")


def test_adjudicated_work_only(client, demo, django_user_model):
    """With a complete consensus of peer 1, "adjudicated work only" shows it instead of its sources,
    and the downloads keep the choice."""
    complete_consensus_of_peer_1(demo)
    client.force_login(demo["admin"])
    page = client.get(url(demo)).content.decode()
    assert page.count("<tr>") == 5 and "<td>consensus</td>" not in page  # header, 2 + 2 annotations of peer 1
    assert "1 annotation of consensus work" in page
    page = client.get(url(demo, "?adjudicated=1")).content.decode()
    assert page.count("<tr>") == 4 and "<td>consensus</td>" in page and 'name="adjudicated" value="1" checked' in page
    assert '<a href="?docset=&amp;adjudicated=1&amp;format=csv">CSV</a>' in page  # the downloads keep the choice
    rows = list(csv.DictReader(io.StringIO(client.get(url(demo, "?adjudicated=1&format=csv")).content.decode())))
    assert [(r["peer"], r["annotator"]) for r in rows] == [("1", "consensus"), ("2", "demo"), ("3", "demo")]


@pytest.mark.parametrize("query, field", [
    ("?docset=DEMO01%00", "docset"), ("?sort=%00peer", "sort"), ("?view=systems%00", "view"),
    ("?format=csv%00", "format"), ("?adjudicated=1%00", "adjudicated"), ("?x%00=1", "x\\0"),
])
def test_a_nul_character_in_the_query_is_refused_as_bad_input(client, demo, query, field):
    """The docset is looked up by name: a NUL was a 500 (issue 16). Any parameter: 400 naming it."""
    client.force_login(demo["organizer"])
    response = client.get(url(demo, query))
    assert refuses_nul(response, field) and "<h1>Bad request</h1>" in response.content.decode()


def test_one_docsets_scores_lead_back_to_the_docset(client, demo):
    """The docset page's link to its scores answered 500: the crumbs wanted the docset's record."""
    client.force_login(demo["admin"])
    docset = demo["pyramid"].docset
    response = client.get(url(demo, "?docset=DEMO01"))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<a href="{reverse("docset-detail", args=[docset.pk])}">DEMO01</a>' in page
    assert "Scores of Demo: Apollo 11, docset DEMO01" in page and page.count("<tr>") == 4
    assert client.get(url(demo, "?docset=DEMO01&view=systems")).status_code == 200


def test_a_docset_the_collection_does_not_have_answers_400(client, demo):
    client.force_login(demo["admin"])
    response = client.get(url(demo, "?docset=NOPE"))
    assert response.status_code == 400
    assert f"The collection {demo['collection'].name} has no docset NOPE." in response.content.decode()
