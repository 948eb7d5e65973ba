import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_staff_see_every_collection_with_counts(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("home")).content.decode()
    assert "Demo: Apollo 11" in page and "DEMO01" in page
    assert reverse("pyramid-detail", args=[demo["pyramid"].pk]) in page
    assert '<td class="num">11</td>' in page and '<td class="num">3</td>' in page  # SCUs, peer annotations
    assert reverse("collection-scores", args=[demo["pyramid"].docset.collection.pk]) in page


def test_an_annotator_sees_only_assigned_work(client, demo):
    client.force_login(demo["annotator"])
    page = client.get(reverse("home")).content.decode()
    # Assigned one peer: they see it in their work, and its pyramid (needed to annotate); no scores.
    assert "Annotate peer 1 against DEMO01" in page and "peer 2" not in page
    assert '<a href="%s">DEMO01</a>' % reverse("pyramid-detail", args=[demo["pyramid"].pk]) in page
    assert reverse("collection-scores", args=[demo["pyramid"].docset.collection.pk]) not in page


def test_an_outsider_sees_nothing(client, demo):
    client.force_login(demo["outsider"])
    page = client.get(reverse("home")).content.decode()
    assert "Apollo" not in page and "An administrator will assign work to you" in page


def test_login_page_logs_in(client, demo):
    response = client.post(reverse("login"), {"username": "organizer", "password": "organizer-pass-1"})
    assert response.status_code == 302 and response.url == reverse("home")
    bad = client.post(reverse("login"), {"username": "organizer", "password": "wrong"})
    assert "didn't match" in bad.content.decode()
