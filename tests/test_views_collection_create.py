"""GET/POST /collections/new/: site administrators create collections."""

import pytest
from django.urls import reverse

from annotator.models import Collection

pytestmark = pytest.mark.django_db


def test_a_new_collection_with_its_conventions(client, demo):
    client.force_login(demo["admin"])
    response = client.post(reverse("collection-create"), {
        "name": "TAC 2008", "description": "Update task", "weight_convention": "models", "average_rounding": "floor",
    })
    collection = Collection.objects.get(name="TAC 2008")
    assert response.url == reverse("collection-detail", args=[collection.pk])
    assert (collection.weight_convention, collection.average_rounding) == ("models", "floor")


def test_a_duplicate_name_is_refused(client, demo):
    client.force_login(demo["admin"])
    response = client.post(reverse("collection-create"), {
        "name": "Demo: Apollo 11", "weight_convention": "contributors", "average_rounding": "half_up",
    })
    assert response.status_code == 200 and "Collection with this Name already exists." in response.content.decode()
    assert Collection.objects.count() == 1
