"""GET/POST /collections/<pk>/docsets/new/."""

import pytest
from django.urls import reverse

from annotator.models import Docset
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_a_docset_is_created_once(client, demo):
    client.force_login(demo["admin"])
    url = reverse("docset-create", args=[demo["collection"].pk])
    response = client.post(url, {"name": "D0602", "title": "Second topic"})
    docset = Docset.objects.get(name="D0602")
    assert response.url == reverse("docset-detail", args=[docset.pk])
    assert docset.collection == demo["collection"]
    again = client.post(url, {"name": "D0602"})
    assert "Demo: Apollo 11 already has a docset D0602." in again.content.decode()


@pytest.mark.parametrize("field", ["name", "title"])
def test_a_nul_character_is_refused_as_bad_input_and_nothing_is_stored(client, demo, field):
    """Issue 16: 400 naming the field, no docset."""
    client.force_login(demo["admin"])
    values = {"name": "D0602", "title": "Second topic"}
    values[field] += NUL
    response = client.post(reverse("docset-create", args=[demo["collection"].pk]), values)
    assert refuses_nul(response, field)
    assert not Docset.objects.filter(name__startswith="D0602").exists()
