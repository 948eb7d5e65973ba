"""In real Chromium: the report Time on task says what work in progress it left out, and its
checkbox counts it at once (the page reloads with ?include=in-progress); axe-core finds no serious
or critical violation on the reports page or the report."""

from django.urls import reverse
from playwright.sync_api import expect

from annotator.models import PeerAnnotation
from annotator.worktime.recording import record
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.human import click

pytestmark = BROWSER_TEST


def test_the_checkbox_counts_work_in_progress(browser_page, live_server, demo):
    from datetime import timedelta

    from django.utils import timezone

    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    start = timezone.now() - timedelta(hours=1)
    for minutes in (0, 4):
        record(demo["annotator"], annotation_id=mine.pk, now=start + timedelta(minutes=minutes))
    page = browser_page
    log_in(page, live_server, "organizer", "organizer-pass-1")
    page.goto(live_server.url + reverse("collection-reports", args=[demo["collection"].pk]))
    found = violations(page)
    assert not found, "\n".join(found)
    click(page, "a:text-is('Time on task')")
    expect(page.locator("#report")).to_contain_text(
        "1 peer annotation in progress left out (count work in progress to include it)."
    )
    checkbox = page.get_by_label("work in progress too")
    expect(checkbox).not_to_be_checked()
    found = violations(page)
    assert not found, "\n".join(found)
    click(page, "input[name=include]")
    report = reverse("collection-report", args=[demo["collection"].pk, "work-time"])
    expect(page).to_have_url(f"{live_server.url}{report}?include=in-progress")
    expect(page.locator("#report")).to_contain_text(
        "Work in progress counted too: 1 peer annotation in progress."
    )
    expect(page.get_by_label("work in progress too")).to_be_checked()
