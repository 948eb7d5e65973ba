"""In real Chromium, at a person's speed, on a long NIST peer (D0640's, 103 SCUs) at 1280x720 and
1440x900, and in the builder's model panes: a text never moves under a held mouse button (issue
32). A tester pressed on a word in the lower half of the peer pane and dragged over a few words:
the suggestions for the caret's sentence arrived while the button was still down, their box (then
sticky over the text) jumped up and the pane scrolled, so the drag ended on other words and the
next key stored them.

Each drag here starts at a different height of the pane, on a fresh load and after each kind of
action (a match to "nothing", a match to an SCU, an undo; in the builder a new SCU, an added
contributor, an undo), holds the button long enough for the suggestions to come, and checks that
the pane's scroll and the words' place were the same at the press and at the release, and that
what was stored is exactly the words dragged. Ten drags in one session: none may fail."""

import pytest

from tests import human
from tests.conftest import CHROMIUM, log_in
from tests.project.test_browser_workspace_layout import d0640  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.shared_data,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed (apt-get install -y chromium)",
    ),
]

WORDS_AT = """([author, fraction, used]) => {
  // Four words of a text (the peer's, a model's) starting at the word under a point at
  // `fraction` of the pane's visible height (as a person aims at what they see), none of them
  // among the `used` offsets: [start, end] in code points, and the phrase as the text has it.
  const text = document.querySelector(`.text[data-author="${author}"]`);
  const pane = text.closest("section");
  const p = pane.getBoundingClientRect(), t = text.getBoundingClientRect();
  // Clear of what sticks at the pane's top (its tools, a model's name): its scroll padding.
  const clear = Math.max(40, parseFloat(getComputedStyle(pane).scrollPaddingTop) || 0);
  const chars = Array.from(text.textContent);
  const isWord = (c) => c !== undefined && /[\\p{L}\\p{N}]/u.test(c);
  const taken = (i) => used.some(([s, e]) => i < e && s <= i);
  for (let dy = 0; dy < p.height / 2; dy += 9) {
    for (const y of [p.top + fraction * p.height + dy, p.top + fraction * p.height - dy]) {
      const low = Math.min(p.bottom, t.bottom) - 30;
      if (y < Math.max(p.top + clear, t.top) + 20 || y > low) continue;
      for (const x of [t.left + 30, t.left + t.width * 0.4, t.left + t.width * 0.7]) {
        const caret = document.caretRangeFromPoint(x, y);
        if (!caret || !text.contains(caret.startContainer)) continue;
        const before = document.createRange();
        before.setStart(text, 0);
        before.setEnd(caret.startContainer, caret.startOffset);
        let start = Array.from(before.toString()).length;
        while (start < chars.length && !isWord(chars[start])) start++;
        while (start > 0 && isWord(chars[start - 1])) start--;
        let at = start, end = start, words = 0;
        while (words < 4) {
          while (isWord(chars[at])) at++;
          end = at;
          words++;
          while (at < chars.length && !isWord(chars[at]) && chars[at] !== "\\n") at++;
          if (!isWord(chars[at])) break;  // the paragraph ends
        }
        if (words < 2 || chars.slice(start, end).includes("\\n")) continue;
        if (Array.from({ length: end - start }, (_, i) => start + i).some(taken)) continue;
        // All of it in sight (a drag past the pane's edge scrolls it, as the browser should).
        const whole = window.TextSelection.rangeOf(text, [start, end]).getBoundingClientRect();
        if (whole.bottom > p.bottom - 8 || whole.top < p.top + clear) continue;
        return [start, end, chars.slice(start, end).join("")];
      }
    }
  }
  return [p.top, p.bottom, t.top, t.bottom, pane.scrollTop, innerHeight];
}"""

