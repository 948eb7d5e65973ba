"""In real Chromium, offline: the API documentation pages, Swagger UI (/api/docs/) and Redoc
(/api/redoc/), ask no other site for anything (issue 17). Every request to another site is blocked;
each page must render its operations with no request failed or blocked, no answer an error and no
error in the console.

The site is opened under a name that is not localhost, as in production (Chromium resolves it to
the live server): Swagger UI, for one, would fetch its validator badge from validator.swagger.io on
any other host only, were it shown."""

from urllib.request import urlopen

import pytest
from django.db import connections

from tests.conftest import BROWSER_TEST, CHROMIUM, CHROMIUM_ARGS
from tests.human import VIEWPORTS, click, press, type_text

pytestmark = BROWSER_TEST

HOST = "pyramid.example"


@pytest.fixture
def offline(live_server, settings, playwright_session):
    """A Chromium page that reaches the live server as http://pyramid.example:<port> and nothing
    else, and what it saw: requests blocked or failed, error answers, console errors."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]
    port = live_server.url.rsplit(":", 1)[1]
    origin = f"http://{HOST}:{port}"
    seen = {"blocked": [], "failed": [], "errors": [], "console": [], "fonts": []}
    # A Chromium of its own (the session's has no host rules), in the session's Playwright.
    browser = playwright_session.chromium.launch(
        executable_path=str(CHROMIUM),
        args=[
            *CHROMIUM_ARGS,
            f"--host-resolver-rules=MAP {HOST} 127.0.0.1",
            # As under HTTPS (else Chromium logs that it ignores the Cross-Origin-Opener-Policy
            # header).
            f"--unsafely-treat-insecure-origin-as-secure={origin}",
        ],
    )
    context = browser.new_context(viewport=VIEWPORTS["laptop"])

    def only_the_site(route):
        if route.request.url.startswith(origin + "/"):
            route.continue_()
        else:
            seen["blocked"].append(route.request.url)
            route.abort("blockedbyclient")

    context.route("**/*", only_the_site)
    page = context.new_page()
    page.on(
        "requestfailed",
        lambda request: seen["failed"].append(f"{request.url}: {request.failure}"),
    )
    page.on(
        "response",
        lambda response: (
            seen["errors"].append(f"{response.status} {response.url}")
            if response.status >= 400
            else None
        ),
    )
    page.on(
        "console",
        lambda message: seen["console"].append(message.text) if message.type == "error" else None,
    )
    page.on(
        "response",
        lambda response: (
            seen["fonts"].append(response.url) if response.request.resource_type == "font" else None
        ),
    )
    yield page, origin, seen
    browser.close()
    connections.close_all()


def log_in(page, origin):
    page.goto(origin + "/")
    click(page, "#id_username")
    type_text(page, "organizer")
    press(page, "Tab")
    type_text(page, "organizer-pass-1")
    press(page, "Enter")
    page.locator("h1", has_text="Your work").wait_for()
    page.wait_for_load_state("networkidle")  # the home page's icon is in before we go on


def assert_clean(page, seen, where):
    page.wait_for_load_state("networkidle")
    problems = {key: seen[key] for key in ("blocked", "failed", "errors", "console") if seen[key]}
    assert not problems, f"{where}: {problems}"


def assert_icon(page, origin, live_server):
    """The icons the page names are the site's own, and they load (Chromium's own request for the
    one it shows is among those that must not fail)."""
    hrefs = page.eval_on_selector_all("link[rel=icon]", "(links) => links.map((link) => link.href)")
    assert hrefs
    assert all(href.startswith(origin + "/static/favicon.") for href in hrefs), hrefs
    for href in hrefs:
        with urlopen(href.replace(origin, live_server.url)) as response:
            assert response.status == 200, href
            assert response.headers["Content-Type"].startswith("image/"), href


def test_the_api_documentation_works_offline(offline, live_server, demo):
    page, origin, seen = offline
    log_in(page, origin)

    page.goto(origin + "/api/docs/")
    page.locator(
        ".opblock-summary-path", has_text="/api/collections/"
    ).first.wait_for()  # operations listed
    assert page.locator(".swagger-ui .info .title", has_text="Pyramid annotator API").is_visible()
    assert_clean(page, seen, "Swagger UI")
    assert page.locator(".swagger-ui img[src*='validator']").count() == 0
    assert_icon(page, origin, live_server)

    page.goto(origin + "/api/redoc/")
    page.locator("h1", has_text="Pyramid annotator API").wait_for()
    operation = page.locator("h2", has_text="archive_jobs_list")
    operation.wait_for()
    assert operation.is_visible()  # the operations are described
    assert (
        page.locator("a", has_text="API docs by Redocly").count() == 1
    )  # the credit stays, without its logo
    assert_clean(page, seen, "Redoc")
    assert_icon(page, origin, live_server)
    # The fonts Redoc's theme names came from us, and are the ones the page shows.
    assert seen["fonts"]
    assert all(url.startswith(origin + "/static/vendor/fontsource/") for url in seen["fonts"])
    families = page.evaluate(
        """() => [...document.fonts].filter((f) => f.status === "loaded").map((f) => f.family)"""
    )
    assert {"Montserrat", "Roboto"} <= {family.strip("'\"") for family in families}, families
