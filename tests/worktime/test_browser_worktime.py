"""In real Chromium, at human speed: selecting words on the peer page and matching them are
actions on the annotation, and its active time is stored."""

from playwright.sync_api import expect

from tests import human
from tests.conftest import BROWSER_TEST, log_in

pytestmark = BROWSER_TEST


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


def test_mark_complete_carries_the_held_report_and_the_page_falls_quiet(
    browser_page, live_server, demo
):
    """Issue 32: after "Mark complete" the page still sent its held report (up to 30 s later) and
    got a 403, with a console error. The held report goes with the edit instead, its activity is
    stored, and the read-only page sends nothing more."""
    from annotator.models import PeerAnnotation, WorkTime
    from annotator.peer_annotation import editing as peer_editing

    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    text = annotation.peer.text
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, len(text))], 0)
    page = browser_page
    page.clock.install()
    page.on("dialog", lambda dialog: dialog.accept())
    console, refused = [], []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: refused.append(r.url) if r.status >= 400 else None)
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    reports = []
    page.on("request", lambda r: reports.append(r.url) if r.url.endswith("/activity/") else None)
    human.drag_select(page, "peer", "Apollo 11 landed")  # reported at once
    human.eventually(lambda: len(reports) == 1)
    page.clock.run_for(2_000)
    human.press(page, "ArrowRight")  # held back to the interval's end
    human.click(page, "#toolbar [data-act=complete]")
    assert human.eventually(
        lambda: PeerAnnotation.objects.get(pk=annotation.pk).status == "submitted"
    )
    expect(page.locator("#workspace")).to_have_attribute("data-editable", "false")
    # The held activity came with the edit: four actions (the setup's match, two activities and
    # the edit that marked it complete).
    row = WorkTime.objects.get(annotation=annotation, user=demo["annotator"])
    assert row.actions == 4
    page.clock.run_for(60_000)
    human.press(page, "ArrowRight")
    page.clock.run_for(60_000)
    page.wait_for_timeout(300)
    assert len(reports) == 1
    assert refused == []
    assert console == []