PANE_MIDDLE = """(author) => {
  const text = document.querySelector(`.text[data-author="${author}"]`);
  const r = text.closest("section").getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""

WHERE = """([author, start]) => {
  // The pane's scroll and the dragged words' first letter on the screen.
  const text = document.querySelector(`.text[data-author="${author}"]`);
  const pane = text.closest("section");
  const r = window.TextSelection.rangeOf(text, [start, start + 1]).getBoundingClientRect();
  return [pane.scrollTop, Math.round(r.left), Math.round(r.top)];
}"""

PATH = """([author, start, end]) => {
  // Through the words as a person drags: their first letter, each line's end, their last letter.
  const text = document.querySelector(`.text[data-author="${author}"]`);
  const rect = (s, e) => window.TextSelection.rangeOf(text, [s, e]).getBoundingClientRect();
  const first = rect(start, start + 1), last = rect(end - 1, end);
  const middle = (r) => r.top + r.height / 2;
  const path = [[first.left + 1, middle(first)]];
  const lines = Array.from(window.TextSelection.rangeOf(text, [start, end]).getClientRects());
  const lastLine = Math.round(middle(last));
  for (const r of lines.filter((r) => r.width > 0 && Math.round(middle(r)) !== lastLine)) {
    path.push([r.right - 1, middle(r)]);
  }
  path.push([last.right - 1, middle(last)]);
  return path;
}"""


def held_drag(page, start, end, author="peer"):
    """Press on the first word, hold while the suggestions for its sentence come (the caret put
    there asks for them), drag through the words at ~300 ms, hold, and release. Returns where the
    words were at the press and at the release."""
    (x, y), *path = page.evaluate(PATH, [author, start, end])
    page.mouse.move(x, y, steps=4)
    page.mouse.down()
    at_press = page.evaluate(WHERE, [author, start])
    page.wait_for_timeout(450)  # the suggestions asked for by the caret arrive meanwhile
    for x, y in path:
        page.mouse.move(x, y, steps=10)
        page.wait_for_timeout(300 // len(path))
    page.wait_for_timeout(450)
    at_release = page.evaluate(WHERE, [author, start])
    page.mouse.up()
    return at_press, at_release


def free_words(page, author, fraction, used):
    """[start, end, phrase] of words to drag near `fraction` of the pane's height, none used yet;
    if those in sight are, the pane is scrolled on with the wheel, as people do."""
    found = page.evaluate(WORDS_AT, [author, fraction, used])
    if len(found) != 3:
        page.mouse.move(*page.evaluate(PANE_MIDDLE, author))
        page.mouse.wheel(0, 200)
        page.wait_for_timeout(400)
        found = page.evaluate(WORDS_AT, [author, fraction, used])
    return found


def stored_spans(annotation_pk):
    """What the database holds: each PSE part's [start, end) and the uid of its SCU (0: none)."""
    from annotator.models import PSESpan

    return {
        (span.start, span.end): span.pse.scu.uid if span.pse.scu_id else 0
        for span in PSESpan.objects.filter(pse__annotation_id=annotation_pk).select_related(
            "pse__scu"
        )
    }


@pytest.fixture
def fresh_annotation(d0640, demo):  # noqa: F811 (the fixture imported above)
    """An empty annotation of D0640's peer by the administrator: every word free to match."""
    from annotator.models import PeerAnnotation

    imported = PeerAnnotation.objects.get(pk=d0640["annotation"])
    return PeerAnnotation.objects.create(
        pyramid=imported.pyramid, peer=imported.peer, annotator=demo["admin"]
    ).pk


# Ten drags at several heights of the pane: on a fresh load, then after each kind of action (what
# the drag before did with its words: "0" matches nothing, "scu" a click on an SCU, "undo" a match
# to nothing undone with Ctrl+Z).
DRAGS = [
    (0.85, "0"),
    (0.55, "scu"),
    (0.25, "undo"),
    (0.9, "0"),
    (0.7, "scu"),
    (0.4, "0"),
    (0.8, "undo"),
    (0.6, "scu"),
    (0.95, "0"),
    (0.5, None),
]


