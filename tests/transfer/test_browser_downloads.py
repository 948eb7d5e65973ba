"""In real Chromium, at a person's speed: an organizer downloads the collection's DUCView files and
its score table as CSV from the collection page, with the keyboard; the files hold what the
commands write."""

import io
import zipfile
from pathlib import Path

from playwright.sync_api import expect

from annotator.ducview.reader import PeerAnnotationDocument, PyramidDocument, read_any
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import run
from tests.human import click, focused, press, tab_to

pytestmark = BROWSER_TEST


def test_an_organizer_downloads_the_ducview_zip_and_a_csv(
    browser_page, live_server, demo, tmp_path
):
    page = browser_page
    log_in(page, live_server, "organizer", "organizer-pass-1")
    click(page, "#collections a:text-is('Demo: Apollo 11')")
    expect(page.locator("h1")).to_have_text("Demo: Apollo 11")
    expect(page.locator("#downloads")).to_have_text("Downloads")

    tab_to(page, "a[data-download='ducview']")
    with page.expect_download() as zipped:
        press(page, "Enter")
    assert zipped.value.suggested_filename == "Demo_Apollo_11-ducview.zip", focused(page)
    archive = zipfile.ZipFile(io.BytesIO(Path(zipped.value.path()).read_bytes()))
    files = {name: archive.read(name) for name in archive.namelist() if not name.endswith("/")}
    run("export_ducview", collection="Demo: Apollo 11", out=str(tmp_path))
    assert files == {
        p.relative_to(tmp_path).as_posix(): p.read_bytes()
        for p in tmp_path.rglob("*")
        if p.is_file()
    }
    documents = {name: read_any(data) for name, data in files.items()}
    assert isinstance(documents["allpyramids/DEMO01.pyr"], PyramidDocument)
    assert sum(isinstance(d, PeerAnnotationDocument) for d in documents.values()) == 3

    tab_to(page, "a[data-download='scores-csv']")
    with page.expect_download() as table:
        press(page, "Enter")
    assert table.value.suggested_filename.endswith(".csv")
    csv = Path(table.value.path()).read_text(encoding="utf-8")
    assert csv == run("export_scores", collection="Demo: Apollo 11", format="csv")[0]
    assert csv.splitlines()[0].startswith("collection,docset,peer")
    assert len(csv.splitlines()) == 4
    expect(page.locator("h1")).to_have_text(
        "Demo: Apollo 11"
    )  # a download leaves the page where it was
