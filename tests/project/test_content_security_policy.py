"""The Content-Security-Policy header (django-csp) on every answer: pages, the API, the error pages.

A strict policy: scripts and styles from our own origin only, no inline script or style, no
eval, no framing, forms posting only to us. Pages are checked in Chromium by
tests/project/test_browser_content_security_policy.py."""

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def assert_strict(response):
    directives = policy(response)
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"]
    assert directives["form-action"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert set(directives["img-src"]) <= {"'self'", "data:"}
    for values in directives.values():
        assert not {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*"} & set(values)


def test_pages_anonymous_and_signed_in(client, demo):
    assert_strict(client.get(reverse("login")))
    assert_strict(client.get(reverse("password_reset")))
    client.force_login(demo["admin"])
    for url in (
        reverse("home"),
        reverse("collection-list"),
        reverse("pyramid-detail", args=[demo["pyramid"].pk]),
        reverse("collection-scores", args=[demo["collection"].pk]),
        reverse("admin:index"),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_strict(response)


def test_the_api(client, demo):
    client.force_login(demo["admin"])
    assert_strict(client.get("/api/collections/", HTTP_ACCEPT="application/json"))
    assert_strict(client.get("/api/schema/"))
    assert_strict(Client().get("/api/collections/"))  # 401


def test_the_browsable_api_allows_inline_styles_only(client, demo):
    # DRF's templates write style attributes and a <style> block; their scripts are static files.
    client.force_login(demo["admin"])
    response = client.get("/api/collections/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    directives = policy(response)
    assert directives["style-src"] == ["'self'", "'unsafe-inline'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]


def test_the_error_pages(client, demo):
    client.force_login(demo["annotator"])
    not_found = client.get(reverse("pyramid-detail", args=[10**9]))
    assert not_found.status_code == 404
    assert_strict(not_found)
    forbidden = client.get(demo["scores_url"])
    assert forbidden.status_code == 403
    assert_strict(forbidden)


def test_a_server_error(demo, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("annotator.campaigns.views.home.work_rows", broken)
    client = Client(raise_request_exception=False)
    client.force_login(demo["annotator"])
    response = client.get(reverse("home"))
    assert response.status_code == 500
    assert_strict(response)
    assert "style=" not in response.content.decode()


def test_the_lockout_page(client, demo, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("login"), {"username": "organizer", "password": "wrong"})
    assert response.status_code == 429
    assert_strict(response)


def test_the_api_documentation_is_strict_for_scripts(client, demo):
    client.force_login(demo["organizer"])
    # Swagger UI: its start-up script is a file of its own (?script), so no inline script is needed.
    docs = client.get(reverse("api-docs"))
    assert docs.status_code == 200
    assert_strict(docs)
    page = docs.content.decode()
    assert "<style" not in page
    assert "<script>" not in page
    assert "fonts.googleapis.com" not in page
    script = client.get(reverse("api-docs") + "?script=")
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()
    # Redoc writes its styles into <style> elements as it runs (styled-components, no nonce
    # possible): that page alone allows inline styles. Its scripts stay our own files.
    redoc = client.get(reverse("api-redoc"))
    assert redoc.status_code == 200
    directives = policy(redoc)
    assert directives["script-src"] == ["'self'"]
    assert "'unsafe-inline'" in directives["style-src"]
    page = redoc.content.decode()
    assert "<style" not in page
    assert "<script>" not in page
    assert "fonts.googleapis.com" not in page


def test_no_inline_styles_or_scripts_in_templates():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for template in [*root.glob("templates/**/*.html"), *root.glob("*/templates/**/*.html")]:
        text = re.sub(
            r"\{#.*?#\}", "", template.read_text()
        )  # what the page sends: not the comments
        for needle in (
            "style=",
            "<style",
            " onclick=",
            " onchange=",
            " onsubmit=",
            " onload=",
            "<script>",
            "javascript:",
        ):
            assert needle not in text, f"{needle} in {template.relative_to(root)}"
