// The merge pages (a consensus pyramid's groups, a consensus annotation's SCUs).
// - Decisions go through WorkspaceActions, as the builder's edits do (a decision on a group is
//   answered with what it changed alone): the version is read when a decision is sent, and a refusal shows the merge as it now is with the reason, the page's scroll
//   and the decision's place kept, and Retry after a conflict. Without JavaScript the forms post.
// - Finding one's way: n / p go to the next / previous undecided group (or SCU) after the one in
//   focus or at the top of the screen; a link to a group (a marked stretch of model text, "Next
//   undecided") opens it even where decided ones are hidden, and gives it the focus; Ctrl+Z and
//   Ctrl+Y (Ctrl+Shift+Z) press the page's Undo and Redo. The "Hide decided" box is remembered
//   for the page, across its answers.
(function () {
  "use strict";

  const ITEM = "[data-merge-item]";
  const opened = new Set();  // the ids of decided items opened by a link, kept open across answers
  let pressed = null;  // the decision's button, { id, top }, until its answer is in
  const hiddenKey = () => `merge:hide-decided:${location.pathname}`;

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches("form[data-action]") || !form.closest("[data-edit-url]") || !window.WorkspaceActions) return;
    event.preventDefault();
    const submitter = event.submitter;
    if (submitter && submitter.disabled) return;
    const action = (submitter && submitter.dataset.action) || form.dataset.action;
    const values = {};
    new FormData(form, submitter).forEach((value, name) => {
      if (name !== "version" && name !== "csrfmiddlewaretoken") values[name] = value;
    });
    const place = form.closest("[data-keep-place]");
    // The button pressed, where it is on the screen: after the answer, it is under the pointer
    // again (the note that comes above it, the group decided before that hides above it).
    pressed = submitter && submitter.id ? { id: submitter.id, top: submitter.getBoundingClientRect().top } : null;
    window.WorkspaceActions.send(action, values, {
      place: place ? `[data-keep-place="${CSS.escape(place.dataset.keepPlace)}"]` : null,
    });
  });

  function open(item) {
    if (!item) return;
    opened.add(item.id);
    item.classList.add("opened");
    item.scrollIntoView({ block: "start" });
    const title = item.querySelector("[data-item-title]") || item;
    title.focus({ preventScroll: true });
    history.replaceState(null, "", `#${item.id}`);
  }

  // The item the adjudicator is at: the one holding the focus, else the last whose top has gone
  // under the bar at the top of the screen.
  function current(items) {
    const focused = document.activeElement && document.activeElement.closest(ITEM);
    if (focused) return focused;
    const bar = document.querySelector(".merge-bar");
    const line = bar ? bar.getBoundingClientRect().bottom + 1 : 0;
    let at = null;
    items.forEach((item) => { if (item.offsetParent !== null && item.getBoundingClientRect().top <= line) at = item; });
    return at;
  }

  function undecided(step) {
    const items = Array.from(document.querySelectorAll(ITEM));
    const here = items.indexOf(current(items));
    for (let i = 1; i <= items.length; i += 1) {
      const item = items[(((here < 0 && step < 0 ? 0 : here) + step * i) % items.length + items.length) % items.length];
      if (!item.classList.contains("decided")) return item;
    }
    return null;
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[href^='#']");
    if (!link || !link.closest(".merge")) return;
    if (link.matches("#next-undecided, .next-undecided")) {
      event.preventDefault();
      const item = link.closest(ITEM) ? nextAfter(link.closest(ITEM)) : undecided(1);
      if (item) open(item);
      else window.WorkspaceActions.setStatus("Every one is decided.", "saved");
      return;
    }
    const target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (target && target.matches(ITEM)) { event.preventDefault(); open(target); }
  });

  function nextAfter(item) {
    const items = Array.from(document.querySelectorAll(ITEM));
    const at = items.indexOf(item);
    return items.slice(at + 1).concat(items.slice(0, at)).find((other) => !other.classList.contains("decided")) || null;
  }

  document.addEventListener("keydown", (event) => {
    if (!document.querySelector(".merge") || event.altKey) return;
    const typing = event.target.closest("input[type=text], input[type=search], textarea, select, [contenteditable]");
    if (typing || event.target.closest("dialog")) return;
    const key = event.key.toLowerCase();
    const ctrl = event.ctrlKey || event.metaKey;
    let button = null;
    if (ctrl && key === "z" && !event.shiftKey) button = document.getElementById("merge-undo");
    else if (ctrl && (key === "y" || (key === "z" && event.shiftKey))) button = document.getElementById("merge-redo");
    if (button) {
      event.preventDefault();
      if (!button.disabled) button.form.requestSubmit(button);
      return;
    }
    if (ctrl || event.shiftKey || (key !== "n" && key !== "p")) return;
    event.preventDefault();
    const item = undecided(key === "n" ? 1 : -1);
    if (item) open(item);
    else window.WorkspaceActions.setStatus("Every one is decided.", "saved");
  });

  // "Hide decided": remembered for the page; put back (with the items opened) after every answer.
  function settle() {
    const box = document.getElementById("hide-decided");
    if (box) box.checked = sessionStorage.getItem(hiddenKey()) !== "shown";
    opened.forEach((id) => { const item = document.getElementById(id); if (item) item.classList.add("opened"); });
  }
  document.addEventListener("change", (event) => {
    if (event.target.id !== "hide-decided") return;
    sessionStorage.setItem(hiddenKey(), event.target.checked ? "hidden" : "shown");
    if (event.target.checked) { opened.clear(); document.querySelectorAll(`${ITEM}.opened`).forEach((item) => item.classList.remove("opened")); }
  });
  document.addEventListener("htmx:afterSwap", settle);

  // A decision on a group is answered with what it changed alone, swapped in out of band (the
  // group, the counts, the controls), its classes once htmx has settled them. The group decided
  // before is no longer the one just decided: its note goes, and the groups opened by a link close
  // (where decided groups are hidden, they hide again, as when the whole region came back); the
  // button pressed stays under the pointer. Undo and Redo bring the whole region: the group they
  // changed is brought into view if it is not.
  document.addEventListener("htmx:afterSettle", (event) => {
    const swapped = event.target;
    if (!swapped.matches) return;
    const decided = swapped.matches(`${ITEM}.just-decided`) ? swapped
      : swapped.matches(".merge") ? swapped.querySelector(`${ITEM}.just-decided`) : null;
    if (!decided) return;  // (htmx tells of every piece swapped in: the decided group is one)
    const button = pressed;
    pressed = null;
    if (decided !== swapped) {
      const { top, bottom } = decided.getBoundingClientRect();
      if (bottom < 0 || top > window.innerHeight) decided.scrollIntoView({ block: "start" });
      return;
    }
    const anchor = (button && document.getElementById(button.id)) || decided;
    const top = button && anchor !== decided ? button.top : decided.getBoundingClientRect().top;
    opened.clear();
    document.querySelectorAll(ITEM).forEach((other) => {
      if (other === decided) return;
      other.classList.remove("just-decided", "opened");
      other.querySelectorAll(".group-note").forEach((note) => note.remove());
    });
    const moved = anchor.getBoundingClientRect().top - top;
    if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", settle);
  else settle();
})();
