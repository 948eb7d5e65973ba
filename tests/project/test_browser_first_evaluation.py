"""In real Chromium, at 1024, 1280 and 1440 px: the README's "Your first evaluation", step by step.

An administrator makes a collection, uploads summaries, makes an account and assigns the pyramid;
the new annotator builds it (mouse drags over words, keys) and submits it; the administrator
assigns the peer; the annotator matches the peer's words and marks it complete; the scores page
shows the submitted annotation and its CSV holds it. What each step stored is checked in the
database, and no page the newcomer meets is wider than the window.
"""

import csv
import io
import zipfile

import pytest
from playwright.sync_api import expect

from tests.conftest import BROWSER_TEST
from tests.human import click, drag_select, eventually, press, tab_to, type_text

pytestmark = BROWSER_TEST

SUMMARIES = {
    "D01.model.A.txt": "The bridge opened in 1932 after eight years of work.",
    "D01.model.B.txt": "Built over eight years, the bridge opened to traffic in 1932.",
    "D01.peer.7.txt": "A bridge opened in 1932.",
}
WIDTHS = {
    "1024": {"width": 1024, "height": 768},
    "1280": {"width": 1280, "height": 720},
    "1440": {"width": 1440, "height": 900},
}


@pytest.fixture(params=list(WIDTHS))
def viewport(request):
    return WIDTHS[request.param]


def fill_in(page, selector: str, text: str) -> None:
    """Tab-free but human: a press on the field, then typing a key at a time."""
    click(page, selector)
    type_text(page, text)


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(live_server.url + "/")
    fill_in(page, "#id_username", username)
    fill_in(page, "#id_password", password)
    press(page, "Enter")
    expect(page.locator("button:text-is('Log out')")).to_be_visible()


def log_out(page) -> None:
    follow(page, "button:text-is('Log out')")
    expect(page.locator("#id_username")).to_be_visible()


def follow(page, target) -> None:
    """A press on a link or a form's button, then the page it leads to, laid out."""
    with page.expect_navigation():
        click(page, target)
    page.wait_for_load_state()


def fits_the_window(page) -> None:
    """Nothing wider than the window: no sideways scrolling of the page itself."""
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{page.url} is {overflow}px wider than the window"


def summaries_zip(tmp_path):
    path = tmp_path / "my-summaries.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in SUMMARIES.items():
            archive.writestr(name, text)
    return path


def go_to_collection(page, name: str) -> None:
    follow(page, "nav a:text-is('Collections')")
    follow(page, page.locator("main a", has_text=name).first)
    expect(page.locator("h1")).to_have_text(name)
    fits_the_window(page)


def assign_work(page, task: str) -> None:
    """The collection's Assign work page: the task ("pyramid" or "peer"), D01, the newcomer."""
    go_to_collection(page, "My first evaluation")
    follow(page, "nav.actions a:text-is('Assign work')")
    click(page, f"input[name=task][value={task}]")
    page.select_option("#id_docsets", label="D01")
    page.select_option("#id_annotators", label="newcomer")
    follow(page, "button:text-is('Assign')")
    expect(page.locator(".message")).to_contain_text("1 assignment made")
    fits_the_window(page)


