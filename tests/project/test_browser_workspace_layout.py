"""In real Chromium: the builder and the peer page fit a laptop's screen with DUC's largest pyramid
available (D0640, 103 SCUs): the page itself never scrolls, its panes do; at 1280x720 one sees two
models (or the peer and a model), ten SCU rows, and on the peer page the scores and the
suggestions for the words selected."""

import pytest
from playwright.sync_api import expect

from tests import human
from tests.conftest import CHROMIUM, log_in
from tests.helpers import import_files
from tests.human import drag_select

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.shared_data,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed (apt-get install -y chromium)",
    ),
]

IN_SIGHT = """(selector) => {
  // Elements whose box lies (at least 40 px of it) within the window and within their scrolling
  // pane.
  const seen = (e) => {
    const r = e.getBoundingClientRect(), pane = e.closest("section").getBoundingClientRect();
    const top = Math.max(r.top, pane.top, 0), bottom = Math.min(r.bottom, pane.bottom, innerHeight);
    const left = Math.max(r.left, pane.left, 0), right = Math.min(r.right, pane.right, innerWidth);
    return r.height > 0 && bottom - top >= Math.min(40, r.height)
      && right - left >= Math.min(100, r.width);
  };
  return Array.from(document.querySelectorAll(selector)).filter(seen).length;
}"""
SUGGESTIONS_WHOLE = """() => {
  // Suggestions whose whole box lies within the suggestions' box, as the window shows it.
  const box = document.querySelector("#suggestions .suggestions").getBoundingClientRect();
  return Array.from(document.querySelectorAll("#suggestions li")).filter((li) => {
    const r = li.getBoundingClientRect();
    return r.top >= box.top && r.bottom <= Math.min(box.bottom, innerHeight);
  }).length;
}"""
ROWS_IN_SIGHT = """(selector) => {
  // Rows shown whole within their pane and the window.
  return Array.from(document.querySelectorAll(selector)).filter((row) => {
    const r = row.getBoundingClientRect(), pane = row.closest("section").getBoundingClientRect();
    return r.height > 0 && r.top >= pane.top && r.bottom <= Math.min(pane.bottom, innerHeight);
  }).length;
}"""


@pytest.fixture
def d0640(shared_data, demo):
    from annotator.models import PeerAnnotation, Pyramid
    from annotator.peer_annotation import editing as peer_editing
    from annotator.pyramids import editing

    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0640.pyr",
        folder / "allpans/116.D0640.M.250.D.1.pan",
        collection="DUC 2006",
    )
    pyramid = Pyramid.objects.get(name="D0640")
    annotation = PeerAnnotation.objects.get(pyramid=pyramid)
    return {
        "pyramid": pyramid.pk,
        "annotation": annotation.pk,
        "open pyramid": lambda: editing.reopen(pyramid.pk, demo["admin"], pyramid.version),
        "open annotation": lambda: peer_editing.reopen(
            annotation.pk, demo["admin"], annotation.version
        ),
    }


WEIGHTS_READABLE = """() => Array.from(document.querySelectorAll("#scu-list .scu-row .weight"))
  .slice(0, 20).every((badge) => {
  // The number inside its badge (a hanging indent once pushed it out, leaving empty boxes).
  const range = document.createRange(); range.selectNodeContents(badge);
  const text = range.getBoundingClientRect(), box = badge.getBoundingClientRect();
  return text.width > 0 && text.left >= box.left - 1 && text.right <= box.right + 1;
})"""


def page_does_not_scroll(page):
    return page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight + 1")


def open_to_edit(page, live_server, url):
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(live_server.url + url)
    assert page.locator("#workspace").get_attribute("data-editable") == "true"
    assert page_does_not_scroll(page)


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_the_builder_fits_the_screen(browser_page, live_server, d0640):
    page = browser_page
    d0640["open pyramid"]()
    open_to_edit(page, live_server, f"/pyramids/{d0640['pyramid']}/")
    assert page.evaluate(IN_SIGHT, "#models article.summary") >= 2
    assert page.evaluate(ROWS_IN_SIGHT, "#scu-list > .scu > .scu-row") >= 10
    assert page.evaluate(WEIGHTS_READABLE)


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_the_peer_page_fits_the_screen(browser_page, live_server, d0640):
    page = browser_page
    d0640["open annotation"]()
    open_to_edit(page, live_server, f"/annotations/{d0640['annotation']}/")
    assert page.evaluate(IN_SIGHT, "#peer-text") == 1
    assert page.evaluate(IN_SIGHT, ".models-pane article.summary") >= 1
    assert page.evaluate(ROWS_IN_SIGHT, "#scu-list .scu .scu-row") >= 10
    assert page.evaluate(WEIGHTS_READABLE)
    assert page.locator("#score-strip").is_visible()
    assert page.locator("#score-strip").bounding_box()["y"] < 200
    # The last words of the peer: their suggestions show beside them, in sight, without scrolling.
    last = page.locator("#peer-text").inner_text().strip().split(".")[-2].strip().split()[-3:]
    drag_select(page, "peer", " ".join(last))
    page.locator("#suggestions li").first.wait_for()
    box = page.locator("#suggestions li").first.bounding_box()
    assert box["y"] + box["height"] <= page.viewport_size["height"]
    # At least three suggestions shown whole, none cut in the middle of a line (the box was once
    # 7.5rem high: the second suggestion showed half its label).
    assert page.evaluate(SUGGESTIONS_WHOLE) >= min(3, page.locator("#suggestions li").count())
    assert page_does_not_scroll(page)


MODEL_NAMES_IN_SIGHT = """() => Array.from(document.querySelectorAll(".models-pane .summary > h2"))
  .filter((name) => {
    // The name shown in its pane, below the pane's own tools, not under them.
    const r = name.getBoundingClientRect(), pane = name.closest("section");
    const tools = pane.querySelector(".pane-tools").getBoundingClientRect();
    const bottom = pane.getBoundingClientRect().bottom;
    return r.height > 0 && r.top >= tools.bottom - 1 && r.bottom <= bottom;
  }).length"""


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_the_read_only_builder_fits_and_keeps_the_model_names_in_sight(
    browser_page, live_server, d0640
):
    """Issue 32: at 1280x720 the read-only builder was 21 px taller than the window, and the
    models' names ("Model A 96% in SCUs") scrolled away with their texts."""
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(live_server.url + f"/pyramids/{d0640['pyramid']}/")
    assert page.locator("#workspace").get_attribute("data-editable") == "false"
    assert page_does_not_scroll(page)
    models = page.locator(".models-pane .summary").count()
    assert page.evaluate(MODEL_NAMES_IN_SIGHT) == models
    # Scrolled far down the models, every name is still in sight.
    page.mouse.move(
        *page.evaluate(
            "() => { const r = document.querySelector('.models-pane').getBoundingClientRect(); "
            "return [r.left + r.width / 2, r.top + r.height / 2]; }"
        )
    )
    page.mouse.wheel(0, 600)
    human.scrolled(page)
    assert page.evaluate("() => document.querySelector('.models-pane').scrollTop") > 0
    assert page.evaluate(MODEL_NAMES_IN_SIGHT) == models


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_problems_list_stays_within_the_window(browser_page, live_server, shared_data, demo):
    """Found by a tester on D0601 at 1280 px: the open list of its 74 problems ran 150 px past the
    window's right edge, the whole page scrolled sideways, and each link followed scrolled it
    further. The list opens within the window, and following a link leaves the page in place."""
    from annotator.models import Pyramid
    from annotator.pyramids import editing
    from tests.human import click

    import_files(shared_data / "duc2006-nist/allpyramids/D0601.pyr", collection="DUC 2006")
    pyramid = Pyramid.objects.get(name="D0601")
    editing.reopen(pyramid.pk, demo["admin"], pyramid.version)
    page = browser_page
    open_to_edit(page, live_server, f"/pyramids/{pyramid.pk}/")
    click(page, page.locator("#problems summary"))
    box = page.locator("#problems ul").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= page.viewport_size["width"]
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")
    link = page.locator("#problems ul a").first
    uid = link.get_attribute("data-goto")
    click(page, link)
    page.wait_for_function("(uid) => document.activeElement?.closest?.(`#scu-${uid}`)", arg=uid)
    assert page.evaluate("() => scrollX") == 0
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= innerWidth")


