"""In real Chromium: an annotator matches a peer summary against the pyramid, end to end."""

import re

import pytest
from playwright.sync_api import expect

from tests import human
from tests.conftest import BROWSER_TEST, log_in
from tests.human import drag_select

pytestmark = BROWSER_TEST


@pytest.fixture
def annotation_url(demo):
    from annotator.models import PeerAnnotation

    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    return annotation.pk, f"/annotations/{annotation.pk}/"


def status(page, text):
    expect(page.locator("#status")).to_contain_text(text)


def select(page, phrase):
    """Drag over peer words, and wait for the page to show them selected (as a person would)."""
    drag_select(page, "peer", phrase)
    expect(page.locator("#selection")).to_contain_text(f"Selected: “{phrase}”")


def match_by_click(page, phrase, uid):
    """Drag over peer words, press on the SCU they express, and see the page say it is saved."""
    select(page, phrase)
    human.click(page, f"#scu-{uid} .scu-row")
    status(page, f"to SCU {uid}")


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_annotating_a_peer_end_to_end(browser_page, live_server, demo, annotation_url):
    from annotator.models import PeerAnnotation
    from scoring.scores.records import score_annotations

    pk, url = annotation_url
    page = browser_page
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(live_server.url + url)

    # Mouse: select, then click the SCU.
    select(page, "Apollo 11 landed on the Moon in July 1969")
    expect(page.locator("#selection")).to_contain_text(
        "Selected: “Apollo 11 landed on the Moon in July 1969”"
    )
    human.click(page, "#scu-1 .scu-row")
    status(page, "Matched “Apollo 11 landed on the Moon in July 1969” to SCU 1")

    # Keyboard: select, "/", type part of the label, Enter.
    select(page, "Neil Armstrong was the first man to walk on the Moon")
    human.press(page, "/")
    human.type_text(page, "first person")
    human.press(page, "Enter")
    status(page, "to SCU 3")

    # The filter also searches the models' contributor text (SCU 4's contributors say
    # "lunar orbit").
    human.press(page, "/")
    human.type_text(page, "lunar orbit")
    expect(page.locator(".scu-pane .scu:visible")).to_have_count(1)
    expect(page.locator(".scu-pane .scu:visible")).to_have_id("scu-4")
    human.press(page, "Escape")

    # A suggestion, picked.
    select(page, "Michael Collins remained in orbit")
    expect(page.locator("#suggestions button").first).to_contain_text(
        "Michael Collins stayed in orbit"
    )
    human.click(page, page.locator("#suggestions button").first)
    status(page, "to SCU 4")

    # A repetition, and zero-weight content (the 0 key).
    select(page, "The astronauts returned to Earth")
    human.click(page, "#scu-1 .scu-row")
    status(page, "(a repetition)")
    select(page, "Buzz Aldrin followed him")
    human.press(page, "0")
    status(page, "to nothing in the pyramid")

    # A discontinuous PSE: a part added to the selected PSE (p).
    match_by_click(page, "The astronauts", 5)
    human.click(page, "#scu-5 .pse")
    select(page, "with lunar rock samples")
    human.press(page, "p")
    status(page, "Added a part to a PSE of SCU 5")
    expect(page.locator("#scu-5 .pse")).to_have_text("The astronauts…with lunar rock samples")

    # Move the zero-weight PSE to SCU 2 (v, then click), then undo that.
    human.click(page, "#scu-0 .pse")
    human.press(page, "v")
    human.click(page, "#scu-2 .scu-row")
    status(page, "Moved a PSE from nothing in the pyramid (weight 0) to SCU 2")
    human.press(page, "Control+z")
    status(page, "Undid: Moved a PSE")

    # Stepping through SCU 1's contributors in the models.
    human.click(page, "#scu-1 .scu-row")
    expect(page.locator("#contributor-position")).to_have_text("1 of 5")
    human.press(page, "]")
    expect(page.locator("#contributor-position")).to_have_text("2 of 5")

    assert stored_pses(pk) == [
        (1, "Apollo 11 landed on the Moon in July 1969"),
        (3, "Neil Armstrong was the first man to walk on the Moon"),
        (4, "Michael Collins remained in orbit"),
        (1, "The astronauts returned to Earth"),
        (0, "Buzz Aldrin followed him"),
        (5, "The astronauts…with lunar rock samples"),
    ]
    page.reload()
    expect(page.locator("#scu-1 .count")).to_have_text("×2")
    expect(page.locator("#scu-0 .count")).to_have_text("×1")
    # The panel shows exactly what export_scores computes from the stored records.
    (row,) = score_annotations(PeerAnnotation.objects.filter(pk=pk))
    panel = [text.strip() for text in page.locator("#scores td").all_text_contents()]
    assert panel[:4] == [
        f"{value:.4f}"
        for value in (
            row.scores.modified,
            row.scores.original,
            row.scores.coverage,
            row.scores.comprehensive,
        )
    ]
    assert (
        panel[4]
        == f"{row.scores.unique_scus} / {row.scores.repetitions} / {row.scores.non_matching}"
        == "4 / 1 / 1"
    )
    expect(page.locator(".missed li").first).to_contain_text("Aldrin also walked on the Moon")
    assert re.search(r"\b4 / 1 / 1\b", panel[4])


