"""In real Chromium, at a person's speed: choosing the SCU to merge into (g) takes no words (issue
32). A tester selected SCU 6, pressed g and clicked SCU 5: two add_contributor actions were
stored in SCU 6 (phrases of the builder's help, which then lay over the SCU list's lower rows),
the merge was refused, and the next `a` went to SCU 6 rather than the SCU clicked. Here the help's
digits, its buttons, `a` and `n` store nothing while the builder waits for the target, the help
never covers a row, and the SCU chosen is merged into and then selected."""

import re

import pytest
from playwright.sync_api import expect

from annotator.models import SCU, Contributor, PyramidChange
from tests import human
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import Builder

pytestmark = BROWSER_TEST

COVERED_ROWS = """() => {
  const rows = Array.from(document.querySelectorAll("#scu-list .scu-row"));
  return rows.filter((row) => {
  // Rows shown in the list's pane whose middle is under something else (the help panel once).
  const r = row.getBoundingClientRect(), pane = row.closest("section").getBoundingClientRect();
  const y = r.top + r.height / 2;
  if (r.height === 0 || y < pane.top || y > pane.bottom) return false;
  const top = document.elementFromPoint(r.left + 20, y);
  return !top || !row.contains(top);
}).length; }"""


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_merge_mode_stores_no_words_and_selects_the_scu_chosen(browser_page, live_server, demo):
    build = Builder(demo, name="merging", user="outsider")
    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    build.new_scu("B", "followed by Buzz Aldrin")
    for phrase in ["Michael Collins orbited above", "Apollo 11 landed on the Moon", "first person"]:
        build.new_scu("A", phrase)
    page = browser_page
    errors = human.page_errors(page)
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(f"{live_server.url}/pyramids/{build.pyramid.pk}/")

    # SCU 2 selected, its help shown (phrases with keys), then g: the builder waits for a target.
    human.click(page, "#scu-2 .label")
    expect(page.locator("#builder-help [data-help-add]").first).to_be_visible()
    assert page.evaluate(COVERED_ROWS) == 0
    changes = PyramidChange.objects.filter(pyramid=build.pyramid).count()
    human.press(page, "g")
    expect(page.locator("#status")).to_contain_text("Choose the SCU to merge SCU 2 into")
    # Neither the help's digit nor its button, nor a or n with words selected, stores anything.
    human.press(page, "1")
    expect(page.locator("#status")).to_contain_text("no phrase was added")
    human.click(page, page.locator("#builder-help [data-help-add]").first)
    expect(page.locator("#status")).to_contain_text("no phrase was added")
    human.drag_select(page, "D", "Aldrin")
    human.press(page, "a")
    expect(page.locator("#status")).to_contain_text("no words were stored")
    human.press(page, "n")
    expect(page.locator("#status")).to_contain_text("no words were stored")
    assert PyramidChange.objects.filter(pyramid=build.pyramid).count() == changes

    # The SCU clicked is the one merged into, and the one selected afterwards.
    human.click(page, "#scu-1 .label")
    expect(page.locator("#status")).to_contain_text("Merged SCU 2 into SCU 1")
    assert human.eventually(lambda: not SCU.objects.filter(pyramid=build.pyramid, uid=2).exists())
    assert PyramidChange.objects.filter(pyramid=build.pyramid).count() == changes + 1
    assert sorted(
        Contributor.objects.filter(scu__pyramid=build.pyramid, scu__uid=1).values_list(
            "summary__author", flat=True
        )
    ) == ["A", "B"]
    expect(page.locator("#scu-1")).to_have_class(re.compile(r"\bselected\b"))
    human.drag_select(page, "D", "Aldrin")
    human.press(page, "a")
    expect(page.locator("#status")).to_contain_text("Added a contributor from model D to SCU 1")
    assert human.eventually(
        lambda: Contributor.objects.filter(
            scu__pyramid=build.pyramid, scu__uid=1, summary__author="D"
        ).exists()
    )
    assert not errors, errors
