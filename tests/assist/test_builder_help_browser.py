"""In real Chromium: with an SCU selected, the builder's help lists the phrases of the models with
no contributor in it; a digit, or the keyboard alone (Tab, Enter), adds one as a contributor,
stored through the builder's own add_contributor (Ctrl+Z undoes it)."""

import pytest
from playwright.sync_api import expect

from annotator.models import Contributor
from tests import human
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import Builder

pytestmark = BROWSER_TEST


def stored(pyramid):
    """SCU 1's contributors as {model author: their words}, as the database has them."""
    found = {}
    for contributor in Contributor.objects.filter(scu__pyramid=pyramid, scu__uid=1).select_related(
        "summary"
    ):
        text = contributor.summary.text
        found[contributor.summary.author] = " ".join(
            text[span.start : span.end] for span in contributor.spans.order_by("position")
        )
    return found


def open_helped_pyramid(page, live_server, demo) -> Builder:
    """SCU 1 with a contributor of model A (B, C and D have none), its builder opened by the
    annotator assigned to it."""
    build = Builder(demo, name="helped", user="outsider")
    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(f"{live_server.url}/pyramids/{build.pyramid.pk}/")
    return build


def test_adding_a_suggested_phrase_with_its_key_and_with_the_keyboard_alone(
    browser_page, live_server, demo
):
    page = browser_page
    build = open_helped_pyramid(page, live_server, demo)
    help_list = page.locator("#builder-help-list")
    expect(help_list).to_contain_text("Select an SCU")

    # Select SCU 1: models B, C and D have no contributor in it, their phrases numbered 1, 2, ...
    # in the models' order; D's closest phrase is the one an annotator would take.
    human.click(page, "#scu-1 .label")
    d = build.models["D"]
    first = page.locator(f'#builder-help [data-help-add][data-summary="{d.pk}"]').first
    expect(first).to_contain_text("Astronauts Neil Armstrong and Buzz Aldrin walked on the Moon")
    expect(help_list).to_contain_text("Model D has no contributor in SCU 1")
    expect(page.locator('#builder-help [data-key="1"]')).to_have_count(1)
    assert "Model A" not in help_list.inner_text()
    assert violations(page) == []

    # Its key adds it: a contributor of model D, the phrase's words, in the database.
    key = first.get_attribute("data-key")
    phrase = d.text[int(first.get_attribute("data-start")) : int(first.get_attribute("data-end"))]
    human.press(page, key)
    expect(page.locator("#status")).to_contain_text("Added a contributor from model D to SCU 1")
    assert human.eventually(lambda: "D" in stored(build.pyramid))
    assert stored(build.pyramid) == {
        "A": "Neil Armstrong and Buzz Aldrin walked on the surface",
        "D": phrase,
    }
    # The panel follows: D has a contributor now.
    expect(help_list).not_to_contain_text("Model D")
    expect(help_list).to_contain_text("Model B has no contributor in SCU 1")

    # Undo takes it back, as any edit.
    human.press(page, "Control+z")
    expect(page.locator("#status")).to_contain_text("Undid: Added a contributor from model D")
    assert human.eventually(lambda: "D" not in stored(build.pyramid))
    expect(help_list).to_contain_text("Model D has no contributor in SCU 1")

    # The keyboard alone: Tab to a phrase of model B, Enter.
    b = build.models["B"]
    button = page.locator(f'#builder-help [data-help-add][data-summary="{b.pk}"]').first
    start, end = int(button.get_attribute("data-start")), int(button.get_attribute("data-end"))
    human.tab_to(page, f'#builder-help [data-help-add][data-summary="{b.pk}"]')
    human.press(page, "Enter")
    expect(page.locator("#status")).to_contain_text("Added a contributor from model B to SCU 1")
    assert human.eventually(lambda: "B" in stored(build.pyramid))
    assert stored(build.pyramid)["B"] == b.text[start:end]
    assert violations(page) == []


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_each_phrase_shows_its_key_alone_and_the_words_it_shares_as_written(
    browser_page, live_server, demo
):
    """Found by a tester: "1. 3 while Michael Collins…" (the list's number beside the key) and
    "shares collin," (the ranker's folded words, the rest out of sight)."""
    build = Builder(demo, name="helped", user="outsider")
    build.new_scu(
        "A",
        "Neil Armstrong and Buzz Aldrin walked on the surface while Michael Collins orbited above "
        "in the command module",
    )
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(f"{live_server.url}/pyramids/{build.pyramid.pk}/")
    human.click(page, "#scu-1 .label")
    d = build.models["D"]
    collins = page.locator(f'#builder-help [data-help-add][data-summary="{d.pk}"]').filter(
        has_text="Michael Collins remained in orbit"
    )
    expect(collins).to_have_count(1)
    item = collins.locator("xpath=..")  # its <li>
    # No list number: the key alone, as a badge; still a list for screen readers.
    assert item.evaluate("(li) => getComputedStyle(li).listStyleType") == "none"
    assert item.evaluate("(li) => li.closest('ol').getAttribute('role')") == "list"
    key = collins.get_attribute("data-key")
    assert collins.locator("kbd").inner_text() == key
    assert collins.inner_text().startswith(f"{key} while Michael Collins")
    # The words shared as the phrase writes them, every one, in sight within the panel's width.
    shares = item.locator("span.muted")
    expect(shares).to_have_text("shares Michael, Collins")
    assert shares.evaluate(
        "(s) => s.getBoundingClientRect().right"
        " <= document.getElementById('builder-help').getBoundingClientRect().right"
    )
    assert violations(page) == []


def test_an_action_needs_one_request_its_answer_brings_the_help(browser_page, live_server, demo):
    """Issue 32: after each action the page asked for the help in a second request, once the
    first was in. The action's answer brings it: no request to the help's endpoint follows a new
    SCU, an added contributor or an undo, and the panel shows the SCU selected."""
    page = browser_page
    build = open_helped_pyramid(page, live_server, demo)
    help_list = page.locator("#builder-help-list")
    human.click(page, "#scu-1 .label")
    expect(help_list).to_contain_text("Model D has no contributor in SCU 1")
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/builder-help/" in r.url else None)
    edits = []
    page.on("request", lambda r: edits.append(r.url) if "/edit/" in r.url else None)

    human.drag_select(page, "B", "NASA's Apollo 11 mission")
    human.press(page, "n")
    expect(page.locator("#status")).to_contain_text("New SCU 2")
    expect(help_list).to_contain_text("has no contributor in SCU 2")
    expect(help_list).not_to_contain_text("Model B")
    human.drag_select(page, "D", "Hundreds of millions of people")
    human.press(page, "a")
    expect(page.locator("#status")).to_contain_text("Added a contributor from model D to SCU 2")
    expect(help_list).not_to_contain_text("Model D")
    human.press(page, "Control+z")
    expect(page.locator("#status")).to_contain_text("Undid")
    expect(help_list).to_contain_text("Model D has no contributor in SCU 2")
    page.wait_for_timeout(500)  # what the page would ask for later, it has asked by now
    assert len(edits) == 3
    assert asked == []
    assert human.eventually(
        lambda: Contributor.objects.filter(scu__pyramid=build.pyramid, scu__uid=2).count() == 1
    )
