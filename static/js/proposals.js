// Proposals to confirm (annotator/assist/proposals.py): "Propose matches" (the button, or m), the
// open proposals drawn as dashed ghost marks over the peer text and listed beside it. In the list,
// ↑ ↓ Home End move, Enter accepts the proposal in focus (with the words selected in the peer text
// instead, where they overlap the proposal's: the annotator edits the span first), Backspace or
// Delete rejects it. One decision is sent at a time, in the order asked, each on the version the
// last answer brought (as static/js/workspace-actions.js does for the page's edits); the focus
// moves on to the next proposal at once, so a run of Enters goes down the list, and once none is
// left to "Propose matches" (the status line says so). The focus goes to the list only when the
// annotator asks (m, the button), never as the page loads (an Enter then would accept one
// unseen); and to a proposal an undo (Ctrl+Z) opened again.
// A rejection is no edit of the annotation (the engine's undo knows nothing of it): Ctrl+Z right
// after rejections, no edit since, reopens the last one rejected (found by a tester: Backspace and
// Delete delete PSEs too, so a rejection is often a slip); else Ctrl+Z is the page's undo. The
// list's "N rejected" has a Reopen button for each, for an older slip.
(function () {
  "use strict";
  if (window.Proposals) return;  // included again with a whole workspace swapped in (a conflict)
  window.Proposals = true;
  // Included in the workspace, this runs before the page's other scripts (deferred scripts run in
  // order, the document already "interactive"): start once they have, when the text selection is
  // there to listen to.
  if (window.TextSelection) start();
  else document.addEventListener("DOMContentLoaded", start);

  function start() {

    const section = () => document.getElementById("proposals");
    const items = () => Array.from(document.querySelectorAll("#proposal-list .proposal"));
    const peerText = () => document.getElementById("peer-text");
    const csrfToken = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1] || "";
    const setStatus = (text, level) => window.WorkspaceActions.setStatus(text, level);
    let current = null;  // the id of the proposal in focus (kept across the list's redraws)
    let queue = [];  // decisions asked for while one is on its way: [kind, id, ranges]
    let inFlight = null;  // the url of the decision on its way
    let engaged = false;  // the focus was last in the list (the item it was on may be gone)
    let shownBefore = null;  // the ids listed before the last redraw (null: none drawn yet)
    let lastPost = "";  // the path of the last edit sent (the page's, or a decision)
    let rejections = [];  // the ids rejected since the page's last edit, the last one last

    // -- the ghost marks: boxes over each open proposal's words, redrawn when the text or list moves --
    function layer() {
      const article = peerText() && peerText().closest("article");
      if (!article) return null;
      let found = article.querySelector(":scope > .ghost-layer");
      if (!found) {
        found = document.createElement("div");
        found.className = "ghost-layer";
        found.setAttribute("aria-hidden", "true");  // the list says it all, in words
        article.append(found);
      }
      return found;
    }

    // One box a line: a range over words inside marks (PSEs) gives a rectangle per text node and per
    // mark, overlapping (found by a tester: "Apollo 11" outlined twice); those on a line are joined.
    function lineBoxes(range) {
      const lines = [];
      Array.from(range.getClientRects()).filter((r) => r.width > 0).forEach((r) => {
        const line = lines.find((l) => r.top < l.bottom - 1 && r.bottom > l.top + 1);
        if (line) {
          Object.assign(line, { left: Math.min(line.left, r.left), right: Math.max(line.right, r.right),
            top: Math.min(line.top, r.top), bottom: Math.max(line.bottom, r.bottom) });
        } else {
          lines.push({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
        }
      });
      return lines.map((l) => ({ left: l.left, top: l.top, width: l.right - l.left, height: l.bottom - l.top }));
    }

    function drawGhosts() {
      const box = layer(), text = peerText();
      if (!box || !text) return;
      const origin = box.getBoundingClientRect();
      const ghosts = [];
      items().forEach((item) => {
        const range = window.TextSelection.rangeOf(text, [Number(item.dataset.start), Number(item.dataset.end)]);
        lineBoxes(range).forEach((r) => {
          const ghost = document.createElement("div");
          ghost.className = `ghost${item.dataset.proposal === current ? " current" : ""}`;
          ghost.dataset.proposal = item.dataset.proposal;
          Object.assign(ghost.style, {
            left: `${r.left - origin.left - 2}px`, top: `${r.top - origin.top - 1}px`,
            width: `${r.width + 4}px`, height: `${r.height + 2}px`,
          });
          ghosts.push(ghost);
        });
      });
      box.replaceChildren(...ghosts);
    }

    // -- focus in the list: one Tab stop (the proposal in focus), arrows move ------------------------
    function focusItem(item, { scroll = true } = {}) {
      items().forEach((other) => { other.tabIndex = other === item ? 0 : -1; });
      if (!item) return;
      current = item.dataset.proposal;
      item.focus({ preventScroll: !scroll });
      hint(item);
      drawGhosts();
      // The words in sight, as a person looks at them before deciding.
      const text = peerText();
      if (text) {
        const words = window.TextSelection.rangeOf(text, [Number(item.dataset.start), Number(item.dataset.end)]).getBoundingClientRect();
        const pane = text.closest("section"), seen = pane.getBoundingClientRect();
        if (words.top < seen.top || words.bottom > seen.bottom) pane.scrollTop += words.top - seen.top - seen.height / 3;
      }
    }

    // The kept selection, where it overlaps the proposal: the words Enter will match instead.
    function editedRange(item) {
      const kept = window.TextSelection.kept();
      if (!kept || kept.author !== "peer") return null;
      const [start, end] = kept.range;
      return start < Number(item.dataset.end) && Number(item.dataset.start) < end ? kept : null;
    }

    function hint(item) {
      const line = document.getElementById("proposal-hint");
      if (!line) return;
      const edited = item && editedRange(item);
      line.textContent = !item ? ""
        : edited ? `Enter matches the selected words “${edited.text}” to SCU ${item.dataset.uid}.`
        : "";
    }

    // -- sending: one decision at a time ------------------------------------------------------------
    function urlOf(kind, id) {
      return section().dataset[`${kind}Url`].replace(/\/0\/(accept|reject|reopen)\/$/, `/${id}/$1/`);
    }

    function decide(item, kind) {
      const edited = kind === "accept" ? editedRange(item) : null;
      item.classList.add("pending");
      item.setAttribute("aria-disabled", "true");
      const next = items().filter((other) => !other.classList.contains("pending"))
        .find((other) => Number(other.dataset.start) >= Number(item.dataset.start) && other !== item)
        || items().filter((other) => !other.classList.contains("pending")).pop();
      if (next) focusItem(next, { scroll: false });
      // Counted at once, not once stored: a Ctrl+Z pressed while it is on its way reopens it after.
      if (kind === "reject") rejections.push(item.dataset.proposal);
      queue.push([kind, item.dataset.proposal, edited]);
      sendNext();
    }

    // A rejected proposal open again (Ctrl+Z, a Reopen button): the answer lists it, in focus.
    function reopen(id) {
      rejections = rejections.filter((other) => other !== id);
      queue.push(["reopen", id, null]);
      sendNext();
    }

    function sendNext() {
      if (inFlight || !queue.length) return;
      const [kind, id, edited] = queue.shift();
      const values = {};
      if (kind === "accept") {
        values.version = document.querySelector("#workspace [data-version]").dataset.version;
        if (edited) values.ranges = JSON.stringify([edited.range]);
      }
      inFlight = { url: urlOf(kind, id), edited };
      setStatus("Saving…", "saving");
      htmx.ajax("POST", inFlight.url, {
        target: "#workspace", swap: "outerHTML", values, headers: { "X-CSRFToken": csrfToken() },
      });
    }

    // Asked for proposals: the focus goes to them once they are in, whichever comes last of the
    // request's end and the list's swap (a loaded machine can end the request first).
    let focusWhenListed = false;
    function focusListed() {
      // Back to the proposal that had the focus (m pressed again in the list), else the first.
      const list = items();
      const next = list.find((item) => item.dataset.proposal === current) || list[0];
      if (!next) return false;
      focusWhenListed = false;
      focusItem(next);
      return true;
    }
    function propose() {
      setStatus("Looking for confident matches…", "saving");
      focusWhenListed = true;
      htmx.ajax("POST", section().dataset.proposeUrl, {
        target: "#proposal-list", swap: "none", headers: { "X-CSRFToken": csrfToken() },
      }).then(() => {
        if (focusWhenListed) focusListed();
      });
    }

    document.addEventListener("htmx:afterRequest", (event) => {
      const done = inFlight;
      if (!done || !event.detail.pathInfo.requestPath.startsWith(done.url)) return;
      inFlight = null;
      const ok = event.detail.xhr.status >= 200 && event.detail.xhr.status < 300;
      if (ok && done.edited) window.TextSelection.used(done.edited);
      if (!ok) {
        // A refused rejection is not one to undo; what waited was asked of a page that is no
        // longer current.
        if (/\/reject\/$/.test(done.url)) rejections = rejections.filter((id) => !done.url.endsWith(`/${id}/reject/`));
        if (queue.length) {
          const status = document.getElementById("status");
          if (status) status.append(` ${queue.length === 1 ? "The decision" : `The ${queue.length} decisions`} asked for meanwhile ${queue.length === 1 ? "was" : "were"} not sent.`);
        }
        queue = [];
        return;
      }
      setTimeout(sendNext, 0);
    });
    // A conflict's whole workspace comes with a Retry of the page's last edit: not this decision.
    document.addEventListener("htmx:afterSwap", (event) => {
      if (event.detail.xhr.status !== 409 || !event.detail.pathInfo.requestPath.includes("/proposals/")) return;
      const retry = document.querySelector("#status .retry");
      if (retry) retry.remove();
    });

    // After any answer (the list, the peer text redrawn): the focus and the ghosts put back. The
    // focus stays in the list if it was there (on the page, the item it was on gone with its
    // answer); it never comes to the list otherwise, but to a proposal an undo or redo listed
    // again (its acceptance undone).
    function refresh() {
      if (focusWhenListed && !/\/propose\/$/.test(lastPost)) focusWhenListed = false;
      if (focusWhenListed && focusListed()) return;
      const list = items();
      const active = document.activeElement;
      const hadFocus = (active && active.closest && active.closest("#proposal-list"))
        || ((!active || active === document.body) && engaged);
      const restoring = /\/(undo|redo|reopen)\/$/.test(lastPost);
      const back = shownBefore && restoring ? list.find((item) => !shownBefore.has(item.dataset.proposal)) : null;
      shownBefore = new Set(list.map((item) => item.dataset.proposal));
      if (back) { focusItem(back); return; }
      const again = list.find((item) => item.dataset.proposal === current);
      if (again) {
        list.forEach((item) => { item.tabIndex = item === again ? 0 : -1; });
        if (hadFocus) again.focus({ preventScroll: true });
      } else if (list.length && hadFocus) {
        focusItem(list[0], { scroll: false });
        return;
      } else if (hadFocus) {
        // The last one decided: to the button that asks for more, beside where the list was (the
        // status line says none is left), not to the page.
        const button = document.getElementById("propose-matches");
        if (button) button.focus({ preventScroll: true });
      }
      drawGhosts();
    }
    document.addEventListener("htmx:beforeRequest", (event) => {
      if (String(event.detail.requestConfig.verb).toLowerCase() !== "post") return;
      lastPost = event.detail.pathInfo.requestPath;
      // An edit (an acceptance, the page's own, its undo): Ctrl+Z is the page's undo from now on.
      if (!/\/proposals\/(\d+\/(reject|reopen)\/|propose\/)$/.test(lastPost)) rejections = [];
    });
    // Once an answer is in: htmx sends these once per piece swapped in (and oobAfterSwap again for
    // every piece before it), so one refresh is scheduled for them all.
    let refreshing = false;
    const refreshSoon = () => {
      if (refreshing) return;
      refreshing = true;
      setTimeout(() => { refreshing = false; refresh(); }, 0);
    };
    document.addEventListener("htmx:afterSettle", refreshSoon);
    document.addEventListener("htmx:oobAfterSwap", refreshSoon);
    window.addEventListener("resize", drawGhosts);

    // -- keys and clicks ------------------------------------------------------------------------------
    const editable = () => document.getElementById("workspace")?.dataset.editable === "true";
    document.addEventListener("keydown", (event) => {
      if (!section() || !editable()) return;
      // Ctrl+Z with rejections since the last edit: the last one reopened, not the page's undo
      // (static/js/peer-annotator.js leaves a key whose default is prevented alone).
      const undoKey = (event.ctrlKey || event.metaKey) && !event.shiftKey && !event.altKey && event.key.toLowerCase() === "z";
      if (undoKey && rejections.length && !event.target.matches("input, textarea, select") && !event.target.closest("dialog")) {
        event.preventDefault();
        reopen(rejections[rejections.length - 1]);
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // m anywhere but in a field or a dialog, the list of proposals included (where the focus is
      // once they are shown): the server says what it found, or that those shown are still open.
      if (event.key === "m" && !event.shiftKey && !event.target.matches("input, textarea, select") && !event.target.closest("dialog")) {
        event.preventDefault();
        propose();
        return;
      }
      const item = event.target.closest && event.target.closest("#proposal-list .proposal");
      if (item) {
        const list = items(), at = list.indexOf(item);
        const move = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: list.length - 1 }[event.key];
        if (move !== undefined) {
          event.preventDefault();
          if (list[move]) focusItem(list[move]);
        } else if (event.key === "Enter") {
          event.preventDefault();  // not the page's Enter (a match to the SCU selected)
          if (!item.classList.contains("pending")) decide(item, "accept");
        } else if (event.key === "Backspace" || event.key === "Delete") {
          event.preventDefault();  // not the page's Delete (the PSE selected)
          if (!item.classList.contains("pending")) decide(item, "reject");
        }
      }
    }, true);

    document.addEventListener("click", (event) => {
      if (event.target.closest("#propose-matches")) { event.preventDefault(); propose(); return; }
      const again = event.target.closest("[data-proposal-reopen]");
      if (again) { event.preventDefault(); reopen(again.dataset.proposalReopen); return; }
      const button = event.target.closest("[data-proposal-act]");
      if (!button) return;
      event.preventDefault();
      const item = button.closest(".proposal");
      if (!item.classList.contains("pending")) decide(item, button.dataset.proposalAct);
    });
    // The toolbar's Undo as Ctrl+Z (before static/js/peer-annotator.js sees the click).
    document.addEventListener("click", (event) => {
      if (!rejections.length || !editable() || !event.target.closest('#toolbar [data-act="undo"]')) return;
      event.preventDefault();
      event.stopPropagation();
      reopen(rejections[rejections.length - 1]);
    }, true);
    document.addEventListener("focusin", (event) => {
      const item = event.target.closest && event.target.closest("#proposal-list .proposal");
      engaged = !!item;
      if (item && item.dataset.proposal !== current) { current = item.dataset.proposal; hint(item); drawGhosts(); }
    });
    window.TextSelection.onChange(() => {
      const item = items().find((other) => other.dataset.proposal === current);
      if (item) hint(item);
    });

    const article = peerText() && peerText().closest("article");
    if (article && window.ResizeObserver) new ResizeObserver(drawGhosts).observe(article);
  }
})();
