"""GET/POST /collections/<pk>/assign/: work for several annotators over several docsets."""

import pytest
from django.urls import reverse

from annotator.models import Assignment, Pyramid
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def url(demo):
    return reverse("assign", args=[demo["collection"].pk])


def test_pyramid_creation_for_two_annotators_gives_two_pyramids(client, demo):
    client.force_login(demo["admin"])
    docset = demo["pyramid"].docset
    response = client.post(
        url(demo),
        {
            "task": "pyramid",
            "docsets": [docset.pk],
            "mode": "every",
            "annotators": [demo["annotator"].pk, demo["other_annotator"].pk],
        },
    )
    assert response.url == reverse("collection-progress", args=[demo["collection"].pk])
    assert Pyramid.objects.filter(docset=docset, status="in_progress").count() == 2
    assert "2 assignments made." in client.get(response.url).content.decode()


def test_peers_round_robin_against_the_chosen_pyramid(client, demo):
    client.force_login(demo["admin"])
    docset = demo["pyramid"].docset
    client.post(
        url(demo),
        {
            "task": "peer",
            "docsets": [docset.pk],
            "mode": "round_robin",
            "pyramid": demo["pyramid"].pk,
            "annotators": [demo["organizer"].pk, demo["outsider"].pk],
        },
    )
    given = Assignment.objects.filter(user__in=[demo["organizer"], demo["outsider"]]).order_by(
        "peer__author"
    )
    assert [(a.peer.author, a.user.username) for a in given] == [
        ("1", "organizer"),
        ("2", "outsider"),
        ("3", "organizer"),
    ]


def test_a_pyramid_of_another_docset_is_refused(client, demo):
    from annotator.models import Docset

    client.force_login(demo["admin"])
    other = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    response = client.post(
        url(demo),
        {
            "task": "peer",
            "docsets": [other.pk],
            "mode": "every",
            "pyramid": demo["pyramid"].pk,
            "annotators": [demo["outsider"].pk],
        },
    )
    assert "Pyramid DEMO01 is for docset DEMO01 only" in response.content.decode()
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()


def test_a_docset_without_a_submitted_pyramid_is_reported(client, demo):
    client.force_login(demo["admin"])
    Pyramid.objects.update(status="in_progress")
    response = client.post(
        url(demo),
        {
            "task": "peer",
            "docsets": [demo["pyramid"].docset_id],
            "mode": "every",
            "annotators": [demo["outsider"].pk],
        },
        follow=True,
    )
    assert (
        "Docset DEMO01 has no submitted pyramid to annotate against." in response.content.decode()
    )


def test_a_nul_character_is_refused_as_bad_input_and_nothing_is_assigned(client, demo):
    """Issue 16: 400 naming the field."""
    client.force_login(demo["admin"])
    before = Assignment.objects.count()
    response = client.post(
        url(demo),
        {
            "task": "pyramid",
            "docsets": [demo["pyramid"].docset_id],
            "mode": f"every{NUL}",
            "annotators": [demo["annotator"].pk],
        },
    )
    assert refuses_nul(response, "mode")
    assert Assignment.objects.count() == before


def test_a_pyramid_still_being_edited_cannot_be_chosen(client, demo):
    client.force_login(demo["admin"])
    Pyramid.objects.filter(pk=demo["pyramid"].pk).update(status="in_progress")
    response = client.post(
        url(demo),
        {
            "task": "peer",
            "docsets": [demo["pyramid"].docset_id],
            "mode": "every",
            "pyramid": demo["pyramid"].pk,
            "annotators": [demo["outsider"].pk],
        },
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()


def test_a_chosen_pyramid_with_another_docset_is_refused(client, demo):
    from annotator.models import Docset

    client.force_login(demo["admin"])
    other = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    response = client.post(
        url(demo),
        {
            "task": "peer",
            "docsets": [demo["pyramid"].docset_id, other.pk],
            "mode": "every",
            "pyramid": demo["pyramid"].pk,
            "annotators": [demo["outsider"].pk],
        },
    )
    assert "Pyramid DEMO01 is for docset DEMO01 only" in response.content.decode()
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()