def test_a_stale_tab_is_refused_and_shows_the_current_state(
    browser_page, live_server, demo, annotation_url
):
    _, url = annotation_url
    first = browser_page
    log_in(first, live_server, "annotator", "annotator-pass-1")
    first.goto(live_server.url + url)
    second = first.context.new_page()
    second.goto(live_server.url + url)

    select(second, "Apollo 11 landed on the Moon in July 1969")
    human.click(second, "#scu-1 .scu-row")
    status(second, "to SCU 1")

    select(first, "Buzz Aldrin followed him")
    human.press(first, "0")
    status(first, "changed elsewhere")
    # The first tab now shows what the second stored, and nothing of its own attempt...
    expect(first.locator("#scu-1 .count")).to_have_text("×1")
    expect(first.locator("#scu-0 .count")).to_have_count(0)
    expect(first.locator("#peer-text mark[data-scus='1']")).to_have_text(
        "Apollo 11 landed on the Moon in July 1969"
    )
    # ...and works on from there.
    select(first, "Buzz Aldrin followed him")
    human.press(first, "0")
    status(first, "to nothing in the pyramid")
    expect(first.locator("#scu-0 .count")).to_have_text("×1")


def test_a_network_failure_says_not_saved_and_retries(
    browser_page, live_server, demo, annotation_url
):
    from annotator.models import PSE

    pk, url = annotation_url
    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(live_server.url + url)
    page.route("**/edit/**", lambda route: route.abort())
    select(page, "Apollo 11 landed on the Moon in July 1969")
    human.click(page, "#scu-1 .scu-row")
    status(page, "Not saved")
    assert not PSE.objects.filter(annotation_id=pk).exists()
    page.unroute("**/edit/**")
    human.click(page, "#status button.retry")
    status(page, "Matched “Apollo 11 landed on the Moon in July 1969” to SCU 1")
    expect(page.locator("#scu-1 .count")).to_have_text("×1")
    assert list(PSE.objects.filter(annotation_id=pk).values_list("scu__uid", flat=True)) == [1]


def test_bad_input_refused_at_the_door_is_said_in_the_status_line(
    browser_page, live_server, demo, annotation_url
):
    """A NUL in a query is refused before any view (annotator.web.bad_input, issue 16) with one line
    of plain text: the status line says it (not just "the server answered 400"), offers no Retry
    of the same input, and nothing is stored."""
    from annotator.models import PSE

    pk, url = annotation_url
    page = browser_page
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(live_server.url + url)
    page.route("**/edit/**", lambda route: route.continue_(url=route.request.url + "?note=%00"))
    select(page, "Apollo 11 landed on the Moon in July 1969")
    human.click(page, "#scu-1 .scu-row")
    status(
        page,
        "Not saved: The query parameter “note” holds a NUL character (\\0), which no text may hold",
    )
    expect(page.locator("#status button.retry")).to_have_count(0)
    assert not PSE.objects.filter(annotation_id=pk).exists()


