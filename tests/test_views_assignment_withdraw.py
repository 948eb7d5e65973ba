"""POST /assignments/<pk>/withdraw/: the work goes back; what was done stays."""

import pytest
from django.urls import reverse

from annotator.models import Assignment

pytestmark = pytest.mark.django_db


def test_withdrawing_twice_says_so(client, demo):
    client.force_login(demo["admin"])
    assignment = Assignment.objects.get(user=demo["annotator"])
    response = client.post(reverse("assignment-withdraw", args=[assignment.pk]), follow=True)
    assert "Withdrew annotator&#x27;s assignment; the work done so far is kept." in response.content.decode()
    assert Assignment.objects.get(pk=assignment.pk).status == "withdrawn"
    again = client.post(reverse("assignment-withdraw", args=[assignment.pk]), follow=True)
    assert "That assignment is already withdrawn." in again.content.decode()
