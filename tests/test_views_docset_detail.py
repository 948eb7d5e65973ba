"""GET /docsets/<pk>/: a docset's summaries, pyramids and peer annotations."""

import pytest
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