# -- defects seen in real hands (issue 13): each test failed before its fix ----------------------


def stored_pse_words(pk) -> list:
    """[(PSE, "words…words")] of an annotation, in order, as the database holds them (the spans in
    their order: PSESpan's)."""
    from annotator.models import PSE

    result = []
    for pse in (
        PSE.objects.filter(annotation_id=pk)
        .select_related("scu", "annotation__peer")
        .prefetch_related("spans")
        .order_by("position", "id")
    ):
        text = pse.annotation.peer.text
        result.append((pse, "…".join(text[s.start : s.end] for s in pse.spans.all())))
    return result


def stored_pses(pk):
    """[(SCU uid or 0, "words…words")] of an annotation, in order, as the database holds them."""
    return [(pse.scu.uid if pse.scu else 0, words) for pse, words in stored_pse_words(pk)]


def open_annotation(page, live_server, url):
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(live_server.url + url)


def test_a_held_click_on_an_scu_assigns_the_selected_words(
    browser_page, live_server, demo, annotation_url
):
    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    select(page, "Apollo 11 landed on the Moon in July 1969")
    human.click(page, "#scu-1 .scu-row")  # held ~120 ms: the press clears the browser's selection
    assert human.eventually(lambda: stored_pses(pk)) == [
        (1, "Apollo 11 landed on the Moon in July 1969")
    ]
    status(page, "to SCU 1")
    # The words were used: a later click on an SCU only selects it, it stores nothing more.
    human.click(page, "#scu-3 .scu-row")
    expect(page.locator("#scu-3")).to_have_class(re.compile(r"\bselected\b"))
    human.answered(page)
    assert stored_pses(pk) == [(1, "Apollo 11 landed on the Moon in July 1969")]


def test_slash_label_enter_stores_the_words_selected_then(
    browser_page, live_server, demo, annotation_url
):
    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    # On a fresh page, with no words selected, it says so and stores nothing.
    human.press(page, "/")
    human.type_text(page, "first person")
    human.press(page, "Enter")
    status(page, "Select some words of the peer summary first")
    assert stored_pses(pk) == []

    select(page, "Neil Armstrong was the first man to walk on the Moon")
    human.press(page, "/")
    expect(page.locator("#selection")).to_contain_text(
        "Neil Armstrong was the first man to walk on the Moon"
    )
    human.type_text(page, "first person")
    human.press(page, "Enter")
    assert human.eventually(lambda: stored_pses(pk)) == [
        (3, "Neil Armstrong was the first man to walk on the Moon")
    ]
    status(page, "to SCU 3")
    # The SCU matched is the one selected now: its words light up, in the peer text too.
    expect(page.locator("#scu-3")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("#peer-text mark.highlight")).to_have_text(
        "Neil Armstrong was the first man to walk on the Moon"
    )

    # The next pick stores the next words, never the previous action's.
    select(page, "Buzz Aldrin followed him")
    human.press(page, "/")
    human.type_text(page, "aldrin also")
    human.press(page, "Enter")
    assert human.eventually(lambda: len(stored_pses(pk)) == 2 and stored_pses(pk)) == [
        (3, "Neil Armstrong was the first man to walk on the Moon"),
        (2, "Buzz Aldrin followed him"),
    ]
    status(page, "to SCU 2")
    # Used words are not used again: "/", a label, Enter with nothing newly selected stores nothing.
    human.press(page, "/")
    human.type_text(page, "collins")
    human.press(page, "Enter")
    status(page, "Select some words of the peer summary first")
    assert len(stored_pses(pk)) == 2


