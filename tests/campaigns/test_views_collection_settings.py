"""GET/POST /collections/<pk>/settings/: the conventions every score of the collection follows."""

import pytest
from django.urls import reverse

from annotator.models import Collection
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_changing_the_rounding_changes_the_scores(client, demo):
    client.force_login(demo["admin"])
    collection = demo["collection"]
    response = client.post(
        reverse("collection-settings", args=[collection.pk]),
        {
            "name": collection.name,
            "weight_convention": "contributors",
            "average_rounding": "ceil",
        },
    )
    assert response.url == reverse("collection-detail", args=[collection.pk])
    collection.refresh_from_db()
    assert collection.average_rounding == "ceil"
    assert "Ceiling (SacreROUGE)" in client.get(response.url).content.decode()


def test_x_a_can_be_left_fractional(client, demo):
    client.force_login(demo["admin"])
    collection = demo["collection"]
    client.post(
        reverse("collection-settings", args=[collection.pk]),
        {
            "name": collection.name,
            "weight_convention": "contributors",
            "average_rounding": "fractional",
        },
    )
    collection.refresh_from_db()
    assert collection.average_rounding == "fractional"
    assert (
        "Not rounded (PyrEval v2)"
        in client.get(reverse("collection-detail", args=[collection.pk])).content.decode()
    )


def test_a_nul_character_is_refused_as_bad_input_and_nothing_is_stored(client, demo):
    """Issue 16: 400 naming the field; the settings stay as they were."""
    client.force_login(demo["admin"])
    collection = demo["collection"]
    fields = ["name", "description", "weight_convention", "average_rounding"]
    before = Collection.objects.values(*fields).get(pk=collection.pk)
    response = client.post(
        reverse("collection-settings", args=[collection.pk]),
        {
            "name": collection.name,
            "description": f"Changed{NUL}",
            "weight_convention": "models",
            "average_rounding": "ceil",
        },
    )
    assert refuses_nul(response, "description")
    assert Collection.objects.values(*fields).get(pk=collection.pk) == before
