"""GET /docsets/<pk>/: a docset's summaries, pyramids, peer annotations and unit sets."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_lists_summaries_pyramids_and_annotations(client, demo):
    client.force_login(demo["organizer"])
    page = client.get(reverse("docset-detail", args=[demo["pyramid"].docset_id])).content.decode()
    assert page.count(reverse("summary-detail", args=[demo["annotations"]["1"].peer_id])) == 1
    assert reverse("pyramid-detail", args=[demo["pyramid"].pk]) in page
    for annotation in demo["annotations"].values():
        assert reverse("annotation-detail", args=[annotation.pk]) in page
    assert "Paste a summary" not in page  # administrators only


def test_the_docset_queue_for_adjudicators_with_states_and_links(client, pair):
    """Issue 15: the docset's pairs and peers waiting for a consensus, for its adjudicators."""
    from annotator.adjudication import pyramid_consensus
    from annotator.models import PeerAnnotation, Pyramid

    demo, a, b = pair["demo"], pair["a"], pair["b"]
    Pyramid.objects.filter(pk__in=[a.pk, b.pk]).update(status=Pyramid.Status.SUBMITTED)
    theirs = demo["annotations"]["2"]
    PeerAnnotation.objects.create(
        pyramid=demo["pyramid"],
        peer=theirs.peer,
        annotator=demo["other_annotator"],
        status=PeerAnnotation.Status.SUBMITTED,
    )
    consensus = pyramid_consensus.start(a, b, pair["adjudicator"])
    url = reverse("docset-detail", args=[a.docset_id])
    client.force_login(pair["adjudicator"])
    page = client.get(url).content.decode()
    queue = page.split('id="adjudication-queue"')[1].split("</section>")[0]
    assert "3 not started · 1 in progress · 0 submitted" in queue
    assert queue.index("by-annotator + by-other") < queue.index(
        "DEMO01 + by-annotator"
    )  # in progress first
    assert f'href="{reverse("pyramid-merge", args=[consensus.pk])}">Continue</a>' in queue
    assert "peer 2 against DEMO01" in queue
    assert (
        f'action="{reverse("peer-consensus-start", args=[demo["pyramid"].pk, theirs.peer_id])}"'
        in queue
    )
    assert "<th>Docset</th>" not in queue  # the page is the docset's
    for who in ("organizer", "annotator"):
        client.force_login(demo[who])
        response = client.get(url)
        assert response.status_code in (200, 403)
        assert "adjudication-queue" not in response.content.decode()


def test_the_docset_queue_costs_a_constant_number_of_queries(
    client, pair, django_assert_max_num_queries
):
    from annotator.models import PeerAnnotation, Pyramid, PyramidModel, Summary

    demo = pair["demo"]
    url = reverse("docset-detail", args=[pair["a"].docset_id])
    client.force_login(pair["adjudicator"])
    with django_assert_max_num_queries(30) as small:
        client.get(url)
    links = list(demo["pyramid"].model_links.all())
    for n in range(6):
        pyramid = Pyramid.objects.create(
            docset=demo["pyramid"].docset, name=f"extra-{n}", status=Pyramid.Status.SUBMITTED
        )
        PyramidModel.objects.bulk_create(
            PyramidModel(pyramid=pyramid, summary_id=link.summary_id, position=link.position)
            for link in links
        )
        peer = Summary.objects.create(
            docset=demo["pyramid"].docset,
            kind=Summary.Kind.PEER,
            author=f"{20 + n}",
            text="A peer.",
        )
        for code in ("114", "115"):
            PeerAnnotation.objects.create(
                pyramid=demo["pyramid"],
                peer=peer,
                annotator_code=code,
                status=PeerAnnotation.Status.SUBMITTED,
            )
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = client.get(url).content.decode()
    assert page.count('<tr class="queue-item') == 21 + 6  # pairs of 7 submitted pyramids, 6 peers


def unit_set_rows(page: str) -> list[tuple[str, str]]:
    """Each unit set's name and units as the page lists them."""
    table = page.split('id="unit-sets"')[1].split("</table>")[0]
    return re.findall(r'>([^<]+)</a></td>(?:<td>[^<]*</td>){3}<td class="num">(\d+)</td>', table)


def test_unit_sets_are_counted_in_one_query_however_many(client, demo, django_assert_num_queries):
    """Issue 21: the unit sets with their units counted by the database at once (a query per
    unit set before)."""
    from tests.coverage import judging_records as records

    records.presence_set(demo, count=3, name="Set 1")
    url = reverse("docset-detail", args=[demo["pyramid"].docset_id])
    client.force_login(demo["organizer"])
    with CaptureQueriesContext(connection) as one:
        page = client.get(url).content.decode()
    assert unit_set_rows(page) == [("Set 1", "3")]
    records.presence_set(demo, name="Set 2")  # the demo pyramid's SCUs
    records.presence_set(demo, count=0, name="Set 3")
    records.presence_set(demo, count=12, name="Set 4")
    scus = demo["pyramid"].scus.count()
    with django_assert_num_queries(len(one.captured_queries)):
        page = client.get(url).content.decode()
    assert unit_set_rows(page) == [
        ("Set 1", "3"),
        ("Set 2", str(scus)),
        ("Set 3", "0"),
        ("Set 4", "12"),
    ]