def test_a_newcomer_runs_a_first_evaluation_from_summaries_to_the_csv(
    browser_page, live_server, demo, tmp_path
):
    from annotator.models import Assignment, PeerAnnotation, Pyramid

    page = browser_page
    page.on("dialog", lambda dialog: dialog.accept())  # "Submit this pyramid?", "Mark … complete?"

    # 1. A collection.
    log_in(page, live_server, "admin", "admin-pass-1")
    fits_the_window(page)
    follow(page, "nav a:text-is('Collections')")
    fits_the_window(page)
    follow(page, "a:text-is('New collection')")
    fill_in(page, "#id_name", "My first evaluation")
    follow(page, "button:text-is('Create')")
    expect(page.locator("h1")).to_have_text("My first evaluation")
    fits_the_window(page)

    # 2. Summaries.
    follow(page, "a:text-is('Upload summaries')")
    page.set_input_files("#id_files", summaries_zip(tmp_path))
    follow(page, "button:text-is('Upload')")
    expect(page.locator("#job .job-status")).to_contain_text("Done")
    expect(page.locator("#job .report")).to_contain_text(
        "2 model summaries and 1 peer summary in 1 docset"
    )
    fits_the_window(page)

    # 3. An account.
    follow(page, "nav a:text-is('Accounts')")
    follow(page, "a:text-is('New account')")
    fill_in(page, "#id_username", "newcomer")
    fill_in(page, "#id_password1", "newcomer-pass-1")
    fill_in(page, "#id_password2", "newcomer-pass-1")
    follow(page, "main button[type=submit]")
    expect(page.locator("main")).to_contain_text("newcomer")
    fits_the_window(page)

    # 4. The pyramid assigned.
    assign_work(page, task="pyramid")
    fits_the_window(page)
    log_out(page)

    # 5. Built and submitted by the newcomer.
    log_in(page, live_server, "newcomer", "newcomer-pass-1")
    work = page.locator("#your-work tbody tr", has_text="D01")
    expect(work).to_have_count(1)
    fits_the_window(page)
    follow(page, work.locator(".work-action", has_text="Build pyramid"))
    drag_select(page, "A", "The bridge opened in 1932")
    press(page, "n")
    expect(page.locator("#status")).to_contain_text("New SCU 1")
    drag_select(page, "B", "the bridge opened to traffic in 1932")
    press(page, "a")
    fits_the_window(page)
    pyramid = Pyramid.objects.get(docset__collection__name="My first evaluation")
    assert eventually(
        lambda: (
            pyramid.scus.filter(contributors__isnull=False).distinct().count() == 1
            and pyramid.scus.get().contributors.count() == 2
        )
    )
    click(page, "#toolbar button:text-is('Submit pyramid')")
    assert eventually(lambda: Pyramid.objects.get(pk=pyramid.pk).status == Pyramid.Status.SUBMITTED)
    log_out(page)

    # 6. The peer assigned.
    log_in(page, live_server, "admin", "admin-pass-1")
    assign_work(page, task="peer")
    log_out(page)

    # 7. Annotated and marked complete.
    log_in(page, live_server, "newcomer", "newcomer-pass-1")
    work = page.locator("#your-work tbody tr", has_text="Annotate")
    expect(work).to_have_count(1)
    follow(page, work.locator(".work-action", has_text="Annotate"))
    expect(page.locator("#peer-text")).to_be_visible()
    fits_the_window(page)
    drag_select(page, "peer", "A bridge opened in 1932")
    tab_to(page, "#scu-filter")
    type_text(page, "1")
    press(page, "Enter")
    annotation = PeerAnnotation.objects.get(pyramid=pyramid)
    assert eventually(lambda: annotation.pses.filter(scu__isnull=False).count() == 1)
    click(page, "#toolbar button:text-is('Mark complete')")
    assert eventually(
        lambda: (
            PeerAnnotation.objects.get(pk=annotation.pk).status == PeerAnnotation.Status.SUBMITTED
        )
    )
    assert (
        not Assignment.objects.filter(user__username="newcomer")
        .exclude(status=Assignment.Status.DONE)
        .exists()
    )
    log_out(page)

    # 8. Scores, and 9. their CSV.
    log_in(page, live_server, "admin", "admin-pass-1")
    go_to_collection(page, "My first evaluation")
    follow(page, "nav.actions a:text-is('Scores')")
    row = page.locator("main table tbody tr", has_text="D01").first
    expect(row).to_contain_text("submitted", ignore_case=True)
    fits_the_window(page)
    with page.expect_download() as download:
        click(page, "main a:text-is('CSV')")
    rows = list(csv.DictReader(io.StringIO(open(download.value.path(), encoding="utf-8").read())))
    assert [(r["docset"], r["peer"], r["annotator"], r["status"]) for r in rows] == [
        ("D01", "7", "newcomer", "submitted")
    ]
    assert float(rows[0]["original"]) == 1.0
