// Turning a text selection into offsets the server understands: code points into a summary's
// text (the browser counts UTF-16 units), snapped to whole words as annotator/selection.py does.
// Texts are rendered as runs that carry data-start, their code point offset.
window.TextSelection = (function () {
  "use strict";

  const SEPARATORS = new Set(" \t\n\r\f\v,.-:;!?\"'()[]{}…–—“”‘’");
  const codePoints = (s) => Array.from(s).length;

  function pointOffset(container, offset) {
    if (container.nodeType === Node.TEXT_NODE) {
      const run = container.parentElement.closest("[data-start]");
      return Number(run.dataset.start) + codePoints(container.data.slice(0, offset));
    }
    const runs = container.matches("[data-start]") ? [container] : Array.from(container.querySelectorAll("[data-start]"));
    if (container.matches("[data-start]")) {
      return Number(container.dataset.start) + (offset > 0 ? codePoints(container.textContent) : 0);
    }
    const child = container.childNodes[offset];
    if (child) {
      const run = child.nodeType === Node.ELEMENT_NODE ? (child.matches("[data-start]") ? child : child.querySelector("[data-start]")) : null;
      if (run) return Number(run.dataset.start);
    }
    const last = runs[runs.length - 1];
    return last ? Number(last.dataset.start) + codePoints(last.textContent) : 0;
  }

  function isWordChar(ch) { return !/\s/.test(ch) && !SEPARATORS.has(ch); }

  // The same snapping as annotator/selection.py, to show what will be stored.
  function snap(chars, start, end) {
    while (start < end && !isWordChar(chars[start])) start++;
    while (end > start && !isWordChar(chars[end - 1])) end--;
    if (start === end) return null;
    while (start > 0 && isWordChar(chars[start - 1])) start--;
    while (end < chars.length && isWordChar(chars[end])) end++;
    // An abbreviation's periods are part of it: "Ariz.", "U.S." whole.
    [start, end] = initialismBounds(chars, start, end);
    if (endsInAbbreviation(chars, end)) end++;
    return [start, end];
  }

  // As ABBREVIATIONS and INITIALISM in annotator/text/selection.py.
  const ABBREVIATIONS = new Set(`Mr Mrs Ms Dr Jr Sr St Mt Ft Gen Sen Rep Gov Lt Col Capt Sgt Cmdr Adm Maj Prof Rev Gens Sens
    Reps Inc Corp Ltd Co Bros Dept Univ Assn Ave Blvd Jan Feb Mar Apr Aug Sept Sep Oct Nov Dec
    Ala Ariz Ark Calif Colo Conn Del Fla Ga Ill Ind Kan Kans Ky La Md Mass Mich Minn Miss Mo Mont
    Neb Nev Okla Ore Pa Tenn Tex Va Vt Wash Wis Wyo etc vs approx`.split(/\s+/));
  // Initialisms near `at` as [start, end) in code points ("U.S." is [0, 4)).
  function initialismsNear(chars, at) {
    const from = Math.max(0, at - 40);
    const window = chars.slice(from, Math.min(chars.length, at + 40)).join("");
    const found = [];
    const pattern = /(?<![\p{L}\p{N}])(?:\p{L}\.){2,}/gu;
    // Python's search starts at `from` but looks behind it: the character before counts too.
    const before = from > 0 ? chars[from - 1] : "";
    for (const match of (before + window).matchAll(pattern)) {
      const start = from - codePoints(before) + codePoints((before + window).slice(0, match.index));
      if (start < from) continue;
      found.push([start, start + codePoints(match[0])]);
    }
    return found;
  }
  function initialismBounds(chars, start, end) {
    for (const [s, e] of initialismsNear(chars, start)) if (s < start && start < e) start = s;
    for (const [s, e] of initialismsNear(chars, end)) if (s < end && end < e) end = e;
    return [start, end];
  }
  function endsInAbbreviation(chars, end) {
    if (end >= chars.length || chars[end] !== "." || end === 0 || !isWordChar(chars[end - 1])) return false;
    let start = end;
    while (start > 0 && isWordChar(chars[start - 1])) start--;
    if (ABBREVIATIONS.has(chars.slice(start, end).join(""))) return true;
    return initialismsNear(chars, end).some(([, e]) => e === end + 1);
  }

  function readSelection() {
    const sel = window.getSelection();
    if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
    const range = sel.getRangeAt(0);
    const box = (node) => (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement).closest(".text[data-summary]");
    const startBox = box(range.startContainer), endBox = box(range.endContainer);
    if (!startBox || startBox !== endBox) return startBox || endBox ? { error: "Select words within one summary." } : null;
    const chars = Array.from(startBox.textContent);
    const snapped = snap(chars, pointOffset(range.startContainer, range.startOffset), pointOffset(range.endContainer, range.endOffset));
    if (!snapped) return { error: "The selection holds no words." };
    return { summary: startBox.dataset.summary, author: startBox.dataset.author, range: snapped,
             text: chars.slice(snapped[0], snapped[1]).join("") };
  }

  // -- offsets back to the page: a Range over code points [start, end) of a text ------------------
  function domPoint(box, offset) {
    let last = null;
    for (const run of box.querySelectorAll("[data-start]")) {
      const start = Number(run.dataset.start), length = codePoints(run.textContent);
      last = run;
      if (offset > start + length) continue;
      const walker = document.createTreeWalker(run, NodeFilter.SHOW_TEXT);
      let left = offset - start, node;
      while ((node = walker.nextNode())) {
        const units = Array.from(node.data);
        if (left <= units.length) return [node, units.slice(0, left).join("").length];
        left -= units.length;
      }
      return [run, run.childNodes.length];
    }
    return last ? [last, last.childNodes.length] : [box, 0];
  }

  function rangeOf(box, [start, end]) {
    const range = document.createRange();
    range.setStart(...domPoint(box, start));
    range.setEnd(...domPoint(box, end));
    return range;
  }

  // -- the kept selection: what the next action uses ------------------------------------------------
  // The browser drops its selection when a button or an SCU is pressed (a real press lasts ~100 ms,
  // long enough for the selection to go before the click) or when the focus moves to the filter.
  // So the last words selected in a text are kept, shown with a highlight, until new words are
  // selected, a plain click in a text or Escape drops them, or an action that used them is saved.
  const kept = { selection: null, message: "", pointerInText: false, listeners: [] };
  const boxOf = (node) => node && (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement)?.closest(".text[data-summary]");

  function paint() {
    if (!window.CSS || !CSS.highlights) return;
    const box = kept.selection && document.querySelector(`.text[data-summary="${kept.selection.summary}"]`);
    if (box) CSS.highlights.set("kept-selection", new Highlight(rangeOf(box, kept.selection.range)));
    else CSS.highlights.delete("kept-selection");
  }

  // `how`: { used: true } when an action stored the words (the listeners need ask for nothing).
  function set(selection, message, how = {}) {
    const same = selection && kept.selection && selection.summary === kept.selection.summary
      && selection.range[0] === kept.selection.range[0] && selection.range[1] === kept.selection.range[1];
    if (!same) kept.selection = selection;
    kept.message = message;
    paint();
    if (!same || message) kept.listeners.forEach((listener) => listener(kept.selection, kept.message, how));
  }

  let used = false;  // the caret was left by an action that stored the words, not moved since
  let collapsedFor = null;  // the kept words an action being sent stores, the browser's selection collapsed
  document.addEventListener("pointerdown", (event) => { kept.pointerInText = !!boxOf(event.target); used = false; }, true);
  document.addEventListener("keydown", () => { kept.pointerInText = false; used = false; }, true);
  // The keyboard's caret in shaded words: say which SCU holds them (the mouse has the tooltip).
  function caretIn(node) {
    const mark = node && (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement).closest("mark[data-scus]");
    const message = mark ? `At ${mark.title}` : "";
    if (message !== kept.message) set(null, message);
  }

  // A listener may ask for the kept words (`kept()` reads the selection again): it must not be told
  // again from inside (a proposal's hint did, and the page threw "Maximum call stack size exceeded").
  let following = false;
  function follow() {
    if (following) return;
    following = true;
    try { followSelection(); } finally { following = false; }
  }

  function followSelection() {
    const selection = window.getSelection();
    if (!selection || selection.rangeCount === 0) return;
    if (!boxOf(selection.anchorNode) && !boxOf(selection.focusNode)) return;  // the focus went elsewhere: keep
    if (!selection.isCollapsed) collapsedFor = null;
    if (selection.isCollapsed) {
      if (kept.pointerInText && (kept.selection || kept.message)) set(null, "");  // a plain click in a text
      else if (!kept.selection) caretIn(selection.anchorNode);
      return;
    }
    const read = readSelection();
    if (read) set(read.error ? null : read, read.error || "");
  }
  document.addEventListener("selectionchange", follow);

  // The keyboard's caret (a collapsed selection) in a text, as code points: what the peer page
  // asks suggestions for when no words are selected (the sentence around it).
  function caret() {
    const selection = window.getSelection();
    if (!selection || selection.rangeCount === 0 || !selection.isCollapsed) return null;
    const box = boxOf(selection.anchorNode);
    if (!box) return null;
    return { summary: box.dataset.summary, author: box.dataset.author,
             offset: pointOffset(selection.anchorNode, selection.anchorOffset) };
  }

  // Words dropped (Escape) or used up must not come back: the browser's own selection, still
  // spanning them in the text, would be read again by the next key (`kept()` reads it first). The
  // caret stays where the selection ended, for the keyboard: collapsed before the listeners hear
  // of it, so that they see that caret (the peer page suggests for its sentence).
  function collapseNative() {
    const native = window.getSelection();
    if (native && native.rangeCount && !native.isCollapsed && (boxOf(native.anchorNode) || boxOf(native.focusNode))) {
      native.collapseToEnd();
    }
  }

  // -- a mouse button held in a text: nothing may move the words under it -------------------------
  // While a person presses on a word and drags over others, an answer that came meanwhile (the
  // suggestions for the caret's sentence, the last action's reshaded text, a score that wraps
  // differently) would move the text or replace it under the pointer, and the drag would end on
  // other words than the ones under it. So every htmx swap that comes while the button is down waits
  // until it is up (and so does whatever follows an edit's answer: see workspace-actions.js);
  // `HoldStill.afterRelease(fn)` does the same for the pages' own changes.
  const hold = { down: false, waiting: [], panes: [] };
  document.addEventListener("pointerdown", (event) => {
    const box = event.button === 0 && boxOf(event.target);
    if (!box) return;
    hold.down = true;
    holdPanes(box);
  }, true);
  // The browser scrolls a pane by itself while text in it is being selected with the pointer near
  // the pane's edge (a line the edge cuts), and goes on selecting under the pointer as it scrolls:
  // a tester's three words became five sentences. While the button is held, the panes around the
  // text do not scroll (overflow hidden); their scrollbar keeps its room, so nothing reflows.
  function holdPanes(box) {
    for (let pane = box.parentElement; pane && pane !== document.body; pane = pane.parentElement) {
      const style = getComputedStyle(pane);
      if (!/(auto|scroll)/.test(style.overflowY) || pane.scrollHeight <= pane.clientHeight) continue;
      const gutter = pane.offsetWidth - pane.clientWidth - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
      pane.style.scrollbarGutter = gutter > 0 ? "stable" : "";
      pane.style.overflowY = "hidden";
      hold.panes.push(pane);
    }
  }
  function releasePanes() {
    hold.panes.forEach((pane) => { pane.style.overflowY = ""; pane.style.scrollbarGutter = ""; });
    hold.panes = [];
  }
  function release() {
    if (!hold.down) return;
    hold.down = false;
    releasePanes();
    const waiting = hold.waiting;
    hold.waiting = [];
    // After the browser's last "selectionchange" of the drag: the words kept are the ones dragged.
    setTimeout(() => waiting.forEach((fn) => fn()), 0);
  }
  ["pointerup", "pointercancel"].forEach((type) => window.addEventListener(type, release, true));
  // The window losing the focus (another window): not an element of the page losing it, which the
  // capture phase hears too (a press in another text moves the focus there: a second tester's
  // drag in a second model ran free).
  window.addEventListener("blur", (event) => { if (event.target === window) release(); }, true);
  const afterRelease = (fn) => { if (hold.down) hold.waiting.push(fn); else fn(); };

  function holdSwap(event) {
    const detail = event.detail;
    if (!hold.down || !detail.shouldSwap) return;
    detail.shouldSwap = false;
    const declared = detail.elt && detail.elt.closest && detail.elt.closest("[hx-swap]");
    const swapStyle = (detail.swapOverride || (declared && declared.getAttribute("hx-swap")) || htmx.config.defaultSwapStyle).split(" ")[0];
    // The xhr is shared with htmx:afterRequest: what follows an answer waits for its swap.
    detail.xhr.heldSwap = new Promise((done) => hold.waiting.push(() => {
      if (detail.target.isConnected) {
        capturePlace();
        htmx.swap(detail.target, detail.serverResponse, { swapStyle, swapDelay: 0, settleDelay: htmx.config.defaultSettleDelay },
          { eventInfo: detail, contextElement: detail.elt });
      }
      done();
    }));
  }
  // -- the caret and the selection kept across an answer that redraws the text ---------------------
  // An edit's answer swaps in the text anew (its shading changed): the browser's caret or selection
  // in it went with the old one, and the keyboard's next Shift+arrow started from the text's first
  // word, scrolling the pane back to the top (found by a tester). It is put back where it was.
  let place = null;  // { summary, anchor, focus } in code points, before the swap
  // Taken as the swap happens: a swap held back while a drag went on (holdSwap) takes it at its
  // release, with the words the drag ended on, not those under the pointer when the answer came.
  document.addEventListener("htmx:beforeSwap", () => { if (!hold.down) capturePlace(); });
  function capturePlace() {
    const selection = window.getSelection();
    const box = selection && selection.rangeCount ? boxOf(selection.focusNode) : null;
    // Only where the keyboard is (the text has the focus): putting a selection back in a text
    // gives it the focus, which belongs elsewhere then (a proposal in its list, say).
    place = box && boxOf(selection.anchorNode) === box && document.activeElement === box ? {
      summary: box.dataset.summary,
      anchor: pointOffset(selection.anchorNode, selection.anchorOffset),
      focus: pointOffset(selection.focusNode, selection.focusOffset),
      nodes: [selection.anchorNode, selection.focusNode],
    } : null;
  }
  function putBackPlace() {
    const was = place;
    // The words it was in are still there (not swapped yet, or a text whose runs there did not
    // change): so is the selection. Asked of the nodes, not of the selection, which would make the
    // browser lay the page out at once; so it can be asked after each piece an answer swaps in.
    if (!was || was.nodes.every((node) => node.isConnected && boxOf(node))) return;
    place = null;
    const box = document.querySelector(`.text[data-summary="${was.summary}"]`);
    if (!box) return;
    window.getSelection().setBaseAndExtent(...domPoint(box, was.anchor), ...domPoint(box, was.focus));
  }
  ["htmx:afterSwap", "htmx:oobAfterSwap"].forEach((type) => document.addEventListener(type, putBackPlace));

  // -- a reshaded text: only the runs that changed ------------------------------------------------
  // An edit's answer brings a text anew (a model pane of the builder, the peer text) whose shading
  // changed in a few places. Rather than the whole text, only the runs that changed are replaced:
  // a run the same (its element, start and length) stays, its attributes brought up to date, so
  // the browser's caret and selection in it stay, and the page recomputes the style of what changed
  // alone (issue 32: the page's own work for an action, within 15 ms).
  const runKey = (run) => `${run.tagName} ${run.dataset.start} ${run.textContent.length}`;
  function syncAttributes(mine, theirs) {
    Array.from(mine.attributes).forEach(({ name }) => { if (!theirs.hasAttribute(name)) mine.removeAttribute(name); });
    Array.from(theirs.attributes).forEach(({ name, value }) => { if (mine.getAttribute(name) !== value) mine.setAttribute(name, value); });
  }
  function morphRuns(box, fresh) {
    const kept = new Map(Array.from(box.children, (run) => [runKey(run), run]));
    const incoming = Array.from(fresh.children);
    const wanted = new Set(incoming.map(runKey));
    kept.forEach((run, key) => { if (!wanted.has(key)) { run.remove(); kept.delete(key); } });
    let next = box.firstElementChild;
    incoming.forEach((run) => {
      const mine = kept.get(runKey(run));
      if (mine) { syncAttributes(mine, run); next = mine.nextElementSibling; } else box.insertBefore(run, next);
    });
    syncAttributes(box, fresh);
  }
  // The runs of a text are its element children, one after the other (annotator/text/textmarks.py).
  const onlyRuns = (box) => box.childNodes.length === box.children.length
    && Array.from(box.children).every((run) => run.dataset.start !== undefined);
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const { target, fragment } = event.detail;
    const incoming = fragment && fragment.firstElementChild;
    if (!incoming || !target.isConnected || incoming.id !== target.id || !event.detail.shouldSwap) return;
    const box = target.matches(".text[data-summary]") ? target : target.querySelector(":scope > .text[data-summary]");
    const fresh = box === target ? incoming : incoming.querySelector(":scope > .text[data-summary]");
    if (!box || !fresh || box.dataset.summary !== fresh.dataset.summary || !onlyRuns(box) || !onlyRuns(fresh)) return;
    event.detail.shouldSwap = false;
    if (box !== target) {  // the pane around the text (a model's name and share in SCUs): as it comes
      Array.from(incoming.children).forEach((part, at) => {
        const mine = target.children[at];
        if (part.matches(".text[data-summary]") || !mine) return;
        if (mine.outerHTML !== part.outerHTML) mine.replaceWith(part.cloneNode(true));
      });
      syncAttributes(target, incoming);
      target.removeAttribute("hx-swap-oob");
    }
    morphRuns(box, fresh);
    box.removeAttribute("hx-swap-oob");
  });

  // Registered once every page script has registered its own (they may ask for a swap first).
  document.addEventListener("DOMContentLoaded", () => document.addEventListener("htmx:beforeSwap", holdSwap));
  window.HoldStill = { held: () => hold.down, afterRelease };

  // The texts are contenteditable only so that the keyboard can select; nothing may change them.
  ["beforeinput", "paste", "drop", "cut"].forEach((type) =>
    document.addEventListener(type, (event) => { if (event.target.closest && event.target.closest(".text[data-summary]")) event.preventDefault(); }, true));

  return {
    read: readSelection, snap, rangeOf, caret,
    // Read again first: the browser may run a key press before the last "selectionchange" of a
    // drag just ended (input comes first), and the words used must be the ones selected.
    kept: () => { follow(); return kept.selection; },
    drop: () => { collapseNative(); set(null, ""); },
    // An action that will store `selection` is sent: the browser's selection over the words
    // collapses to their end now, while the page is as it was (after the answer has reshaded the
    // text, the same collapse took 4 ms of the page's budget). The kept words stay until the
    // action is saved (`used`) or, refused, for the next one.
    sending: (selection) => {
      if (kept.selection !== selection) return;
      used = true;  // the caret is left at the words' end by the action: no new place to suggest for
      collapseNative();
      collapsedFor = selection;
    },
    // An action that used `selection` was saved: the words are used up (unless newer ones came).
    used: (selection) => {
      if (kept.selection !== selection) return;
      used = true;  // the caret left at the words' end is no new place to suggest for
      // Collapsed as the action was sent, and not selected again since: reading the selection now,
      // in the reshaded text, would only make the browser lay the page out early.
      if (collapsedFor !== selection) collapseNative();
      collapsedFor = null;
      set(null, "", { used: true });
    },
    // Whether the caret was last moved by an action using the words (not by the annotator).
    caretLeftByAction: () => used,
    repaint: paint,  // after the texts were swapped
    onChange: (listener) => kept.listeners.push(listener),
  };
})();
