"""In real Chromium: an annotator builds a pyramid with the mouse and the keyboard."""

import re

import pytest
from playwright.sync_api import expect

from .conftest import CHROMIUM, log_in
from .helpers import drag_select, empty_pyramid

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's Chromium is not installed (apt-get install -y chromium)"),
]



@pytest.fixture
def new_pyramid(demo):
    return f"/pyramids/{empty_pyramid(demo, name='DEMO01-B').pk}/"


class Annotator:
    def __init__(self, page):
        self.page = page
        page.on("dialog", lambda dialog: dialog.accept())

    def select(self, author, phrase):
        drag_select(self.page, author, phrase)
        expect(self.page.locator("#selection")).to_contain_text(f"Selected in model {author}")

    def key(self, key, expect_status):
        self.page.keyboard.press(key)
        expect(self.page.locator("#status")).to_contain_text(expect_status)

    def click_scu(self, uid):
        self.page.click(f"#scu-{uid} .label")

    def click_contributor(self, uid, model):
        self.page.locator(f"#scu-{uid} .contributor", has_text=model).first.locator("b").click()

    def scus(self):
        """[(uid, label, {model: 'part…part'})] as the page shows them."""
        return self.page.evaluate("""() => Array.from(document.querySelectorAll('#scu-list .scu')).map((item) => [
          Number(item.dataset.uid), item.querySelector('.label').textContent.trim(),
          Object.fromEntries(Array.from(item.querySelectorAll('.contributor')).map((c) =>
            [c.querySelector('b').textContent, Array.from(c.querySelectorAll('.part')).map((p) => p.textContent).join('…')]))])""")


def test_building_a_pyramid(browser_page, live_server, demo, new_pyramid):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + new_pyramid)
    you = Annotator(page)

    you.select("A", "Apollo 11 landed on the Moon")
    you.key("n", "New SCU 1 “Apollo 11 landed on the Moon”")
    you.click_scu(1)
    you.select("B", "NASA's Apollo 11 mission put two astronauts on the Moon")
    you.key("a", "Added a contributor from model B to SCU 1")

    # The rule: one contributor per model, refused with its message and the fix.
    you.click_scu(1)
    you.select("A", "Armstrong was the first person")
    you.key("a", "already has a contributor from model A")
    expect(page.locator("#status")).to_contain_text("Add the text as another part of that contributor instead")

    # A discontinuous contributor: a new SCU, then another part of its contributor.
    you.select("C", "Apollo 11 was the first crewed mission to land on the Moon")
    you.key("n", "New SCU 2")
    you.click_contributor(2, "C")
    you.select("C", "in July 1969")
    you.key("a", "Added a part to the model C contributor of SCU 2")

    # Relabel in place.
    you.click_scu(1)
    page.keyboard.press("l")
    page.locator("input.edit-label").fill("Apollo 11 landed on the Moon in July 1969")
    page.locator("input.edit-label").press("Enter")
    expect(page.locator("#status")).to_contain_text("Relabelled SCU 1")

    # Move C's contributor to SCU 1: SCU 2, left empty, goes.
    you.click_contributor(2, "C")
    page.keyboard.press("v")
    you.click_scu(1)
    expect(page.locator("#status")).to_contain_text("SCU 2 was left empty and removed")

    # Merge, split, delete.
    you.select("D", "Hundreds of millions of people watched on television")
    you.key("n", "New SCU 2")
    you.select("B", "The landing was watched on television")
    you.key("n", "New SCU 3")
    you.click_scu(3)
    page.keyboard.press("g")
    you.click_scu(2)
    expect(page.locator("#status")).to_contain_text("Merged SCU 3 into SCU 2")
    you.click_contributor(2, "B")
    you.key("s", "into new SCU 3")
    you.click_scu(3)
    you.key("Delete", "Removed SCU 3")

    # Undo and redo, with the keyboard and the buttons.
    you.key("Control+z", "Undid: Removed SCU 3")
    assert [uid for uid, *_ in you.scus()] == [1, 2, 3]
    you.key("Control+y", "Redid: Removed SCU 3")
    assert [uid for uid, *_ in you.scus()] == [1, 2]
    page.click("button[data-act=undo]")
    expect(page.locator("#status")).to_contain_text("Undid: Removed SCU 3")

    expected = [
        [1, "Apollo 11 landed on the Moon in July 1969", {
            "A": "Apollo 11 landed on the Moon",
            "B": "NASA's Apollo 11 mission put two astronauts on the Moon",
            "C": "Apollo 11 was the first crewed mission to land on the Moon…in July 1969"}],
        [2, "Hundreds of millions of people watched on television", {
            "D": "Hundreds of millions of people watched on television"}],
        [3, "The landing was watched on television", {"B": "The landing was watched on television"}],
    ]
    assert you.scus() == expected
    page.reload()
    assert you.scus() == expected  # every change was stored
    expect(page.locator(".text[data-author='C'] mark[data-scus='1']", has_text="in July 1969")).to_have_count(1)
    # The history survives the reload: undo goes on where it was.
    you.key("Control+z", "Undid: Split a model B contributor off SCU 2 into new SCU 3")
    assert [(uid, sorted(models)) for uid, _, models in you.scus()] == [(1, ["A", "B", "C"]), (2, ["B", "D"])]


