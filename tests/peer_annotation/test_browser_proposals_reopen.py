"""In real Chromium, at a person's speed, what a tester found of the proposals to confirm: a
rejection (Delete, Backspace: which delete PSEs too on this page, so slips happen) could not be
undone, Ctrl+Z answered "There is nothing to undo." and the proposal was lost for good. Now Ctrl+Z
right after a rejection reopens it, and a rejected proposal can be reopened from the list later;
each checked in what was stored."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in

pytestmark = BROWSER_TEST


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_undo_of_a_rejection_and_reopen_from_the_list(browser_page, live_server, demo):
    from annotator.assist import proposals as assist
    from annotator.models import PSE, PeerAnnotation, Proposal

    user = demo["annotator"]
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=user
    )
    assist.propose(annotation.pk, user)
    text = annotation.peer.text

    def stored():
        """{SCU uid: (state, decided by whom, the words of its PSE)} of the proposals."""
        found = {}
        for p in Proposal.objects.filter(annotation=annotation).select_related("scu"):
            spans = (
                PSE.objects.get(pk=p.pse_id).spans.values_list("start", "end") if p.pse_id else []
            )
            found[p.scu.uid] = (p.state, p.decided_by_id, [text[s:e] for s, e in spans])
        return found

    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    proposals = page.locator("#proposal-list .proposal")
    focused = page.locator("#proposal-list .proposal:focus")
    expect(proposals).to_have_count(4)
    page.wait_for_load_state("load")
    human.settle(page)

    # m, Delete: the first is rejected (stored), the status line says Ctrl+Z reopens it.
    human.press(page, "m")
    expect(focused).to_have_attribute("data-uid", "1")
    human.press(page, "Delete")
    expect(proposals).to_have_count(3)
    expect(page.locator("#status")).to_contain_text("Ctrl+Z reopens it")
    assert stored()[1] == ("rejected", user.pk, [])

    # Ctrl+Z: open again, undecided, listed and in focus; the status line says so.
    human.press(page, "Control+z")
    expect(proposals).to_have_count(4)
    expect(focused).to_have_attribute("data-uid", "1")
    expect(page.locator("#status")).to_contain_text("Reopened the proposal of SCU 1")
    assert stored()[1] == ("open", None, [])
    p = Proposal.objects.get(annotation=annotation, scu__uid=1)
    assert p.decided_at is None

    # Enter accepts it now: a PSE of its words.
    human.press(page, "Enter")
    expect(proposals).to_have_count(3)
    expect(focused).to_have_attribute("data-uid", "3")
    assert stored()[1] == ("accepted", user.pk, ["Apollo 11 landed on the Moon in July 1969"])

    # Delete then Ctrl+Z at once (the rejection still on its way): reopened all the same.
    human.press(page, "Delete")
    human.press(page, "Control+z")
    expect(page.locator("#status")).to_contain_text("Reopened the proposal of SCU 3")
    expect(proposals).to_have_count(3)
    expect(focused).to_have_attribute("data-uid", "3")
    assert stored()[3] == ("open", None, [])

    # Delete, then an acceptance: Ctrl+Z undoes the acceptance (the page's last edit), not the
    # rejection before it.
    human.press(page, "Delete")
    expect(proposals).to_have_count(2)
    accepted = focused.get_attribute("data-uid")
    human.press(page, "Enter")
    expect(proposals).to_have_count(1)
    assert stored()[int(accepted)][0] == "accepted"
    human.press(page, "Control+z")
    expect(proposals).to_have_count(2)
    expect(focused).to_have_attribute("data-uid", accepted)
    assert stored()[int(accepted)] == ("open", None, [])
    assert stored()[3] == ("rejected", user.pk, [])

    # The rejected one reopened from the list, by keyboard: its Reopen button.
    human.tab_to(page, "#proposal-list .rejected-proposals summary")
    expect(page.locator("#proposal-list .rejected-proposals summary")).to_contain_text("1 rejected")
    human.press(page, "Enter")
    human.tab_to(page, "#proposal-list [data-proposal-reopen]")
    assert violations(page) == []
    human.press(page, "Enter")
    expect(proposals).to_have_count(3)
    expect(focused).to_have_attribute("data-uid", "3")
    expect(page.locator("#status")).to_contain_text("Reopened the proposal of SCU 3")
    assert stored()[3] == ("open", None, [])
    assert violations(page) == []
