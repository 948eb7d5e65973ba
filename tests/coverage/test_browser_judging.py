"""In real Chromium, at a person's speed: a judge opens a judgment task from the dashboard, judges
the peer's units by keyboard, undoes, submits; the test checks what was stored (issue 21)."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.coverage import judging_records as records

pytestmark = BROWSER_TEST


def hold(page, key: str) -> None:
    """A key held as a person holds it (about 120 ms)."""
    page.keyboard.press(key, delay=human.PRESS_MS)
    page.wait_for_timeout(human.KEY_DELAY_MS)


def stored(task) -> dict:
    from annotator.coverage.models import Judgment

    return {
        j.unit.position: (j.value, j.sentences)
        for j in Judgment.objects.filter(task=task).select_related("unit")
    }


def saved(page, text: str) -> None:
    expect(page.locator("#status")).to_contain_text(text)


def open_from_dashboard(page, live_server, task) -> None:
    log_in(page, live_server, "annotator", "annotator-pass-1")
    link = page.locator(f'#your-judging a[href="/judging/{task.pk}/"]')
    expect(link).to_have_text("Judge")
    human.click(page, link)
    expect(page.locator("h1")).to_contain_text("Judge peer 1 against")
    # The page's script listens to the keys: a key pressed before would go nowhere (CI, loaded).
    expect(page.locator("#judging")).to_have_attribute("data-ready", "true")


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_judging_presence_by_keyboard(browser_page, live_server, demo):
    from annotator.coverage.models import Judgment, JudgmentTask

    unit_set = records.presence_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    total = unit_set.units.count()
    page = browser_page
    open_from_dashboard(page, live_server, task)
    expect(page.locator("#unit-1")).to_be_visible()
    assert violations(page) == []  # 1280x720

    # Every unit but the last, p or n: each saved at once, the next unit shown.
    answers = ["p", "n", "p", "p", "n", "p", "n", "n", "p", "n"][: total - 1]
    for number, key in enumerate(answers, start=1):
        hold(page, key)
        expect(page.locator(f"#unit-{number + 1}")).to_be_visible()
    saved(page, f"Saved: unit {len(answers)}")
    expect(page.locator("#answered")).to_have_text(str(len(answers)))

    # Back one unit (k), change it, and undo that with Ctrl+Z: the answer before is saved again.
    hold(page, "k")
    expect(page.locator(f"#unit-{len(answers)}")).to_be_visible()
    hold(page, "p" if answers[-1] == "n" else "n")
    saved(page, f"Saved: unit {len(answers)}")
    hold(page, "Control+z")
    saved(page, "(undone)")
    value = {"p": 1.0, "n": 0.0}
    expected = {i: (value[key], []) for i, key in enumerate(answers)}
    assert human.eventually(lambda: stored(task) == expected), stored(task)

    # The last unit: p, then u undoes it (unanswered again), then n.
    hold(page, "j")
    expect(page.locator(f"#unit-{total}")).to_be_visible()
    hold(page, "p")
    saved(page, f"Saved: unit {total} Present")
    hold(page, "u")
    saved(page, f"Saved: unit {total} is not answered")
    expect(page.locator("#answered")).to_have_text(str(total - 1))
    expect(page.locator(f"#unit-{total}")).to_be_visible()

    # Meanwhile another tab answers: this page's answer is refused (409), shown, and kept.
    other = JudgmentTask.objects.get(pk=task.pk)
    Judgment.objects.filter(task=task, unit__position=0).update(value=0.0)
    JudgmentTask.objects.filter(pk=task.pk).update(version=other.version + 1)
    hold(page, "n")
    saved(page, "changed elsewhere")
    expect(page.locator("#status")).to_contain_text(
        f"Your answer for unit {total} (Absent) is kept"
    )
    expect(page.locator("#unsaved")).to_contain_text(f"unit {total} (Absent)")
    human.click(page, "#unsaved .retry")
    saved(page, f"Saved: unit {total} Absent")
    expected[0] = (0.0, [])  # the other tab's answer, now shown here too
    expected[total - 1] = (0.0, [])
    assert human.eventually(lambda: stored(task) == expected), stored(task)

    # Submit: Tab to the button, Space.
    human.tab_to(page, '[data-act="submit"]')
    hold(page, "Space")
    saved(page, "Submitted")
    assert human.eventually(lambda: JudgmentTask.objects.get(pk=task.pk).status == "submitted")
    assert stored(task) == expected
    assert all(j.seconds is not None and 0 < j.seconds < 300 for j in Judgment.objects.all())
    assert violations(page) == []


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_judging_see_with_sentences_by_keyboard(browser_page, live_server, demo):
    from annotator.coverage.models import JudgmentTask

    unit_set = records.see_set(demo)
    task = records.task(unit_set, records.peer(demo, "1"), demo["annotator"])
    page = browser_page
    open_from_dashboard(page, live_server, task)
    expect(page.locator("#unit-1 mark")).to_have_text(records.SEE_CLAUSES[0])
    assert violations(page) == []

    # Unit 1: sentence a, then "4" (all).
    hold(page, "a")
    expect(page.locator("#sentence-1")).to_have_attribute("aria-pressed", "true")
    hold(page, "4")
    saved(page, "Saved: unit 1 All")
    expect(page.locator("#unit-2")).to_be_visible()
    expect(page.locator("#sentence-1")).to_have_attribute("aria-pressed", "false")
    # Unit 2: sentence b by Tab and Space, then "3" (most).
    human.tab_to(page, "#sentence-2")
    hold(page, "Space")
    expect(page.locator("#sentence-2")).to_have_attribute("aria-pressed", "true")
    hold(page, "3")
    saved(page, "Saved: unit 2 Most")
    # Unit 3: sentence c, "2"; undone (u: unanswered, nothing marked); then c and "1".
    hold(page, "c")
    hold(page, "2")
    saved(page, "Saved: unit 3 Some")
    hold(page, "u")
    saved(page, "Saved: unit 3 is not answered")
    expect(page.locator("#sentence-3")).to_have_attribute("aria-pressed", "false")
    hold(page, "c")
    hold(page, "1")
    saved(page, "Saved: unit 3 Hardly any")
    # An answered unit's sentences change at once: back to unit 1 (k twice), mark d as well.
    hold(page, "k")
    hold(page, "k")
    expect(page.locator("#unit-1")).to_be_visible()
    hold(page, "d")
    saved(page, "Saved: unit 1 All")

    expected = {
        0: (4.0, [records.span(records.PEER_1[0]), records.span(records.PEER_1[3])]),
        1: (3.0, [records.span(records.PEER_1[1])]),
        2: (1.0, [records.span(records.PEER_1[2])]),
    }
    assert human.eventually(lambda: stored(task) == expected), stored(task)
    human.tab_to(page, '[data-act="submit"]')
    hold(page, "Enter")
    saved(page, "Submitted")
    assert human.eventually(lambda: JudgmentTask.objects.get(pk=task.pk).status == "submitted")
    assert stored(task) == expected
    assert violations(page) == []
