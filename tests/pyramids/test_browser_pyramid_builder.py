"""In real Chromium: an annotator builds a pyramid with the mouse and the keyboard."""

import re

import pytest
from playwright.sync_api import expect

from annotator.models import SCU
from tests import human
from tests.accessibility import violations
from tests.conftest import BROWSER_TEST, log_in
from tests.helpers import Builder, empty_pyramid
from tests.human import drag_select

pytestmark = BROWSER_TEST


@pytest.fixture
def new_pyramid(demo):
    return f"/pyramids/{empty_pyramid(demo, name='DEMO01-B').pk}/"


class Annotator:
    def __init__(self, page):
        self.page = page
        page.on("dialog", lambda dialog: dialog.accept())

    def select(self, author, phrase):
        drag_select(self.page, author, phrase)
        expect(self.page.locator("#selection")).to_contain_text(
            f"Selected in model {author}: “{phrase}"
        )

    def key(self, key, expect_status):
        human.press(self.page, key)
        expect(self.page.locator("#status")).to_contain_text(expect_status)

    def click_scu(self, uid):
        human.click(self.page, f"#scu-{uid} .label")

    def type_label(self, text):
        """In the label being edited: select what is there, type the new label, Enter."""
        human.press(self.page, "Control+a")
        human.type_text(self.page, text)
        human.press(self.page, "Enter")

    def click_contributor(self, uid, model):
        """Open the SCU if it is closed (a click on its row), then click the contributor, as a
        person does."""
        if self.page.locator(f"#scu-{uid}").get_attribute("aria-expanded") != "true":
            human.click(self.page, f"#scu-{uid} .label")
        human.click(
            self.page,
            self.page.locator(f"#scu-{uid} .contributor", has_text=model).first.locator("b"),
        )

    def scus(self):
        """[(uid, label, {model: 'part…part'})] as the page shows them."""
        return self.page.evaluate("""() => Array.from(document.querySelectorAll('#scu-list .scu'))
          .map((item) => [
            Number(item.dataset.uid), item.querySelector('.label').textContent.trim(),
            Object.fromEntries(Array.from(item.querySelectorAll('.contributor')).map((c) => [
              c.querySelector('b').textContent,
              Array.from(c.querySelectorAll('.part')).map((p) => p.textContent).join('…'),
            ])),
          ])""")


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
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
    expect(page.locator("#status")).to_contain_text(
        "Add the text as another part of that contributor instead"
    )

    # A discontinuous contributor: a new SCU, then another part of its contributor.
    you.select("C", "Apollo 11 was the first crewed mission to land on the Moon")
    you.key("n", "New SCU 2")
    you.click_contributor(2, "C")
    you.select("C", "in July 1969")
    you.key("a", "Added a part to the model C contributor of SCU 2")

    # Relabel in place.
    you.click_scu(1)
    human.press(page, "l")
    you.type_label("Apollo 11 landed on the Moon in July 1969")
    expect(page.locator("#status")).to_contain_text("Relabelled SCU 1")
    assert SCU.objects.get(pyramid__name="DEMO01-B", uid=1).label == (
        "Apollo 11 landed on the Moon in July 1969"
    )
    # The models' tooltips name the SCU by its new label (A's and B's words), as a reload shows.
    titles = """() => Array.from(document.querySelectorAll(".text mark[data-scus~='1']"),
        (mark) => [mark.closest(".text").dataset.author, mark.title])"""
    # (set as the answer came, before the status says it was saved)
    assert page.evaluate(titles) == [
        ["A", "SCU 1: Apollo 11 landed on the Moon in July 1969"],
        ["B", "SCU 1: Apollo 11 landed on the Moon in July 1969"],
    ]

    # Move C's contributor to SCU 1: SCU 2, left empty, goes.
    you.click_contributor(2, "C")
    human.press(page, "v")
    you.click_scu(1)
    expect(page.locator("#status")).to_contain_text("SCU 2 was left empty and removed")

    # Merge, split, delete. SCU numbers are never given twice (issue 32): SCU 2 was removed, the
    # next new SCU is 3.
    you.select("D", "Hundreds of millions of people watched on television")
    you.key("n", "New SCU 3")
    you.select("B", "The landing was watched on television")
    you.key("n", "New SCU 4")
    you.click_scu(4)
    human.press(page, "g")
    you.click_scu(3)
    expect(page.locator("#status")).to_contain_text("Merged SCU 4 into SCU 3")
    you.click_contributor(3, "B")
    you.key("s", "into new SCU 5")
    you.click_scu(5)
    you.key("Delete", "Removed SCU 5")

    # Undo and redo, with the keyboard and the buttons. The SCU an undo brings back is selected,
    # and the keyboard, in the SCU list, goes with it (found by a tester: it stayed on the row
    # before).
    you.key("Control+z", "Undid: Removed SCU 5")
    assert [uid for uid, *_ in you.scus()] == [1, 3, 5]
    page.wait_for_function("() => document.activeElement?.closest?.('.scu')?.dataset.uid === '5'")
    assert page.locator("#scu-5").get_attribute("aria-selected") == "true"
    you.key("Control+y", "Redid: Removed SCU 5")
    assert [uid for uid, *_ in you.scus()] == [1, 3]
    human.click(page, "button[data-act=undo]")
    expect(page.locator("#status")).to_contain_text("Undid: Removed SCU 5")

    expected = [
        [
            1,
            "Apollo 11 landed on the Moon in July 1969",
            {
                "A": "Apollo 11 landed on the Moon",
                "B": "NASA's Apollo 11 mission put two astronauts on the Moon",
                "C": "Apollo 11 was the first crewed mission to land on the Moon…in July 1969",
            },
        ],
        [
            3,
            "Hundreds of millions of people watched on television",
            {"D": "Hundreds of millions of people watched on television"},
        ],
        [
            5,
            "The landing was watched on television",
            {"B": "The landing was watched on television"},
        ],
    ]
    assert you.scus() == expected
    stored = [
        [uid, label, {model: "…".join(parts) for model, parts in models.items()}]
        for uid, label, models in Builder.reading(
            int(new_pyramid.strip("/").split("/")[-1])
        ).state()
    ]
    assert stored == expected  # every change was stored
    page.reload()
    assert you.scus() == expected
    expect(
        page.locator(".text[data-author='C'] mark[data-scus='1']", has_text="in July 1969")
    ).to_have_count(1)
    # The history survives the reload: undo goes on where it was.
    you.key("Control+z", "Undid: Split a model B contributor off SCU 3 into new SCU 5")
    assert [(uid, sorted(models)) for uid, _, models in you.scus()] == [
        (1, ["A", "B", "C"]),
        (3, ["B", "D"]),
    ]


