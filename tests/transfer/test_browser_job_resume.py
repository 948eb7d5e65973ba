"""In real Chromium, at a person's speed and at 1280x720: an administrator finds an import stopped
by interruptions, reads why, and resumes it from the keyboard; what was stored is the import's
records, and the job is done. axe-core finds nothing serious on the job page either way."""

import pytest
from playwright.sync_api import expect

from annotator.models import ImportJob, PeerAnnotation, Pyramid
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import stored_job
from tests.human import click, press, tab_to
from tests.transfer.test_leases import upload

pytestmark = BROWSER_TEST


def stopped_import(demo):
    return stored_job(
        ImportJob,
        content=upload(),
        collection=demo["collection"],
        kind="ducview",
        file_name="fixtures.zip",
        status="failed",
        interrupted=True,
        attempts=3,
        total=2,
        done=1,
        report=[
            "Interrupted at 1 of 2 files on 2026-11-25 10:00:00 (worker w1 stopped: killed, out of "
            "memory, or cut off from its database).",
            "Stopped after 3 interrupted runs. What was stored is kept; Resume goes on from there.",
        ],
    )


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_an_administrator_resumes_a_stopped_import_from_the_keyboard(
    browser_page, live_server, demo, tmp_path
):
    page = browser_page
    job = stopped_import(demo)
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/jobs/{job.pk}/")
    expect(page.locator("#job-stopped")).to_contain_text("This job was interrupted 3 times.")
    expect(page.locator(".report.interruptions li")).to_have_count(2)
    assert violations(page) == []
    page.screenshot(path=str(tmp_path / "job-stopped.png"))
    tab_to(page, "#resume")
    press(page, "Enter")
    expect(
        page.locator(".message", has_text="Resumed: a worker goes on from where the job stopped.")
    ).to_be_visible()
    expect(page.locator("#job .job-status")).to_contain_text("Done")
    job.refresh_from_db()
    assert job.status == "done"
    assert not job.interrupted
    assert not job.chunks.exists()
    assert Pyramid.objects.filter(docset__name="D9901").count() == 1
    assert PeerAnnotation.objects.filter(pyramid__docset__name="D9901").count() == 1
    assert violations(page) == []


def test_a_held_press_on_resume_resumes_it_once(browser_page, live_server, demo):
    page = browser_page
    job = stopped_import(demo)
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/jobs/{job.pk}/")
    click(page, page.locator("#resume"))
    expect(page.locator("#job .job-status")).to_contain_text("Done")
    job.refresh_from_db()
    assert job.status == "done"
    assert job.attempts == 1
    assert Pyramid.objects.filter(docset__name="D9901").count() == 1
