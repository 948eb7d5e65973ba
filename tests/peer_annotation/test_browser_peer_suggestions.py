"""In real Chromium, at a person's speed, at 1280x720: the peer page's suggestions as a tester
found them wanting. With no words selected (the caret placed in a sentence, or left there by
Escape) the caret's sentence is ranked and said to be; words selected are said to be; "· shares"
shows only with words after it; a suggestion pressed with no words selected stores nothing and
says why. And `m` pressed again with proposals open says they are shown and keeps the keyboard on
them. What the page shows is checked against what the endpoint ranks and the database holds."""

import re

import pytest
from playwright.sync_api import expect

from tests import human
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.peer_annotation.test_browser_peer_annotation import select, status
from tests.project.test_browser_workspace_layout import SUGGESTIONS_WHOLE, page_does_not_scroll

pytestmark = BROWSER_TEST


@pytest.fixture
def annotation(demo):
    from annotator.models import PeerAnnotation

    return PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )


def place_caret(page, word):
    """A plain click (a held press, no drag) on the first letter of `word` in the peer text."""
    human.settle(page)
    (x, y), *_ = page.evaluate(human.DRAG_PATH, ["peer", word, 0])
    page.mouse.move(x, y, steps=5)
    page.mouse.down()
    page.wait_for_timeout(human.PRESS_MS)
    page.mouse.up()


CARET = """() => {
  // The caret's place in the peer text in code points: the text from its start to the caret.
  const text = document.getElementById("peer-text"), selection = window.getSelection();
  const inText = selection.rangeCount && text.contains(selection.anchorNode);
  if (!inText || !selection.isCollapsed) return null;
  const before = document.createRange();
  before.setStart(text, 0);
  before.setEnd(selection.anchorNode, selection.anchorOffset);
  return Array.from(before.toString()).length;
}"""


def caret(page) -> int:
    """The caret's place in the peer text, in code points (read here, not by the page's code)."""
    found = page.evaluate(CARET)
    assert found is not None, "no caret in the peer text"
    return found


def shown(page) -> list[int]:
    """The SCUs suggested, in the order shown, once the answer has settled."""
    human.settle(page)
    return [
        int(uid)
        for uid in page.locator("#suggestions button[data-uid]").evaluate_all(
            "(all) => all.map((b) => b.dataset.uid)"
        )
    ]


def ranked(annotation, start, end) -> list[int]:
    """What the endpoint ranks for [start, end) (the caret's sentence when start == end)."""
    from annotator.peer_annotation.suggestions import suggest

    return [s.uid for s in suggest(annotation, start, end)]


def wait_for_suggestions(page, annotation, start, end, heading):
    expect(page.locator("#suggestions h3")).to_have_text(heading)
    expected = ranked(annotation, start, end)
    assert expected
    assert human.eventually(lambda: shown(page) == expected), (shown(page), expected)