@pytest.mark.parametrize("viewport", ["laptop", "desktop"], indirect=True)
def test_the_text_never_moves_under_a_held_pointer(browser_page, live_server, fresh_annotation):
    page = browser_page
    errors = human.page_errors(page)
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/annotations/{fresh_annotation}/")
    lines = page.evaluate(
        "() => document.getElementById('peer-text').getClientRects().length && Math.round("
        "document.getElementById('peer-text').getBoundingClientRect().height / 20)"
    )
    assert lines >= 20, "the test needs a long peer"
    used: list[list[int]] = []
    for turn, (fraction, action) in enumerate(DRAGS, start=1):
        human.answered(page)  # the last action's answer in, as a person waits for it
        found = free_words(page, "peer", fraction, used)
        assert len(found) == 3, f"no free words near {fraction:.0%} of the pane: {found}"
        start, end, phrase = found
        at_press, at_release = held_drag(page, start, end)
        assert at_release == at_press, (
            f"drag {turn} ({phrase!r} at {fraction:.0%}): the words moved under the held "
            f"pointer (scroll, left, top) {at_press} -> {at_release}"
        )
        kept = page.evaluate("() => window.TextSelection.kept()")
        assert kept, f"drag {turn}: nothing kept, not {phrase!r}"
        assert kept["range"] == [start, end], f"drag {turn}: {kept}, not {phrase!r}"
        if action is None:
            break
        if action == "scu":
            # A click on the last SCU row (weight 1) matches the words to it.
            row = page.locator("#scu-list .scu:not(.zero-entry) .scu-row").last
            expected = int(row.evaluate("(r) => r.closest('.scu').dataset.uid"))
            human.click(page, row)
        else:
            expected = 0
            human.press(page, "0")
        dragged = (start, end)
        assert human.eventually(lambda d=dragged: d in stored_spans(fresh_annotation)), (
            f"drag {turn}: {phrase!r} was not stored as dragged: {stored_spans(fresh_annotation)}"
        )
        assert stored_spans(fresh_annotation)[(start, end)] == expected
        used.append([start, end])
        if action == "undo":
            human.answered(page)  # the last action's answer in, as a person waits for it
            human.press(page, "Control+z")
            assert human.eventually(lambda d=dragged: d not in stored_spans(fresh_annotation))
            used.pop()
    assert not errors, errors


# The builder: drags in the model columns (one pane, scrolling them all), on a fresh load and
# after each kind of action: a new SCU (n), a contributor added to it (a), a new SCU undone.
BUILDER_DRAGS = [
    ("C", 0.85, "n"),
    ("D", 0.5, "a"),
    ("F", 0.3, "undo"),
    ("G", 0.9, "n"),
    ("C", 0.6, "a"),
    ("D", 0.75, None),
]


def stored_contributor_spans(pyramid_pk):
    """{(model author, start, end)} of the pyramid's contributors, as the database holds them."""
    from annotator.models import Span

    return set(
        Span.objects.filter(contributor__scu__pyramid_id=pyramid_pk).values_list(
            "summary__author", "start", "end"
        )
    )


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_the_models_never_move_under_a_held_pointer(browser_page, live_server, d0640):  # noqa: F811
    page = browser_page
    errors = human.page_errors(page)
    d0640["open pyramid"]()
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/pyramids/{d0640['pyramid']}/")
    used: dict[str, list[list[int]]] = {}
    for turn, (author, fraction, action) in enumerate(BUILDER_DRAGS, start=1):
        human.answered(page)  # the last action's answer in, as a person waits for it
        found = free_words(page, author, fraction, used.setdefault(author, []))
        assert len(found) == 3, f"no free words of model {author} near {fraction:.0%}: {found}"
        start, end, phrase = found
        at_press, at_release = held_drag(page, start, end, author)
        assert at_release == at_press, (
            f"drag {turn} ({author}: {phrase!r} at {fraction:.0%}): the words moved under the "
            f"held pointer (scroll, left, top) {at_press} -> {at_release}"
        )
        kept = page.evaluate("() => window.TextSelection.kept()")
        assert kept, f"drag {turn}: nothing kept, not {phrase!r}"
        assert (kept["author"], kept["range"]) == (author, [start, end]), f"drag {turn}: {kept}"
        if action is None:
            break
        human.press(page, "a" if action == "a" else "n")
        dragged = (author, start, end)
        assert human.eventually(
            lambda d=dragged: d in stored_contributor_spans(d0640["pyramid"])
        ), f"drag {turn}: {phrase!r} of model {author} was not stored as dragged"
        used[author].append([start, end])
        if action == "undo":
            human.answered(page)  # the last action's answer in, as a person waits for it
            human.press(page, "Control+z")
            assert human.eventually(
                lambda d=dragged: d not in stored_contributor_spans(d0640["pyramid"])
            )
            used[author].pop()
    assert not errors, errors


