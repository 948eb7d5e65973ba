// Sending one editing action through htmx, and saying on the page how it went. Shared by the
// pyramid builder, the peer annotation page and the merge pages (static/js/merge-decisions.js).
// The workspace is the element with data-edit-url (its ACTION replaced by the action's name); it
// holds the record's [data-version] and the #status line.
// - The record's version is read when the action is sent (and again on Retry).
// - A broken rule (422) answers with the status line only: nothing else on the page changes.
// - A stale view (409) or a refusal (403) answers with the whole workspace as it now is; the scroll
//   of the panes (and of the page, the action's place where it was), the filter and the focus are put back, the page scripts put back what they
//   hold (the kept selection, a label being typed) on "workspace:replaced", and after a conflict
//   Retry sends the same action again on the current version.
// - A request that could not be sent can be retried.
// - One action at a time, in the order asked: an action asked for while another is on its way (a
//   key pressed as the last answer arrives) is sent once that answer is in, on the version it
//   brings; if that answer is a refusal, what waited is not sent, and the status line says so.
window.WorkspaceActions = (function () {
  "use strict";

  let last = null;  // the last action sent: { action, values, uses, saved, place }
  let inFlight = null;
  let waiting = [];  // actions asked for while one was on its way: [action, values, options]
  let context = null;  // what the annotator was doing, while a whole workspace is swapped in
  const csrfToken = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1] || "";
  const workspace = () => document.querySelector("[data-edit-url]");

  function setStatus(text, level, retry) {
    const status = document.getElementById("status");
    if (!status) return;
    status.className = `status ${level}`;
    const message = document.createElement("span");
    message.className = "message-text";
    message.textContent = message.title = text;
    status.replaceChildren(message);
    if (retry && last) addRetry(status);
  }

  function addRetry(status) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "retry";
    button.textContent = "Retry";
    const again = last;
    button.addEventListener("click", () => send(again.action, again.values, { uses: again.uses, saved: again.saved, place: again.place }));
    status.append(" ", button);
  }

  // `uses`: the kept text selection the action stores; once saved, those words are used up.
  // `saved`: what to do once the action is saved (not if it is refused).
  // `place`: a selector of what the action is about (a merge page's group), kept where it was on
  // the screen when a whole workspace comes back.
  function send(action, values = {}, { uses = null, saved = null, place = null } = {}) {
    if (inFlight) { waiting.push([action, values, { uses, saved, place }]); return; }
    const box = workspace();
    const url = box.dataset.editUrl.replace("ACTION", action);
    last = inFlight = { action, values, uses, saved, place, url, focus: focusOf(document.activeElement) };
    setStatus("Saving…", "saving");
    if (uses) window.TextSelection.sending(uses);
    const version = box.querySelector("[data-version]").dataset.version;
    htmx.ajax("POST", url, {
      target: `#${box.id}`, swap: "outerHTML", values: Object.assign({ version }, values),
      headers: { "X-CSRFToken": csrfToken() },
    });
  }

  // -- the keyboard's place: an answer may replace what had the focus (a text reshaded, a button
  //    redrawn); the focus then goes back to its like, or to the SCU list, never to the page ------
  function focusOf(element) {
    if (!element || element === document.body) return null;
    const text = element.closest(".text[data-summary]");
    if (text) return `.text[data-summary="${text.dataset.summary}"]`;
    if (element.dataset && element.dataset.act) return `[data-act="${element.dataset.act}"]`;
    if (element.id && !element.closest("[role=tree]")) return `#${CSS.escape(element.id)}`;
    return null;  // in a tree: static/js/tree-keys.js puts it back
  }

  function refocus(selector) {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const like = selector && document.querySelector(selector);
    if (like && !like.disabled) { like.focus({ preventScroll: true }); return; }
    const stop = document.querySelector("[role=tree] [role=treeitem][aria-selected=true]")
      || document.querySelector("[role=tree] [role=treeitem][tabindex='0']");
    if (stop) stop.focus({ preventScroll: true });
  }

  // -- what the annotator was doing, kept across a whole-workspace answer --------------------------
  function capture() {
    const box = workspace();
    const active = document.activeElement;
    const captured = {
      scrolls: Array.from(box.querySelectorAll("[data-keep-scroll]")).map((pane) => [pane.dataset.keepScroll, pane.scrollTop, pane.scrollLeft]),
      windowScroll: [window.scrollX, window.scrollY],
      place: placeOf(last && last.place),
      filter: (document.getElementById("scu-filter") || {}).value || "",
      focus: active && active.id && box.contains(active) ? active.id : null,
      page: {},  // for the page scripts (a label being typed, say)
    };
    document.dispatchEvent(new CustomEvent("workspace:replacing", { detail: captured.page }));
    return captured;
  }

  // Where the action's place is on the screen: [its selector, its top].
  function placeOf(selector) {
    const element = selector && document.querySelector(selector);
    return element ? [selector, element.getBoundingClientRect().top] : null;
  }

  function putBack(captured) {
    const box = workspace();
    window.scrollTo(captured.windowScroll[0], captured.windowScroll[1]);
    const place = captured.place && placeOf(captured.place[0]);
    if (place && Math.abs(place[1] - captured.place[1]) >= 1) window.scrollBy(0, place[1] - captured.place[1]);
    captured.scrolls.forEach(([key, top, left]) => {
      const pane = box.querySelector(`[data-keep-scroll="${key}"]`);
      if (pane) { pane.scrollTop = top; pane.scrollLeft = left; }
    });
    const filter = document.getElementById("scu-filter");
    if (filter && captured.filter) { filter.value = captured.filter; filter.dispatchEvent(new Event("input", { bubbles: true })); }
    if (captured.focus && document.getElementById(captured.focus)) document.getElementById(captured.focus).focus({ preventScroll: true });
    if (window.TextSelection) window.TextSelection.repaint();
    document.dispatchEvent(new CustomEvent("workspace:replaced", { detail: captured.page }));
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    const status = event.detail.xhr.status;
    if (![403, 409, 422].includes(status)) return;
    event.detail.shouldSwap = true;
    event.detail.isError = false;
    if (status !== 422 && event.detail.target === workspace()) context = capture();
  });
  document.addEventListener("htmx:afterSwap", (event) => {
    if (!context) return;
    const captured = context;
    context = null;
    putBack(captured);
    if (event.detail.xhr.status === 409) addRetry(document.getElementById("status"));
  });
  document.addEventListener("htmx:afterRequest", (event) => {
    // Only the answer to the edit sent (not, say, the suggestions fetched meanwhile).
    const done = inFlight;
    const { requestConfig, pathInfo } = event.detail;
    if (!done || String(requestConfig.verb).toLowerCase() !== "post" || !pathInfo.requestPath.startsWith(done.url)) return;
    inFlight = null;
    const { xhr } = event.detail;
    // An answer that came while a mouse button was held in a text is swapped in once it is up
    // (text-selection.js): so is what follows it (the next action needs the version it brings).
    const then = () => answered(done, xhr);
    if (xhr.heldSwap) { inFlight = done; xhr.heldSwap.then(() => { inFlight = null; then(); }); } else then();
  });
  function answered(done, xhr) {
    if (done.focus !== undefined) setTimeout(() => setTimeout(() => refocus(done.focus), 0), 0);  // after the page's own refresh
    if (xhr.status < 200 || xhr.status >= 300) { dropWaiting(); return; }
    if (done.uses) window.TextSelection.used(done.uses);
    if (done.saved) done.saved();
    const next = waiting.shift();
    if (next) setTimeout(() => setTimeout(() => send(...next), 0), 0);  // after the answer is in place
  }

  // After a refusal, what was asked for meanwhile was asked of a page that is no longer current.
  function dropWaiting() {
    if (!waiting.length) return;
    const dropped = waiting.length;
    waiting = [];
    const status = document.getElementById("status");
    if (status) status.append(` ${dropped === 1 ? "The action" : `The ${dropped} actions`} asked for meanwhile ${dropped === 1 ? "was" : "were"} not sent.`);
  }
  document.addEventListener("htmx:sendError", () => {
    setStatus("Not saved: the server could not be reached.", "error", true);
    if (inFlight) { inFlight = null; dropWaiting(); }
  });
  // A refusal of bad input (annotator/bad_input.py) comes as one line of plain text: say it as it is.
  document.addEventListener("htmx:responseError", (event) => {
    const { xhr } = event.detail;
    const said = (xhr.getResponseHeader("Content-Type") || "").startsWith("text/plain") && xhr.responseText;
    setStatus(said ? `Not saved: ${said}` : `Not saved: the server answered ${xhr.status}.`, "error", !said);
  });

  // Give `className` to exactly `elements` (within `scope`), touching only what changes: a page of
  // a hundred SCUs restyles less, and its answers paint sooner.
  function mark(className, elements, scope = document) {
    const wanted = new Set(elements.filter(Boolean));
    scope.querySelectorAll(`.${className}`).forEach((el) => { if (!wanted.has(el)) el.classList.remove(className); });
    wanted.forEach((el) => { if (!el.classList.contains(className)) el.classList.add(className); });
  }

  // The one element of `scope` with aria-selected="true" (none when `element` is null).
  // The selected item also takes the tree's Tab stop: the keyboard comes back to what is selected.
  function markSelected(element, scope) {
    scope.querySelectorAll("[aria-selected]").forEach((el) => { if (el !== element) el.removeAttribute("aria-selected"); });
    if (element && element.getAttribute("aria-selected") !== "true") element.setAttribute("aria-selected", "true");
    if (element && element.matches("[role=treeitem]") && window.TreeKeys) window.TreeKeys.settle(element.closest("[role=tree]"), element);
  }

  return { send, setStatus, mark, markSelected };
})();
