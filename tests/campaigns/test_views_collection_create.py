"""GET/POST /collections/new/: site administrators create collections."""

import pytest
from django.urls import reverse

from annotator.models import Collection
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_a_new_collection_with_its_conventions(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        reverse("collection-create"),
        {
            "name": "TAC 2008",
            "description": "Update task",
            "weight_convention": "models",
            "average_rounding": "floor",
        },
    )
    collection = Collection.objects.get(name="TAC 2008")
    assert response.url == reverse("collection-detail", args=[collection.pk])
    assert (collection.weight_convention, collection.average_rounding) == ("models", "floor")


def test_a_duplicate_name_is_refused(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        reverse("collection-create"),
        {
            "name": "Demo: Apollo 11",
            "weight_convention": "contributors",
            "average_rounding": "half_up",
        },
    )
    assert response.status_code == 200
    assert "Collection with this Name already exists." in response.content.decode()
    assert Collection.objects.count() == 1


@pytest.mark.parametrize("field", ["name", "description"])
def test_a_nul_character_is_refused_as_bad_input_and_nothing_is_stored(client, demo, field):
    """PostgreSQL text cannot hold a NUL (issue 16): 400, naming the field."""
    client.force_login(demo["admin"])
    values = {
        "name": "TAC 2008",
        "description": "Update task",
        "weight_convention": "models",
        "average_rounding": "floor",
    }
    values[field] += NUL
    response = client.post(reverse("collection-create"), values)
    assert refuses_nul(response, field)
    assert "<h1>Bad request</h1>" in response.content.decode()
    assert Collection.objects.count() == 1