def test_pses_can_be_removed_after_undo_and_redo(browser_page, live_server, demo, annotation_url):
    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    match_by_click(page, "Apollo 11 landed on the Moon in July 1969", 1)
    match_by_click(page, "Michael Collins remained in orbit", 4)
    human.press(page, "Control+z")
    status(page, "Undid")
    human.press(page, "Control+y")
    status(page, "Redid")
    assert stored_pses(pk) == [
        (1, "Apollo 11 landed on the Moon in July 1969"),
        (4, "Michael Collins remained in orbit"),
    ]
    # SCU 1's entry was not touched by the undo and redo: its PSE must still be the stored one.
    human.click(page, "#scu-1 .pse")
    human.press(page, "Delete")
    status(page, "Removed a PSE of SCU 1")
    assert stored_pses(pk) == [(4, "Michael Collins remained in orbit")]


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_a_conflict_keeps_the_selection_and_the_filter_and_offers_retry(
    browser_page, live_server, demo, annotation_url
):
    from annotator.models import PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing

    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    models = page.locator("section.models-pane")
    models.evaluate("(pane) => { pane.scrollTop = pane.scrollHeight; }")
    scroll = models.evaluate("(pane) => pane.scrollTop")
    assert scroll > 0
    # Another tab of the same annotator stores a PSE meanwhile.
    annotation = PeerAnnotation.objects.get(pk=pk)
    peer_editing.assign(
        pk,
        demo["annotator"],
        annotation.version,
        [(annotation.peer.text.index("Buzz"), annotation.peer.text.index(" followed"))],
        0,
    )
    select(page, "Michael Collins remained in orbit")
    human.press(page, "/")
    human.type_text(page, "collins")
    human.press(page, "Enter")
    status(page, "Not saved: this annotation was changed elsewhere")
    expect(page.locator("#scu-0 .count")).to_have_text("×1")  # the current state is shown
    expect(page.locator("#scu-filter")).to_have_value("collins")  # as typed: a refusal keeps it
    expect(page.locator("#selection")).to_contain_text("Michael Collins remained in orbit")
    assert abs(models.evaluate("(pane) => pane.scrollTop") - scroll) < 2
    assert stored_pses(pk) == [(0, "Buzz Aldrin")]
    human.click(page, "#status button.retry")
    status(page, "to SCU 4")
    assert human.eventually(lambda: len(stored_pses(pk)) == 2 and stored_pses(pk)) == [
        (0, "Buzz Aldrin"),
        (4, "Michael Collins remained in orbit"),
    ]


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_annotating_with_the_keyboard_only(browser_page, live_server, demo, annotation_url):
    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    human.select_with_keys(page, "#peer-text", "1969")
    expect(page.locator("#selection")).to_contain_text("Apollo 11 landed on the Moon in July 1969")
    human.tab_to(page, "#scu-list [role=treeitem]")
    outline = page.evaluate(
        "() => getComputedStyle(document.activeElement.querySelector('.scu-row')).outlineColor"
    )
    assert outline == "rgb(31, 95, 168)"  # a visible focus (#1f5fa8 on white: 6.3:1)
    human.arrow_to(page, "#scu-1")
    human.press(page, "Enter")
    status(page, "to SCU 1")
    assert human.eventually(lambda: stored_pses(pk)) == [
        (1, "Apollo 11 landed on the Moon in July 1969")
    ]
    # Into SCU 1's PSE (once the page shows it), and move it to SCU 3 (v, ↓ to SCU 3, Enter).
    expect(page.locator("#scu-1 .pse")).to_have_count(1)
    expect(page.locator("#scu-1")).to_be_focused()
    human.press(page, "ArrowRight")
    expect(page.locator("#scu-1 .pse")).to_be_focused()
    human.press(page, "v")
    expect(page.locator("#status")).to_contain_text("Choose the SCU")
    human.arrow_to(page, "#scu-3")
    human.press(page, "Enter")
    status(page, "Moved a PSE from SCU 1 to SCU 3")
    assert human.eventually(
        lambda: stored_pses(pk) == [(3, "Apollo 11 landed on the Moon in July 1969")]
    )
    # Remove it from the keyboard, and undo that.
    human.tab_to(page, "#scu-list [role=treeitem]")
    human.arrow_to(page, ".pse")
    human.press(page, "Delete")
    status(page, "Removed a PSE of SCU 3")
    assert human.eventually(lambda: stored_pses(pk) == [])
    human.press(page, "Control+z")
    status(page, "Undid")
    assert human.eventually(
        lambda: stored_pses(pk) == [(3, "Apollo 11 landed on the Moon in July 1969")]
    )