def test_a_stale_tab_is_refused_and_shows_the_current_state(
    browser_page, live_server, demo, new_pyramid
):
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
    assert in_first.scus() == [
        [1, "Apollo 11 landed on the Moon", {"A": "Apollo 11 landed on the Moon"}]
    ]
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
    human.click(page, "#status button.retry")
    expect(page.locator("#status")).to_contain_text("New SCU 1")
    assert you.scus()[0][0] == 1


def test_keyboard_selection_help_search_and_finding_scus(
    browser_page, live_server, demo, new_pyramid
):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + new_pyramid)
    you = Annotator(page)

    # Select with the keyboard only: into model B's text, then Shift+Ctrl+Right word by word.
    page.locator(".text[data-author='B']").focus()
    human.press(page, "Control+Home")
    for _ in range(8):  # how many steps a word takes (around "20,") is the browser's business
        human.press(page, "Shift+Control+ArrowRight")
        if "1969" in page.evaluate(
            "() => window.getSelection().toString()"
        ):  # the display follows a moment later
            break
    expect(page.locator("#selection")).to_contain_text("Selected in model B: “On July 20, 1969”")
    you.key("n", "New SCU 1 “On July 20, 1969”")

    human.press(page, "?")
    expect(page.locator("dialog#help")).to_be_visible()
    human.press(page, "Escape")
    expect(page.locator("dialog#help")).to_be_hidden()

    you.select("A", "Apollo 11 landed on the Moon")
    you.key("n", "New SCU 2")
    # Clicking a shaded word selects its SCU; selecting an SCU highlights its words in every model.
    page.locator(".text[data-author='B'] mark[data-scus='1']").click()
    expect(page.locator("#scu-1")).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator("mark.highlight")).to_have_count(1)
    you.click_scu(2)
    expect(page.locator(".text[data-author='A'] mark.highlight")).to_have_text(
        "Apollo 11 landed on the Moon"
    )

    # Search: SCUs filtered by label or text, the words marked in the summaries.
    human.press(page, "/")
    human.type_text(page, "landed")
    expect(page.locator("#scu-list .scu:visible")).to_have_count(1)
    expect(page.locator(".text[data-author='A'] .found").first).to_be_visible()
    human.press(page, "Control+a")
    human.press(page, "Delete")
    expect(page.locator("#scu-list .scu:visible")).to_have_count(2)

    # Stacked instead of side by side, remembered across a reload.
    human.click(page, "[data-act=layout]")
    page.reload()
    expect(page.locator("#models")).not_to_have_class(re.compile(r"\bside-by-side\b"))


