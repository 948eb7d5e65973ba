"""In real Chromium, at human speed: selecting words on the peer page and matching them are
actions on the annotation, and its active time is stored."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.conftest import CHROMIUM, log_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed (apt-get install -y chromium)",
    ),
]


def test_selecting_and_matching_are_timed(browser_page, live_server, demo):
    from annotator.models import PeerAnnotation, WorkTime

    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    phrase = "Apollo 11 landed on the Moon in July 1969"
    # A selection: the page reports the activity (the first report goes at once).
    human.drag_select(page, "peer", phrase)
    expect(page.locator("#selection")).to_contain_text(f"Selected: “{phrase}”")
    human.eventually(lambda: WorkTime.objects.filter(annotation=annotation).exists())
    # An edit: the words matched to SCU 1, a moment later.
    human.click(page, "#scu-1 .scu-row")
    expect(page.locator("#status")).to_contain_text("to SCU 1")

    def stored():
        row = WorkTime.objects.get(annotation=annotation, user=demo["annotator"])
        return row.actions >= 2 and row.active_seconds > 0

    assert human.eventually(stored)


def test_a_held_back_report_says_when_the_activity_was(browser_page, live_server, demo):
    """Found by a tester: the report held back to the end of the page's 30-second interval was
    counted when sent, so idleness after the last action counted as active. A second activity
    within the interval is reported at its end, saying how long ago it was (ago_ms)."""
    from annotator.models import PeerAnnotation

    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    page = browser_page
    page.clock.install()
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    reports = []
    page.on(
        "request",
        lambda r: reports.append(r.post_data) if r.url.endswith("/activity/") else None,
    )
    human.drag_select(page, "peer", "Apollo 11 landed")  # reported at once
    page.clock.run_for(2_000)
    human.press(page, "ArrowRight")  # activity again, held back to the interval's end
    page.clock.run_for(30_000)  # the interval ends 28 s after that activity: the report goes
    human.eventually(lambda: len(reports) >= 2)
    held = dict(pair.split("=") for pair in reports[-1].split("&"))
    assert 27_000 <= int(held["ago_ms"]) <= 31_000
