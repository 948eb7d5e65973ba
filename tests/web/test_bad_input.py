"""annotator.web.bad_input: a NUL character in a query string or a form is bad input (400), never a
server error (issue 16). PostgreSQL text cannot hold one, so it is refused at the door, before a
view looks anything up or stores anything; the page, htmx or the API each get the refusal in the
form they show. The views' own tests check each page and API list; this one the guard itself."""

import pytest
from django.urls import reverse

from annotator.models import Collection
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_a_page_answers_with_the_bad_request_page(client, demo):
    client.force_login(demo["admin"])
    response = client.get(reverse("collection-list"), {"q": f"a{NUL}b"})
    page = response.content.decode()
    assert refuses_nul(response, "q")
    assert response["Content-Type"].startswith("text/html")
    assert "<h1>Bad request</h1>" in page
    assert f'href="{reverse("home")}"' in page


def test_a_name_holding_a_nul_is_named_visibly(client, demo):
    client.force_login(demo["admin"])
    assert refuses_nul(client.get(reverse("collection-list") + "?a%00b=1"), "a\\0b")


def test_htmx_gets_a_short_message_in_plain_text(client, demo):
    client.force_login(demo["admin"])
    response = client.get(reverse("collection-list"), {"q": NUL}, HTTP_HX_REQUEST="true")
    assert refuses_nul(response, "q")
    assert response["Content-Type"].startswith("text/plain")
    assert response.content.decode() == (
        "The query parameter “q” holds a NUL character (\\0), which no text may hold: remove it "
        "and try again."
    )


def test_the_api_gets_json_naming_the_parameter(client, demo):
    client.force_login(demo["admin"])
    response = client.get("/api/collections/", {"name": f"TAC{NUL}2008"})
    assert refuses_nul(response, "name")
    assert response.json() == {
        "name": [
            "The query parameter “name” holds a NUL character (\\0), which no text may hold: "
            "remove it and try again."
        ]
    }


def test_the_apis_bodies_are_left_to_its_serializers(client, demo):
    """A form posted to the API is the API's to read (its parsers), as JSON is: DRF's text fields
    refuse a NUL, naming the field."""
    client.force_login(demo["admin"])
    response = client.post("/api/collections/", {"name": f"TAC{NUL}2008"})  # a form, not JSON
    assert response.status_code == 400
    assert response.json() == {"name": ["Null characters are not allowed."]}
    assert Collection.objects.count() == 1


def test_before_anything_else_even_for_anonymous_visitors(client, demo):
    """Nothing is looked up with it: not the session's user, not the page's records."""
    response = client.post(
        reverse("login"), {"username": f"admin{NUL}", "password": "admin-pass-1"}
    )
    assert refuses_nul(response, "username")


def test_ordinary_input_passes(client, demo):
    client.force_login(demo["admin"])
    assert client.get(reverse("collection-list"), {"q": "D0601 \t é"}).status_code == 200
