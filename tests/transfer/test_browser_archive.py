"""In real Chromium, at a person's speed: an administrator exports a collection's archive from its
page, downloads it, and restores it under a new name from the collections list; what was stored
is the collection, record for record and score for score."""

from playwright.sync_api import expect

from annotator.models import Collection
from tests.accessibility import violations
from tests.archives import assert_same_records, rich_collection, score_rows
from tests.conftest import BROWSER_TEST, log_in
from tests.human import click, press, tab_to, type_text

pytestmark = BROWSER_TEST


def test_an_administrator_exports_a_collection_and_restores_it_under_a_new_name(
    browser_page, live_server, pair, tmp_path
):
    original = rich_collection(pair)["collection"]
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")

    click(page, "nav a:text-is('Collections')")
    click(page, f"a:text-is('{original.name}')")
    expect(page.locator("h1")).to_have_text(original.name)
    click(page, "button:text-is('Export an archive')")
    expect(page.locator("h1")).to_have_text(f"Archive of {original.name}")
    expect(page.locator("#job .job-status")).to_contain_text("Done")
    expect(page.locator("#job .report")).to_contain_text("1 docset, 7 summaries, 4 pyramids")
    assert not violations(page), violations(page)
    # The download, from the keyboard: Tab to the link, Enter.
    tab_to(page, "#download")
    with page.expect_download() as download:
        press(page, "Enter")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "demo-apollo-11-archive.zip"

    click(page, ".crumbs a:text-is('Collections')")
    click(page, "a:text-is('Restore an archive')")
    expect(page.locator("h1")).to_have_text("Restore a collection archive")
    assert not violations(page), violations(page)
    page.set_input_files("#id_file", saved)  # the file chooser is the system's, not the page's
    click(page, "#id_name")
    type_text(page, "Apollo 11, restored")
    click(page, "button:text-is('Restore')")
    expect(page.locator("#job .job-status")).to_contain_text("Done")
    expect(page.locator("#job .report")).to_contain_text(
        "Restored Apollo 11, restored: 1 docset, 7 summaries"
    )
    click(page, "a:text-is('Open Apollo 11, restored')")
    expect(page.locator("h1")).to_have_text("Apollo 11, restored")
    expect(page.locator("#docsets tbody tr", has_text="DEMO01").locator("td").nth(3)).to_have_text(
        "1"
    )

    restored = Collection.objects.get(name="Apollo 11, restored")
    ids = assert_same_records(original, restored)
    assert score_rows(restored) == score_rows(original, ids)
