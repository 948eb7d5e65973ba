"""In real Chromium: an organizer logs in, reads a pyramid and a peer annotation, downloads
scores."""

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.conftest import BROWSER_TEST, log_in

pytestmark = BROWSER_TEST


def test_organizer_reads_pyramid_annotation_and_downloads_scores(browser_page, live_server, demo):
    page = browser_page
    log_in(page, live_server, "organizer", "organizer-pass-1")
    page.click("#collections a:text-is('Demo: Apollo 11')")
    expect(page.locator("h1")).to_have_text("Demo: Apollo 11")
    page.click("#docsets a:text-is('DEMO01')")
    expect(page.locator("h1")).to_contain_text("Docset DEMO01")
    page.click("a[href^='/pyramids/']:text-is('DEMO01')")
    assert page.locator("h1").inner_text().startswith("Pyramid DEMO01")
    assert page.locator("article.summary").count() == 4
    first = page.locator(".scu-list > li").first
    assert first.locator(".weight").inner_text() == "4"
    # Words of model C's discontinuous contributor are shaded and point to SCU 1.
    shaded = page.locator("mark[data-scus='1']").filter(has_text=re.compile(r"^in July 1969$"))
    assert shaded.count() == 1

    page.click(".crumbs a:text-is('Demo: Apollo 11')")
    page.click(".actions a:text-is('Scores')")
    assert page.locator("tbody tr").count() == 3
    with page.expect_download() as download:
        page.click("text=CSV")
    content = Path(download.value.path()).read_text()
    assert content.splitlines()[0].startswith("collection,docset,peer")

    page.click("tbody tr:nth-child(2) a")
    assert page.locator("h1").inner_text().startswith("Peer 2")
    assert page.locator(
        "mark.zero", has_text="The Saturn V rocket launched from Florida"
    ).is_visible()
    assert page.locator("table.scores td").first.text_content().strip() == "0.3158"
    assert "Modified 0.3158" in page.locator("#score-strip").inner_text()


def test_annotator_cannot_open_the_score_table(browser_page, live_server, demo):
    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    assert page.locator("text=Scores").count() == 0
    response = page.goto(live_server.url + demo["scores_url"])
    assert response.status == 403
    expect(page.locator("h1")).to_have_text("Not allowed")