def test_the_refusal_offers_its_fix_and_new_scus_are_selected(
    browser_page, live_server, demo, new_pyramid
):
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
    human.click(page, "#status button.fix")
    expect(page.locator("#status")).to_contain_text(
        "Added a part to the model C contributor of SCU 1"
    )
    assert (
        you.scus()[0][2]["C"]
        == "Apollo 11 was the first crewed mission to land on the Moon…in July 1969"
    )
    # Double-click a label to edit it in place.
    page.locator("#scu-1 .label").dblclick(delay=human.PRESS_MS // 2)
    you.type_label("First crewed Moon landing")
    expect(page.locator("#scu-1 .label")).to_have_text("First crewed Moon landing")


# -- defects seen in real hands (issue 13): each test failed before its fix ----------------------


@pytest.fixture
def started(demo):
    """A pyramid in progress with two SCUs (1: models A and B; 2: model A), as the service built
    them."""
    build = Builder(demo, name="DEMO01-B")
    build.new_scu("A", "Apollo 11 landed on the Moon")
    build.add(1, "B", "NASA's Apollo 11 mission put two astronauts on the Moon")
    build.new_scu("A", "Neil Armstrong and Buzz Aldrin walked on the surface")
    return build


def test_a_refused_move_offers_no_fix_that_would_put_words_in_two_scus(
    browser_page, live_server, started
):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + f"/pyramids/{started.pyramid.pk}/")
    you = Annotator(page)
    you.select("A", "Armstrong was the first person to step onto the Moon")
    you.key("n", "New SCU 3")
    before = started.state()
    # Move SCU 2's model A contributor to SCU 1, which has one from model A already: refused.
    you.click_contributor(2, "A")
    human.press(page, "v")
    human.click(page, "#scu-1 .label")
    expect(page.locator("#status")).to_contain_text("already has a contributor from model A")
    fixes = page.locator("#status button.fix")
    if fixes.count():  # a fix offered must do what it says: never the words of the last action
        human.click(page, fixes.first)
        human.answered(page)
    after = started.state()
    in_scus = [
        (uid, part) for uid, _, models in after for parts in models.values() for part in parts
    ]
    assert len({part for _, part in in_scus}) == len(in_scus), f"words in two SCUs: {in_scus}"
    assert after == before


def test_the_fix_after_a_refused_add_adds_the_words_refused(browser_page, live_server, started):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + f"/pyramids/{started.pyramid.pk}/")
    you = Annotator(page)
    human.click(page, "#scu-1 .label")
    you.select("A", "on July 20, 1969")
    you.key("a", "already has a contributor from model A")
    you.select("C", "Armstrong became the first human")  # the annotator looks elsewhere meanwhile
    human.click(page, "#status button.fix")
    expect(page.locator("#status")).to_contain_text(
        "Added a part to the model A contributor of SCU 1"
    )
    assert human.eventually(
        lambda: started.state()[0][2]["A"] == ["Apollo 11 landed on the Moon", "on July 20, 1969"]
    )


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_side_by_side_puts_every_model_in_one_row(browser_page, live_server, started):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + f"/pyramids/{started.pyramid.pk}/")
    tops = "(items) => items.map((m) => Math.round(m.getBoundingClientRect().top))"
    lefts = "(items) => items.map((m) => Math.round(m.getBoundingClientRect().left))"
    models = page.locator("#models article.summary")
    # Side by side by default: the four models in one row, each in sight.
    expect(page.locator("#models")).to_have_class(re.compile(r"\bside-by-side\b"))
    assert len(set(models.evaluate_all(tops))) == 1
    width = page.viewport_size["width"]
    assert all(0 <= left < width - 100 for left in models.evaluate_all(lefts))
    human.click(page, "[data-act=layout]")  # stacked: one under another
    expect(page.locator("#models")).not_to_have_class(re.compile(r"\bside-by-side\b"))
    assert models.evaluate_all(tops) == sorted(set(models.evaluate_all(tops)))
    expect(page.locator("[data-act=layout]")).to_have_text("Show side by side")


