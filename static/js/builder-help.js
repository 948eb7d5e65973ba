// The builder's help (issue 20; annotator.assist.builder_help): with an SCU selected, the panel
// under the SCU list (#builder-help) shows, for each model with no contributor in it, the phrases
// most like it. A phrase's button, or its digit (1–9) anywhere but in a field, adds it as a
// contributor of that SCU through the builder's own action (add_contributor, sent by
// static/js/workspace-actions.js): the rules are the server's, and Ctrl+Z undoes it.
// The selected SCU is the one static/js/pyramid-builder.js holds selected;
// the panel is fetched again when the SCU or the pyramid's version changes.
(function () {
  "use strict";

  if (window.BuilderHelp) return;
  window.BuilderHelp = true;

  // As pyramids/workspace/builder_help_list.html says it with no SCU.
  const NO_SCU = "Select an SCU: the models with no contributor in it show their closest phrases here.";
  let shown = null;  // "uid:version" of what the panel shows or is fetching
  let timer = null;

  const panel = () => document.getElementById("builder-help");
  // The builder's own record of it (static/js/pyramid-builder.js), not the row's mark: between an
  // answer's swap and the builder putting its marks back, no row is marked (found flaky: the panel
  // then said "select an SCU", and asked for the help again a moment later).
  const selectedUid = () => {
    if (window.PyramidBuilder && window.PyramidBuilder.selected) return window.PyramidBuilder.selected();
    const item = document.querySelector("#scu-list > .scu.selected");
    return item ? item.dataset.uid : null;
  };
  const version = () => (document.querySelector("#workspace [data-version]") || { dataset: {} }).dataset.version;

  function placeholder(text) {
    const list = document.getElementById("builder-help-list");
    if (!list) return;
    // Already said (an edit's answer brought it): the panel does not change a moment later.
    if (!list.dataset.uid && list.textContent.trim() === text) return;
    const line = document.createElement("p");
    line.className = "muted";
    line.textContent = text;
    list.replaceChildren(line);
    delete list.dataset.uid;
  }

  // Fetch the help for the selected SCU, unless the panel already shows it for this version.
  function update() {
    const box = panel();
    if (!box) return;
    const uid = selectedUid();
    const wanted = uid && `${uid}:${version()}`;
    if (wanted === shown) return;
    shown = wanted;
    if (!uid) { placeholder(NO_SCU); return; }
    fetch(`${box.dataset.url}?scu=${encodeURIComponent(uid)}`, { credentials: "same-origin", headers: { "HX-Request": "true" } })
      .then((answer) => (answer.ok ? answer.text() : Promise.reject(answer.status)))
      .then((html) => {
        if (shown !== wanted) return;  // another SCU was selected meanwhile
        // Not under a mouse still selecting words (text-selection.js): the panes keep still.
        window.HoldStill.afterRelease(() => {
          const current = document.getElementById("builder-help-list");
          if (current && shown === wanted) current.outerHTML = html;
        });
      })
      .catch(() => { if (shown === wanted) { placeholder("The phrases could not be loaded."); shown = null; } });
  }
  // After the builder's own handlers (selection, swaps) have run.
  const soon = () => { clearTimeout(timer); timer = setTimeout(update, 120); };

  function add(button) {
    // A mode (choosing the SCU to merge or move into) takes no words: say so, store nothing.
    if (window.PyramidBuilder && window.PyramidBuilder.choosing()) {
      window.WorkspaceActions.setStatus("Choose the SCU first (click it, or ↑ ↓ and Enter; Escape cancels): no phrase was added.", "error");
      return;
    }
    // The panel may be behind the selection (a key pressed as another SCU was selected): nothing
    // is added to an SCU the phrases were not ranked for, and the status line says so.
    if (button.dataset.uid !== selectedUid()) {
      window.WorkspaceActions.setStatus(`Those phrases were for SCU ${button.dataset.uid}: SCU ${selectedUid() || "—"}'s are coming; nothing was added.`, "error");
      soon();
      return;
    }
    window.WorkspaceActions.send("add_contributor", {
      scu: button.dataset.uid,
      summary: button.dataset.summary,
      ranges: JSON.stringify([[Number(button.dataset.start), Number(button.dataset.end)]]),
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("#builder-help [data-help-add]");
    if (button) { event.preventDefault(); add(button); return; }
    soon();
  });
  document.addEventListener("keydown", (event) => {
    if (!panel() || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.matches("input, textarea") || event.target.closest("dialog")) return;
    if (!/^[1-9]$/.test(event.key)) return;
    const button = document.querySelector(`#builder-help [data-help-add][data-key="${event.key}"]`);
    if (!button) return;
    event.preventDefault();
    add(button);
  });
  // Each edit asks for the help of the SCU selected, and its answer brings it (out of band): one
  // request per action (annotator.pyramids.views.builder_help_after). The list it brings says
  // which SCU and version it is for: no second request for what is shown already.
  document.addEventListener("htmx:configRequest", (event) => {
    const uid = selectedUid();
    if (panel() && uid && String(event.detail.verb).toLowerCase() === "post" && event.detail.path.includes("/edit/")) {
      event.detail.parameters.help_for = uid;
    }
  });
  document.addEventListener("htmx:oobAfterSwap", (event) => {
    if (!event.detail.target || event.detail.target.id !== "builder-help-list") return;
    const list = document.getElementById("builder-help-list");  // the new one (the target is the old)
    if (list && list.dataset.uid) shown = `${list.dataset.uid}:${list.dataset.version}`;
  });
  // The panel grows with the phrases it shows, and the SCU list above it shrinks: the selected
  // SCU's row, in sight before, is kept in sight (a tester's last SCU went under the panel). Seen
  // as the browser lays the page out anyway (a ResizeObserver), so no layout is forced for it.
  let panelTop = null;
  const keepSelectedInSight = new ResizeObserver(() => {
    const box = panel();
    if (!box) return;
    const before = panelTop;
    panelTop = box.getBoundingClientRect().top;
    const row = document.querySelector("#scu-list > .scu.selected > .scu-row");
    const pane = row && row.closest("section");
    if (before === null || panelTop >= before || !pane) return;
    const r = row.getBoundingClientRect(), bottom = pane.getBoundingClientRect().bottom;
    if (r.bottom > bottom && r.top < before) pane.scrollTop += r.bottom - bottom;
  });
  let observed = null;
  function observePanel() {
    const box = panel();
    if (box === observed) return;
    if (observed) keepSelectedInSight.unobserve(observed);
    observed = box;
    panelTop = null;
    if (box) keepSelectedInSight.observe(box);
  }
  document.addEventListener("workspace:replaced", observePanel);
  document.addEventListener("htmx:afterSwap", observePanel);
  observePanel();

  document.addEventListener("keyup", soon);
  ["tree:focus", "pyramid:select", "htmx:afterSettle", "htmx:oobAfterSwap", "workspace:replaced"]
    .forEach((type) => document.addEventListener(type, soon));
  // A whole workspace swapped in brings an empty panel: show the help again.
  // (An edit's answer swaps nothing in the workspace itself, only pieces out of band.)
  document.addEventListener("htmx:afterSwap", () => {
    const list = document.getElementById("builder-help-list");
    if (!list || !list.dataset.uid) shown = null;
    soon();
  });
  update();
})();
