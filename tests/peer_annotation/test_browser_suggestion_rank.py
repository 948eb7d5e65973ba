"""In real Chromium, at a person's speed: a suggestion taken on the peer page stores its rank with
the PSE (issue 20), and undo and redo by keyboard keep it exact."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.conftest import BROWSER_TEST, log_in
from tests.peer_annotation.test_browser_peer_annotation import select, status, stored_pse_words

pytestmark = BROWSER_TEST

PHRASE = "Apollo 11 landed on the Moon in July 1969"


def stored(pk) -> list[tuple[int, int, int | None, str]]:
    """[(PSE id, SCU uid or 0, suggestion rank, words)] of an annotation, as the database holds
    them."""
    return [
        (pse.pk, pse.scu.uid if pse.scu else 0, pse.suggestion_rank, words)
        for pse, words in stored_pse_words(pk)
    ]


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_second_suggestion_taken_is_stored_as_rank_2_through_undo_and_redo(
    browser_page, live_server, demo
):
    from annotator.models import PeerAnnotation

    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    pk = annotation.pk
    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{pk}/")

    select(page, PHRASE)
    buttons = page.locator("#suggestions button[data-act=assign_to]")
    expect(buttons.nth(1)).to_be_visible()  # the suggestions have come, two at least
    # the ranks the page gives them: 1, 2, ... in the order shown
    ranks = buttons.evaluate_all("(all) => all.map((b) => b.dataset.rank)")
    assert ranks == [str(i) for i in range(1, len(ranks) + 1)]
    second = buttons.nth(1)
    uid = int(second.get_attribute("data-uid"))
    human.click(page, second)  # a held press, as a person clicks
    status(page, f"to SCU {uid}")
    taken = human.eventually(lambda: stored(pk))
    assert [(scu, rank, words) for _, scu, rank, words in taken] == [(uid, 2, PHRASE)]
    pse_id = taken[0][0]

    # Undo, then redo, from the keyboard: the same PSE comes back with its rank.
    human.press(page, "Control+z")
    status(page, "Undid")
    assert human.eventually(lambda: stored(pk) == [])
    human.press(page, "Control+y")
    status(page, "Redid")
    assert human.eventually(lambda: stored(pk)) == [(pse_id, uid, 2, PHRASE)]

    # Matched otherwise (the SCU clicked), a PSE has no rank.
    select(page, "Michael Collins remained in orbit")
    human.click(page, "#scu-4 .scu-row")
    status(page, "to SCU 4")
    assert human.eventually(lambda: len(stored(pk)) == 2)
    assert stored(pk)[1][1:] == (4, None, "Michael Collins remained in orbit")
