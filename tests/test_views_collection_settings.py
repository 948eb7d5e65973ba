"""GET/POST /collections/<pk>/settings/: the conventions every score of the collection follows."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_changing_the_rounding_changes_the_scores(client, demo):
    client.force_login(demo["admin"])
    collection = demo["collection"]
    response = client.post(reverse("collection-settings", args=[collection.pk]), {
        "name": collection.name, "weight_convention": "contributors", "average_rounding": "ceil",
    })
    assert response.url == reverse("collection-detail", args=[collection.pk])
    collection.refresh_from_db()
    assert collection.average_rounding == "ceil"
    assert "Ceiling (SacreROUGE)" in client.get(response.url).content.decode()



def test_x_a_can_be_left_fractional(client, demo):
    client.force_login(demo["admin"])
    collection = demo["collection"]
    client.post(reverse("collection-settings", args=[collection.pk]), {
        "name": collection.name, "weight_convention": "contributors", "average_rounding": "fractional",
    })
    collection.refresh_from_db()
    assert collection.average_rounding == "fractional"
    assert "Not rounded (PyrEval v2)" in client.get(reverse("collection-detail", args=[collection.pk])).content.decode()
