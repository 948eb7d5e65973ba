"""POST /assignments/<pk>/reassign/: another annotator goes on from where the work stands."""

import pytest
from django.urls import reverse

from annotator.models import Assignment

pytestmark = pytest.mark.django_db


def test_reassigning_to_someone_else(client, demo):
    client.force_login(demo["admin"])
    assignment = Assignment.objects.get(user=demo["annotator"])
    response = client.post(reverse("assignment-reassign", args=[assignment.pk]), {"to": "outsider"}, follow=True)
    assert "Reassigned to outsider" in response.content.decode()
    assert Assignment.objects.get(user=demo["outsider"]).peer == assignment.peer


def test_an_unknown_user_is_reported(client, demo):
    client.force_login(demo["admin"])
    assignment = Assignment.objects.get(user=demo["annotator"])
    response = client.post(reverse("assignment-reassign", args=[assignment.pk]), {"to": "nobody"}, follow=True)
    assert "Choose who the work goes to" in response.content.decode()
    assert Assignment.objects.get(pk=assignment.pk).status == "assigned"
