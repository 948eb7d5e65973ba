"""POST /assignments/<pk>/withdraw/: the work goes back; what was done stays."""

import pytest
from django.urls import reverse

from annotator.models import Assignment

pytestmark = pytest.mark.django_db


def test_withdrawing_twice_says_so(client, demo):
    client.force_login(demo["admin"])
    assignment = Assignment.objects.get(user=demo["annotator"])
    response = client.post(reverse("assignment-withdraw", args=[assignment.pk]), follow=True)
    assert (
        "Withdrew annotator&#x27;s assignment; the work done so far is kept."
        in response.content.decode()
    )
    assert Assignment.objects.get(pk=assignment.pk).status == "withdrawn"
    again = client.post(reverse("assignment-withdraw", args=[assignment.pk]), follow=True)
    assert "That assignment is already withdrawn." in again.content.decode()


def test_who_may_withdraw_as_the_api_says(client, demo):
    """Another annotator's assignment is 404 to an annotator (they may not see it, as in the API);
    their own is 403 (their role does not withdraw); an organizer sees both and gets 403."""
    own = Assignment.objects.get(user=demo["annotator"])
    others = Assignment.objects.get(user=demo["other_annotator"])
    expected = {
        ("annotator", own): 403,
        ("annotator", others): 404,
        ("organizer", own): 403,
        ("outsider", own): 404,
    }
    for (who, assignment), status in expected.items():
        client.force_login(demo[who])
        page = client.post(reverse("assignment-withdraw", args=[assignment.pk]))
        api = client.post(f"/api/assignments/{assignment.pk}/withdraw/")
        assert (page.status_code, api.status_code) == (status, status), (who, assignment.user)
    assert not Assignment.objects.filter(status="withdrawn").exists()