def scroll_of(page, selector):
    return page.locator(selector).evaluate("(pane) => pane.scrollTop")


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_a_refusal_keeps_the_scroll_the_selection_and_the_typed_label(
    browser_page, live_server, started
):
    page = browser_page
    phrases = [
        "Michael Collins orbited above",
        "The crew collected rock samples",
        "returned safely to Earth",
        "on July 24",
        "walked on the surface",
        "in the command module",
        "to step onto the Moon",
    ]
    for phrase in phrases * 3:  # enough SCUs for the list to scroll
        started.new_scu("A", phrase)
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + f"/pyramids/{started.pyramid.pk}/")
    you = Annotator(page)
    last = started.state()[-1][0]
    page.locator(f"#scu-{last}").scroll_into_view_if_needed()
    human.click(page, f"#scu-{last} .label")
    # Its phrases shown under the list, which keeps the row in sight (the list shrank for them).
    expect(page.locator("#builder-help-list")).to_have_attribute("data-uid", str(last))
    human.settle(page)
    scus_scroll = scroll_of(page, "section.scus")
    assert scus_scroll > 0
    you.select("A", "Apollo 11 landed on the Moon on July 20")
    panes_top = page.locator("section.scus").bounding_box()["y"]
    you.key("a", "already has a contributor from model A")  # 422
    assert abs(scroll_of(page, "section.scus") - scus_scroll) < 2
    assert (
        page.locator("section.scus").bounding_box()["y"] == panes_top
    )  # a long message moves nothing
    expect(page.locator("#selection")).to_contain_text("Apollo 11 landed on the Moon on July 20")
    you.key("n", f"New SCU {last + 1}")  # the kept selection is still there to use
    assert started.state()[-1][2] == {"A": ["Apollo 11 landed on the Moon on July 20"]}

    # A conflict (another tab changed the pyramid) while a label is being typed: the typed words
    # stay, and Retry stores them on the current version.
    started.do("set_label", 1, "Changed in another tab")
    human.click(page, "#scu-1 .label")
    human.press(page, "l")
    human.press(page, "Control+a")
    human.type_text(page, "The first Moon landing")
    human.press(page, "Enter")
    expect(page.locator("#status")).to_contain_text("changed elsewhere")
    expect(page.locator("input.edit-label")).to_have_value("The first Moon landing")
    human.click(page, "#status button.retry")
    expect(page.locator("#status")).to_contain_text("Relabelled SCU 1")
    assert human.eventually(lambda: started.state()[0][1] == "The first Moon landing")


# -- keyboard only: every action without a mouse, the focus always visible ------------------------


def select_by_keyboard(page, author, phrase):
    """Tab into a model's text and select its first words, `phrase`, with the keyboard."""
    human.select_with_keys(page, f".text[data-author='{author}']", phrase.split()[-1])
    expect(page.locator("#selection")).to_contain_text(phrase)


def saved(page, text):
    """Wait, as a person does, to see the page say the action was saved."""
    expect(page.locator("#status")).to_contain_text(text)


