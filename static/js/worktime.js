// Active time on task (issue 20): tells the server, at most once every 30 s, that the user is
// working on this pyramid or peer annotation: selecting words (mouse or keyboard), scrolling or
// moving through the page. Nothing is sent while the user does nothing: the server counts the time
// between actions, and leaves out pauses over five minutes. Edits are counted by the server itself.
// Included only where the user may edit the work (the templates' `editable`); the script's
// data-url is the endpoint (annotator.worktime.views.activity).
(() => {
  "use strict";
  const script = document.currentScript;
  const url = script && script.dataset.url;
  if (!url) return;
  const INTERVAL = 30000; // ms: at most one report in this long
  let lastSent = 0;
  let lastActive = 0; // when the user last did something
  let pending = null; // a report waiting for the end of the interval

  const csrfToken = () => {
    // base.html puts the token in the body's hx-headers (the cookie may be HttpOnly).
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch {
      return "";
    }
  };

  const send = () => {
    pending = null;
    lastSent = Date.now();
    // A report held back to the end of the interval says how long ago the activity was, so that
    // the server counts the moment of the activity, not of the report (found by a tester: up to
    // 30 s of idleness after the last action were counted).
    const body = new URLSearchParams({ ago_ms: String(Math.max(0, lastSent - lastActive)) });
    fetch(url, {
      method: "POST",
      headers: { "X-CSRFToken": csrfToken() },
      body,
      credentials: "same-origin",
      keepalive: true,
    }).catch(() => {}); // time on task is a measure, never in the annotator's way
  };

  // Activity now: sent at once if the last report is old enough, else once at the end of the
  // interval (so a burst of activity is one report, and its last moment is not lost).
  let stopped = false;  // the work became read-only on this page
  const active = () => {
    if (document.hidden || stopped) return;
    lastActive = Date.now();
    if (pending) return;
    const wait = lastSent + INTERVAL - Date.now();
    if (wait <= 0) send();
    else pending = setTimeout(send, wait);
  };

  // An edit sent while a report is held carries it (annotator.worktime.held.record_held_activity):
  // sent alone, after an edit that made the work read-only (Mark complete, Submit), it would be
  // refused. Whatever is held goes with the edit, and nothing is sent once the work is read-only.
  document.addEventListener("htmx:configRequest", (event) => {
    if (!pending || String(event.detail.verb).toLowerCase() !== "post" || !event.detail.path.includes("/edit/")) return;
    clearTimeout(pending);
    pending = null;
    lastSent = Date.now();
    event.detail.parameters.activity_ago_ms = String(Math.max(0, lastSent - lastActive));
  });
  // Read-only (marked complete, submitted) until reopened on this page.
  document.addEventListener("htmx:afterSettle", () => {
    const workspace = document.getElementById("workspace");
    stopped = !!workspace && workspace.dataset.editable === "false";
    if (stopped) { clearTimeout(pending); pending = null; }
  });

  document.addEventListener("selectionchange", () => {
    const selection = document.getSelection();
    if (selection && !selection.isCollapsed) active();
  });
  for (const type of ["keydown", "pointerdown", "wheel"]) {
    document.addEventListener(type, active, { passive: true, capture: true });
  }
  document.addEventListener("scroll", active, { passive: true, capture: true });
})();
