"""POST /assignments/<pk>/reassign/: another annotator goes on from where the work stands."""

import pytest
from django.urls import reverse

from annotator.models import Assignment
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_reassigning_to_someone_else(client, demo):
    client.force_login(demo["admin"])
    assignment = Assignment.objects.get(user=demo["annotator"])
    response = client.post(
        reverse("assignment-reassign", args=[assignment.pk]), {"to": "outsider"}, follow=True
    )
    assert "Reassigned to outsider" in response.content.decode()
    assert Assignment.objects.get(user=demo["outsider"]).peer == assignment.peer


def test_an_unknown_user_is_reported(client, demo):
    client.force_login(demo["admin"])
    assignment = Assignment.objects.get(user=demo["annotator"])
    response = client.post(
        reverse("assignment-reassign", args=[assignment.pk]), {"to": "nobody"}, follow=True
    )
    assert "Choose who the work goes to" in response.content.decode()
    assert Assignment.objects.get(pk=assignment.pk).status == "assigned"


def test_a_nul_character_is_refused_as_bad_input_and_nothing_changes(client, demo):
    """The annotator is looked up by name: a NUL in it was a 500 (issue 16). 400 naming the
    field."""
    client.force_login(demo["admin"])
    assignment = Assignment.objects.get(user=demo["annotator"])
    response = client.post(
        reverse("assignment-reassign", args=[assignment.pk]), {"to": f"outsider{NUL}"}
    )
    assert refuses_nul(response, "to")
    assert list(
        Assignment.objects.values_list("user__username", "status").order_by("user__username")
    ) == [("annotator", "assigned"), ("other_annotator", "assigned")]


def test_who_may_reassign_as_the_api_says(client, demo):
    """Another annotator's assignment is 404 to an annotator, as in the API; their own is 403."""
    own = Assignment.objects.get(user=demo["annotator"])
    others = Assignment.objects.get(user=demo["other_annotator"])
    for assignment, status in [(own, 403), (others, 404)]:
        client.force_login(demo["annotator"])
        page = client.post(reverse("assignment-reassign", args=[assignment.pk]), {"to": "outsider"})
        api = client.post(
            f"/api/assignments/{assignment.pk}/reassign/",
            {"to": "outsider"},
            content_type="application/json",
        )
        assert (page.status_code, api.status_code) == (status, status), assignment.user
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()