def no_empty_shares(page):
    notes = page.locator("#suggestions li .muted").all_inner_texts()
    assert notes
    assert all(re.fullmatch(r"#\d+( · shares \S.*)?", note.strip()) for note in notes), notes


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_caret_sentence_is_suggested_with_nothing_selected(
    browser_page, live_server, annotation
):
    from annotator.models import PSE

    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    text = annotation.peer.text

    # The caret placed in Collins's sentence: its suggestions, said to be for the sentence.
    place_caret(page, "remained")
    at = caret(page)
    sentence = "Michael Collins remained in orbit."
    assert text.index(sentence) <= at <= text.index(sentence) + len(sentence)
    wait_for_suggestions(page, annotation, at, at, "Suggested SCUs for this sentence")
    assert shown(page)[0] == 4
    expect(page.locator("#selection")).to_have_text("No peer words selected.")
    no_empty_shares(page)
    # Usable at 1280x720: the page itself does not scroll, the first suggestions show whole, and
    # axe finds nothing serious with them shown.
    assert page_does_not_scroll(page)
    assert page.evaluate(SUGGESTIONS_WHOLE) >= 3
    assert violations(page) == []

    # A suggestion pressed with no words selected: the existing rule, nothing stored, said so.
    human.click(page, page.locator("#suggestions button[data-uid]").first)
    status(page, "Select some words of the peer summary first: nothing was stored.")
    assert not PSE.objects.filter(annotation=annotation).exists()

    # Words selected: their own suggestions, said to be for them.
    select(page, "Neil Armstrong was the first man")
    start = text.index("Neil Armstrong was the first man")
    end = start + len("Neil Armstrong was the first man")
    wait_for_suggestions(page, annotation, start, end, "Suggested SCUs for the selected words")
    assert shown(page)[0] == 3
    no_empty_shares(page)

    # Escape clears the words; the caret stays where they ended, and its sentence is suggested.
    human.press(page, "Escape")
    expect(page.locator("#selection")).to_have_text("No peer words selected.")
    assert caret(page) == end
    wait_for_suggestions(page, annotation, end, end, "Suggested SCUs for this sentence")

    # The caret moved by the keyboard to the very end of the text: the last sentence's SCUs
    # (5: lunar samples, 6: returned to Earth), not none.
    human.press(page, "Control+End")
    assert human.eventually(lambda: caret(page) == len(text))
    wait_for_suggestions(page, annotation, len(text), len(text), "Suggested SCUs for this sentence")
    assert {5, 6} <= set(shown(page)[:3])
    assert violations(page) == []

    # Words selected again, a suggestion taken: stored with its rank, as before.
    select(page, "Michael Collins remained in orbit")
    start = text.index("Michael Collins remained in orbit")
    wait_for_suggestions(
        page, annotation, start, start + 33, "Suggested SCUs for the selected words"
    )
    human.click(page, page.locator("#suggestions button[data-uid]").first)
    status(page, "to SCU 4")
    stored = human.eventually(lambda: list(PSE.objects.filter(annotation=annotation)))
    assert [(p.scu.uid, p.suggestion_rank) for p in stored] == [(4, 1)]
    assert [text[s:e] for s, e in stored[0].spans.values_list("start", "end")] == [
        "Michael Collins remained in orbit"
    ]


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_m_again_with_proposals_open_says_so_and_the_keys_still_decide(
    browser_page, live_server, annotation
):
    from annotator.models import PSE, Proposal

    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(f"{live_server.url}/annotations/{annotation.pk}/")
    expect(page.locator("#proposal-list")).to_contain_text("No open proposals.")

    place_caret(page, "remained")
    human.press(page, "m")
    proposals = page.locator("#proposal-list .proposal")
    expect(proposals).to_have_count(4)
    expect(page.locator("#status")).to_contain_text("Proposed 4 matches")
    expect(proposals.first).to_be_focused()

    # m again, the focus on the first proposal: a message saying they are shown and the keys.
    human.press(page, "m")
    expect(page.locator("#status")).to_contain_text(
        "No confident match left to propose beyond the 4 shown: in their list, Enter accepts, "
        "Backspace rejects"
    )
    assert Proposal.objects.filter(annotation=annotation).count() == 4  # none made twice
    expect(proposals).to_have_count(4)
    expect(proposals.first).to_be_focused()

    # Down to the second (Armstrong's, SCU 3), m once more: the focus stays on it.
    human.press(page, "ArrowDown")
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "3")
    page.evaluate("() => { document.getElementById('status').textContent = ''; }")
    human.press(page, "m")
    expect(page.locator("#status")).to_contain_text("beyond the 4 shown")
    human.settle(page)
    expect(page.locator("#proposal-list .proposal:focus")).to_have_attribute("data-uid", "3")

    # The keyboard still decides: Enter accepts Armstrong's.
    human.press(page, "Enter")
    expect(page.locator("#status")).to_contain_text("Accepted a proposal")
    expect(proposals).to_have_count(3)
    pse = human.eventually(lambda: PSE.objects.filter(annotation=annotation).first())
    assert pse.scu.uid == 3
    text = annotation.peer.text
    assert [text[s:e] for s, e in pse.spans.values_list("start", "end")] == [
        "Neil Armstrong was the first man to walk on the Moon"
    ]
    assert Proposal.objects.get(annotation=annotation, scu__uid=3).state == "accepted"
