"""GET/POST /collections/<pk>/docsets/new/."""

import pytest
from django.urls import reverse

from annotator.models import Docset

pytestmark = pytest.mark.django_db


def test_a_docset_is_created_once(client, demo):
    client.force_login(demo["admin"])
    url = reverse("docset-create", args=[demo["collection"].pk])
    response = client.post(url, {"name": "D0602", "title": "Second topic"})
    docset = Docset.objects.get(name="D0602")
    assert response.url == reverse("docset-detail", args=[docset.pk]) and docset.collection == demo["collection"]
    again = client.post(url, {"name": "D0602"})
    assert "Demo: Apollo 11 already has a docset D0602." in again.content.decode()