def focus_visible(page):
    """The focused element's outline: style, width and colour (the focus must be visible,
    >= 3:1)."""
    return page.evaluate("""() => {
        const s = getComputedStyle(document.activeElement.matches('.scu') ?
          document.activeElement.querySelector('.scu-row') : document.activeElement);
        return [s.outlineStyle, s.outlineWidth, s.outlineColor]; }""")


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_building_with_the_keyboard_only(browser_page, live_server, demo, new_pyramid):
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + new_pyramid)
    build = Builder.reading(int(new_pyramid.strip("/").split("/")[-1]))  # what the page stored

    select_by_keyboard(page, "A", "Apollo 11 landed on the Moon")
    human.press(page, "n")
    saved(page, "New SCU 1")
    assert human.eventually(lambda: build.state()) == [
        (1, "Apollo 11 landed on the Moon", {"A": ["Apollo 11 landed on the Moon"]})
    ]
    # The text was reshaded (swapped): the focus is back in it, not on the page.
    expect(page.locator(".text[data-author='A']")).to_be_focused()
    # The caret in shaded words says which SCU holds them (the mouse gets it as a tooltip).
    human.tab_to(page, ".text[data-author='A']")
    human.press(page, "Control+Home")
    human.press(page, "ArrowRight")
    expect(page.locator("#selection")).to_have_text("At SCU 1: Apollo 11 landed on the Moon")
    select_by_keyboard(page, "B", "On July 20, 1969")
    human.tab_to(page, "#scu-list [role=treeitem]")  # the tree takes one Tab stop: its selected SCU
    assert page.evaluate("() => document.activeElement.id") == "scu-1"
    assert focus_visible(page) == ["solid", "2px", "rgb(31, 95, 168)"]
    human.press(page, "a")
    saved(page, "Added a contributor from model B to SCU 1")
    assert human.eventually(lambda: len(build.state()[0][2]) == 2)
    # Into the SCU, down to model B's contributor, split it off into SCU 2.
    human.press(page, "ArrowRight")
    human.press(page, "ArrowDown")
    human.press(page, "ArrowDown")
    assert "B" in page.evaluate("() => document.activeElement.textContent")
    human.press(page, "s")
    saved(page, "into new SCU 2")
    assert human.eventually(lambda: len(build.state()) == 2 and build.state()[1][2]) == {
        "B": ["On July 20, 1969"]
    }
    # Move it back with v, ↑ to SCU 1, Enter.
    human.tab_to(page, "#scu-list [role=treeitem]")
    human.press(page, "End")
    if page.evaluate("() => document.activeElement.matches('.scu')"):
        human.press(page, "ArrowRight")
        human.press(page, "ArrowDown")
    assert page.evaluate("() => document.activeElement.matches('.contributor')")
    human.press(page, "v")
    expect(page.locator("#status")).to_contain_text("Choose the SCU")
    human.arrow_to(page, "#scu-1", key="ArrowUp")
    human.press(page, "Enter")
    saved(page, "Moved a model B contributor from SCU 2 to SCU 1")
    assert human.eventually(lambda: len(build.state()) == 1 and sorted(build.state()[0][2])) == [
        "A",
        "B",
    ]
    # Relabel from model B's contributor (t), then by typing (l), then remove B's contributor.
    human.press(page, "ArrowRight")
    while "B" not in page.evaluate("() => document.activeElement.textContent.trim().slice(0, 2)"):
        human.press(page, "ArrowDown")
    human.press(page, "t")
    saved(page, "Relabelled SCU 1 from a contributor")
    assert human.eventually(lambda: build.state()[0][1] == "On July 20, 1969")
    human.press(page, "Delete")
    saved(page, "Removed the model B contributor of SCU 1")
    assert human.eventually(lambda: sorted(build.state()[0][2]) == ["A"])
    # Another part of model A's contributor: words further on in A, then a on the contributor.
    human.select_with_keys(page, ".text[data-author='A']", "1969", after_words=6, backwards=True)
    expect(page.locator("#selection")).to_contain_text("on July 20, 1969")
    human.tab_to(page, "#scu-list [role=treeitem]")
    human.arrow_to(page, ".contributor")
    human.press(page, "a")
    saved(page, "Added a part to the model A contributor of SCU 1")
    assert human.eventually(
        lambda: build.state()[0][2] == {"A": ["Apollo 11 landed on the Moon", "on July 20, 1969"]}
    )
    human.tab_to(page, "#scu-list [role=treeitem]")
    human.press(page, "Home")
    human.press(page, "l")
    human.press(page, "Control+a")
    human.type_text(page, "Apollo 11 landed")
    human.press(page, "Enter")
    saved(page, "Relabelled SCU 1 “Apollo 11 landed”")
    assert human.eventually(lambda: build.state()[0][1] == "Apollo 11 landed")
    expect(page.locator("#scu-1")).to_be_focused()  # the focus stays for the next key


