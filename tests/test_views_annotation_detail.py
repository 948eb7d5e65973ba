import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def url(annotation):
    return reverse("annotation-detail", args=[annotation.pk])


def test_shows_the_peer_its_pses_and_scores(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo["annotations"]["2"])).content.decode()
    assert '<mark data-start="0" data-scus="0" class="zero" title="SCU 0">The Apollo program was run by NASA</mark>' in page
    assert 'Matches nothing in the pyramid</i> <span class="count">×2</span>' in page
    assert "<td>0.3158</td>" in page and "<td>0.4286</td>" in page  # modified, original
    assert "2 / 0 / 2" in page  # SCUs expressed / repetitions / non-matching


def test_the_assigned_annotator_sees_their_peer_only(client, demo):
    client.force_login(demo["annotator"])
    assert client.get(url(demo["annotations"]["1"])).status_code == 200
    assert client.get(url(demo["annotations"]["2"])).status_code == 404


def test_outsiders_get_404_and_anonymous_users_log_in(client, demo):
    client.force_login(demo["outsider"])
    assert client.get(url(demo["annotations"]["1"])).status_code == 404
    client.logout()
    assert client.get(url(demo["annotations"]["1"])).status_code == 302
