import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


@pytest.mark.parametrize("who", ["admin", "organizer"])
def test_readers_see_their_collections_with_links(client, demo, who):
    client.force_login(demo[who])
    page = client.get(reverse("home")).content.decode()
    collection = demo["collection"]
    assert f'<a href="{reverse("collection-detail", args=[collection.pk])}">Demo: Apollo 11</a>' in page
    assert reverse("collection-progress", args=[collection.pk]) in page
    assert reverse("collection-scores", args=[collection.pk]) in page
    assert "No work is assigned to you." in page


def test_an_annotator_sees_only_assigned_work(client, demo):
    client.force_login(demo["annotator"])
    page = client.get(reverse("home")).content.decode()
    # Assigned one peer: their dashboard lists it, with a button to start; no collection, no scores.
    assert "Annotate peer 1 against DEMO01" in page and "peer 2" not in page
    assert reverse("assignment-start", args=[demo["annotator"].assignments.get().pk]) in page
    assert "1 assigned · 0 started · 0 submitted" in page
    assert reverse("collection-scores", args=[demo["collection"].pk]) not in page


def test_an_outsider_sees_nothing(client, demo):
    client.force_login(demo["outsider"])
    page = client.get(reverse("home")).content.decode()
    assert "Apollo" not in page and "An administrator will assign work to you" in page


def test_login_page_logs_in(client, demo):
    response = client.post(reverse("login"), {"username": "organizer", "password": "organizer-pass-1"})
    assert response.status_code == 302 and response.url == reverse("home")
    bad = client.post(reverse("login"), {"username": "organizer", "password": "wrong"})
    assert "didn't match" in bad.content.decode()


def peers_numbered(demo, authors):
    """Peers of the demo docset with these authors, assigned to the demo annotator."""
    from annotator.models import Assignment, Summary

    docset = demo["pyramid"].docset
    for author in authors:
        peer, _ = Summary.objects.get_or_create(docset=docset, kind=Summary.Kind.PEER, author=author,
                                                defaults={"text": f"Peer {author} wrote this."})
        Assignment.objects.get_or_create(user=demo["annotator"], task="peer", pyramid=demo["pyramid"], peer=peer)


def test_peers_are_listed_by_number_not_as_text(client, demo):
    peers_numbered(demo, ["10", "2", "14", "A"])
    client.force_login(demo["annotator"])
    page = client.get(reverse("home")).content.decode()
    listed = [int(n) if n.isdigit() else n for n in __import__("re").findall(r"Annotate peer (\w+) against", page)]
    assert listed == [1, 2, 10, 14, "A"]
