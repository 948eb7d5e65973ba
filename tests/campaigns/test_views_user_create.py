"""GET/POST /users/new/: a new account, with a site-wide role if any."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from annotator.campaigns.access import is_site_administrator, reads_everything
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_a_new_organizer_of_everything(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        reverse("user-create"),
        {
            "username": "reviewer",
            "email": "r@example.org",
            "password1": "a-long-pass-phrase-1",
            "password2": "a-long-pass-phrase-1",
            "site_role": "Organizers",
        },
    )
    assert response.url == reverse("user-list")
    user = get_user_model().objects.get(username="reviewer")
    assert reads_everything(user)
    assert not is_site_administrator(user)
    assert not user.is_staff


def test_weak_passwords_are_refused(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        reverse("user-create"),
        {"username": "weak", "password1": "12345678", "password2": "12345678"},
    )
    assert "This password is too common." in response.content.decode()
    assert not get_user_model().objects.filter(username="weak").exists()


@pytest.mark.parametrize("field", ["username", "first_name", "password1"])
def test_a_nul_character_is_refused_as_bad_input_and_nothing_is_stored(client, demo, field):
    """Issue 16: 400 naming the field, no account."""
    client.force_login(demo["admin"])
    before = get_user_model().objects.count()
    values = {
        "username": "reviewer",
        "first_name": "Rev",
        "password1": "a-long-pass-phrase-1",
        "password2": "a-long-pass-phrase-1",
    }
    values[field] += NUL
    response = client.post(reverse("user-create"), values)
    assert refuses_nul(response, field)
    assert get_user_model().objects.count() == before


def test_the_trail_leads_back_to_the_accounts(client, demo):
    """Issue 17: the New account page's trail led to Collections."""
    client.force_login(demo["admin"])
    page = client.get(reverse("user-create")).content.decode()
    trail = (
        '<nav class="crumbs" aria-label="Breadcrumb">'
        f'<a href="{reverse("user-list")}">Accounts</a></nav>'
    )
    assert trail in page
    assert f'href="{reverse("collection-list")}">Collections</a></nav>' not in page
