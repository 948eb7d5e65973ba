"""GET /collections/<pk>/: the docsets with their counts; the administrator's actions."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_docsets_with_their_counts(client, demo, django_assert_max_num_queries):
    client.force_login(demo["organizer"])
    with django_assert_max_num_queries(14):
        page = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    # DEMO01: 4 models, 3 peers, 1 submitted pyramid, 3 peer annotations, 2 open assignments.
    assert ('<td class="num">4</td><td class="num">3</td>' in page and '<td class="num">1</td><td class="num">0</td>' in page)
    assert "Upload summaries" not in page  # organizers read


def test_administrators_get_the_actions(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    for name in ("docset-create", "summaries-upload", "ducview-import", "assign", "collection-members"):
        assert reverse(name, args=[demo["collection"].pk]) in page
