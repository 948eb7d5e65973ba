"""Driving the pages in Chromium as people do, for every browser test.

People press a mouse button for about a tenth of a second, drag over words through several
points, type a key at a time and move focus with Tab. Playwright's own click() and fill() do none
of this (a click lasts 0 ms, fill() sets the value at once), and the annotation pages broke in
ways such tests never saw. So browser tests use these helpers, then check what was *stored*.
"""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

PRESS_MS = 120  # how long a person holds a mouse button or a key
KEY_DELAY_MS = 60  # between keys when typing
VIEWPORTS = {"laptop": {"width": 1280, "height": 720}, "desktop": {"width": 1440, "height": 900}}

SETTLED = (
    """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"""
)

DRAG_PATH = """([author, phrase, nth]) => {
  // The points a person's drag goes through to select a phrase in a summary's text: from its first
  // character along each of its lines to its last character (never through the gaps between lines).
  const box = document.querySelector(`.text[data-author="${author}"]`);
  box.scrollIntoView({ block: "nearest" });
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  const full = box.textContent;
  let start = full.indexOf(phrase);
  for (let i = 0; i < nth; i++) start = full.indexOf(phrase, start + 1);
  const end = start + phrase.length;
  const at = (offset) => {
    let node, seen = 0;
    walker.currentNode = box;
    while ((node = walker.nextNode())) {
      if (offset < seen + node.data.length) return [node, offset - seen];
      seen += node.data.length;
    }
  };
  const range = (from, to) => {
    const r = document.createRange();
    r.setStart(...at(from));
    r.setEnd(...at(to - 1));
    r.setEnd(r.endContainer, r.endOffset + 1);
    return r;
  };
  const whole = range(start, end);
  // Bring the whole phrase into view, as a person scrolls before dragging (clear of the pane's
  // sticky tools at its top).
  const pane = box.closest("section") || document.scrollingElement;
  // Clear of what sticks at the pane's top (its tools, a model's name): its scroll padding.
  const clear = Math.max(48, parseFloat(getComputedStyle(pane).scrollPaddingTop) || 0);
  const fit = () => {
    const r = whole.getBoundingClientRect(), p = pane.getBoundingClientRect();
    if (r.bottom > p.bottom - 12) pane.scrollTop += r.bottom - p.bottom + 40;
    if (r.top < p.top + clear) pane.scrollTop -= p.top + clear - r.top;
    if (r.right > p.right - 12) pane.scrollLeft += r.right - p.right + 40;
    if (r.left < p.left + 12) pane.scrollLeft -= p.left + 12 - r.left;
  };
  fit();
  const first = range(start, start + 1).getBoundingClientRect();
  const last = range(end - 1, end).getBoundingClientRect();
  const middle = (r) => r.top + r.height / 2;
  const path = [[first.left + 1, middle(first)]];
  const seenLines = new Set();
  for (const r of Array.from(whole.getClientRects()).filter((r) => r.width > 0)) {
    const key = Math.round(middle(r));
    if (seenLines.has(key) || key === Math.round(middle(last))) continue;
    seenLines.add(key);
    path.push([r.right - 1, middle(r)]);
  }
  path.push([last.right - 1, middle(last)]);
  return path;
}"""


def settle(page) -> None:
    """Let the page lay out what the last answer swapped in, as a person's eyes do."""
    page.evaluate(SETTLED)


# The changes (requests other than GET) a page has sent and not yet seen answered.
UNANSWERED = "_unanswered_changes"


def watch_changes(page) -> None:
    """From now on, keep the changes the page sends until their answers are in (the browser_page
    fixture does it for every test's page): `answered` waits for them."""
    unanswered: set = set()
    page.on("request", lambda request: request.method != "GET" and unanswered.add(request))
    page.on("requestfinished", lambda request: unanswered.discard(request))
    page.on("requestfailed", lambda request: unanswered.discard(request))
    setattr(page, UNANSWERED, unanswered)