WORDS_CLEAR_OF_NAMES = """(uid) => {
  // Each model's first words of SCU `uid`, as the page scrolled them into view: below the model's
  // name that sticks at the top of the pane (not under it: a tester's drag started on a name).
  const gaps = [];
  document.querySelectorAll(".models-pane .summary").forEach((model) => {
    const marks = Array.from(model.querySelectorAll(".text mark[data-scus]"));
    const first = marks.find((m) => m.dataset.scus.split(" ").includes(uid));
    if (!first) return;
    const name = model.querySelector(":scope > h2").getBoundingClientRect();
    gaps.push(Math.round(first.getBoundingClientRect().top - name.bottom));
  });
  return gaps;
}"""


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_words_scrolled_into_view_clear_the_models_names(browser_page, live_server, d0640):
    """Found by a tester at 1280x720: four models side by side, names such as "Model A 94% in
    SCUs" wrap to two lines, and the words the page scrolled into view for a selected SCU lay under
    a name (the pane kept room for one line)."""
    page = browser_page
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(live_server.url + f"/pyramids/{d0640['pyramid']}/")
    heights = page.locator(".models-pane .summary > h2").evaluate_all(
        "(names) => names.map((n) => n.getBoundingClientRect().height)"
    )
    assert max(heights) > 1.5 * min(heights), f"no name wraps at 1280 px: {heights}"
    # The SCU of the first words marked in the first model, scrolled away from, then selected.
    uid = page.evaluate(
        "() => document.querySelector('.models-pane .text mark[data-scus]').dataset.scus"
        ".split(' ')[0]"
    )
    page.mouse.move(
        *page.evaluate(
            "() => { const r = document.querySelector('.models-pane').getBoundingClientRect(); "
            "return [r.left + r.width / 2, r.top + r.height / 2]; }"
        )
    )
    page.mouse.wheel(0, 5000)
    human.scrolled(page)
    human.click(page, f"#scu-{uid} .label")
    expect(page.locator(f"#scu-{uid}")).to_have_attribute("aria-selected", "true")
    human.scrolled(page)  # the SCU's words brought into view
    gaps = page.evaluate(WORDS_CLEAR_OF_NAMES, uid)
    assert gaps, "the SCU's words are in no model"
    assert all(gap >= -1 for gap in gaps), f"words under a name by {gaps} px"


SELECTED_ROW_IN_SIGHT = """() => {
  // The selected SCU's row, whole, within the SCU list's pane as it is now.
  const row = document.querySelector("#scu-list > .scu.selected > .scu-row");
  if (!row) return null;
  const r = row.getBoundingClientRect(), pane = row.closest("section").getBoundingClientRect();
  return r.top >= pane.top - 1 && r.bottom <= pane.bottom + 1;
}"""


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
@pytest.mark.parametrize("how", ["End", "click"])
def test_the_selected_scu_stays_in_sight_when_its_phrases_come(
    browser_page, live_server, d0640, how
):
    """Found by a tester: the last SCU selected (End in the tree, or a click on the last row in
    sight), the builder's help under the list grew with its phrases (98 -> 223 px) and the
    selected row went out of sight under it."""
    page = browser_page
    d0640["open pyramid"]()
    open_to_edit(page, live_server, f"/pyramids/{d0640['pyramid']}/")
    if how == "End":
        human.tab_to(page, "#scu-list [role=treeitem]")
        human.press(page, "End")
    else:
        rows = page.locator("#scu-list > .scu > .scu-row")
        last = page.evaluate(
            """() => { const pane = document.querySelector("#scu-list").closest("section")
              .getBoundingClientRect();
            const rows = Array.from(document.querySelectorAll("#scu-list > .scu > .scu-row"));
            const inSight = rows.filter((r) => r.getBoundingClientRect().bottom <= pane.bottom);
            return inSight.length - 1; }"""
        )
        human.click(page, rows.nth(last))
    uid = page.evaluate("() => document.querySelector('#scu-list > .scu.selected').dataset.uid")
    page.wait_for_function(
        "(uid) => document.getElementById('builder-help-list')?.dataset.uid === uid", arg=uid
    )
    assert page.locator("#builder-help-list .builder-help-phrases").count() > 0, "no phrases"
    assert human.eventually(lambda: page.evaluate(SELECTED_ROW_IN_SIGHT)), (
        f"SCU {uid}, selected, is out of sight under the help"
    )
    assert page_does_not_scroll(page)
