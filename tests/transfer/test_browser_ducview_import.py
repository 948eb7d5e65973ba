"""In real Chromium, at a person's pace: an administrator uploads DUCView files from the
collection's page, sees which file was refused and why while the others were stored, uploads the
fixed file, and only it is imported; the job page and the collection's problems pass axe-core."""

from playwright.sync_api import expect

from annotator.models import PeerAnnotation, Pyramid, Summary
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, PAN_FIXTURE, PYRAMID_FIXTURE, log_in
from tests.human import click, press, tab_to
from tests.transfer.test_import_oddities import empty_peer_pan

pytestmark = BROWSER_TEST


def test_an_administrator_uploads_ducview_files_and_a_refused_one_does_not_block_the_others(
    browser_page, live_server, demo, tmp_path
):
    page = browser_page
    collection = demo["collection"]
    latin = PYRAMID_FIXTURE.read_bytes().replace(
        b"in Paris.</line>", "in Pari\u00e9.</line>".encode("latin-1")
    )
    (tmp_path / "D9902.pyr").write_bytes(latin)
    (tmp_path / "100.D9901.M.100.A.031.pan").write_bytes(empty_peer_pan())
    log_in(page, live_server, "admin", "admin-pass-1")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()
    page.goto(f"{live_server.url}/collections/{collection.pk}/")
    click(page, "a:text-is('Import DUCView files')")
    page.set_input_files(
        "#id_files",
        [
            PAN_FIXTURE,
            PYRAMID_FIXTURE,
            tmp_path / "D9902.pyr",
            tmp_path / "100.D9901.M.100.A.031.pan",
        ],
    )
    page.focus("#id_files")
    tab_to(page, "main form button[type=submit]")
    press(page, "Enter")

    expect(page.locator("#job .job-status")).to_contain_text("Done · 4 of 4 files")
    expect(page.locator("#refused-files")).to_have_text("Refused files (1)")
    expect(page.locator("#job ul.refused li")).to_have_text(
        "D9902.pyr: line 31, column 76: encoding problem: byte 0xE9 is not UTF-8 and the file "
        "declares no other encoding (it looks like Latin-1 or Windows-1252); save it as UTF-8, "
        "or add "
        '<?xml version="1.0" encoding="ISO-8859-1"?> as its first line'
    )
    expect(page.locator("#job .report").first).to_contain_text("1 empty peer summary (scored 0)")
    expect(page.locator("#job .report").first).to_contain_text(
        "peer ids read as numbers: 031 as 31"
    )
    assert not violations(page)
    # What was stored: the good files, nothing of the refused one.
    assert sorted(
        Pyramid.objects.filter(docset__collection=collection).values_list("name", flat=True)
    ) == ["D9901", "DEMO01"]
    assert sorted(
        PeerAnnotation.objects.filter(pyramid__name="D9901").values_list("peer__author", flat=True)
    ) == ["31", "7"]
    assert Summary.objects.get(docset__name="D9901", kind="peer", author="31").text == ""
    assert not Summary.objects.filter(docset__name="D9902").exists()

    # The collection's page lists the empty peer to review; its link opens the annotation.
    click(page, f"a:text-is('Back to {collection.name}')")
    problems = page.locator("ul[aria-labelledby=problems] li")
    expect(problems).to_have_text(
        ["D9901: peer 31 is empty (the system produced nothing); it scores 0"]
    )
    assert not violations(page)

    # The fixed file, uploaded again with one already stored: only it is imported.
    (tmp_path / "D9902.pyr").write_bytes(PYRAMID_FIXTURE.read_bytes())
    click(page, "a:text-is('Import DUCView files')")
    page.set_input_files("#id_files", [PYRAMID_FIXTURE, tmp_path / "D9902.pyr"])
    click(page, "button:text-is('Import')")
    expect(page.locator("#job .job-status")).to_contain_text("Done · 2 of 2 files")
    expect(page.locator("#job .report").first).to_contain_text(
        "2 files: 1 pyramid (5 SCUs, 8 contributors)"
    )
    expect(page.locator("#job .report").first).to_contain_text("1 unchanged")
    expect(page.locator("#refused-files")).to_have_count(0)
    assert Pyramid.objects.filter(docset__collection=collection, docset__name="D9902").count() == 1
    assert Pyramid.objects.filter(docset__collection=collection, docset__name="D9901").count() == 1