def test_suggestions_fetched_during_an_edit_do_not_use_up_its_words(
    browser_page, live_server, demo, annotation_url
):
    """The words are used up only when *their* edit is saved: an answer to the suggestions fetched
    meanwhile once counted as that edit's, and a conflict then lost the selection."""
    import time as clock

    from annotator.models import PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing

    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    annotation = PeerAnnotation.objects.get(pk=pk)
    peer_editing.assign(
        pk, demo["annotator"], annotation.version, [(0, 9)], 0
    )  # another tab: a conflict
    page.route("**/edit/**", lambda route: (clock.sleep(0.8), route.continue_()))  # a slow network
    select(page, "Michael Collins remained in orbit")
    human.click(page, "#scu-4 .scu-row", hold_ms=60)  # before the suggestions are fetched (250 ms)
    page.locator("#suggestions li").first.wait_for()  # they come while the edit is on its way
    status(page, "changed elsewhere")
    expect(page.locator("#selection")).to_contain_text("Michael Collins remained in orbit")
    page.unroute("**/edit/**")
    human.click(page, "#status button.retry")
    status(page, "to SCU 4")
    assert human.eventually(
        lambda: stored_pses(pk) == [(0, "Apollo 11"), (4, "Michael Collins remained in orbit")]
    )


def test_enter_on_a_button_or_a_pane_is_never_a_match(
    browser_page, live_server, demo, annotation_url
):
    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    human.click(page, "#scu-1 .scu-row")  # an SCU selected, no words yet
    select(page, "Michael Collins remained in orbit")
    expect(page.locator("#contributor-position")).to_have_text("1 of 5")
    human.tab_to(page, "[data-act=next]")
    human.press(page, "Enter")  # the button's own action: the next contributor
    expect(page.locator("#contributor-position")).to_have_text("2 of 5")
    human.tab_to(page, "section.models-pane")
    human.press(page, "Enter")
    human.tab_to(page, ".score-popover summary", backwards=True)
    human.press(page, "Enter")  # opens the scores
    expect(page.locator(".score-popover #scores")).to_be_visible()
    human.answered(page)
    assert stored_pses(pk) == []
    # The help opened and closed (Escape, or its Close button) keeps the words selected.
    human.press(page, "?")
    human.press(page, "Escape")
    human.press(page, "?")
    human.click(page, "dialog#help button")
    expect(page.locator("#selection")).to_contain_text("Michael Collins remained in orbit")


def test_the_filter_finds_an_scu_by_its_number_and_says_when_nothing_matches(
    browser_page, live_server, demo, annotation_url
):
    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    select(page, "Michael Collins remained in orbit")
    human.press(page, "/")
    human.press(page, "Enter")  # nothing typed: nothing stored
    status(page, "Type part of an SCU's label")
    human.type_text(page, "zzz")
    human.press(page, "Enter")
    status(page, "No SCU matches “zzz”")
    human.press(page, "Control+a")
    human.type_text(
        page, "#4"
    )  # SCU 4's number as the list shows it (weight-4 SCUs come first in the list)
    expect(page.locator(".scu-pane .scu:visible")).to_have_count(1)
    human.press(page, "Enter")
    assert human.eventually(lambda: stored_pses(pk)) == [(4, "Michael Collins remained in orbit")]


