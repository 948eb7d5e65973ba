"""In real Chromium: the pages run under the Content-Security-Policy with no violation reported —
the builder (with an htmx edit stored), the peer annotation page, the home page, the login page, the
score table (its filters submit by a script of ours), the Django admin and the API documentation."""

import pytest

from annotator.models import SCU, PeerAnnotation
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import empty_pyramid
from tests.human import click, drag_select, eventually, press, type_text

pytestmark = BROWSER_TEST

# Chromium reports a refused script, style, image, frame, form target … both as a
# `securitypolicyviolation` event in the page and as a console error ("Refused to …").
LISTEN = """document.addEventListener("securitypolicyviolation", (e) => {
  (window.__violations = window.__violations || []).push(
    `${e.effectiveDirective} refused ${e.blockedURI || "inline"} at ` +
    `${e.sourceFile}:${e.lineNumber}`);
});"""


class Violations:
    def __init__(self, page):
        self.page = page
        self.console = []
        page.add_init_script(LISTEN)  # before any script of the page, on every page
        page.on(
            "console",
            lambda message: (
                self.console.append(message.text)
                if message.type == "error" and "Content Security Policy" in message.text
                else None
            ),
        )

    def assert_none(self, where: str):
        found = self.page.evaluate("() => window.__violations || []") + self.console
        assert not found, f"{where}: {found}"
        self.console.clear()


def visit(page, url, violations, where, ready="main"):
    response = page.goto(url)
    assert response.status == 200, f"{where}: {response.status}"
    assert "script-src 'self'" in response.headers["content-security-policy"], (
        where
    )  # under the policy
    page.locator(ready).first.wait_for()
    page.wait_for_load_state("networkidle")
    violations.assert_none(where)


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_pages_run_under_the_policy(browser_page, live_server, demo):
    page = browser_page
    violations = Violations(page)
    visit(page, live_server.url + "/accounts/login/", violations, "login page")
    visit(page, live_server.url + "/accounts/password_reset/", violations, "password reset")

    # The builder: an htmx edit (a new SCU) is sent, answered, swapped in and stored.
    pyramid = empty_pyramid(demo, name="CSP-B")
    log_in(page, live_server, "outsider", "outsider-pass-1")
    violations.assert_none("home page")
    visit(
        page, live_server.url + f"/pyramids/{pyramid.pk}/", violations, "builder", ready="#models"
    )
    drag_select(page, "A", "Apollo 11 landed on the Moon")
    press(page, "n")
    page.locator("#status", has_text="New SCU 1").wait_for()
    assert eventually(
        lambda: SCU.objects.filter(pyramid=pyramid, label="Apollo 11 landed on the Moon").exists()
    )
    violations.assert_none("builder after an edit")
    visit(page, live_server.url + "/", violations, "home page with work")

    # The peer annotation page: a match by a click on an SCU is stored.
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    page.context.clear_cookies()
    log_in(page, live_server, "annotator", "annotator-pass-1")
    visit(
        page, live_server.url + f"/annotations/{annotation.pk}/", violations, "peer annotation page"
    )
    drag_select(page, "peer", "Michael Collins remained in orbit")
    page.locator("#suggestions button").first.wait_for()
    click(page, page.locator("#suggestions button").first)
    assert eventually(lambda: annotation.pses.exists())
    violations.assert_none("peer annotation page after a match")
    # A mouse selection leaves style="" on the text box; the swap after "/", a label and Enter (and
    # after an undo) must not carry it onto the new one (htmx's attributesToSettle).
    drag_select(page, "peer", "Buzz Aldrin followed him")
    press(page, "/")
    type_text(page, "Aldrin also")
    press(page, "Enter")
    page.locator("#status", has_text="to SCU").wait_for()  # the answer is in, as a person sees it
    assert eventually(lambda: annotation.pses.count() == 2)
    violations.assert_none("peer annotation page after / and Enter")
    press(page, "Control+z")
    page.locator("#status", has_text="Undid").wait_for()
    assert eventually(lambda: annotation.pses.count() == 1)
    violations.assert_none("peer annotation page after an undo")

    # The organizers' score table: its filters submit the form through static/js (no onchange="").
    page.context.clear_cookies()
    log_in(page, live_server, "admin", "admin-pass-1")
    visit(page, live_server.url + demo["scores_url"], violations, "scores")
    page.select_option("select[name=view]", "systems")
    page.wait_for_url("**view=systems**")
    violations.assert_none("scores by system")
    visit(page, live_server.url + "/admin/annotator/pyramid/", violations, "Django admin")
    visit(
        page,
        live_server.url + f"/admin/auth/user/{demo['annotator'].pk}/change/",
        violations,
        "Django admin form",
    )

    # The API documentation, from our own static files.
    visit(page, live_server.url + "/api/docs/", violations, "Swagger UI", ready=".swagger-ui .info")
    page.locator(
        ".opblock-summary-path", has_text="/api/collections/"
    ).first.wait_for()  # the operations are listed
    # Redoc as vendored (static/vendor/redoc) no longer asks Redocly's CDN for its logo: no refusal
    # at all.
    visit(page, live_server.url + "/api/redoc/", violations, "Redoc", ready="h1")
    page.locator("h2", has_text="archive_jobs_list").wait_for()  # the operations are described
    visit(
        page,
        live_server.url + "/api/collections/",
        violations,
        "browsable API",
        ready=".response-info",
    )