def answered(page, timeout_ms: int = 10_000) -> None:
    """Wait until the page has done what the last input made it do: its frames drawn and every
    change it sent answered. Then a test asserts what is stored, or that nothing was (issue 34:
    a fixed 300 ms before that passed without testing anything when an answer was slow)."""
    settle(page)
    unanswered = getattr(page, UNANSWERED)
    for _ in range(timeout_ms // 20):
        if not unanswered:
            break
        page.wait_for_timeout(20)  # (Playwright hears of the answers while it waits)
    assert not unanswered, f"no answer to {[f'{r.method} {r.url}' for r in unanswered]}"
    settle(page)


SCROLLS_STILL = """async () => {
  // Three frames in a row with every scroll position the same: a wheel's or a page's scrolling,
  // smooth or not, is over.
  const positions = () => JSON.stringify([scrollX, scrollY, ...Array.from(
    document.querySelectorAll("*"), (e) => e.scrollHeight > e.clientHeight ? e.scrollTop : 0)]);
  let last = positions();
  for (let same = 0; same < 3;) {
    await new Promise((done) => requestAnimationFrame(done));
    const now = positions();
    same = now === last ? same + 1 : 0;
    last = now;
  }
}"""


def scrolled(page) -> None:
    """Wait until the page and its panes have stopped scrolling (after the wheel, say)."""
    page.evaluate(SCROLLS_STILL)


def drag_select(page, author: str, phrase: str, nth: int = 0) -> None:
    """Select a phrase of a text (data-author: a model's author, or "peer") with a mouse drag:
    press on its first character, move through each of its lines, release on its last."""
    settle(page)
    (x, y), *path = page.evaluate(DRAG_PATH, [author, phrase, nth])
    page.mouse.move(x, y, steps=3)
    page.mouse.down()
    page.wait_for_timeout(PRESS_MS // 2)
    for x, y in path:
        page.mouse.move(x, y, steps=8)
    page.wait_for_timeout(PRESS_MS // 2)
    page.mouse.up()


def click(page, target, hold_ms: int = PRESS_MS, modifiers: tuple[str, ...] = ()) -> None:
    """A click with a real press: move to the element, button down, hold, button up."""
    locator = page.locator(target) if isinstance(target, str) else target
    for attempt in range(3):
        try:
            locator.scroll_into_view_if_needed()
            break
        except PlaywrightError as error:
            # The answer to the last action swapped the element for a new one while we reached
            # for it: a person's eyes follow the page and click the new one.
            if "not attached" not in str(error) or attempt == 2:
                raise
            settle(page)
    box = _still(page, locator)
    assert box is not None, f"{target} is not on the page"
    x, y = box["x"] + min(box["width"] / 2, 40), box["y"] + box["height"] / 2
    if not locator.evaluate(UNCOVERED, [x, y]):  # under a sticky header, say: a person scrolls on
        locator.evaluate(
            "(element) => element.scrollIntoView({ block: 'center', inline: 'nearest' })"
        )
        box = _still(page, locator)
        x, y = box["x"] + min(box["width"] / 2, 40), box["y"] + box["height"] / 2
    page.mouse.move(x, y, steps=5)
    for key in modifiers:
        page.keyboard.down(key)
    page.mouse.down()
    page.wait_for_timeout(hold_ms)
    page.mouse.up()
    for key in reversed(modifiers):
        page.keyboard.up(key)


# Where a person aims: the element's box, or for words that wrap over lines (a link in a text) the
# first line's words: the box around both lines holds other words.
FIRST_LINE = """(element) => {
  const lines = Array.from(element.getClientRects()).filter((r) => r.width > 0);
  const r = lines.length > 1 ? lines[0] : element.getBoundingClientRect();
  return r.width || r.height ? { x: r.left, y: r.top, width: r.width, height: r.height } : null;
}"""


def _still(page, locator, frames: int = 30):
    """The element's box once it has stopped moving (the same in two frames running), as a person
    waits for a page that is still moving (an answer being swapped in, a scroll being restored)
    before they aim."""
    settle(page)
    box = locator.evaluate(FIRST_LINE)
    for _ in range(frames):
        settle(page)
        again = locator.evaluate(FIRST_LINE)
        if again == box:
            break
        box = again
    return box


UNCOVERED = (
    "(element, [x, y]) => { const top = document.elementFromPoint(x, y); return !!top && "
    "element.contains(top); }"
)


def press(page, key: str) -> None:
    """A key held as long as a person holds it."""
    page.keyboard.press(key, delay=PRESS_MS // 2)


def type_text(page, text: str) -> None:
    """Typing at a person's speed: one key at a time."""
    page.keyboard.type(text, delay=KEY_DELAY_MS)


def tab_to(page, selector: str, limit: int = 80, backwards: bool = False) -> None:
    """Press Tab (Shift+Tab) until the focus is on an element matching `selector`."""
    for _ in range(limit):
        if page.evaluate(
            "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
        press(page, "Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"Tab never reached {selector}")


def arrow_to(page, selector: str, key: str = "ArrowDown", limit: int = 200) -> None:
    """Press an arrow key (in a tree, a list) until the focus is on an element matching
    `selector`."""
    for _ in range(limit):
        if page.evaluate(
            "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
        ):
            return
        press(page, key)
    raise AssertionError(f"{key} never reached {selector}")


def select_with_keys(
    page, text: str, last_word: str, limit: int = 60, after_words: int = 0, backwards: bool = False
) -> None:
    """Select with the keyboard only: Tab into a text, Ctrl+Home, Ctrl+Right past `after_words`
    words, then Shift+Ctrl+Right word by word until the selection ends with `last_word` (how many
    steps a word with punctuation takes is the browser's business). `backwards`: Shift+Tab to it."""
    tab_to(page, text, backwards=backwards)
    press(page, "Control+Home")
    for _ in range(after_words):
        press(page, "Control+ArrowRight")
    for _ in range(limit):
        if (
            page.evaluate("() => window.getSelection().toString()")
            .strip()
            .rstrip(",.;")
            .endswith(last_word)
        ):
            return
        press(page, "Shift+Control+ArrowRight")
    raise AssertionError(f"the selection never reached {last_word!r}")


def focused(page) -> str:
    """What has the focus, described (for assertion messages)."""
    return page.evaluate(
        "() => { const e = document.activeElement; return e ? e.outerHTML.slice(0, 160) : ''; }"
    )


def eventually(check, timeout: float = 5.0, interval: float = 0.05):
    """Wait until `check()` returns something true (what the server stored, say); return it.

    Browser tests assert what was stored, which the page's answer may show before the database
    is read here: poll rather than sleep."""
    from django.db import OperationalError

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
        except OperationalError as error:
            # SQLite's in-memory test database (shared cache) refuses a read of a table the live
            # server is writing ("database table is locked"), where PostgreSQL would wait: it is
            # being written, so not stored yet; read again.
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            value = None
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def page_errors(page) -> list[str]:
    """The uncaught errors the page throws from now on (a test asserts there were none)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors
