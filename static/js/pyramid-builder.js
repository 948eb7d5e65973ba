// Pyramid builder: what only the browser can do. Keeps which SCU, contributor or part is selected
// (the SCU list is a tree: static/js/tree-keys.js) and the words selected in a model (kept by
// static/js/text-selection.js as code point offsets); the builder's keys, search, drag and drop
// (reorder, or move a contributor onto another SCU) and which SCUs are open. Each action is one
// POST (static/js/workspace-actions.js, the engine annotator.editing behind it); the server
// answers with the workspace re-rendered (and out-of-band pieces such as the SCU order), after
// which the marks above are put back.
(function () {
  "use strict";

  // pending: a move or merge waiting for its target SCU ({ kind, contributor, scu }).
  const state = { scu: null, contributor: null, part: null, pending: null };

  const workspace = () => document.getElementById("workspace");
  const editable = () => workspace() && workspace().dataset.editable === "true";
  const itemOf = (uid) => document.getElementById(`scu-${uid}`);

  // -- the words selected -------------------------------------------------------------------------
  function showSelection(selection, message) {
    const line = document.getElementById("selection");
    if (!line) return;
    // The line keeps its height whether or not it says something: a layout shift under a mouse
    // that is still selecting would move the selection's end.
    line.textContent = message ? message
      : selection ? `Selected in model ${selection.author}: “${selection.text}” (Escape clears)` : "";
    line.title = line.textContent;
  }
  window.TextSelection.onChange(showSelection);
  document.addEventListener("workspace:replaced", () => showSelection(window.TextSelection.kept(), ""));

  // -- talking to the server -------------------------------------------------------------------
  const setStatus = (text, level) => window.WorkspaceActions.setStatus(text, level);
  const send = (action, values, options) => window.WorkspaceActions.send(action, values, options);

  // The words an action stores are always the ones the page shows selected.
  function withSelection(what) {
    const selection = window.TextSelection.kept();
    if (!selection) { setStatus("Select some words in a model summary first.", "error"); return; }
    what(selection, { summary: selection.summary, ranges: JSON.stringify([selection.range]) });
  }

  function waitForTarget(kind) {
    const subject = kind === "move" ? state.contributor : state.scu;
    if (!subject) { setStatus(kind === "move" ? "Select a contributor first." : "Select an SCU first.", "error"); return; }
    state.pending = { kind, contributor: state.contributor, scu: state.scu };
    const what = kind === "move" ? "move the contributor to" : `merge SCU ${state.scu} into`;
    setStatus(`Choose the SCU to ${what}: click it, or go to it with ↑ ↓ and press Enter (Escape cancels).`, "idle");
  }

  // A merge stored selects the SCU merged into (the server says so); a refusal changes only the
  // status line.
  function target(uid) {
    const pending = state.pending;
    state.pending = null;
    if (pending.kind === "move") send("move_contributor", { contributor: pending.contributor, target: uid });
    if (pending.kind === "merge") send("merge_scus", { scu: pending.scu, target: uid });
  }
  // While the builder waits for the SCU to move or merge into, nothing else may store words:
  // the help's phrases (static/js/builder-help.js) ask first.
  // And which SCU is selected, as the builder holds it: a row swapped in by an answer has not its
  // mark back yet for a moment, but the SCU is still the one selected.
  window.PyramidBuilder = {
    choosing: () => state.pending !== null,
    selected: () => (state.scu && itemOf(state.scu) ? state.scu : null),
  };

  // Choosing the SCU to merge or move into: the keys and buttons that store words wait.
  function choosing() {
    if (!state.pending) return false;
    setStatus("Choose the SCU first (click it, or ↑ ↓ and Enter; Escape cancels): no words were stored.", "error");
    return true;
  }

  const actions = {
    new_scu() { if (!choosing()) withSelection((selection, values) => send("new_scu", values, { uses: selection })); },
    add() {
      if (choosing()) return;
      if (!state.scu) { setStatus("Select the SCU (or the contributor) to add to, in the list.", "error"); return; }
      withSelection((selection, values) => {
        if (state.contributor) send("add_part", Object.assign({ contributor: state.contributor }, values), { uses: selection });
        else send("add_contributor", Object.assign({ scu: state.scu }, values), { uses: selection });
      });
    },
    label() { editInPlace("label"); },
    comment() { editInPlace("comment"); },
    label_from_contributor() {
      if (state.contributor) send("set_label_from_contributor", { contributor: state.contributor });
      else setStatus("Select a contributor first.", "error");
    },
    split() {
      if (state.contributor) send("split_contributor", { contributor: state.contributor });
      else setStatus("Select a contributor first.", "error");
    },
    move() { waitForTarget("move"); },
    merge() { waitForTarget("merge"); },
    remove() {
      if (state.part) send("remove_part", { span: state.part });
      else if (state.contributor) send("remove_contributor", { contributor: state.contributor });
      else if (state.scu && confirm(`Remove SCU ${state.scu} and its contributors?`)) send("remove_scu", { scu: state.scu });
    },
    shift(delta) {
      if (!state.scu) return;
      const uids = scuOrder();
      const position = uids.indexOf(state.scu) + delta;
      if (position < 0 || position >= uids.length) return;
      send("move_scu", { scu: state.scu, position });
    },
    undo() { send("undo", {}); },
    redo() { send("redo", {}); },
    order_scus() { send("order_scus", {}); },
    submit() { if (confirm("Submit this pyramid? It becomes read-only for annotators.")) send("submit", {}); },
    reopen() { send("reopen", {}); },
    // The fix a refusal offers carries its own values: exactly what the refusal was about.
    fix(button) { send(button.dataset.action, JSON.parse(button.dataset.values)); },
    help() { document.getElementById("help").showModal(); },
    collapse() { expansion.all(false); },
    expand() { expansion.all(true); },
    layout() {
      localStorage.setItem("pyramid-models-layout", isSideBySide() ? "stacked" : "side-by-side");
      applyLayout();
    },
  };

  function editInPlace(field, typed = null) {
    if (!state.scu) { setStatus("Select an SCU first.", "error"); return; }
    const item = itemOf(state.scu);
    const current = field === "label" ? item.querySelector(".label").textContent
      : (item.querySelector(".comment") || { dataset: { comment: "" } }).dataset.comment;
    const input = document.createElement("input");
    input.type = "text";
    input.className = `edit-${field}`;
    input.dataset.field = field;
    input.dataset.scu = state.scu;
    input.value = typed === null ? current : typed;
    input.setAttribute("aria-label", field === "label" ? `Label of SCU ${state.scu}` : `Comment on SCU ${state.scu}`);
    const anchor = item.querySelector(".label");
    anchor.replaceWith(input);
    input.focus();
    if (typed === null) input.select();
    else input.setSelectionRange(input.value.length, input.value.length);
    input.addEventListener("click", (event) => event.stopPropagation());
    input.addEventListener("keydown", (event) => {
      event.stopPropagation();
      if (event.key === "Enter") {
        event.preventDefault();
        if (field === "label" && !input.value.trim()) { setStatus("An SCU's label cannot be empty.", "error"); return; }
        send(field === "label" ? "set_label" : "set_comment", { scu: input.dataset.scu, [field]: input.value });
      } else if (event.key === "Escape") {
        input.replaceWith(anchor);
        item.focus();
      }
    });
  }

  // -- which SCUs are open: all (after "Expand all", remembered), or the one selected and those
  //    opened by hand --------------------------------------------------------------------------
  const expansion = (function () {
    const openAll = () => localStorage.getItem("pyramid-scus-open") === "all";
    const open = new Set(), closed = new Set();
    let autoOpened = null;
    const isOpen = (uid) => (openAll() ? !closed.has(uid) : open.has(uid));
    function apply() {
      document.querySelectorAll("#scu-list > .scu").forEach((item) => {
        const value = String(isOpen(item.dataset.uid));
        if (item.getAttribute("aria-expanded") !== value) item.setAttribute("aria-expanded", value);
      });
    }
    return {
      apply,
      selected(uid) {
        if (openAll()) return;
        if (autoOpened && autoOpened !== uid) open.delete(autoOpened);
        autoOpened = null;
        if (uid && !open.has(uid)) { open.add(uid); autoOpened = uid; }
      },
      toggle(uid, wanted = !isOpen(uid)) {
        if (openAll()) { if (wanted) closed.delete(uid); else closed.add(uid); }
        else if (wanted) open.add(uid);
        else open.delete(uid);
        if (autoOpened === uid) autoOpened = null;
        apply();
      },
      all(wanted) {
        localStorage.setItem("pyramid-scus-open", wanted ? "all" : "selected");
        open.clear(); closed.clear(); autoOpened = null;
        if (!wanted && state.scu) this.selected(state.scu);
        apply();
      },
    };
  })();

  // -- selecting SCUs, contributors and parts ----------------------------------------------------
  // `open`: show the SCU's contributors (a click, a new SCU); moving through the tree with the
  // arrow keys leaves SCUs as they are, so that ↓ goes from SCU to SCU.
  const { mark, markSelected } = window.WorkspaceActions;

  function select({ scu = null, contributor = null, part = null, scroll = true, open = false } = {}) {
    Object.assign(state, { scu: scu && String(scu), contributor: contributor && String(contributor), part: part && String(part) });
    const item = state.scu && itemOf(state.scu);
    if (!item) state.scu = state.contributor = state.part = null;
    const c = item && state.contributor && item.querySelector(`[data-contributor="${state.contributor}"]`);
    if (!c) state.contributor = state.part = null;
    const p = c && state.part && item.querySelector(`[data-span="${state.part}"][role=treeitem]`);
    if (!p) state.part = null;
    if (open || !state.scu) expansion.selected(state.scu);
    expansion.apply();
    const list = document.getElementById("scu-list");
    if (list) {
      mark("selected", [item, c, p], list);
      markSelected(p || c || item || null, list);
    }
    const marks = item ? Array.from(document.querySelectorAll(".text mark[data-scus]")).filter((m) => m.dataset.scus.split(" ").includes(state.scu)) : [];
    mark("highlight", marks);
    if (item && scroll) {
      item.scrollIntoView({ block: "nearest" });
      const firstPerModel = new Map();
      marks.forEach((m) => { const box = m.closest(".text"); if (!firstPerModel.has(box)) firstPerModel.set(box, m); });
      firstPerModel.forEach((m) => m.scrollIntoView({ block: "nearest", inline: "nearest" }));
    }
  }

  // What a tree item is: an SCU, a contributor, or one part of a contributor.
  function selectItem(item, options = {}) {
    const scuItem = item.closest(".scu");
    const contributor = item.closest(".contributor");
    const part = item.matches(".part") ? item : null;
    select(Object.assign({ scu: scuItem.dataset.uid, contributor: contributor && contributor.dataset.contributor,
                           part: part && part.dataset.span }, options));
  }

  const scuOrder = () => Array.from(document.querySelectorAll("#scu-list > .scu")).map((item) => item.dataset.uid);

  document.addEventListener("tree:focus", (event) => {
    if (!state.pending) selectItem(event.detail.item);
  });
  document.addEventListener("tree:activate", (event) => {
    const item = event.detail.item;
    if (state.pending) { target(item.closest(".scu").dataset.uid); return; }
    if (item.matches(".scu")) expansion.toggle(item.dataset.uid);
  });
  document.addEventListener("tree:expand", (event) => expansion.toggle(event.detail.item.dataset.uid, event.detail.open));

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-act]");
    if (button) { event.preventDefault(); (actions[button.dataset.act] || (() => {}))(button); return; }
    const goto = event.target.closest("[data-goto]");
    if (goto) { event.preventDefault(); select({ scu: goto.dataset.goto, open: true }); itemOf(goto.dataset.goto).focus(); return; }
    const item = event.target.closest("#scu-list .scu");
    if (item) {
      if (state.pending) { target(item.dataset.uid); return; }
      if (event.target.closest(".twisty")) { expansion.toggle(item.dataset.uid); return; }
      const focusable = event.target.closest("[role=treeitem]");
      selectItem(focusable, { open: true });  // and show its words
      window.TreeKeys.focus(focusable);
      return;
    }
    const mark = event.target.closest(".text mark[data-scus]");
    if (mark && window.getSelection().isCollapsed) {
      // A shaded word selects its SCU; where contributors overlap, every SCU holding it is marked.
      const uids = mark.dataset.scus.split(" ");
      select({ scu: uids[0], open: true });
      uids.slice(1).forEach((uid) => { const other = itemOf(uid); if (other) other.classList.add("selected"); });
    }
  });

  // Double-click a label to edit it in place.
  document.addEventListener("dblclick", (event) => {
    const label = event.target.closest(".scu .label");
    if (!label || !editable()) return;
    event.preventDefault();
    select({ scu: label.closest(".scu").dataset.uid, scroll: false });
    editInPlace("label");
  });

  // The server names the SCU to select after an edit that made one (new SCU, split, merge).
  let openNext = false;
  document.addEventListener("pyramid:select", (event) => {
    Object.assign(state, { scu: String(event.detail.uid), contributor: null, part: null });
    openNext = true;
  });

  // A relabel's answer gives the new tooltips of the models' runs in the SCU ({summary: [[start,
  // title], ...]}), not the models again (issue 32: the page's own work for a relabel).
  document.addEventListener("pyramid:titles", (event) => {
    Object.entries(event.detail.models).forEach(([summary, titles]) => {
      const box = document.querySelector(`.text[data-summary="${summary}"]`);
      if (!box) return;
      titles.forEach(([start, title]) => {
        const run = box.querySelector(`:scope > [data-start="${start}"]`);
        if (run) run.title = title;
      });
    });
  });

  document.addEventListener("keydown", (event) => {
    if (!workspace()) return;
    const typing = event.target.matches("input, textarea");
    if (event.target.id === "scu-filter" && event.key === "Enter") {  // to the first SCU found
      event.preventDefault();
      const first = document.querySelector("#scu-list > .scu:not([hidden])");
      if (!first) { setStatus(`No SCU matches “${event.target.value.trim()}”.`, "error"); return; }
      select({ scu: first.dataset.uid, open: true });
      window.TreeKeys.focus(first);
      return;
    }
    if (event.key === "/" && !typing) {
      event.preventDefault();
      const filter = document.getElementById("scu-filter");
      filter.focus();
      filter.select();  // typing replaces an earlier search
      return;
    }
    if (event.key === "?" && !typing && !event.target.closest("dialog")) { event.preventDefault(); actions.help(); return; }
    if (typing || !editable() || event.target.closest("dialog")) return;
    const ctrl = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    const run = (name, ...args) => { event.preventDefault(); actions[name](...args); };
    if (ctrl && key === "z" && !event.shiftKey) return run("undo");
    if (ctrl && (key === "y" || (key === "z" && event.shiftKey))) return run("redo");
    if (ctrl || event.altKey && !["arrowup", "arrowdown"].includes(key)) return;
    if (event.altKey && key === "arrowup") return run("shift", -1);
    if (event.altKey && key === "arrowdown") return run("shift", 1);
    const keys = { n: "new_scu", a: "add", l: "label", c: "comment", t: "label_from_contributor", s: "split",
                   v: "move", g: "merge", o: "order_scus", delete: "remove", backspace: "remove" };
    if (keys[key] && !event.shiftKey) return run(keys[key]);
    if (key === "escape") { state.pending = null; select(); window.TextSelection.drop(); setStatus("", "idle"); }
  });

  // A label or comment being typed stays when a conflict brings the whole workspace back.
  document.addEventListener("workspace:replacing", (event) => {
    const input = document.querySelector("#scu-list input[data-field]");
    if (input) event.detail.editing = { field: input.dataset.field, scu: input.dataset.scu, value: input.value };
  });
  document.addEventListener("workspace:replaced", (event) => {
    const editing = event.detail.editing;
    if (!editing || !itemOf(editing.scu)) return;
    select({ scu: editing.scu, scroll: false });
    editInPlace(editing.field, editing.value);
  });

  // Models side by side (the default) or stacked, as the annotator last chose (in this browser).
  const isSideBySide = () => localStorage.getItem("pyramid-models-layout") !== "stacked";
  function applyLayout() {
    const models = document.getElementById("models");
    if (!models) return;
    models.classList.toggle("side-by-side", isSideBySide());
    // The button says what it does: show the other layout.
    document.querySelector("[data-act=layout]").textContent = isSideBySide() ? "Show stacked" : "Show side by side";
  }
  applyLayout();

  // -- search: SCUs whose label or contributors hold the words; the words marked in the summaries --
  function search(query) {
    document.querySelectorAll("#scu-list > .scu").forEach((item) => {
      item.hidden = query !== "" && !item.textContent.toLowerCase().includes(query);
    });
    document.querySelectorAll(".text [data-start].found").forEach((run) => run.classList.remove("found"));
    if (query.length < 2) return;
    document.querySelectorAll(".text[data-summary]").forEach((box) => {
      const text = box.textContent.toLowerCase();
      const starts = [];
      for (let at = text.indexOf(query); at !== -1; at = text.indexOf(query, at + 1)) starts.push([at, at + query.length]);
      if (!starts.length) return;
      let offset = 0;  // in UTF-16 units, like indexOf
      box.querySelectorAll("[data-start]").forEach((run) => {
        const end = offset + run.textContent.length;
        if (starts.some(([s, e]) => s < end && offset < e)) run.classList.add("found");
        offset = end;
      });
    });
  }
  document.addEventListener("input", (event) => {
    if (event.target.id === "scu-filter") search(event.target.value.trim().toLowerCase());
  });

  // -- drag and drop: an SCU between two others reorders (as in DUCView); with Shift held, onto an
  //    SCU, merges; a contributor onto an SCU moves it -------------------------------------------
  let dragged = null;  // { kind: "scu" | "contributor", id }
  const clearDrop = () => document.querySelectorAll(".drop-before, .drop-after, .drop-merge")
    .forEach((el) => el.classList.remove("drop-before", "drop-after", "drop-merge"));
  function dropAt(event) {
    const item = event.target.closest && event.target.closest("#scu-list > .scu");
    if (!item || !dragged) return null;
    if (dragged.kind === "contributor") return { item, how: "merge" };
    if (item.dataset.uid === dragged.id) return null;
    if (event.shiftKey) return { item, how: "merge" };
    const box = item.getBoundingClientRect();
    return { item, how: event.clientY < box.top + box.height / 2 ? "before" : "after" };
  }
  document.addEventListener("dragstart", (event) => {
    const contributor = event.target.closest && event.target.closest(".contributor[draggable]");
    const item = event.target.closest && event.target.closest(".scu[draggable]");
    dragged = contributor ? { kind: "contributor", id: contributor.dataset.contributor }
      : item ? { kind: "scu", id: item.dataset.uid } : null;
    if (dragged) {
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", `${dragged.kind} ${dragged.id}`);
      setStatus(dragged.kind === "scu" ? "Drop between two SCUs to move it there; hold Shift and drop onto an SCU to merge."
        : "Drop onto an SCU to move the contributor there.", "idle");
    }
  });
  document.addEventListener("dragover", (event) => {
    const at = dropAt(event);
    clearDrop();
    if (!at) return;
    event.preventDefault();
    at.item.classList.add(`drop-${at.how}`);
  });
  document.addEventListener("dragend", () => { clearDrop(); dragged = null; });
  document.addEventListener("drop", (event) => {
    const at = dropAt(event);
    clearDrop();
    const what = dragged;
    dragged = null;
    if (!at) return;
    event.preventDefault();
    if (what.kind === "contributor") { send("move_contributor", { contributor: what.id, target: at.item.dataset.uid }); return; }
    if (at.how === "merge") {
      if (confirm(`Merge SCU ${what.id} into SCU ${at.item.dataset.uid}?`)) send("merge_scus", { scu: what.id, target: at.item.dataset.uid });
      return;
    }
    const others = scuOrder().filter((uid) => uid !== what.id);
    const position = others.indexOf(at.item.dataset.uid) + (at.how === "after" ? 1 : 0);
    if (scuOrder().indexOf(what.id) !== position) send("move_scu", { scu: what.id, position });
  });

  // An answer that changed the order names it (#scu-order): the rows the page has are moved, the
  // fewest moves first (one row moved one place is one move).
  function applyOrder() {
    const order = document.getElementById("scu-order"), list = document.getElementById("scu-list");
    if (!order || !order.dataset.order || !list) return;
    const rows = new Map(Array.from(list.children).map((row) => [row.dataset.uid, row]));
    let at = list.firstElementChild;
    order.dataset.order.split(" ").forEach((uid) => {
      const row = rows.get(uid);
      if (!row) return;
      if (row === at) at = at.nextElementSibling;
      else list.insertBefore(row, at);
    });
    order.dataset.order = "";
  }
  document.addEventListener("htmx:oobAfterSwap", (event) => { if (event.detail.target.id === "scu-order") applyOrder(); });

  // -- after an answer: the pieces it replaced (whole or out of band) lost their marks -------------
  let refreshing = false;
  function refresh() {
    if (refreshing) return;
    refreshing = true;
    setTimeout(() => {
      refreshing = false;
      // Only re-apply marks: clearing the selection here could cut into a drag already under way.
      select({ scu: state.scu, contributor: state.contributor, part: state.part, scroll: false, open: openNext });
      // The SCU the server selected is scrolled into view as the frame is drawn, once laid out:
      // scrolling now would lay the page out an extra time, in the middle of the answer's changes.
      const selected = state.scu && itemOf(state.scu);
      if (openNext && selected) requestAnimationFrame(() => { if (selected.isConnected) selected.scrollIntoView({ block: "nearest" }); });
      const selectedByServer = openNext;
      openNext = false;
      window.TextSelection.repaint();
      const filter = document.getElementById("scu-filter");
      if (filter && filter.value) search(filter.value.trim().toLowerCase());
      applyLayout();
      window.TreeKeys.restore();
      // The server selected an SCU (a new one, a split, a merge, a removal undone): where the
      // keyboard is in the SCU list, it goes with the selection (found by a tester: it stayed on
      // the row before, so the arrows and Delete acted from there).
      const active = document.activeElement;
      if (selectedByServer && selected && active && active.closest && active.closest("#scu-list")
          && !selected.contains(active)) window.TreeKeys.focus(selected);
    }, 0);
  }
  // (htmx settles no attribute, base.html: a swapped element keeps the marks put back at its swap,
  // and one refresh an answer is enough; each of the events comes once per piece swapped in.)
  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:afterRequest"].forEach((type) => document.addEventListener(type, refresh));
  expansion.apply();
  window.TreeKeys.settle(document.getElementById("scu-list"));
})();
