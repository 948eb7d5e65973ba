"""POST /assignments/<pk>/start/: open the assigned peer's annotation (created the first time)."""

import pytest
from django.urls import reverse

from annotator.models import Assignment, PeerAnnotation, Pyramid
from annotator.peer_annotation import editing as peer_editing

pytestmark = pytest.mark.django_db


def start(client, assignment):
    return client.post(reverse("assignment-start", args=[assignment.pk]))


def test_the_home_page_lists_the_work_and_starting_creates_the_annotation(client, demo):
    assignment = Assignment.objects.get(user=demo["annotator"])
    client.force_login(demo["annotator"])
    assert "Annotate peer 1 against DEMO01" in client.get(reverse("home")).content.decode()
    response = start(client, assignment)
    annotation = PeerAnnotation.objects.get(annotator=demo["annotator"])
    assert response.status_code == 302
    assert response.url == reverse("annotation-detail", args=[annotation.pk])
    assert start(client, assignment).url == response.url  # the same annotation the second time
    assignment.refresh_from_db()
    assert assignment.status == Assignment.Status.IN_PROGRESS


def test_completing_offers_the_next_assigned_peer_and_closes_the_assignment(client, demo):
    first = Assignment.objects.get(user=demo["annotator"])
    second = Assignment.objects.create(
        user=demo["annotator"],
        task="peer",
        pyramid=demo["pyramid"],
        peer=demo["annotations"]["2"].peer,
    )
    client.force_login(demo["annotator"])
    start(client, first)
    annotation = PeerAnnotation.objects.get(annotator=demo["annotator"])
    text = annotation.peer.text
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, text.index(" in July"))], 1)
    response = client.post(
        reverse("annotation-edit", args=[annotation.pk, "complete"]), {"version": 2}
    )
    page = response.content.decode()
    assert "Next peer: 2" in page
    assert reverse("assignment-start", args=[second.pk]) in page
    first.refresh_from_db()
    assert first.status == Assignment.Status.DONE
    # The dashboard keeps it, done, after the work still to do.
    home = client.get(reverse("home")).content.decode()
    assert home.index("Annotate peer 2 against DEMO01") < home.index(
        "Annotate peer 1 against DEMO01"
    )
    assert (
        f'<td id="work-{first.pk}">Annotate peer 1 against DEMO01</td>\n      <td>Done</td>' in home
    )


def test_only_ones_own_assignments_and_only_against_a_submitted_pyramid(client, demo):
    assignment = Assignment.objects.get(user=demo["annotator"])
    client.force_login(demo["outsider"])
    assert start(client, assignment).status_code == 404
    assert client.get(reverse("assignment-start", args=[assignment.pk])).status_code == 405
    Pyramid.objects.filter(pk=demo["pyramid"].pk).update(status=Pyramid.Status.IN_PROGRESS)
    client.force_login(demo["annotator"])
    response = start(client, assignment)
    assert response.url == reverse("home")
    assert not PeerAnnotation.objects.filter(annotator=demo["annotator"]).exists()


def test_annotation_history(client, demo):
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    client.force_login(demo["annotator"])
    page = client.get(reverse("annotation-history", args=[annotation.pk])).content.decode()
    assert "Matched “Apollo 11” to SCU 1" in page
    assert "annotator" in page
    client.force_login(demo["outsider"])
    assert client.get(reverse("annotation-history", args=[annotation.pk])).status_code == 404


def test_the_next_peer_is_the_next_by_number(client, demo):
    from annotator.models import Summary

    docset = demo["pyramid"].docset
    for author in ["10", "2", "9"]:
        peer, _ = Summary.objects.get_or_create(
            docset=docset,
            kind=Summary.Kind.PEER,
            author=author,
            defaults={"text": f"Peer {author} wrote this."},
        )
        Assignment.objects.create(
            user=demo["annotator"], task="peer", pyramid=demo["pyramid"], peer=peer
        )
    client.force_login(demo["annotator"])
    start(client, Assignment.objects.get(user=demo["annotator"], peer__author="1"))
    annotation = PeerAnnotation.objects.get(annotator=demo["annotator"])
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    page = client.post(
        reverse("annotation-edit", args=[annotation.pk, "complete"]), {"version": 2}
    ).content.decode()
    assert "Next peer: 2" in page


def test_a_withdrawn_assignment_is_not_started(client, demo):
    assignment = Assignment.objects.get(user=demo["annotator"])
    Assignment.objects.filter(pk=assignment.pk).update(status=Assignment.Status.WITHDRAWN)
    client.force_login(demo["annotator"])
    assert start(client, assignment).status_code == 404
    assert not PeerAnnotation.objects.filter(annotator=demo["annotator"]).exists()


def test_a_done_assignment_opens_its_annotation_and_stays_done(client, demo):
    assignment = Assignment.objects.get(user=demo["annotator"])
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=assignment.peer, annotator=demo["annotator"]
    )
    Assignment.objects.filter(pk=assignment.pk).update(status=Assignment.Status.DONE)
    client.force_login(demo["annotator"])
    assert start(client, assignment).url == reverse("annotation-detail", args=[annotation.pk])
    assignment.refresh_from_db()
    assert assignment.status == Assignment.Status.DONE
