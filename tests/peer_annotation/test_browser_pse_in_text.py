"""In real Chromium, at a person's speed (issue 32): on the peer page, a click on a PSE's words in
the text selects that PSE, so that Delete removes it (DUCView's users click the text; the click
selected only its SCU, and Delete then did nothing and said nothing); Delete with no PSE selected
says what to do; `0` over words that already express an SCU is refused, naming it; and after a
proposal is accepted, drags over the text throw nothing (they threw "Maximum call stack size
exceeded"). What was stored is read from the database."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.conftest import BROWSER_TEST, log_in
from tests.peer_annotation.test_browser_peer_annotation import match_by_click, select, status

pytestmark = BROWSER_TEST


def stored(annotation):
    """[(SCU uid or 0, words)] as the database holds them, in order."""
    from annotator.models import PSE

    text = annotation.peer.text
    return [
        (pse.scu.uid if pse.scu else 0, " ".join(text[s.start : s.end] for s in pse.spans.all()))
        for pse in PSE.objects.filter(annotation=annotation)
        .select_related("scu")
        .prefetch_related("spans")
        .order_by("position", "id")
    ]


def click_word(page, word):
    """A held press on the middle of a word of the peer text, no drag."""
    human.settle(page)
    (x, y), *path = page.evaluate(human.DRAG_PATH, ["peer", word, 0])
    page.mouse.move((x + path[-1][0]) / 2, y, steps=5)
    page.mouse.down()
    page.wait_for_timeout(human.PRESS_MS)
    page.mouse.up()


def open_peer_page(page, live_server, annotation) -> list[str]:
    """The annotator opens the annotation; the page's uncaught errors from then on."""
    errors = human.page_errors(page)
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    return errors


@pytest.fixture
def annotation(demo):
    from annotator.models import PeerAnnotation

    return PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_delete_acts_on_the_pse_clicked_in_the_text(browser_page, live_server, annotation):
    page = browser_page
    errors = open_peer_page(page, live_server, annotation)
    match_by_click(page, "Apollo 11 landed on the Moon in July 1969", 1)
    select(page, "Michael Collins remained in orbit")
    human.press(page, "0")
    status(page, "to nothing in the pyramid")
    assert human.eventually(lambda: len(stored(annotation)) == 2)

    # `0` over words of SCU 1's PSE: refused, naming it; nothing stored.
    select(page, "landed on the Moon")
    human.press(page, "0")
    status(page, "Those words are in a PSE of SCU 1 (the words “Apollo 11 landed on the Moon in")
    # Delete with no PSE selected (Escape drops everything): says what to do, removes nothing.
    human.press(page, "Escape")
    human.press(page, "Delete")
    status(page, "Click the words of the PSE to remove in the peer text")

    # A click on the zero-weight PSE's words selects it; Delete removes that one only.
    click_word(page, "Collins")
    status(
        page,
        "The PSE “Michael Collins remained in orbit” of nothing in the pyramid is selected: "
        "Delete removes it",
    )
    human.press(page, "Delete")
    status(page, "Removed a PSE of nothing in the pyramid")
    assert human.eventually(
        lambda: stored(annotation) == [(1, "Apollo 11 landed on the Moon in July 1969")]
    )
    # And on SCU 1's words: its PSE, selected in the list too.
    click_word(page, "Moon")
    status(page, "The PSE “Apollo 11 landed on the Moon in July 19…” of SCU 1 is selected")
    expect(page.locator("#scu-list .pse[aria-selected=true]")).to_have_count(1)
    human.press(page, "Delete")
    assert human.eventually(lambda: stored(annotation) == [])
    assert not errors, errors


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_drags_after_a_proposal_is_accepted_throw_nothing(browser_page, live_server, annotation):
    page = browser_page
    errors = open_peer_page(page, live_server, annotation)
    expect(page.locator("#proposal-list")).to_contain_text("No open proposals.")
    human.press(page, "m")
    expect(page.locator("#proposal-list .proposal").first).to_be_focused()
    human.press(page, "Enter")
    status(page, "Accepted a proposal")
    assert human.eventually(lambda: len(stored(annotation)) == 1)
    human.press(page, "Escape")
    for phrase in ["Michael Collins remained in orbit", "Buzz Aldrin followed him", "lunar"]:
        select(page, phrase)
    click_word(page, "landed")  # words of the PSE the acceptance made
    click_word(page, "astronauts")
    select(page, "returned to Earth")
    human.press(page, "0")
    assert human.eventually(lambda: (0, "returned to Earth") in stored(annotation))
    assert not errors, errors


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_an_action_is_one_request(browser_page, live_server, annotation):
    """Issue 32: whatever the page shows after an action comes in the action's answer; no second
    request follows it (the caret left at the matched words' end asked for its sentence's
    suggestions). Selecting words again asks for theirs, as before."""
    page = browser_page
    open_peer_page(page, live_server, annotation)
    select(page, "Apollo 11 landed on the Moon in July 1969")
    expect(page.locator("#suggestions li").first).to_be_visible()
    requests = []
    page.on("request", lambda r: requests.append((r.method, r.url)))
    human.click(page, "#scu-1 .scu-row")
    status(page, "Matched “Apollo 11 landed on the Moon in July 1969” to SCU 1")
    select(page, "Michael Collins remained in orbit")
    expect(page.locator("#suggestions")).to_contain_text("for the selected words")
    human.press(page, "0")
    status(page, "to nothing in the pyramid")
    human.press(page, "Control+z")
    status(page, "Undid")
    page.wait_for_timeout(600)  # what the page would ask for later, it has asked by now
    sent = [(method, url.split("/annotations/")[-1]) for method, url in requests]
    edits = [url for method, url in sent if "/edit/" in url]
    assert [url.split("/edit/")[1] for url in edits] == ["assign/", "assign/", "undo/"]
    # The only other requests: the suggestions for the words selected between the actions.
    others = [url for method, url in sent if "/edit/" not in url]
    assert len(others) == 1, others
    assert "suggestions/?start=" in others[0]
    assert stored(annotation) == [(1, "Apollo 11 landed on the Moon in July 1969")]


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_keyboard_goes_on_from_the_words_it_matched(browser_page, live_server, annotation):
    """Found by a tester: after an action the caret jumped to the start of the peer text (the
    answer redraws it), so the next Shift+Ctrl+Right selected its first word again and the pane
    scrolled to the top. The caret stays after the words matched."""
    page = browser_page
    open_peer_page(page, live_server, annotation)
    human.select_with_keys(page, "#peer-text", "1969")
    human.press(page, "0")
    status(page, "Matched “Apollo 11 landed on the Moon in July 1969” to nothing")
    human.settle(page)
    for _ in range(3):
        human.press(page, "Shift+Control+ArrowRight")
    expect(page.locator("#selection")).to_contain_text("Selected: “Neil Armstrong")
    human.press(page, "0")
    assert human.eventually(lambda: len(stored(annotation)) == 2)
    assert stored(annotation)[1][1].startswith("Neil Armstrong")
