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
