"""/collections/<pk>/members/: add members with a role; removing an annotator withdraws their
work."""

import pytest
from django.urls import reverse

from annotator.models import Assignment, Membership
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_adding_a_member(client, demo):
    client.force_login(demo["admin"])
    url = reverse("collection-members", args=[demo["collection"].pk])
    response = client.post(url, {"user": "outsider", "role": "organizer"})
    assert response.url == url
    assert Membership.objects.filter(user=demo["outsider"], role="organizer").exists()
    again = client.post(url, {"user": "outsider", "role": "organizer"})
    assert "outsider is already organizer of Demo: Apollo 11." in again.content.decode()


def test_removing_an_annotator_withdraws_their_assignments_and_keeps_their_work(client, demo):
    client.force_login(demo["admin"])
    membership = Membership.objects.get(user=demo["annotator"], role="annotator")
    client.post(reverse("member-remove", args=[demo["collection"].pk, membership.pk]))
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert list(
        Assignment.objects.filter(user=demo["annotator"]).values_list("status", flat=True)
    ) == ["withdrawn"]


@pytest.mark.parametrize("field", ["user", "role"])
def test_a_nul_character_is_refused_as_bad_input_and_nothing_is_stored(client, demo, field):
    """The user is looked up by name: a NUL in it was a 500 (issue 16). 400 naming the field."""
    client.force_login(demo["admin"])
    before = Membership.objects.count()
    values = {"user": "outsider", "role": "organizer"}
    values[field] += NUL
    response = client.post(reverse("collection-members", args=[demo["collection"].pk]), values)
    assert refuses_nul(response, field)
    assert Membership.objects.count() == before