def test_a_stale_tab_is_refused_and_shows_the_current_state(browser_page, live_server, demo, new_pyramid):
    first = browser_page
    log_in(first, live_server, "outsider", "outsider-pass-1")
    first.goto(live_server.url + new_pyramid)
    second = first.context.new_page()
    second.goto(live_server.url + new_pyramid)

    in_second = Annotator(second)
    in_second.select("A", "Apollo 11 landed on the Moon")
    in_second.key("n", "New SCU 1")

    in_first = Annotator(first)
    in_first.select("B", "Neil Armstrong stepped out first")
    in_first.key("n", "changed elsewhere")
    # The first tab now shows what the second stored, and nothing of its own attempt.
    assert in_first.scus() == [[1, "Apollo 11 landed on the Moon", {"A": "Apollo 11 landed on the Moon"}]]
    in_first.select("B", "Neil Armstrong stepped out first")
    in_first.key("n", "New SCU 2")  # and works on from there


def test_a_network_failure_says_not_saved_and_retries(browser_page, live_server, demo, new_pyramid):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + new_pyramid)
    you = Annotator(page)
    page.route("**/edit/**", lambda route: route.abort())
    you.select("A", "Apollo 11 landed on the Moon")
    you.key("n", "Not saved")
    page.unroute("**/edit/**")
    page.click("#status button.retry")
    expect(page.locator("#status")).to_contain_text("New SCU 1")
    assert you.scus()[0][0] == 1


def test_keyboard_selection_help_search_and_finding_scus(browser_page, live_server, demo, new_pyramid):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + new_pyramid)
    you = Annotator(page)

    # Select with the keyboard only: into model B's text, then Shift+Ctrl+Right word by word.
    page.locator(".text[data-author='B']").focus()
    page.keyboard.press("Control+Home")
    for _ in range(8):  # how many steps a word takes (around "20,") is the browser's business
        page.keyboard.press("Shift+Control+ArrowRight")
        if "1969" in page.evaluate("() => window.getSelection().toString()"):  # the display follows a moment later
            break
    expect(page.locator("#selection")).to_contain_text("Selected in model B: “On July 20, 1969”")
    you.key("n", "New SCU 1 “On July 20, 1969”")

    page.keyboard.press("?")
    expect(page.locator("dialog#help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog#help")).to_be_hidden()

    you.select("A", "Apollo 11 landed on the Moon")
    you.key("n", "New SCU 2")
    # Clicking a shaded word selects its SCU; selecting an SCU highlights its words in every model.
    page.locator(".text[data-author='B'] mark[data-scus='1']").click()
    expect(page.locator("#scu-1")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("mark.highlight")).to_have_count(1)
    you.click_scu(2)
    expect(page.locator(".text[data-author='A'] mark.highlight")).to_have_text("Apollo 11 landed on the Moon")

    # Search: SCUs filtered by label or text, the words marked in the summaries.
    page.keyboard.press("/")
    page.keyboard.type("landed")
    expect(page.locator("#scu-list .scu:visible")).to_have_count(1)
    expect(page.locator(".text[data-author='A'] .found").first).to_be_visible()
    page.fill("#scu-filter", "")
    expect(page.locator("#scu-list .scu:visible")).to_have_count(2)

    # Side by side, remembered across a reload.
    page.click("[data-act=layout]")
    page.reload()
    expect(page.locator("#models")).to_have_class(re.compile(r"\bside-by-side\b"))


def test_the_refusal_offers_its_fix_and_new_scus_are_selected(browser_page, live_server, demo, new_pyramid):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + new_pyramid)
    you = Annotator(page)
    you.select("C", "Apollo 11 was the first crewed mission to land on the Moon")
    you.key("n", "New SCU 1")
    expect(page.locator("#scu-1")).to_have_class(re.compile(r"\bselected\b"))  # selected at once
    you.select("A", "Apollo 11 landed on the Moon")
    you.key("a", "Added a contributor from model A to SCU 1")  # no click needed
    you.select("C", "in July 1969")
    you.key("a", "already has a contributor from model C")
    page.click("#status button.fix")
    expect(page.locator("#status")).to_contain_text("Added a part to the model C contributor of SCU 1")
    assert you.scus()[0][2]["C"] == "Apollo 11 was the first crewed mission to land on the Moon…in July 1969"
    # Double-click a label to edit it in place.
    page.dblclick("#scu-1 .label")
    page.locator("input.edit-label").fill("First crewed Moon landing")
    page.locator("input.edit-label").press("Enter")
    expect(page.locator("#scu-1 .label")).to_have_text("First crewed Moon landing")
