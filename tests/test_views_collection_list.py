"""GET /collections/: the collections a user may see, with their role in each."""

import pytest
from django.urls import reverse

from annotator.models import Collection

pytestmark = pytest.mark.django_db


def test_each_role_sees_its_collections(client, demo):
    Collection.objects.create(name="Elsewhere")
    client.force_login(demo["admin"])
    page = client.get(reverse("collection-list")).content.decode()
    assert "Elsewhere" in page and "Demo: Apollo 11" in page and "New collection" in page
    client.force_login(demo["organizer"])
    page = client.get(reverse("collection-list")).content.decode()
    assert "Elsewhere" not in page and "<td>Organizer</td>" in page and "New collection" not in page
    client.force_login(demo["annotator"])
    page = client.get(reverse("collection-list")).content.decode()
    assert "<td>Annotator</td>" in page and reverse("collection-detail", args=[demo["collection"].pk]) not in page
    client.force_login(demo["outsider"])
    assert "No collection is shared with you yet." in client.get(reverse("collection-list")).content.decode()
