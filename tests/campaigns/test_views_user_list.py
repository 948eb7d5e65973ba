"""GET /users/: accounts with their roles, for site administrators."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_lists_accounts_with_their_roles(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("user-list")).content.decode()
    assert "<td>Administrators</td>" in page
    assert "organizer of Demo: Apollo 11" in page
    assert "annotator of Demo: Apollo 11" in page
