"""/api/, the API's entry page: what the API is, how to authenticate, links to its documentation
and schema, and every top-level endpoint (the scores included), as the OpenAPI schema has them."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_root_lists_every_top_level_endpoint_of_the_schema(client, demo):
    """The root listed the router's endpoints only: not /api/scores/. Now every first segment of the
    schema's paths, and nothing the schema lacks."""
    client.force_login(demo["admin"])
    root = client.get("/api/", HTTP_ACCEPT="application/json").json()
    schema = client.get("/api/schema/?format=json").json()
    top_level = {path.split("/")[2] for path in schema["paths"]}
    assert "scores" in top_level
    assert set(root) == top_level
    assert root["scores"] == "http://testserver/api/scores/"
    assert all(link == f"http://testserver/api/{key}/" for key, link in root.items()), root
    assert list(root).index("assignments") + 1 == list(root).index(
        "scores"
    )  # beside the records scored


def test_the_root_says_what_the_api_is_how_to_authenticate_and_where_the_documentation_is(
    client, demo
):
    client.force_login(demo["organizer"])
    page = client.get("/api/", HTTP_ACCEPT="text/html").content.decode()
    assert "The default basic root view" not in page
    assert "The REST API of the Pyramid annotator" in page
    assert "<code>Authorization: Token &lt;key&gt;</code>" in page
    assert "<code>python manage.py drf_create_token USER</code>" in page
    for url in ("/api/docs/", "/api/redoc/", "/api/schema/"):
        assert f'<a href="{url}">{url}</a>' in page
    assert 'href="http://testserver/api/scores/"' in page  # the scores among the endpoints


def test_the_description_is_the_schemas_and_programs_find_the_documentation(client, demo):
    client.force_login(demo["organizer"])
    schema = client.get("/api/schema/?format=json").json()
    options = client.options("/api/").json()
    assert options["name"] == "API Root"
    assert options["description"].startswith(schema["info"]["description"])
    assert "drf_create_token" in schema["info"]["description"]
    assert "/api/docs/ (Swagger UI" in options["description"]
    assert "/api/redoc/ (Redoc" in options["description"]
    assert "/api/schema/ (the OpenAPI 3 schema" in options["description"]
    answer = client.get("/api/", HTTP_ACCEPT="application/json")
    assert answer["Link"] == (
        '<http://testserver/api/schema/>; rel="service-desc", '
        '<http://testserver/api/docs/>; rel="service-doc"'
    )
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200


def test_a_visitor_not_logged_in_is_told_how_to_authenticate(client):
    """DRF's page shows no description with a 401: the root alone is open, the endpoints are not."""
    answer = client.get("/api/", HTTP_ACCEPT="text/html")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "drf_create_token" in page
    assert '<a href="/api/docs/">' in page
    assert (
        client.get("/api/", HTTP_ACCEPT="application/json").json()["scores"]
        == "http://testserver/api/scores/"
    )
    assert client.get("/api/scores/").status_code == 401
    assert client.get("/api/collections/").status_code == 401
    assert (
        client.get("/api/", HTTP_AUTHORIZATION="Token not-a-token").status_code == 401
    )  # a bad token is refused
