"""In real Chromium at 1280x720, at a person's pace: the progress page's pages and filters (issue
19). Its table is swapped in place; the address follows; Back restores the table and the filters
that made it; the keyboard pages through it; axe-core finds no serious or critical violation."""

import re

import pytest
from playwright.sync_api import expect

from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.human import focused, press, tab_to

pytestmark = BROWSER_TEST


def choose(page, name: str, value: str) -> None:
    """Pick an option of a filter with the keyboard: focus it, then arrows until it shows
    `value` (each step applies the filter, as a person's would)."""
    tab_to(page, f"form.filters select[name={name}]")
    for key in ("ArrowDown", "ArrowUp"):
        for _ in range(10):
            if page.eval_on_selector(f"select[name={name}]", "e => e.value") == value:
                return
            press(page, key)
            page.wait_for_load_state("networkidle")
    raise AssertionError(f"{name} never showed {value!r}")


def shown(page, name: str) -> str:
    return page.eval_on_selector(f"form.filters select[name={name}]", "e => e.value")


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_back_restores_the_filters_with_the_table(browser_page, live_server, demo):
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/collections/{demo['collection'].pk}/progress/")
    expect(page.locator("#progress tbody tr")).to_have_count(2)
    assert not violations(page), violations(page)

    choose(page, "annotator", "annotator")
    expect(page).to_have_url(re.compile("annotator=annotator"))
    expect(page.locator("#progress tbody tr")).to_have_count(1)
    choose(page, "sort", "status")
    expect(page).to_have_url(re.compile("sort=status"))
    choose(page, "annotator", "")
    expect(page.locator("#progress tbody tr")).to_have_count(2)

    page.go_back()
    expect(page).to_have_url(re.compile("annotator=annotator"))
    expect(page.locator("#progress tbody tr")).to_have_count(1)
    assert (shown(page, "annotator"), shown(page, "sort")) == ("annotator", "status")
    page.go_forward()
    expect(page.locator("#progress tbody tr")).to_have_count(2)
    assert (shown(page, "annotator"), shown(page, "sort")) == ("", "status")


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_keyboard_pages_through_the_table(browser_page, live_server, demo, monkeypatch):
    monkeypatch.setattr("annotator.campaigns.views.work.PAGE_SIZE", 1)
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/collections/{demo['collection'].pk}/progress/?sort=annotator")
    expect(page.locator(".pagination .page-count")).to_have_text(
        "Assignments 1–1 of 2 · page 1 of 2"
    )
    first = page.locator("#progress tbody tr").inner_text()
    tab_to(page, "#page-next")
    press(page, "Enter")
    expect(page).to_have_url(re.compile(r"sort=annotator.*page=2|page=2.*sort=annotator"))
    expect(page.locator(".pagination .page-count")).to_have_text(
        "Assignments 2–2 of 2 · page 2 of 2"
    )
    assert page.locator("#progress tbody tr").inner_text() != first
    assert "page-next" in focused(page)  # the focus stays where the person left it
    assert not violations(page), violations(page)


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_back_after_leaving_for_another_page_shows_the_whole_page(browser_page, live_server, demo):
    # The same address answers the whole page, or only its table to htmx: the browser's cache
    # must tell them apart (Vary: HX-Request), or Back shows the bare table it kept.
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/collections/{demo['collection'].pk}/progress/")
    choose(page, "annotator", "annotator")
    expect(page).to_have_url(re.compile("annotator=annotator"))
    expect(page.locator("#progress tbody tr")).to_have_count(1)
    page.goto(f"{live_server.url}/")  # leaves for another page, as a link would
    page.go_back()
    expect(page).to_have_url(re.compile("annotator=annotator"))
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator("link[rel=stylesheet]").first).to_be_attached()
    expect(page.locator("#progress tbody tr")).to_have_count(1)
    assert shown(page, "annotator") == "annotator"