def test_dragging_an_scu_reorders_and_shift_drop_merges(browser_page, live_server, started):
    page = browser_page
    started.new_scu("C", "Collins stayed in lunar orbit")
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + f"/pyramids/{started.pyramid.pk}/")

    def drag(source, target, below=True, modifiers=()):
        start, end = page.locator(source).bounding_box(), page.locator(target).bounding_box()
        page.mouse.move(start["x"] + 60, start["y"] + start["height"] / 2, steps=4)
        page.mouse.down()
        page.wait_for_timeout(human.PRESS_MS)
        for key in modifiers:
            page.keyboard.down(key)
        y = end["y"] + end["height"] * (0.8 if below else 0.2)
        page.mouse.move(end["x"] + 60, y, steps=12)
        page.wait_for_timeout(human.PRESS_MS)
        page.mouse.up()
        for key in modifiers:
            page.keyboard.up(key)

    drag("#scu-3 .scu-row", "#scu-1 .scu-row", below=False)  # SCU 3 above SCU 1
    assert human.eventually(lambda: [uid for uid, *_ in started.state()] == [3, 1, 2])
    expect(page.locator("#scu-list > .scu").first).to_have_id("scu-3")
    page.on("dialog", lambda dialog: dialog.accept())
    drag("#scu-3 .scu-row", "#scu-2 .scu-row", modifiers=("Shift",))  # merged into SCU 2
    assert human.eventually(lambda: [uid for uid, *_ in started.state()] == [1, 2])
    assert sorted(started.state()[1][2]) == ["A", "C"]


def test_the_selected_scus_words_stand_out_whatever_their_shade(browser_page, live_server, started):
    """Words of the alternate shade, or in two SCUs, still turn the selected SCU's colour."""
    page = browser_page
    started.new_scu("A", "walked on the surface")  # overlaps SCU 2's words: "in two SCUs"
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + f"/pyramids/{started.pyramid.pk}/")
    shade = "(marks) => marks.map((m) => getComputedStyle(m).backgroundColor)"
    alternate = page.locator(".text[data-author='A'] mark.t1")
    assert alternate.count() > 0
    human.click(page, "#scu-2 .label")
    selected = page.locator(".text mark.highlight")
    expect(selected.first).to_be_visible()
    assert set(selected.evaluate_all(shade)) == {"rgb(143, 193, 255)"}
    assert page.locator(".text mark.highlight.t1, .text mark.highlight.overlap").count() > 0


def test_a_new_scu_stays_the_one_edited_after_its_label(browser_page, live_server, started):
    """After n, l and Enter, the selection once went back to the SCU clicked before (the tree's
    Tab stop), and the next comment landed there."""
    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + f"/pyramids/{started.pyramid.pk}/")
    you = Annotator(page)
    you.click_scu(1)
    you.select("D", "Hundreds of millions of people watched on television")
    you.key("n", "New SCU 3")
    human.press(page, "l")
    expect(page.locator("input.edit-label")).to_have_attribute("aria-label", "Label of SCU 3")
    you.type_label("Millions watched on TV")
    saved(page, "Relabelled SCU 3")
    human.press(page, "c")
    expect(page.locator("input.edit-comment")).to_have_attribute("aria-label", "Comment on SCU 3")
    you.type_label("B says 600 million")
    saved(page, "Commented on SCU 3")
    from annotator.models import SCU

    assert dict(SCU.objects.filter(pyramid=started.pyramid).values_list("uid", "comment")) == {
        1: "",
        2: "",
        3: "B says 600 million",
    }
    # The search: Enter goes to the first SCU found.
    human.press(page, "/")
    human.type_text(page, "millions")
    human.press(page, "Enter")
    expect(page.locator("#scu-3")).to_be_focused()


# -- SCU rows whose numbers are wide (issue 17) ----------------------------------------------------

