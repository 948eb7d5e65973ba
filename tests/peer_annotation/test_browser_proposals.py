"""In real Chromium, at a person's speed: proposals asked for and decided from the keyboard, then
what was stored checked in the database (issue 20)."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in

pytestmark = BROWSER_TEST


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_proposals_accepted_with_enter_and_rejected_with_backspace(browser_page, live_server, demo):
    from annotator.models import PSE, PeerAnnotation, Proposal
    from scoring.scores.records import score_annotations

    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    page = browser_page
    errors: list = []
    page.on("pageerror", lambda error: errors.append(error))  # proposals.js ran too early
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    expect(page.locator("#proposal-list")).to_contain_text("No open proposals.")
    page.wait_for_load_state("load")
    assert errors == []

    # Asked for from the keyboard: Tab to "Propose matches", Enter.
    human.tab_to(page, "#propose-matches")
    human.press(page, "Enter")
    proposals = page.locator("#proposal-list .proposal")
    expect(proposals).to_have_count(4)
    expect(page.locator("#status")).to_contain_text("Proposed 4 matches")
    # The focus is on the first proposal; each is drawn dashed over its words, not as a PSE.
    expect(proposals.first).to_be_focused()
    expect(proposals.first).to_contain_text("“Apollo 11 landed on the Moon in July 1969”")
    human.settle(page)
    # Read in one go in the page: the layer is redrawn whole (a ghost read between a count and a
    # style could be one just replaced, with no style: seen on a loaded CI machine).
    styles = page.evaluate(
        """() => Array.from(document.querySelectorAll("#workspace .ghost-layer .ghost"))
          .map((g) => getComputedStyle(g).borderTopStyle)"""
    )
    assert len(styles) >= 4
    assert set(styles) == {"dashed"}
    # One box a line for each proposal, even over words already in a PSE's mark (found by a
    # tester: "Apollo 11" outlined twice, by overlapping boxes).
    overlapping = page.evaluate(
        """() => {
          const boxes = Array.from(document.querySelectorAll("#workspace .ghost-layer .ghost"));
          return boxes.filter((a, i) => boxes.some((b, j) => j > i
            && a.dataset.proposal === b.dataset.proposal
            && a.offsetTop < b.offsetTop + b.offsetHeight
            && b.offsetTop < a.offsetTop + a.offsetHeight
          )).length;
        }"""
    )
    assert overlapping == 0
    assert page.locator("#peer-text mark[data-scus]").count() == 0  # no PSE yet
    assert violations(page) == []

    # Enter accepts the first (SCU 1); the focus goes on to the next, Armstrong's (SCU 3).
    human.press(page, "Enter")
    expect(page.locator("#status")).to_contain_text(
        "Accepted a proposal: matched “Apollo 11 landed on the Moon in July 1969” to SCU 1"
    )
    expect(proposals).to_have_count(3)
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "3")
    expect(page.locator('#peer-text mark[data-scus="1"]')).to_have_count(1)

    # Down to Aldrin's (SCU 2), and Backspace rejects it.
    human.press(page, "ArrowDown")
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "2")
    human.press(page, "Backspace")
    expect(page.locator("#status")).to_contain_text("Rejected the proposal of SCU 2")
    expect(proposals).to_have_count(2)
    expect(page.locator("#proposal-list")).to_contain_text("1 accepted, 1 rejected so far.")
    assert violations(page) == []

    # What was stored.
    text = annotation.peer.text
    (pse,) = PSE.objects.filter(annotation=annotation).select_related("scu")
    assert pse.scu.uid == 1
    assert [text[s:e] for s, e in pse.spans.values_list("start", "end")] == [
        "Apollo 11 landed on the Moon in July 1969"
    ]
    states = {
        text[p.start : p.end]: (p.scu.uid, p.state, p.pse_id, p.decided_by_id)
        for p in Proposal.objects.filter(annotation=annotation).select_related("scu")
    }
    assert states == {
        "Apollo 11 landed on the Moon in July 1969": (1, "accepted", pse.pk, demo["annotator"].pk),
        "Neil Armstrong was the first man to walk on the Moon": (3, "open", None, None),
        "Buzz Aldrin followed him": (2, "rejected", None, demo["annotator"].pk),
        "Michael Collins remained in orbit": (4, "open", None, None),
    }
    # The scores count the accepted PSE only: SCU 1 (weight 4), one PSE.
    (row,) = score_annotations(PeerAnnotation.objects.filter(pk=annotation.pk))
    assert (row.scores.raw_score, row.scores.pse_count, row.scores.unique_scus) == (4, 1, 1)
