"""GET /collections/<pk>/progress/: what is assigned, started, submitted; filtered and sorted."""

import pytest
from django.urls import reverse

from annotator.models import PeerAnnotation
from annotator.peer_annotation import editing as peer_editing
from tests.helpers import refuses_nul

pytestmark = pytest.mark.django_db


def url(demo, query=""):
    return reverse("collection-progress", args=[demo["collection"].pk]) + query


def test_figures_follow_the_work(client, demo, django_assert_max_num_queries):
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    client.force_login(demo["organizer"])
    with django_assert_max_num_queries(16):
        page = client.get(url(demo)).content.decode()
    assert "2 assigned · 0 started · 0 submitted · 0 SCUs · 1 PSE</p>" in page
    assert reverse("annotation-detail", args=[annotation.pk]) in page
    assert ">Withdraw</button>" not in page  # organizers read


def test_filters_and_sorting(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo, "?annotator=other_annotator")).content.decode()
    assert "peer 2 against DEMO01" in page
    assert "peer 1 against DEMO01" not in page
    page = client.get(url(demo, "?sort=annotator"), HTTP_HX_REQUEST="true").content.decode()
    assert page.startswith('<div id="progress">')
    assert page.index("<td>annotator</td>") < page.index("<td>other_annotator</td>")


@pytest.mark.parametrize("field", ["docset", "annotator", "task", "status", "sort"])
def test_a_nul_character_in_a_filter_is_refused_as_bad_input(client, demo, field):
    """The filters are looked up in the database: a NUL was a 500 (issue 16). 400 naming the filter:
    a page for the browser, a short message for htmx (the filters are sent by htmx)."""
    client.force_login(demo["organizer"])
    page = client.get(url(demo, f"?{field}=D%00"))
    assert refuses_nul(page, field)
    assert "<h1>Bad request</h1>" in page.content.decode()
    htmx = client.get(url(demo, f"?{field}=D%00"), HTTP_HX_REQUEST="true")
    assert refuses_nul(htmx, field)
    assert htmx["Content-Type"].startswith("text/plain")
    assert "<" not in htmx.content.decode()