ROW_PROBLEMS = """() => {
  // Every SCU row: each number (the weight in its badge, the "#uid") and the twisty fully inside
  // the row and its scrolling pane, side by side without overlapping, and the text's wrapped lines
  // aligned after the badge (a hanging indent sized for one digit pushed wider numbers out of
  // sight).
  const problems = [];
  const inside = (r, box) => r.left >= box.left - 1 && r.right <= box.right + 1;
  const textBox = (e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return range.getBoundingClientRect();
  };
  for (const row of document.querySelectorAll("#scu-list .scu-row")) {
    const pane = row.closest("section"), p = pane.getBoundingClientRect();
    const box = {
      left: p.left + pane.clientLeft,
      right: p.left + pane.clientLeft + pane.clientWidth,
    };
    const r = row.getBoundingClientRect(), name = row.id;
    const badge = row.querySelector(".weight"), b = badge.getBoundingClientRect();
    const digits = textBox(badge);
    if (!(digits.width > 0 && inside(digits, b)))
      problems.push(`${name}: weight ${badge.textContent} outside its badge`);
    if (!inside(b, r) || !inside(b, box))
      problems.push(`${name}: badge ${badge.textContent} outside the row or the pane`);
    const twisty = row.querySelector(".twisty");
    if (twisty) {
      const t = twisty.getBoundingClientRect(), glyph = getComputedStyle(twisty, "::before");
      if (!(t.width > 0 && inside(t, r) && t.right <= b.left + 1 && glyph.textIndent === "0px"))
        problems.push(`${name}: twisty hidden`);
    }
    const text = row.querySelector(".scu-text") || row.querySelector(".label, i");
    if (text.getBoundingClientRect().left < b.right) problems.push(`${name}: text over the badge`);
    const uid = row.querySelector(".uid");
    if (uid) {
      const u = textBox(uid);
      if (!(u.width > 0 && inside(u, box) && u.left >= b.right))
        problems.push(`${name}: ${uid.textContent} cut`);
    }
    const label = row.querySelector(".label");
    for (const line of label ? Array.from(label.getClientRects()) : []) {
      if (line.left < text.getBoundingClientRect().left - 1)
        problems.push(`${name}: a line of the label under the badge`);
    }
  }
  return problems.slice(0, 12);
}"""


def wide_pyramid(demo, status="in_progress"):
    """A pyramid of 120 SCUs over the demo's models: uids 1-120, weights 1-4 and, for SCUs 54 and
    120, 54 and 120 contributors (DUCView keeps several contributors of one model as they are)."""
    from annotator.models import SCU, Contributor, Pyramid, Span

    pyramid = empty_pyramid(demo, name="WIDE", assign_to="annotator")
    models = list(pyramid.models_used.all())
    scus = SCU.objects.bulk_create(
        SCU(
            pyramid=pyramid,
            uid=uid,
            position=uid,
            label=f"SCU {uid}: a label long enough to wrap over two lines or more of the SCU pane, "
            "as real ones do",
        )
        for uid in range(1, 121)
    )
    weights = {scu: {54: 54, 120: 120}.get(scu.uid, scu.uid % 4 + 1) for scu in scus}
    contributors = Contributor.objects.bulk_create(
        Contributor(scu=scu, summary=models[i % len(models)], position=i)
        for scu, n in weights.items()
        for i in range(n)
    )
    Span.objects.bulk_create(
        Span(contributor=c, summary_id=c.summary_id, start=0, end=6, position=0)
        for c in contributors
    )
    Pyramid.objects.filter(pk=pyramid.pk).update(status=status)
    return pyramid


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_numbers_of_any_width_show_in_the_scu_list(browser_page, live_server, demo):
    """Issue 17: SCU numbers from 10 up were cut ("4." for 54): every weight, uid and twisty shows
    whole."""
    page = browser_page
    pyramid = wide_pyramid(demo)
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(live_server.url + f"/pyramids/{pyramid.pk}/")
    expect(page.locator("#scu-list > .scu")).to_have_count(120)
    expect(page.locator("#scu-54 .weight")).to_have_text("54")
    assert page.evaluate(ROW_PROBLEMS) == []
    human.click(page, "button:text-is('Expand all')")  # the contributors open under their SCUs
    assert page.evaluate(ROW_PROBLEMS) == []


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_peer_page_lists_the_same_rows_whole(browser_page, live_server, demo):
    """The peer page's SCU pane (by weight) has the builder's rows: the same numbers, whole."""
    from annotator.models import Assignment, PeerAnnotation

    page = browser_page
    pyramid = wide_pyramid(demo, status="submitted")
    peer = demo["annotations"]["1"].peer
    Assignment.objects.filter(user=demo["annotator"], task="peer").update(pyramid=pyramid)
    annotation = PeerAnnotation.objects.create(
        pyramid=pyramid, peer=peer, annotator=demo["annotator"]
    )
    log_in(page, live_server, "annotator", "annotator-pass-1")
    page.goto(live_server.url + f"/annotations/{annotation.pk}/")
    expect(page.locator("#scu-list .scu[data-uid]")).to_have_count(121)  # and "matches nothing"
    expect(page.locator("#scu-120 .weight")).to_have_text("120")
    assert page.evaluate(ROW_PROBLEMS) == []


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_escape_drops_the_selected_words_and_n_then_makes_no_scu(
    browser_page, live_server, demo, new_pyramid
):
    """Escape cleared the selection line while the browser's own selection still spanned the words,
    and `n` then made an SCU of them (a tester's report)."""
    from annotator.models import SCU

    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + new_pyramid)
    you = Annotator(page)
    you.select("C", "before the end of the decade")
    human.press(page, "Escape")
    expect(page.locator("#selection")).not_to_contain_text("Selected in model")
    human.press(page, "n")
    human.answered(page)
    assert not SCU.objects.filter(pyramid__name="DEMO01-B").exists()
    # Selected again, `n` makes the SCU, once.
    you.select("C", "before the end of the decade")
    you.key("n", "New SCU 1")
    human.press(page, "n")
    human.answered(page)
    assert list(SCU.objects.filter(pyramid__name="DEMO01-B").values_list("label", flat=True)) == [
        "before the end of the decade"
    ]