# -- "Mark complete" with peer words in no PSE (issue 17) ----------------------------------------


def stored_status(pk):
    from annotator.models import PeerAnnotation

    return PeerAnnotation.objects.get(pk=pk).status


def words_left(pk):
    from annotator.models import PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing

    return peer_editing.words_in_no_pse(PeerAnnotation.objects.select_related("peer").get(pk=pk))


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_mark_complete_warns_of_words_in_no_pse_from_the_keyboard(
    browser_page, live_server, demo, annotation_url
):
    """DUC 2005 puts every peer word in a PSE (of an SCU or of "matches nothing"): Mark complete
    with words left out warns, names how many, and lets the annotator go back or go on."""
    from tests.accessibility import violations

    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    match_by_click(page, "Apollo 11 landed on the Moon in July 1969", 1)
    left = len(human.eventually(lambda: len(stored_pses(pk)) == 1 and words_left(pk)))
    assert left > 20
    warning = page.locator("dialog#uncovered-words")
    complete = page.locator("#toolbar [data-act=complete]")

    human.tab_to(page, "#toolbar [data-act=complete]", backwards=True)
    human.press(page, "Enter")
    expect(warning).to_be_visible()
    # One run of words left, content among them: every word of it is counted.
    expect(warning).to_contain_text(
        f"{left} words of the peer summary are in no PSE, in passages with content"
    )
    expect(warning).to_contain_text(
        "The first: “Neil Armstrong was the first man to walk on the Moon, and B…”."
    )
    expect(
        warning.locator("[data-act=uncovered_back]")
    ).to_be_focused()  # the way back is the default
    found = violations(page)
    assert not found, "\n".join(found)
    # Go back (Enter on the focused button): nothing stored, the keyboard back on Mark complete.
    human.press(page, "Enter")
    expect(warning).to_be_hidden()
    expect(complete).to_be_focused()
    human.answered(page)
    assert stored_status(pk) == "in_progress"
    # Escape goes back too.
    human.press(page, "Enter")
    expect(warning).to_be_visible()
    human.press(page, "Escape")
    expect(warning).to_be_hidden()
    expect(complete).to_be_focused()
    human.answered(page)
    assert stored_status(pk) == "in_progress"
    # Then on anyway: Tab within the warning to "Mark complete anyway", Enter.
    human.press(page, "Enter")
    expect(warning.locator("[data-act=uncovered_back]")).to_be_focused()
    human.tab_to(page, "dialog#uncovered-words [data-act=complete_anyway]", limit=5)
    human.press(page, "Enter")
    expect(warning).to_be_hidden()
    assert human.eventually(lambda: stored_status(pk) == "submitted")
    expect(page.locator("#workspace")).to_have_attribute("data-editable", "false")
    expect(page.locator("#workspace .badge")).to_have_text("Submitted")


