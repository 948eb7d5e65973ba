"""In real Chromium, at a person's speed, what a tester found of the proposals to confirm (issue
20): the focus on load and after the last decision, an edited span counted, and undo and redo of
acceptances, each checked in what was stored."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in

pytestmark = BROWSER_TEST


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_focus_edited_span_and_undo_of_acceptances(browser_page, live_server, demo):
    from annotator.assist import proposals as assist
    from annotator.models import PSE, PeerAnnotation, Proposal
    from scoring.reports.proposals import proposals_report

    user = demo["annotator"]
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=user
    )
    assist.propose(annotation.pk, user)  # asked for before: open as the page loads
    text = annotation.peer.text

    def stored():
        """{SCU uid: (state, the words of its PSE)} of the proposals."""
        found = {}
        for p in Proposal.objects.filter(annotation=annotation).select_related("scu"):
            spans = (
                PSE.objects.get(pk=p.pse_id).spans.values_list("start", "end") if p.pse_id else []
            )
            found[p.scu.uid] = (p.state, [text[s:e] for s, e in spans])
        return found

    def report():
        """accepted, rejected, accepted with the span edited, open."""
        return proposals_report(demo["collection"], {})["tables"][0]["rows"][-1][1:5]

    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    proposals = page.locator("#proposal-list .proposal")
    expect(proposals).to_have_count(4)
    page.wait_for_load_state("load")
    human.settle(page)

    # On load the focus is not on a proposal: Enter and Backspace decide nothing.
    assert page.locator("#proposal-list .proposal:focus").count() == 0
    human.press(page, "Enter")
    human.press(page, "Backspace")
    human.settle(page)
    assert all(state == "open" for state, _ in stored().values())
    assert not PSE.objects.filter(annotation=annotation).exists()

    # m takes the focus to the first; Enter accepts it, Backspace rejects the next.
    human.press(page, "m")
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "1")
    human.press(page, "Enter")
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "3")
    human.press(page, "Backspace")
    expect(proposals).to_have_count(2)

    # Words selected over Collins's proposal, Tab to the list, down to it, Enter: the PSE has the
    # selected words, and the report counts the acceptance as edited.
    human.drag_select(page, "peer", "Michael Collins")
    human.tab_to(page, "#proposal-list .proposal")
    human.arrow_to(page, '#proposal-list .proposal[data-uid="4"]')
    expect(page.locator("#proposal-hint")).to_contain_text("“Michael Collins”")
    human.press(page, "Enter")
    expect(proposals).to_have_count(1)
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "2")

    # The last one accepted: the focus goes to "Propose matches", the status says none is left.
    human.press(page, "Enter")
    expect(page.locator("#status")).to_contain_text("No open proposal left")
    expect(page.locator("#propose-matches")).to_be_focused()
    expect(page.locator("#proposal-list")).to_contain_text("3 accepted, 1 rejected so far.")
    assert stored() == {
        1: ("accepted", ["Apollo 11 landed on the Moon in July 1969"]),
        3: ("rejected", []),
        4: ("accepted", ["Michael Collins"]),
        2: ("accepted", ["Buzz Aldrin followed him"]),
    }
    assert report() == [3, 1, 1, 0]
    assert violations(page) == []

    # Ctrl+Z undoes the last acceptance: Aldrin's proposal is open again, listed, in focus.
    human.press(page, "Control+z")
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "2")
    expect(page.locator("#proposal-list")).to_contain_text("2 accepted, 1 rejected so far.")
    assert stored()[2] == ("open", [])
    assert report() == [2, 1, 1, 1]
    # Again: Collins's (edited) too.
    human.press(page, "Control+z")
    expect(proposals).to_have_count(2)
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "4")
    assert stored()[4] == ("open", [])
    assert report() == [1, 1, 0, 2]
    assert violations(page) == []

    # Redo brings its PSE back: accepted again, still counted as edited.
    human.press(page, "Control+y")
    expect(proposals).to_have_count(1)
    expect(page.locator("#proposal-list")).to_contain_text("2 accepted, 1 rejected so far.")
    assert stored()[4] == ("accepted", ["Michael Collins"])
    assert report() == [2, 1, 1, 1]
    # m with one open: it says so, and the focus is on it.
    human.press(page, "m")
    expect(page.locator("#status")).to_contain_text("beyond the 1 shown")
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "2")
