"""CSRF protection on every form, htmx request and session-authenticated API call."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def strict(demo):
    client = Client(enforce_csrf_checks=True)
    client.force_login(demo["admin"])
    return client


def test_a_form_post_without_the_token_is_refused(strict, demo):
    assert strict.post(reverse("collection-create"), {"name": "X"}).status_code == 403
    assert (
        strict.post(
            reverse("pyramid-edit", args=[demo["pyramid"].pk, "reopen"]), {"version": 1}
        ).status_code
        == 403
    )


def test_an_htmx_request_carries_the_token_in_its_header(strict, demo):
    page = strict.get(reverse("home")).content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in page  # every htmx request sends it
    token = strict.cookies["csrftoken"].value
    response = strict.post(
        reverse("pyramid-edit", args=[demo["pyramid"].pk, "reopen"]),
        {"version": demo["pyramid"].version},
        HTTP_X_CSRFTOKEN=token,
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200


def test_the_api_with_a_session_needs_the_token_and_with_a_token_does_not(strict, demo):
    from rest_framework.authtoken.models import Token

    assert (
        strict.post("/api/collections/", {"name": "X"}, content_type="application/json").status_code
        == 403
    )
    key = Token.objects.create(user=demo["admin"]).key
    token_client = Client(enforce_csrf_checks=True)
    response = token_client.post(
        "/api/collections/",
        {"name": "X"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )
    assert response.status_code == 201
