// Pyramid builder: what only the browser can do. Turns text selections into code point offsets
// (the browser counts UTF-16 units; the server stores code points), keeps which SCU, contributor
// or part is selected, and posts one editing action at a time through htmx. The server answers
// with the whole workspace re-rendered, so the page always shows what is stored.
(function () {
  "use strict";

  const state = { scu: null, contributor: null, part: null, pending: null };

  const workspace = () => document.getElementById("workspace");
  const editable = () => workspace() && workspace().dataset.editable === "true";

  // -- selections (static/js/text-selection.js keeps the last one, as code point offsets) -----------
  function showSelection(selection, message) {
    const line = document.getElementById("selection");
    if (!line) return;
    // The line keeps its height whether or not it says something: a layout shift under a mouse
    // that is still selecting would move the selection's end.
    line.textContent = message ? message
      : selection ? `Selected in model ${selection.author}: “${selection.text}” (Escape clears)` : "";
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

  const actions = {
    new_scu() { withSelection((selection, values) => send("new_scu", values, { uses: selection })); },
    add() {
      if (!state.scu) { setStatus("Select the SCU (or the contributor) to add to, in the list.", "error"); return; }
      withSelection((selection, values) => {
        if (state.contributor) send("add_part", Object.assign({ contributor: state.contributor }, values), { uses: selection });
        else send("add_contributor", Object.assign({ scu: state.scu }, values), { uses: selection });
      });
    },
    label() { editInPlace("label"); },
    comment() { editInPlace("comment"); },
    label_from_contributor() { if (state.contributor) send("set_label_from_contributor", { contributor: state.contributor }); },
    split() { if (state.contributor) send("split_contributor", { contributor: state.contributor }); },
    move() { if (state.contributor) { state.pending = "move"; setStatus("Click the SCU to move the contributor to (Escape cancels).", "idle"); } },
    merge() { if (state.scu) { state.pending = "merge"; setStatus(`Click the SCU to merge SCU ${state.scu} into (Escape cancels).`, "idle"); } },
    remove() {
      if (state.part) send("remove_part", { span: state.part });
      else if (state.contributor) send("remove_contributor", { contributor: state.contributor });
      else if (state.scu && confirm(`Remove SCU ${state.scu} and its contributors?`)) send("remove_scu", { scu: state.scu });
    },
    shift(delta) {
      if (!state.scu) return;
      const item = document.getElementById(`scu-${state.scu}`);
      const position = Array.from(item.parentElement.children).indexOf(item);
      send("move_scu", { scu: state.scu, position: Math.max(0, position + delta) });
    },
    undo() { send("undo", {}); },
    redo() { send("redo", {}); },
    order_scus() { send("order_scus", {}); },
    submit() { if (confirm("Submit this pyramid? It becomes read-only for annotators.")) send("submit", {}); },
    reopen() { send("reopen", {}); },
    // The fix a refusal offers carries its own values: exactly what the refusal was about.
    fix(button) { send(button.dataset.action, JSON.parse(button.dataset.values)); },
    help() { document.getElementById("help").showModal(); },
    collapse() { document.querySelectorAll("#scu-list details").forEach((d) => (d.open = false)); },
    layout() {
      const sideBySide = !document.getElementById("models").classList.contains("side-by-side");
      localStorage.setItem("pyramid-models-layout", sideBySide ? "side-by-side" : "stacked");
      applyLayout();
    },
    expand() { document.querySelectorAll("#scu-list details").forEach((d) => (d.open = true)); },
  };

  function editInPlace(field, typed = null) {
    if (!state.scu) { setStatus("Select an SCU first.", "error"); return; }
    const item = document.getElementById(`scu-${state.scu}`);
    const current = field === "label" ? item.querySelector(".label").textContent
      : (item.querySelector(".comment") || { title: "" }).title;
    const input = document.createElement("input");
    input.type = "text";
    input.className = `edit-${field}`;
    input.dataset.field = field;
    input.dataset.scu = state.scu;
    input.value = typed === null ? current : typed;
    input.setAttribute("aria-label", field === "label" ? "SCU label" : "SCU comment");
    const anchor = item.querySelector(".label");
    anchor.replaceWith(input);
    input.focus();
    if (typed === null) input.select();
    else input.setSelectionRange(input.value.length, input.value.length);
    input.addEventListener("keydown", (event) => {
      event.stopPropagation();
      if (event.key === "Enter") {
        event.preventDefault();
        if (field === "label" && !input.value.trim()) { setStatus("An SCU's label cannot be empty.", "error"); return; }
        send(field === "label" ? "set_label" : "set_comment", { scu: state.scu, [field]: input.value });
      } else if (event.key === "Escape") {
        input.replaceWith(anchor);
      }
    });
  }

  // -- selecting SCUs, contributors and parts ----------------------------------------------------
  function select({ scu = null, contributor = null, part = null, scroll = true } = {}) {
    Object.assign(state, { scu: scu && String(scu), contributor: contributor && String(contributor), part: part && String(part) });
    document.querySelectorAll(".scu.selected, .contributor.selected, .part.selected").forEach((el) => el.classList.remove("selected"));
    document.querySelectorAll("mark.highlight").forEach((el) => el.classList.remove("highlight"));
    if (!state.scu) return;
    const item = document.getElementById(`scu-${state.scu}`);
    if (!item) { state.scu = state.contributor = state.part = null; return; }
    item.classList.add("selected");
    if (state.contributor) { const c = item.querySelector(`[data-contributor="${state.contributor}"]`); if (c) c.classList.add("selected"); }
    if (state.part) { const p = item.querySelector(`[data-span="${state.part}"]`); if (p) p.classList.add("selected"); }
    const marks = Array.from(document.querySelectorAll("mark[data-scus]")).filter((m) => m.dataset.scus.split(" ").includes(state.scu));
    marks.forEach((m) => m.classList.add("highlight"));
    if (scroll) {
      item.scrollIntoView({ block: "nearest" });
      const firstPerModel = new Map();
      marks.forEach((m) => { const box = m.closest(".text"); if (!firstPerModel.has(box)) firstPerModel.set(box, m); });
      firstPerModel.forEach((m) => m.scrollIntoView({ block: "nearest" }));
    }
  }

  function target(uid) {
    const pending = state.pending;
    state.pending = null;
    if (pending === "move") send("move_contributor", { contributor: state.contributor, target: uid });
    if (pending === "merge") send("merge_scus", { scu: state.scu, target: uid });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-act]");
    if (button) { event.preventDefault(); (actions[button.dataset.act] || (() => {}))(button); return; }
    const goto = event.target.closest("[data-goto]");
    if (goto) { select({ scu: goto.dataset.goto }); return; }
    const item = event.target.closest(".scu");
    if (item) {
      if (event.target.closest("summary")) event.preventDefault();  // the triangle folds; the row selects
      if (state.pending) { target(item.dataset.uid); return; }
      const contributor = event.target.closest(".contributor");
      const part = event.target.closest(".part");
      select({ scu: item.dataset.uid, contributor: contributor && contributor.dataset.contributor,
               part: part && contributor && contributor.querySelectorAll(".part").length > 1 ? part.dataset.span : null, scroll: false });
      select({ scu: state.scu, contributor: state.contributor, part: state.part });
      return;
    }
    const mark = event.target.closest("mark[data-scus]");
    if (mark && window.getSelection().isCollapsed) {
      // A shaded word selects its SCU; where contributors overlap, every SCU holding it is marked.
      const uids = mark.dataset.scus.split(" ");
      select({ scu: uids[0] });
      uids.slice(1).forEach((uid) => { const other = document.getElementById(`scu-${uid}`); if (other) other.classList.add("selected"); });
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
  document.addEventListener("pyramid:select", (event) => {
    Object.assign(state, { scu: String(event.detail.uid), contributor: null, part: null });
  });


  document.addEventListener("keydown", (event) => {
    if (!workspace()) return;
    const typing = event.target.matches("input, textarea");
    if (event.key === "/" && !typing) { event.preventDefault(); document.getElementById("scu-filter").focus(); return; }
    if (event.key === "?" && !typing) { event.preventDefault(); actions.help(); return; }
    if (typing || !editable()) return;
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
    if (!editing || !document.getElementById(`scu-${editing.scu}`)) return;
    select({ scu: editing.scu, scroll: false });
    editInPlace(editing.field, editing.value);
  });

  // Models side by side or stacked, as the annotator last chose (in this browser).
  function applyLayout() {
    const models = document.getElementById("models");
    if (!models) return;
    const sideBySide = localStorage.getItem("pyramid-models-layout") === "side-by-side";
    models.classList.toggle("side-by-side", sideBySide);
    const button = document.querySelector("[data-act=layout]");
    button.setAttribute("aria-pressed", String(sideBySide));
    button.textContent = sideBySide ? "Stacked" : "Side by side";
  }
  applyLayout();

  // -- search: SCUs whose label or contributors hold the words; the words marked in the summaries --
  function search(query) {
    document.querySelectorAll("#scu-list .scu").forEach((item) => {
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

  // -- drag and drop: a contributor onto an SCU moves it; an SCU onto an SCU merges them ------------
  document.addEventListener("dragstart", (event) => {
    const contributor = event.target.closest && event.target.closest(".contributor[draggable]");
    const item = event.target.closest && event.target.closest(".scu[draggable]");
    if (contributor) {
      event.dataTransfer.setData("text/x-contributor", contributor.dataset.contributor);
    } else if (item) {
      event.dataTransfer.setData("text/x-scu", item.dataset.uid);
    }
  });
  document.addEventListener("dragover", (event) => { if (event.target.closest && event.target.closest(".scu")) event.preventDefault(); });
  document.addEventListener("drop", (event) => {
    const item = event.target.closest && event.target.closest(".scu");
    if (!item) return;
    event.preventDefault();
    const contributor = event.dataTransfer.getData("text/x-contributor");
    const scu = event.dataTransfer.getData("text/x-scu");
    if (contributor) send("move_contributor", { contributor, target: item.dataset.uid });
    else if (scu && scu !== item.dataset.uid && confirm(`Merge SCU ${scu} into SCU ${item.dataset.uid}?`)) send("merge_scus", { scu, target: item.dataset.uid });
  });

  // -- htmx: show refusals and conflicts (they carry the current state), and network failures ------
  // After an answer, the pieces it replaced (whole or out of band) lost their marks: put them back.
  let refreshing = false;
  function refresh() {
    if (refreshing) return;
    refreshing = true;
    setTimeout(() => {
      refreshing = false;
      // Only re-apply marks: clearing the selection here could cut into a drag already under way.
      // (A selection goes by itself when the text it was in is swapped.)
      select({ scu: state.scu, contributor: state.contributor, part: state.part, scroll: false });
      window.TextSelection.repaint();
      const filter = document.getElementById("scu-filter");
      if (filter && filter.value) search(filter.value.trim().toLowerCase());
      applyLayout();
    }, 0);
  }
  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:afterRequest"].forEach((type) => document.addEventListener(type, refresh));
})();
