"""In real Chromium, at a person's speed, what a tester found on the judging page (issue 21): units
changed by an administrator while the page is open, a second tab's answers, SEE's "none" with
sentences marked, the progress bar's text, and undo after a reload. Each test checks what was
stored."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST
from tests.coverage import judging_records as records
from tests.coverage.test_browser_judging import hold, open_from_dashboard, saved

pytestmark = BROWSER_TEST


def by_text(task) -> dict:
    """The stored answers, by the text of their unit."""
    from annotator.coverage.models import Judgment

    return {
        j.unit.text: (j.value, j.sentences)
        for j in Judgment.objects.filter(task=task).select_related("unit")
    }


def by_position(task) -> dict:
    from annotator.coverage.models import Judgment

    return {
        j.unit.position: j.value for j in Judgment.objects.filter(task=task).select_related("unit")
    }


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_units_changed_by_an_administrator_are_shown_and_nothing_stale_is_stored(
    browser_page, live_server, demo
):
    from annotator.coverage import unit_editing
    from annotator.coverage.models import Judgment, UnitSet

    unit_set = records.presence_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    units = list(unit_set.units.order_by("position"))
    page = browser_page
    open_from_dashboard(page, live_server, task)
    expect(page.locator("#unit-1 .unit-text")).to_have_text(units[0].text)

    # Meanwhile an administrator relabels unit 1 and merges unit 2 with unit 3.
    unit_editing.relabel(unit_set.pk, demo["admin"], 1, units[0].pk, "The Moon landing, 1969.")
    unit_editing.merge(unit_set.pk, demo["admin"], 2, units[1].pk)
    now = list(UnitSet.objects.get(pk=unit_set.pk).units.order_by("position"))
    assert len(now) == len(units) - 1

    # The judge answers the last unit but one as the page showed it, and is on the last one (gone
    # now: one unit fewer) when refused: the new units shown from the first, nothing kept.
    hold(page, "k")
    hold(page, "k")
    expect(page.locator(f"#unit-{len(units) - 1}")).to_be_visible()
    hold(page, "p")  # the page moves on to the last unit at once, before the answer is back
    saved(page, "units were changed by an administrator")
    expect(page.locator("#unit-1")).to_be_visible()
    expect(page.locator("#unit-1 .unit-text")).to_have_text("The Moon landing, 1969.")
    expect(page.locator("#unit-2 .unit-text")).to_have_text(now[1].text)
    expect(page.locator("#total")).to_have_text(str(len(now)))
    expect(page.locator("#unit-1 h2")).to_have_text(f"Unit 1 of {len(now)}")
    expect(page.locator("#unsaved")).to_be_hidden()
    expect(page.locator(".retry")).to_have_count(0)
    expect(page.locator('[data-act="undo"]')).to_be_disabled()
    assert not Judgment.objects.exists()
    assert violations(page) == []

    # On the new units, answers are stored: unit 1 (relabelled) present, unit 2 (merged) absent.
    hold(page, "p")
    saved(page, "Saved: unit 1 Present")
    hold(page, "n")
    saved(page, "Saved: unit 2 Absent")
    expected = {"The Moon landing, 1969.": (1.0, []), now[1].text: (0.0, [])}
    assert human.eventually(lambda: by_text(task) == expected), by_text(task)
    expect(page.locator("#answered")).to_have_text("2")


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_after_a_conflict_with_another_tab_the_next_answers_are_saved(
    browser_page, live_server, demo
):
    unit_set = records.presence_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    total = unit_set.units.count()
    assert total >= 5
    tab_a = browser_page
    open_from_dashboard(tab_a, live_server, task)
    tab_b = tab_a.context.new_page()
    tab_b.goto(f"{live_server.url}/judging/{task.pk}/")
    expect(tab_b.locator("#unit-1")).to_be_visible()

    # Tab A answers unit 1; tab B, opened before, answers it too: 409, kept to be saved again.
    tab_a.bring_to_front()
    hold(tab_a, "p")
    saved(tab_a, "Saved: unit 1 Present")
    tab_b.bring_to_front()
    hold(tab_b, "n")
    saved(tab_b, "changed elsewhere")
    saved(tab_b, "Your answer for unit 1 (Absent) is kept")

    # Tab B goes on: p p n on units 2-4, each saved, the status saying so.
    for number, key, said in ((2, "p", "Present"), (3, "p", "Present"), (4, "n", "Absent")):
        expect(tab_b.locator(f"#unit-{number}")).to_be_visible()
        hold(tab_b, key)
        saved(tab_b, f"Saved: unit {number} {said}")
    expected = {0: 1.0, 1: 1.0, 2: 1.0, 3: 0.0}
    assert human.eventually(lambda: by_position(task) == expected), by_position(task)
    # The progress bar, and the text it falls back to, in step.
    expect(tab_b.locator("#answered")).to_have_text("4")
    expect(tab_b.locator("#progress")).to_have_js_property("value", 4)
    expect(tab_b.locator("#progress")).to_have_text(f"4 of {total}")

    # The answer refused is still offered: saved again, it is stored.
    expect(tab_b.locator("#unsaved")).to_contain_text("unit 1 (Absent)")
    expect(tab_b.locator("#unsaved .retry")).to_have_text("Save it again")
    human.click(tab_b, "#unsaved .retry")
    saved(tab_b, "Saved: unit 1 Absent")
    expected[0] = 0.0
    assert human.eventually(lambda: by_position(task) == expected), by_position(task)
    expect(tab_b.locator("#unsaved")).to_be_hidden()
    assert violations(tab_b) == []


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_none_clears_the_marked_sentences(browser_page, live_server, demo):
    unit_set = records.see_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    page = browser_page
    open_from_dashboard(page, live_server, task)
    second = records.span(records.PEER_1[1])

    # Unit 1: sentence a marked, then "0" (none): stored with no sentence, and said.
    hold(page, "a")
    expect(page.locator("#sentence-1")).to_have_attribute("aria-pressed", "true")
    hold(page, "0")
    saved(page, "Saved: unit 1 None")
    saved(page, "marked sentences were cleared")
    assert human.eventually(lambda: by_position_see(task) == {0: (0.0, [])}), by_position_see(task)
    # Unit 2: sentence b, "3"; the progress bar's text in step.
    hold(page, "b")
    hold(page, "3")
    saved(page, "Saved: unit 2 Most")
    expect(page.locator("#progress")).to_have_text("2 of 3")
    expected = {0: (0.0, []), 1: (3.0, [second])}
    assert human.eventually(lambda: by_position_see(task) == expected), by_position_see(task)
    # Back on unit 1, nothing is marked; marking a sentence there saves nothing (none keeps none).
    hold(page, "k")
    hold(page, "k")
    expect(page.locator("#unit-1")).to_be_visible()
    expect(page.locator("#sentence-1")).to_have_attribute("aria-pressed", "false")
    hold(page, "c")
    saved(page, "None keeps no sentences")
    human.answered(page)
    assert by_position_see(task) == expected
    assert violations(page) == []


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_an_answer_above_none_with_no_sentence_marked_is_saved_and_says_how_to_mark(
    browser_page, live_server, demo
):
    """A tester found "3" (most) with no sentence marked stored without a word: it is stored (the
    judge may mark them after answering), and the status line says none is marked and how to mark
    them; once one is marked, saved with the answer, the line no longer says so."""
    unit_set = records.see_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    page = browser_page
    open_from_dashboard(page, live_server, task)
    first = records.span(records.PEER_1[0])

    hold(page, "3")
    saved(page, "Saved: unit 1 Most.")
    saved(
        page,
        "No peer sentence is marked for unit 1: to mark those that express it, press k to go "
        "back to it, then press a sentence's letter, or Tab to the sentence and press Space.",
    )
    assert human.eventually(lambda: by_position_see(task) == {0: (3.0, [])}), by_position_see(task)
    # Back on unit 1, sentence a: saved with the answer, and the line says nothing is missing.
    hold(page, "k")
    expect(page.locator("#unit-1")).to_be_visible()
    hold(page, "a")
    expect(page.locator("#status")).to_have_text("Saved: unit 1 Most.")
    assert human.eventually(lambda: by_position_see(task) == {0: (3.0, [first])})
    # Unmarked again, on the unit shown: said without sending the judge back.
    hold(page, "a")
    saved(
        page,
        "No peer sentence is marked for unit 1: to mark those that express it, press a "
        "sentence's letter, or Tab to the sentence and press Space.",
    )
    assert human.eventually(lambda: by_position_see(task) == {0: (3.0, [])})
    # "None" with nothing marked is complete: no such line.
    hold(page, "j")
    hold(page, "0")
    expect(page.locator("#status")).to_have_text("Saved: unit 2 None.")
    assert violations(page) == []


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_undo_survives_a_reload(browser_page, live_server, demo):
    unit_set = records.see_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    page = browser_page
    open_from_dashboard(page, live_server, task)
    first = records.span(records.PEER_1[0])
    second = records.span(records.PEER_1[1])
    hold(page, "a")
    hold(page, "4")
    saved(page, "Saved: unit 1 All")
    hold(page, "b")
    hold(page, "3")
    saved(page, "Saved: unit 2 Most")
    expected = {0: (4.0, [first]), 1: (3.0, [second])}
    assert human.eventually(lambda: by_position_see(task) == expected), by_position_see(task)

    # A reload keeps the undo stack: u undoes unit 2's answer, then unit 1's.
    page.reload()
    expect(page.locator("#unit-3")).to_be_visible()
    expect(page.locator('[data-act="undo"]')).to_be_enabled()
    hold(page, "u")
    saved(page, "Saved: unit 2 is not answered")
    expected = {0: (4.0, [first])}
    assert human.eventually(lambda: by_position_see(task) == expected), by_position_see(task)
    hold(page, "u")
    saved(page, "Saved: unit 1 is not answered")
    assert human.eventually(lambda: by_position_see(task) == {}), by_position_see(task)
    expect(page.locator('[data-act="undo"]')).to_be_disabled()
    # Then unit 1 answered again: some, with sentence b.
    hold(page, "b")
    hold(page, "2")
    saved(page, "Saved: unit 1 Some")
    assert human.eventually(lambda: by_position_see(task) == {0: (2.0, [second])})
    # Another tab's answer since: the stack kept here is dropped on reload (not another's undo).
    from annotator.coverage.models import JudgmentTask

    JudgmentTask.objects.filter(pk=task.pk).update(version=task.version + 100)
    page.reload()
    expect(page.locator('[data-act="undo"]')).to_be_disabled()


def by_position_see(task) -> dict:
    from annotator.coverage.models import Judgment

    return {
        j.unit.position: (j.value, j.sentences)
        for j in Judgment.objects.filter(task=task).select_related("unit")
    }
