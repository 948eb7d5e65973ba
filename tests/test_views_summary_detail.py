"""GET /summaries/<pk>/: a summary's text."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_shows_the_text(client, demo):
    client.force_login(demo["organizer"])
    peer = demo["annotations"]["1"].peer
    page = client.get(reverse("summary-detail", args=[peer.pk])).content.decode()
    assert "Peer summary by 1" in page and peer.text.split("\n")[0] in page