CUT_LINE = """([author, edge, cut]) => {
  // Scroll the text's pane so that its edge ("bottom", or "top" under what sticks there) cuts a
  // line in the middle of the text by `cut` px, and return [start, end, phrase] of three words
  // on the part of that line in sight (a tester dragged there: the pane scrolled under the held
  // button, and the selection ran to the end of the text).
  const text = document.querySelector(`.text[data-author="${author}"]`);
  const pane = text.closest("section");
  const all = document.createRange();
  all.selectNodeContents(text);
  const lines = [];
  for (const r of all.getClientRects()) {
    if (r.width > 0 && !lines.some((l) => Math.abs(l.top - r.top) < 2)) lines.push(r);
  }
  const line = lines[Math.floor(lines.length / 2)];
  const p = pane.getBoundingClientRect();
  const clear = edge === "top" ? parseFloat(getComputedStyle(pane).scrollPaddingTop) || 0 : 0;
  pane.scrollTop += edge === "bottom"
    ? line.bottom - cut - p.bottom
    : line.top + cut - (p.top + clear);
  const cutAt = edge === "bottom" ? p.bottom : p.top + clear;
  const r = Array.from(all.getClientRects()).find((l) => Math.abs(l.height - line.height) < 2
    && l.width > 0 && Math.abs(l.left - line.left) < 400 && l.top < cutAt && l.bottom > cutAt);
  const y = edge === "bottom" ? (r.top + p.bottom) / 2 : (r.bottom + p.top + clear) / 2;
  const caret = document.caretRangeFromPoint(r.left + r.width * 0.3, y);
  const chars = Array.from(text.textContent);
  const isWord = (c) => c !== undefined && /[\\p{L}\\p{N}]/u.test(c);
  const before = document.createRange();
  before.setStart(text, 0);
  before.setEnd(caret.startContainer, caret.startOffset);
  let start = Array.from(before.toString()).length;
  while (start > 0 && isWord(chars[start - 1])) start--;
  while (start < chars.length && !isWord(chars[start])) start++;
  let at = start, end = start;
  for (let words = 0; words < 3; words++) {
    while (isWord(chars[at])) at++;
    const onLine = window.TextSelection.rangeOf(text, [start, at]).getClientRects();
    if (Array.from(onLine).filter((l) => l.width > 0).length > 1) break;  // the line ends
    end = at;
    while (at < chars.length && !isWord(chars[at]) && chars[at] !== "\\n") at++;
  }
  return [start, end, chars.slice(start, end).join(""), y];
}"""

EDGE_PATH = """([author, start, end, y]) => {
  // Along the cut line at height y (the part in sight), from the first letter to the last.
  const text = document.querySelector(`.text[data-author="${author}"]`);
  const rect = (s, e) => window.TextSelection.rangeOf(text, [s, e]).getBoundingClientRect();
  return [[rect(start, start + 1).left + 1, y], [rect(end - 1, end).right - 1, y]];
}"""