def test_an_answer_reshades_only_the_words_that_changed(
    browser_page, live_server, demo, new_pyramid
):
    """Issue 32: an edit's answer brings the model texts it reshaded; the page replaces only the
    runs that changed (static/js/text-selection.js), so the rest of the text is the same nodes,
    and what it shows is what was stored: each SCU's words marked with its number."""
    from annotator.models import SCU

    page = browser_page
    log_in(page, live_server, "outsider", "outsider-pass-1")
    page.goto(live_server.url + new_pyramid)
    you = Annotator(page)
    text = '.text[data-author="A"]'
    you.select("A", "Armstrong was the first person")
    you.key("n", "New SCU 1")
    first = page.locator(f"{text} mark")
    expect(first).to_have_text("Armstrong was the first person")
    first.evaluate("(mark) => { mark.keptAcross = 'yes'; }")  # on the node, not an attribute
    you.select("A", "Apollo 11 landed on the Moon")
    you.key("n", "New SCU 2")
    stored = {
        scu.uid: scu.contributors.get().spans.get().summary.author
        for scu in SCU.objects.filter(pyramid__name="DEMO01-B")
    }
    assert stored == {1: "A", 2: "A"}
    marks = page.locator(f"{text} mark")
    expect(marks).to_have_count(2)
    expect(marks.nth(0)).to_have_text("Apollo 11 landed on the Moon")
    expect(marks.nth(0)).to_have_attribute("data-scus", "2")
    expect(marks.nth(1)).to_have_attribute("data-scus", "1")
    assert marks.nth(1).evaluate("(mark) => mark.keptAcross") == "yes", (
        "SCU 1's words, unchanged, were redrawn"
    )
    assert violations(page) == []  # the text as the answer reshaded it
    # Undone: SCU 2's words are free again, SCU 1's the same node still.
    human.press(page, "Control+z")
    expect(page.locator("#status")).to_contain_text("Undid")
    expect(marks).to_have_count(1)
    assert list(SCU.objects.filter(pyramid__name="DEMO01-B").values_list("uid", flat=True)) == [1]
    assert marks.first.evaluate("(mark) => mark.keptAcross") == "yes"
    whole = page.evaluate(f"document.querySelector('{text}').textContent")
    assert whole.startswith("Apollo 11 landed on the Moon")
