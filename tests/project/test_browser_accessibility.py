"""In real Chromium: axe-core finds no serious or critical violation on the pages annotators use."""

import os

import pytest

from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import empty_pyramid
from tests.human import drag_select, press
from tests.project.test_browser_workspace_layout import d0640  # noqa: F401 (a fixture)

pytestmark = BROWSER_TEST


def assert_accessible(page):
    found = violations(page)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_the_builder_editable_and_read_only(browser_page, live_server, demo):
    page = browser_page
    pyramid = empty_pyramid(demo, name="DEMO01-B")
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + f"/pyramids/{pyramid.pk}/")
    drag_select(page, "A", "Apollo 11 landed on the Moon")
    press(page, "n")
    page.locator("#status", has_text="New SCU 1").wait_for()
    assert_accessible(page)
    page.goto(live_server.url + "/")  # the home page, with work on it
    assert_accessible(page)
    page.goto(live_server.url + f"/pyramids/{pyramid.pk}/history/")
    assert_accessible(page)
    page.context.clear_cookies()
    log_in(page, live_server, "organizer", "organizer-pass-1")  # read-only
    page.goto(live_server.url + f"/pyramids/{demo['pyramid'].pk}/")
    assert_accessible(page)


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_the_peer_annotation_page(browser_page, live_server, demo):
    from annotator.models import PeerAnnotation

    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(live_server.url + f"/annotations/{annotation.pk}/")
    drag_select(page, "peer", "Michael Collins remained in orbit")
    page.locator("#suggestions button").first.wait_for()
    assert_accessible(page)
    page.goto(live_server.url + f"/annotations/{annotation.pk}/history/")
    assert_accessible(page)
    # An annotation read by an organizer.
    page.context.clear_cookies()
    log_in(page, live_server, "organizer", "organizer-pass-1")
    page.goto(live_server.url + f"/annotations/{demo['annotations']['1'].pk}/")
    assert_accessible(page)


def test_the_account_pages_and_a_summary(browser_page, live_server, demo, settings):
    """The log-in page (with its password reset link and its note on secure-only cookies), the
    password reset pages with and without email, and a summary's page as an annotator reads it."""
    from annotator.models import Summary

    page = browser_page
    settings.EMAIL_ENABLED = True
    settings.SESSION_COOKIE_SECURE = True  # on plain HTTP: the log-in page explains
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#insecure-cookies").wait_for()
    page.locator("a", has_text="Forgot your password?").wait_for()
    assert_accessible(page)
    page.goto(live_server.url + "/accounts/password_reset/")
    page.locator("input[name=email]").wait_for()
    assert_accessible(page)
    settings.EMAIL_ENABLED = False
    page.goto(live_server.url + "/accounts/password_reset/")
    page.locator("text=not available here").wait_for()
    assert_accessible(page)
    settings.SESSION_COOKIE_SECURE = False
    log_in(page, live_server, "annotator", "annotator-pass-1")
    model = Summary.objects.get(docset=demo["pyramid"].docset, kind="model", author="A")
    page.goto(live_server.url + f"/summaries/{model.pk}/")
    page.locator("h1", has_text="Model summary by A").wait_for()
    assert_accessible(page)


@pytest.mark.shared_data
@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_a_completed_peer_page_whose_text_scrolls(browser_page, live_server, d0640):  # noqa: F811
    """Issue 32: a completed NIST peer (D0640's, longer than its pane at 1280x720) is read-only;
    its scrolling text must be reachable from the keyboard (axe: scrollable-region-focusable),
    as the read-only builder's models are."""
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(live_server.url + f"/annotations/{d0640['annotation']}/")
    assert page.locator("#workspace").get_attribute("data-editable") == "false"
    assert page.evaluate(
        "() => { const p = document.querySelector('.peer-pane'); "
        "return p.scrollHeight > p.clientHeight; }"
    ), "the test needs a peer text that scrolls"
    assert_accessible(page)


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_the_merge_page_after_a_decision(browser_page, live_server, pair, tmp_path):
    """The consensus's merge page, and its answer to a decision clicked as a person clicks (issue
    32: the answer now carries only the group decided): the decision is stored, nothing on the
    page moves while the button is held, and axe finds nothing serious."""
    from annotator.adjudication import pyramid_consensus
    from annotator.adjudication.alignment import ONLY_A
    from tests.human import click

    page = browser_page
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    log_in(page, live_server, "adjudicator", "adjudicator-pass-1")
    page.goto(live_server.url + f"/pyramids/{consensus.pk}/merge/")
    assert_accessible(page)
    group = page.locator(".merge-group").filter(has_text="Collins orbited")
    button = group.locator('button:text-is("Take A\'s version")')
    button.scroll_into_view_if_needed()
    before = button.bounding_box()
    page.mouse.move(before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(120)  # held, as a person holds it
    assert button.bounding_box() == before
    page.mouse.up()
    page.locator("#status", has_text="chose A's version").wait_for()
    key = next(g["key"] for g in consensus.merge.groups if g["kind"] == ONLY_A)
    assert pyramid_consensus.decisions(consensus)[key].decision["choice"] == "a"
    assert consensus.scus.filter(label="Collins orbited").count() == 1
    page.screenshot(path=os.environ.get("MERGE_SCREENSHOT", str(tmp_path / "merge.png")))
    assert_accessible(page)
    # Another group's decision: its answer too is accessible, and stored.
    other = page.locator(".merge-group").filter(has_text="Samples were collected")
    click(page, other.locator('button:text-is("Take B\'s version")'))
    page.locator("#status", has_text="chose B's version").wait_for()
    assert consensus.scus.filter(label="Samples were collected").count() == 1
    assert_accessible(page)