def edge_drag(page, author, edge):
    """Three words on the line the pane's `edge` cuts, dragged as a person does; returns them and
    where they were at the press and at the release."""
    start, end, phrase, y = page.evaluate(CUT_LINE, [author, edge, 5])
    page.wait_for_timeout(200)  # the scroll is over
    (x0, y0), (x1, y1) = page.evaluate(EDGE_PATH, [author, start, end, y])
    page.mouse.move(x0, y0, steps=4)
    page.mouse.down()
    at_press = page.evaluate(WHERE, [author, start])
    page.wait_for_timeout(150)
    page.mouse.move(x1, y1, steps=15)
    page.wait_for_timeout(600)  # long enough for the browser to scroll, were it to
    at_release = page.evaluate(WHERE, [author, start])
    page.mouse.up()
    return (start, end, phrase), at_press, at_release


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_words_on_a_line_the_pane_cuts_stay_under_the_pointer(
    browser_page, live_server, fresh_annotation
):
    """Found by a tester: words on the last line in sight, cut by the pane's bottom edge, were
    dragged; the pane scrolled while the button was held (the browser scrolls a text being
    selected near its pane's edge) and "members, it left" was stored as five sentences."""
    page = browser_page
    errors = human.page_errors(page)
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/annotations/{fresh_annotation}/")
    human.settle(page)
    (start, end, phrase), at_press, at_release = edge_drag(page, "peer", "bottom")
    assert at_release == at_press, f"{phrase!r}: moved under the pointer {at_press} -> {at_release}"
    assert page.evaluate("() => window.TextSelection.kept()")["range"] == [start, end], phrase
    human.press(page, "0")
    assert human.eventually(lambda: (start, end) in stored_spans(fresh_annotation)), (
        f"{phrase!r} was not stored as dragged: {stored_spans(fresh_annotation)}"
    )
    assert stored_spans(fresh_annotation) == {(start, end): 0}
    assert not errors, errors


@pytest.mark.parametrize("viewport", ["laptop"], indirect=True)
def test_model_words_on_a_line_the_pane_cuts_stay_under_the_pointer(
    browser_page,
    live_server,
    d0640,  # noqa: F811
):
    """The same in the builder's model columns, at the bottom edge and at the top (under a
    model's name, which sticks there), one model after another (a second tester: after a click
    in one model, a drag in another ran to its end) and after a plain click in a text: the
    tester's new SCU got a label of three sentences."""
    page = browser_page
    errors = human.page_errors(page)
    d0640["open pyramid"]()
    log_in(page, live_server, "admin", "admin-pass-1")
    page.goto(f"{live_server.url}/pyramids/{d0640['pyramid']}/")
    human.settle(page)
    for turn, (author, edge) in enumerate(
        [("C", "bottom"), ("D", "bottom"), ("F", "top"), ("G", "bottom")]
    ):
        if turn == 3:  # a plain click in another model's text first
            human.click(page, ".text[data-author='C'] > span.free >> nth=0")
            human.answered(page)
        human.answered(page)  # the last action's answer in, as a person waits for it
        before = stored_contributor_spans(d0640["pyramid"])
        (start, end, phrase), at_press, at_release = edge_drag(page, author, edge)
        assert at_release == at_press, (
            f"{author} {edge}: {phrase!r} moved under the pointer {at_press} -> {at_release}"
        )
        kept = page.evaluate("() => window.TextSelection.kept()")
        assert (kept["author"], kept["range"]) == (author, [start, end]), (author, phrase, kept)
        human.press(page, "n")
        assert human.eventually(
            lambda b=before, a=author, s=start, e=end: (
                stored_contributor_spans(d0640["pyramid"]) - b == {(a, s, e)}
            )
        ), f"{author}: {phrase!r} was not stored as dragged"
    assert not errors, errors
