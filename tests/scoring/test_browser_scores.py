"""In real Chromium at 1024 px: the scores page fits the window (the table scrolls in its own box,
reached and scrolled with the keyboard), says what it counts, and shows work in progress, marked,
once asked to; axe-core finds no serious or critical violation."""

import pytest
from playwright.sync_api import expect

from annotator.models import Docset, PeerAnnotation, Pyramid
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.human import click, focused, press, tab_to

pytestmark = BROWSER_TEST

SMALL_LAPTOP = {"width": 1024, "height": 768}

PAGE_OVERFLOW = (
    "() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
)


@pytest.fixture
def viewport():
    return SMALL_LAPTOP


def long_names(demo):
    """Names as long as real ones: DUC's docsets and annotators' user names, a consensus pyramid."""
    Docset.objects.filter(pk=demo["pyramid"].docset_id).update(name="D0736-A-UPDATE-TASK")
    Pyramid.objects.filter(pk=demo["pyramid"].pk).update(name="D0736-A-UPDATE-TASK-consensus (2)")
    PeerAnnotation.objects.filter(pyramid=demo["pyramid"]).update(
        annotator_code="annotator-with-a-long-name"
    )


def test_the_scores_table_fits_1024_px_and_scrolls_in_its_own_box(browser_page, live_server, demo):
    long_names(demo)
    in_progress = demo["annotations"]["3"]
    PeerAnnotation.objects.filter(pk=in_progress.pk).update(
        status=PeerAnnotation.Status.IN_PROGRESS
    )
    page = browser_page
    log_in(page, live_server, "organizer", "organizer-pass-1")
    page.goto(live_server.url + demo["scores_url"])
    expect(page.locator("h1")).to_contain_text("Scores of Demo: Apollo 11")
    expect(page.locator("#counted")).to_have_text(
        "2 submitted annotations counted; 1 in progress not counted (show them)."
    )
    assert page.locator("table.score-table tbody tr").count() == 2

    # The page itself never scrolls sideways; the table's box does, if anything.
    assert page.evaluate(PAGE_OVERFLOW) == 0
    box = page.locator(".table-scroll")
    assert box.evaluate("(e) => e.contains(document.querySelector('table.score-table'))")
    assert box.evaluate("(e) => e.getBoundingClientRect().right") <= SMALL_LAPTOP["width"]

    # Work in progress, asked for with the checkbox (keyboard: Tab to it, Space), marked as such.
    tab_to(page, "input[name=include]")
    press(page, "Space")
    page.wait_for_url("**include=in-progress**")
    expect(page.locator("#counted")).to_have_text(
        "2 submitted annotations and 1 in progress (marked) counted (count submitted work only)."
    )
    rows = page.locator("table.score-table tbody tr")
    assert rows.count() == 3
    marked = page.locator("table.score-table tbody tr.in-progress")
    assert marked.count() == 1
    assert "In progress" in marked.inner_text()
    assert page.evaluate(PAGE_OVERFLOW) == 0

    # The table's box is reached with Tab and scrolled with the arrow keys where it is wider.
    tab_to(page, ".table-scroll")
    assert box.get_attribute("role") == "region", focused(page)
    assert box.get_attribute("aria-label"), focused(page)
    # At 1024 px the table (twelve columns, names as long as DUC's) is wider than the window: the
    # page overflowed by it before (issue 17); its box scrolls instead.
    assert box.evaluate("(e) => e.scrollWidth > e.clientWidth"), box.evaluate(
        "(e) => [e.scrollWidth, e.clientWidth]"
    )
    press(page, "ArrowRight")
    assert box.evaluate("(e) => e.scrollLeft") > 0
    assert page.evaluate(PAGE_OVERFLOW) == 0
    found = violations(page)
    assert not found, "\n".join(found)

    # The download links and the sorting keep the choice.
    assert "include=in-progress" in page.locator("a:text-is('CSV')").get_attribute("href")
    click(page, "th a:text-is('Modified')")
    page.wait_for_url("**sort=modified**")
    assert "include=in-progress" in page.url
    assert page.locator("table.score-table tbody tr").count() == 3

    # Each system's mean says how many annotations in progress it averages.
    page.goto(live_server.url + demo["scores_url"] + "?view=systems&include=in-progress")
    assert page.evaluate(PAGE_OVERFLOW) == 0
    expect(page.locator("table.score-table tbody tr.in-progress")).to_have_count(1)
    found = violations(page)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_back_shows_the_filters_that_made_the_table(browser_page, live_server, demo):
    # Each filter reloads the page; Back must not show the later choice over the earlier table
    # (a browser restores a form's controls as they were left unless told not to).
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/collections/{demo['collection'].pk}/scores/")
    docset = demo["pyramid"].docset.name
    tab_to(page, "form.filters select[name=docset]")
    press(page, "ArrowDown")  # the first docset: the page reloads with it
    expect(page.locator("h1")).to_contain_text(f"docset {docset}")
    # The focus is back on the field that made the choice: the keyboard goes on from there.
    assert page.evaluate("document.activeElement.name") == "docset"
    tab_to(page, "form.filters input[name=include]")
    press(page, " ")
    expect(page.locator("#counted")).to_contain_text("in progress (marked) counted")
    page.go_back()
    expect(page.locator("h1")).to_contain_text(f"docset {docset}")
    expect(page.locator("#counted")).not_to_contain_text("in progress (marked)")
    assert not page.is_checked("form.filters input[name=include]")
    page.go_back()
    expect(page.locator("h1")).not_to_contain_text("docset")
    assert page.eval_on_selector("form.filters select[name=docset]", "e => e.value") == ""
