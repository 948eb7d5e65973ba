"""GET /docsets/<pk>/compare/: two pyramids aligned, for adjudicators and administrators."""

import pytest
from django.urls import reverse

from annotator import editing
from annotator.models import Membership, Pyramid, Role

from .helpers import empty_pyramid

pytestmark = pytest.mark.django_db


@pytest.fixture
def second(demo):
    """A second pyramid of the demo docset: SCU 1 of the first, and an SCU of its own."""
    pyramid = empty_pyramid(demo, name="DEMO01-second", assign_to="annotator")
    model = pyramid.models_used.get(author="A")
    text = model.text
    editing.new_scu(pyramid.pk, demo["annotator"], 1, model.pk, [(0, text.index(" on the Moon"))])
    return Pyramid.objects.get(pk=pyramid.pk)


def url(demo, query=""):
    return reverse("pyramid-comparison", args=[demo["pyramid"].docset_id]) + query


def test_the_groups_agreement_and_peer_scores(client, demo, second):
    client.force_login(demo["admin"])
    page = client.get(url(demo, f"?a={demo['pyramid'].pk}&b={second.pk}")).content.decode()
    assert "<strong>Agreement</strong> (Krippendorff's alpha over the models' words): MASI " in page
    # B's only SCU is a part of A's SCU 1; A's ten other SCUs are A's alone.
    assert "1 one-to-one (0 identical) · 0 split by one annotator and merged by the other" in page
    assert "0 many-to-many · 10 only in A · 0 only in B" in page
    assert page.count('<tr class="group ') == demo["pyramid"].scus.count()
    assert '<span class="weight">1</span> <strong class="label">Apollo 11 landed</strong> <span class="muted">#1</span>' in page
    # The demo's peers are annotated against A only.
    assert page.count('<td class="num">—</td></tr>') == 3


def test_an_adjudicator_may_compare_an_annotator_may_not(client, demo, second):
    Membership.objects.create(collection=demo["collection"], user=demo["outsider"], role=Role.ADJUDICATOR)
    client.force_login(demo["outsider"])
    assert client.get(url(demo)).status_code == 200
    client.force_login(demo["annotator"])
    assert client.get(url(demo)).status_code == 403
    client.force_login(demo["organizer"])
    assert client.get(url(demo)).status_code == 403


def test_one_pyramid_is_not_enough(client, demo):
    client.force_login(demo["admin"])
    assert "fewer than two pyramids" in client.get(url(demo)).content.decode()


def test_the_pairs_agreement_is_kept_until_a_pyramid_changes(client, demo, second):
    from scoring.models import Report

    client.force_login(demo["admin"])
    query = f"?a={demo['pyramid'].pk}&b={second.pk}"
    first = client.get(url(demo, query)).content.decode()
    client.get(url(demo, query))
    assert Report.objects.filter(kind="pair-agreement").count() == 1
    model = second.models_used.get(author="B")
    editing.new_scu(second.pk, demo["annotator"], second.version, model.pk, [(0, 9)])
    changed = client.get(url(demo, query)).content.decode()
    assert Report.objects.filter(kind="pair-agreement").count() == 2
    assert first.split("MASI ")[1][:6] != changed.split("MASI ")[1][:6]  # the new SCU changed alpha
