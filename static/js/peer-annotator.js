// Peer annotation: select peer words, pick their SCU (click, type, or a suggestion), and the
// server answers with the workspace re-rendered, live scores included.
(function () {
  "use strict";

  const state = { scu: null, pse: null, part: null, pending: null, step: -1 };
  const workspace = () => document.getElementById("workspace");
  const editable = () => workspace() && workspace().dataset.editable === "true";

  const setStatus = (text, level) => window.WorkspaceActions.setStatus(text, level);
  const send = (action, values, options) => window.WorkspaceActions.send(action, values, options);

  // -- the selection in the peer text (kept by text-selection.js), and the suggestions: for the
  //    selected words, or with none selected for the sentence around the caret in the peer text
  //    (the server ranks that sentence when start == end) ----------------------------------------
  const peerSelection = () => {
    const kept = window.TextSelection.kept();
    return kept && kept.author === "peer" ? kept : null;
  };
  const peerCaret = () => {
    const caret = window.TextSelection.caret();
    return caret && caret.author === "peer" ? [caret.offset, caret.offset] : null;
  };
  let suggestTimer = null;
  let suggested = null;  // the range last asked for ("start end"): the same one is not asked again
  function suggestFor(range) {
    const key = range && range.join(" ");
    if (key === suggested) return;
    suggested = key;
    clearTimeout(suggestTimer);
    if (range) {
      const [start, end] = range;
      suggestTimer = setTimeout(() => htmx.ajax("GET", `${workspace().dataset.suggestUrl}?start=${start}&end=${end}`,
        { target: "#suggestions", swap: "innerHTML" }), 250);
    } else {
      const suggestions = document.getElementById("suggestions");
      if (suggestions) suggestions.replaceChildren();
    }
  }
  // After an action stored the selected words, nothing is asked for: the action's answer is the
  // only request (issue 32); the suggestions go until words are selected or the caret moved.
  function showSelection(selection, message, how = {}) {
    const line = document.getElementById("selection");
    if (!line || !editable()) return;
    if (how.used) {
      clearTimeout(suggestTimer);
      const caret = peerCaret();
      suggested = caret && caret.join(" ");
      const suggestions = document.getElementById("suggestions");
      if (suggestions) suggestions.replaceChildren();
      line.textContent = line.title = "No peer words selected.";
      return;
    }
    const peer = selection && selection.author === "peer" ? selection : null;
    line.textContent = message ? message
      : peer ? `Selected: “${peer.text}” (characters ${peer.range[0]}–${peer.range[1]}; Escape clears)`
      : "No peer words selected.";
    line.title = line.textContent;  // one line, cut short: the whole of it on hover
    suggestFor(peer ? peer.range : peerCaret());
  }
  window.TextSelection.onChange(showSelection);
  showSelection(null, "");
  // The caret moved in the peer text with no words selected (a click, the arrow keys): its
  // sentence's suggestions. The caret gone elsewhere (a suggestion pressed) keeps them.
  document.addEventListener("selectionchange", () => {
    if (!editable() || peerSelection() || window.TextSelection.caretLeftByAction()) return;
    const caret = peerCaret();
    if (caret) suggestFor(caret);
  });
  // A whole workspace swapped in (a conflict) has an empty selection line and no suggestions.
  document.addEventListener("workspace:replaced", () => {
    suggested = null;
    showSelection(window.TextSelection.kept(), "");
  });

  // The words stored are always the ones the page shows selected: never an older action's.
  function withSelection(what) {
    const selection = peerSelection();
    if (!selection) { setStatus("Select some words of the peer summary first: nothing was stored.", "error"); return; }
    what(selection);
  }
  // Once matched, the SCU is the one selected (its contributors shown in the models). `rank`: the
  // place (1: first) of the suggestion taken, stored with the PSE for the reports; none otherwise.
  const assign = (uid, then = null, rank = null) => withSelection((selection) =>
    send("assign", Object.assign({ scu: uid, ranges: JSON.stringify([selection.range]) },
      rank ? { suggestion_rank: rank } : {}),
      { uses: selection, saved: () => { state.scu = String(uid); state.pse = state.part = null; if (then) then(); } }));

  // -- picking SCUs and stepping through their contributors in the models -------------------------
  function marksOf(uid, where = ".model-text") {
    return Array.from(document.querySelectorAll(`${where} mark[data-scus]`)).filter((m) => m.dataset.scus.split(" ").includes(uid));
  }

  const { mark, markSelected } = window.WorkspaceActions;

  function select({ scu = null, pse = null, part = null, follow = true } = {}) {
    const same = state.scu === (scu && String(scu));
    Object.assign(state, { scu: scu && String(scu), pse: pse && String(pse), part: part && String(part) });
    if (!same || follow) state.step = -1;
    const pane = document.querySelector(".scu-pane");
    const item = state.scu && document.getElementById(`scu-${state.scu}`);
    if (!item) state.scu = state.pse = state.part = null;
    const pseItem = item && state.pse && item.querySelector(`[data-pse="${state.pse}"]`);
    if (!pseItem) state.pse = state.part = null;
    const partItem = pseItem && state.part && item.querySelector(`[data-span="${state.part}"][role=treeitem]`);
    if (!partItem) state.part = null;
    if (pane) {
      mark("selected", [item, pseItem, partItem], pane);
      markSelected(partItem || pseItem || item || null, pane);
    }
    const marks = item ? marksOf(state.scu) : [];
    // Its words light up in the models and in the peer text alike.
    mark("highlight", item ? marks.concat(marksOf(state.scu, "#peer-text")) : []);
    if (!same || !marks.length) mark("current", []);
    if (item && follow) step(1);
  }

  // What a tree item is: an SCU (0: matching nothing), a PSE, or one part of a PSE.
  function selectItem(item, options = {}) {
    const pse = item.closest(".pse");
    select(Object.assign({ scu: item.closest(".scu").dataset.uid, pse: pse && pse.dataset.pse,
                           part: item.matches(".part") ? item.dataset.span : null }, options));
  }

  function moveTo(uid) {
    const pse = state.pending;
    state.pending = null;
    send("move_pse", { pse, scu: uid });
  }

  function step(delta) {
    const marks = marksOf(state.scu || "");
    const position = document.getElementById("contributor-position");
    if (!marks.length) { if (position) position.textContent = ""; return; }
    state.step = (state.step + delta + marks.length) % marks.length;
    marks.forEach((mark) => mark.classList.remove("current"));
    marks[state.step].classList.add("current");
    marks[state.step].scrollIntoView({ block: "nearest" });
    if (position) position.textContent = `${state.step + 1} of ${marks.length}`;
  }

  // -- "Mark complete" with peer words in no PSE: a warning first (DUC 2005 puts every word in a PSE,
  //    of an SCU or of "matches nothing"), which lets the annotator go back, go to the first of
  //    those words, or mark it complete anyway. The server says how many on the button. ----------
  const warning = () => document.getElementById("uncovered-words");
  const completeButton = () => document.querySelector('#toolbar [data-act="complete"]');

  function warnOfUncovered(button) {
    const left = Number(button.dataset.uncovered);
    document.getElementById("uncovered-count").textContent = `${left} word${left === 1 ? "" : "s"}`;
    document.getElementById("uncovered-verb").textContent = left === 1 ? "is" : "are";
    document.getElementById("uncovered-first").textContent = button.dataset.uncoveredWords;
    warning().showModal();  // the focus goes to "Go back" (autofocus)
  }

  // Closed in any way (Escape too), the keyboard is back where it was: on "Mark complete".
  document.addEventListener("close", (event) => {
    if (event.target !== warning()) return;
    const active = document.activeElement;
    if ((!active || active === document.body) && completeButton()) completeButton().focus();
  }, true);

  // The first uncovered words, selected in the peer text as if by hand: 0 or an SCU takes them.
  function selectFirstUncovered(button) {
    const text = document.getElementById("peer-text");
    const [start, end] = (button.dataset.uncoveredFirst || "").split(" ").map(Number);
    if (!text || !(end > start)) return;
    text.focus({ preventScroll: true });
    const range = window.TextSelection.rangeOf(text, [start, end]);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    const words = range.getBoundingClientRect(), pane = text.closest("section").getBoundingClientRect();
    if (words.top < pane.top || words.bottom > pane.bottom) text.closest("section").scrollTop += words.top - pane.top - pane.height / 3;
  }

  const actions = {
    undo() { send("undo", {}); },
    redo() { send("redo", {}); },
    complete(button) {
      if (Number(button.dataset.uncovered || 0) > 0) { warnOfUncovered(button); return; }
      if (confirm("Mark this annotation complete? It becomes read-only.")) send("complete", {});
    },
    uncovered_back() { warning().close(); },
    uncovered_show() {
      const button = completeButton();
      warning().close();
      if (button) selectFirstUncovered(button);
    },
    complete_anyway() { warning().close(); send("complete", {}); },
    reopen() { send("reopen", {}); },
    mark_reviewed() { send("mark_reviewed", {}); },
    help() { document.getElementById("help").showModal(); },
    previous() { step(-1); },
    next() { step(1); },
    assign_to(button) { assign(button.dataset.uid, null, button.dataset.rank); },
  };

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-act]");
    if (button) { event.preventDefault(); (actions[button.dataset.act] || (() => {}))(button); return; }
    const item = event.target.closest(".scu-pane .scu");
    if (item) {
      if (state.pending) { moveTo(item.dataset.uid); return; }
      const focusable = event.target.closest("[role=treeitem]");
      selectItem(focusable);
      window.TreeKeys.focus(focusable);
      // A click on an SCU (not on one of its PSEs) matches the selected words to it.
      if (focusable === item && editable() && peerSelection()) assign(item.dataset.uid);
      return;
    }
    const mark = event.target.closest("#peer-text mark[data-scus]");
    if (mark && window.getSelection().isCollapsed) selectClicked(mark);
  });

  // A click on a PSE's words in the peer text selects that PSE (DUCView's users click the text):
  // Delete, p and v then act on it. Where PSEs overlap, the shortest one holding the caret.
  function selectClicked(mark) {
    const caret = window.TextSelection.caret();
    const at = caret && caret.author === "peer" ? caret.offset : Number(mark.dataset.start);
    const uids = mark.dataset.scus.split(" ");
    let best = null;
    uids.forEach((uid) => {
      const item = document.getElementById(`scu-${uid}`);
      if (!item) return;
      item.querySelectorAll(".part[data-range]").forEach((part) => {
        const [start, end] = part.dataset.range.split(" ").map(Number);
        if (start <= at && at <= end && (!best || end - start < best.length)) best = { uid, part, length: end - start };
      });
    });
    if (!best) { select({ scu: uids[0] }); return; }
    const pse = best.part.closest(".pse");
    const many = pse.querySelectorAll(".part").length > 1;
    select({ scu: best.uid, pse: pse.dataset.pse, part: many ? best.part.dataset.span : null });
    const words = best.part.textContent.length > 40 ? `${best.part.textContent.slice(0, 39)}…` : best.part.textContent;
    if (editable()) setStatus(`${many ? "A part" : "The PSE"} “${words}” of ${best.uid === "0" ? "nothing in the pyramid" : `SCU ${best.uid}`} is selected: Delete removes it${many ? "" : ", v moves it, p adds the selected words to it"}.`, "idle");
  }

  // The SCU list is a tree (static/js/tree-keys.js): focus selects; Enter on an SCU matches the
  // selected words to it, or takes the PSE being moved.
  document.addEventListener("tree:focus", (event) => { if (!state.pending) selectItem(event.detail.item); });
  document.addEventListener("tree:activate", (event) => {
    const item = event.detail.item;
    if (!editable() || !item.matches(".scu")) return;
    if (state.pending) moveTo(item.dataset.uid);
    else assign(item.dataset.uid);
  });

  // -- the keyboard: select, "/" and type part of a label or a number, Enter -----------------------
  document.addEventListener("keydown", (event) => {
    if (!workspace()) return;
    const filter = document.getElementById("scu-filter");
    if (event.target === filter) {
      if (event.key === "Enter") {
        event.preventDefault();
        if (!editable()) return;
        const query = filter.value.trim();
        const first = document.querySelector(".scu-pane .scu:not([hidden])");
        if (!query) { setStatus("Type part of an SCU's label, its text or its number first.", "error"); return; }
        if (!first) { setStatus(`No SCU matches “${query}”: nothing was stored.`, "error"); return; }
        // Once saved, ready for the next pick: the filter empties and the peer text has the focus
        // again. A refusal leaves the filter as typed.
        assign(first.dataset.uid, () => clearFilter(true));
      } else if (event.key === "Escape") {
        clearFilter(true);
      }
      return;
    }
    // Enter and Space on a button, a link or a disclosure are theirs, never an assignment.
    if (event.target.closest("button, a, summary, select, dialog") && ["Enter", " "].includes(event.key)) return;
    if (event.target.closest("dialog")) return;
    if (event.target.matches("input, textarea") || event.defaultPrevented) return;
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    const run = (fn) => { event.preventDefault(); fn(); };
    if (key === "?") return run(actions.help);
    if (key === "/") return run(() => { filter.focus(); filter.select(); });  // typing replaces an earlier search
    if (key === "[") return run(() => step(-1));
    if (key === "]") return run(() => step(1));
    if (!editable()) return;
    if (ctrl && key === "z" && !event.shiftKey) return run(actions.undo);
    if (ctrl && (key === "y" || (key === "z" && event.shiftKey))) return run(actions.redo);
    if (ctrl || event.altKey) return;
    // Enter matches the words to the selected SCU from the peer text (or with nothing focused):
    // elsewhere Enter belongs to what has the focus.
    const inText = event.target.id === "peer-text" || event.target === document.body;
    if (key === "enter" && state.scu && inText) return run(() => assign(state.scu));
    if (key === "0") return run(() => assign(0));
    if (key === "p") {
      if (!state.pse) return run(() => setStatus("Click the words of the PSE to add a part to in the peer text (or select it in the SCU list) first.", "error"));
      return run(() => withSelection((selection) =>
        send("add_part", { pse: state.pse, ranges: JSON.stringify([selection.range]) }, { uses: selection })));
    }
    if (key === "v") {
      if (!state.pse) return run(() => setStatus("Click the words of the PSE to move in the peer text (or select it in the SCU list) first.", "error"));
      return run(() => {
        state.pending = state.pse;
        setStatus("Choose the SCU to move the PSE to: click it, or go to it with ↑ ↓ and press Enter (Escape cancels).", "idle");
      });
    }
    if (key === "delete" || key === "backspace") {
      if (!state.part && !state.pse) return run(() => setStatus("Click the words of the PSE to remove in the peer text (or select it in the SCU list) first: nothing was removed.", "error"));
      return run(() => send(state.part ? "remove_part" : "remove_pse", state.part ? { span: state.part } : { pse: state.pse }));
    }
    if (key === "escape") { state.pending = null; select(); window.TextSelection.drop(); }
  });

  function clearFilter(focusText) {
    const filter = document.getElementById("scu-filter");
    filter.value = "";
    filter.dispatchEvent(new Event("input", { bubbles: true }));
    if (focusText) document.getElementById("peer-text").focus();
  }

  // The filter: a number is that SCU's number (when there is one); anything else is looked for in
  // the labels, the models' contributor text (data-search) and the PSE text shown.
  document.addEventListener("input", (event) => {
    if (event.target.id !== "scu-filter") return;
    const query = event.target.value.trim().toLowerCase().replace(/^#(?=\d+$)/, "");  // "#12" as the list shows it
    const byNumber = /^\d+$/.test(query) && document.getElementById(`scu-${query}`) !== null;
    document.querySelectorAll(".scu-pane .scu").forEach((item) => {
      const text = `${item.dataset.search || ""} ${Array.from(item.querySelectorAll(".label, .pse")).map((e) => e.textContent).join(" ").toLowerCase()}`;
      item.hidden = query !== "" && (byNumber ? item.dataset.uid !== query : !text.includes(query));
    });
    document.querySelectorAll(".scu-pane .tier-name").forEach((name) => { name.hidden = query !== ""; });
  });

  // -- htmx: refusals and conflicts come with the current state; failures can be retried ------------
  // After an answer (whole, or pieces out of band), put back the marks the swapped pieces lost.
  let refreshing = false;
  function refresh() {
    if (refreshing) return;
    refreshing = true;
    setTimeout(() => {
      refreshing = false;
      select({ scu: state.scu, pse: state.pse, part: state.part, follow: false });
      window.TextSelection.repaint();
      window.TreeKeys.restore();
      const filter = document.getElementById("scu-filter");
      if (filter && filter.value) filter.dispatchEvent(new Event("input", { bubbles: true }));
    }, 0);
  }
  // (The suggestions have a box of their own under the peer text, of a fixed height: their coming
  // moves nothing, and nothing is scrolled for them.)
  document.addEventListener("htmx:afterSwap", (event) => { if (event.detail.target.id !== "suggestions") refresh(); });
  document.addEventListener("htmx:oobAfterSwap", refresh);
  window.TreeKeys.settle(document.getElementById("scu-list"));
})();