def test_the_warning_selects_the_first_words_in_no_pse_for_the_annotator(
    browser_page, live_server, demo, annotation_url
):
    """ "Go back and select the first" selects the first content left out in the peer text, as if
    by hand: 0 puts it in "matches nothing". A stray "and" left in no PSE is no content (issue 32:
    the advice to match it to nothing added a zero-weight PSE, lowering the Original score): it is
    neither counted nor offered, and with only such words left Mark complete asks as before."""
    from annotator.models import PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing

    pk, url = annotation_url
    annotation = PeerAnnotation.objects.select_related("peer").get(pk=pk)
    text = annotation.peer.text
    peer_editing.assign(pk, demo["annotator"], 1, [(0, text.index(", and"))], 1)
    peer_editing.assign(pk, demo["annotator"], 2, [(text.index("Buzz"), text.index(" rock"))], 0)
    peer_editing.assign(pk, demo["annotator"], 3, [(text.index("samples"), len(text))], 0)
    assert [text[s:e] for s, e in words_left(pk)] == ["and", "rock"]
    page = browser_page
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    open_annotation(page, live_server, url)
    warning = page.locator("dialog#uncovered-words")
    human.click(page, "#toolbar [data-act=complete]")
    expect(warning).to_contain_text("1 word of the peer summary is in no PSE")
    expect(warning).to_contain_text("The first: “rock”.")
    # The advice says what each case needs, and what 0 does to the Original score.
    expect(warning).to_contain_text("press p to add them to that PSE")
    expect(warning).to_contain_text("lowers its Original score")
    human.click(page, "dialog#uncovered-words [data-act=uncovered_show]")
    expect(warning).to_be_hidden()
    expect(page.locator("#selection")).to_contain_text("Selected: “rock”")
    expect(page.locator("#peer-text")).to_be_focused()
    human.press(page, "0")
    status(page, "Matched “rock” to nothing in the pyramid")
    assert human.eventually(lambda: [text[s:e] for s, e in words_left(pk)] == ["and"])
    # Only "and" left: no warning, the plain question (dismissed: nothing stored).
    human.click(page, "#toolbar [data-act=complete]")
    assert human.eventually(
        lambda: asked == ["Mark this annotation complete? It becomes read-only."]
    )
    assert page.locator("dialog#uncovered-words").evaluate("(dialog) => dialog.open") is False
    human.answered(page)
    assert stored_status(pk) == "in_progress"
    assert [pse[0] for pse in stored_pses(pk)].count(0) == 3  # no zero-weight PSE for "and"


def test_with_every_word_in_a_pse_mark_complete_asks_only_as_before(
    browser_page, live_server, demo, annotation_url
):
    from annotator.models import PeerAnnotation
    from annotator.peer_annotation import editing as peer_editing

    pk, url = annotation_url
    text = PeerAnnotation.objects.select_related("peer").get(pk=pk).peer.text
    peer_editing.assign(pk, demo["annotator"], 1, [(0, text.index(". Neil"))], 1)
    peer_editing.assign(pk, demo["annotator"], 2, [(text.index("Neil"), len(text))], 0)
    assert words_left(pk) == []
    page = browser_page
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    open_annotation(page, live_server, url)
    human.click(page, "#toolbar [data-act=complete]")
    assert human.eventually(lambda: stored_status(pk) == "submitted")
    assert asked == ["Mark this annotation complete? It becomes read-only."]
    assert page.locator("dialog#uncovered-words").evaluate("(dialog) => dialog.open") is False
    expect(page.locator("#workspace")).to_have_attribute("data-editable", "false")


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_escape_drops_the_selected_words_and_the_next_key_stores_nothing(
    browser_page, live_server, demo, annotation_url
):
    """Escape said "No peer words selected" while the browser's own selection still spanned the
    words, and the next `0` read them again and stored them (a tester's report)."""
    pk, url = annotation_url
    page = browser_page
    open_annotation(page, live_server, url)
    select(page, "Apollo 11 landed on the Moon")
    human.press(page, "Escape")
    expect(page.locator("#selection")).not_to_contain_text("Selected:")
    assert page.evaluate("() => window.getSelection().isCollapsed")
    human.press(page, "0")
    status(page, "Select some words of the peer summary first: nothing was stored.")
    human.answered(page)
    assert stored_pses(pk) == []
    # Words used up by an action do not come back either: `0` once stores them once.
    select(page, "Apollo 11 landed on the Moon")
    human.press(page, "0")
    assert human.eventually(lambda: stored_pses(pk)) == [(0, "Apollo 11 landed on the Moon")]
    human.press(page, "0")
    human.answered(page)
    assert stored_pses(pk) == [(0, "Apollo 11 landed on the Moon")]
