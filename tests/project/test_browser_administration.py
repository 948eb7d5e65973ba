"""In real Chromium: an administrator runs a campaign from the browser, and an annotator works.

The administrator creates a collection, uploads a zip of summaries, and assigns the docset's
pyramid creation to two annotators; one of them logs in, sees only their own work, and starts it;
the progress page shows what they did.
"""

import zipfile

from playwright.sync_api import expect

from tests.conftest import BROWSER_TEST, log_in
from tests.human import drag_select

pytestmark = BROWSER_TEST

SUMMARIES = {
    "D0901.M.250.A.A": "The bridge opened in 1932 after eight years of work.",
    "D0901.M.250.A.B": "Built over eight years, the bridge opened to traffic in 1932.",
    "D0901.M.250.A.1": "A bridge opened in 1932.",
    "D0901.M.250.A.2": "The bridge took eight years to build.",
}


def summaries_zip(tmp_path):
    path = tmp_path / "duc-summaries.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in SUMMARIES.items():
            archive.writestr(name, text)
    return path


def log_out(page):
    page.click("button:text-is('Log out')")


def test_an_administrator_runs_a_campaign_and_an_annotator_works(
    browser_page, live_server, demo, tmp_path
):
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")

    # A collection.
    page.click("nav a:text-is('Collections')")
    page.click("a:text-is('New collection')")
    page.fill("#id_name", "Bridges 2026")
    page.select_option("#id_weight_convention", "models")
    page.click("button:text-is('Create')")
    expect(page.locator("h1")).to_have_text("Bridges 2026")

    # Summaries from a zip named as DUC names them: the docset comes with them.
    page.click("a:text-is('Upload summaries')")
    page.set_input_files("#id_files", summaries_zip(tmp_path))
    page.click("button:text-is('Upload')")
    expect(page.locator("#job .job-status")).to_contain_text("Done")
    expect(page.locator("#job .report")).to_contain_text(
        "Stored 2 model summaries and 2 peer summaries in 1 docset."
    )
    page.click("a:text-is('Back to Bridges 2026')")
    row = page.locator("#docsets tbody tr", has_text="D0901")
    expect(row.locator("td").nth(1)).to_have_text("2")  # models
    expect(row.locator("td").nth(2)).to_have_text("2")  # peers

    # Pyramid creation for two annotators.
    page.click("nav.actions a:text-is('Assign work')")
    page.check("input[name=task][value=pyramid]")
    page.select_option("#id_docsets", label="D0901")
    page.select_option("#id_annotators", label=["annotator", "other_annotator"])
    page.check("input[name=mode][value=every]")
    page.click("button:text-is('Assign')")
    expect(page.locator(".message")).to_contain_text("2 assignments made.")
    expect(page.locator("#progress tbody tr")).to_have_count(2)
    log_out(page)

    # The annotator sees their own work only, and starts it.
    log_in(page, live_server, "annotator", "annotator-pass-1")
    work = page.locator("#your-work tbody tr")
    expect(work.filter(has_text="D0901")).to_have_count(1)
    expect(work.filter(has_text="D0901")).to_contain_text("Build pyramid D0901-annotator")
    expect(page.locator("body")).not_to_contain_text("D0901-other_annotator")
    work.filter(has_text="D0901").locator("a:text-is('Build pyramid')").click()
    expect(page.locator("h1")).to_contain_text("D0901-annotator")
    drag_select(page, "A", "opened in 1932")
    expect(page.locator("#selection")).to_contain_text("Selected in model A")
    page.keyboard.press("n")
    expect(page.locator("#status")).to_contain_text("New SCU 1")
    # Nor can they open the other annotator's pyramid by its address, or the collection's pages.
    from annotator.models import Pyramid

    theirs = Pyramid.objects.get(name="D0901-other_annotator")
    assert page.request.get(f"{live_server.url}/pyramids/{theirs.pk}/").status == 404
    assert (
        page.request.get(
            f"{live_server.url}/collections/{theirs.docset.collection_id}/progress/"
        ).status
        == 403
    )
    log_out(page)

    # The progress page shows what they did.
    log_in(page, live_server, "admin", "admin-pass-1")
    page.click("nav a:text-is('Collections')")
    page.click("a:text-is('Bridges 2026')")
    page.click("nav.actions a:text-is('Progress')")
    mine = page.locator("#progress tbody tr", has_text="D0901-annotator")
    expect(mine.locator("td").nth(3)).to_have_text("In progress")
    expect(mine.locator("td").nth(4)).to_have_text("1")  # SCUs
    theirs = page.locator("#progress tbody tr", has_text="D0901-other_annotator")
    expect(theirs.locator("td").nth(3)).to_have_text("Assigned")
    page.select_option("select[name=annotator]", "other_annotator")
    expect(page.locator("#progress tbody tr")).to_have_count(1)
