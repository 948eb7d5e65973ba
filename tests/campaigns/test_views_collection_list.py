"""GET /collections/: the collections a user may see, with their role in each."""

import pytest
from django.urls import reverse

from annotator.models import Collection

pytestmark = pytest.mark.django_db


def test_each_role_sees_its_collections(client, demo):
    Collection.objects.create(name="Elsewhere")
    client.force_login(demo["admin"])
    page = client.get(reverse("collection-list")).content.decode()
    assert "Elsewhere" in page
    assert "Demo: Apollo 11" in page
    assert "New collection" in page
    client.force_login(demo["organizer"])
    page = client.get(reverse("collection-list")).content.decode()
    assert "Elsewhere" not in page
    assert "<td>Organizer</td>" in page
    assert "New collection" not in page
    client.force_login(demo["annotator"])
    page = client.get(reverse("collection-list")).content.decode()
    assert "<td>Annotator</td>" in page
    assert reverse("collection-detail", args=[demo["collection"].pk]) not in page
    client.force_login(demo["outsider"])
    assert (
        "No collection is shared with you yet."
        in client.get(reverse("collection-list")).content.decode()
    )


def test_an_adjudicator_is_shown_as_adjudicator(client, demo, django_user_model):
    """Issue 15: the role shown is the membership's, not "Organizer" for every reader."""
    from annotator.models import Membership, Role

    adjudicator = django_user_model.objects.create_user("adjudicator")
    Membership.objects.create(
        collection=demo["collection"], user=adjudicator, role=Role.ADJUDICATOR
    )
    client.force_login(adjudicator)
    page = client.get(reverse("collection-list")).content.decode()
    assert "<td>Adjudicator</td>" in page
    assert "<td>Organizer</td>" not in page
    assert reverse("collection-detail", args=[demo["collection"].pk]) in page
    # Administrator of one collection and adjudicator of it too: the higher role.
    Membership.objects.create(
        collection=demo["collection"], user=adjudicator, role=Role.ADMINISTRATOR
    )
    assert "<td>Administrator</td>" in client.get(reverse("collection-list")).content.decode()


def test_readers_get_the_reports_link_the_home_page_has(client, demo):
    """Issue 17: the list had Progress and Scores but not Reports; it is the readers' (organizers,
    adjudicators, administrators), not an annotator's (the reports answer them 403)."""
    collection = demo["collection"]
    reports = f'<a href="{reverse("collection-reports", args=[collection.pk])}">Reports</a>'
    for user in ("admin", "organizer"):
        client.force_login(demo[user])
        assert reports in client.get(reverse("collection-list")).content.decode(), user
        assert reports in client.get(reverse("home")).content.decode(), user  # as on the home page
    client.force_login(demo["annotator"])
    assert (
        reverse("collection-reports", args=[collection.pk])
        not in client.get(reverse("collection-list")).content.decode()
    )
    assert client.get(reverse("collection-reports", args=[collection.pk])).status_code == 403
