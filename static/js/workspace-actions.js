// Sending one editing action through htmx, and saying on the page how it went. Shared by the
// pyramid builder and the peer annotation page. Refusals and conflicts (403, 409, 422) come with
// the current state and are shown; a request that could not be sent can be retried.
window.WorkspaceActions = (function () {
  "use strict";

  let lastRequest = null;
  const csrfToken = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1] || "";

  function setStatus(text, level, retry) {
    const status = document.getElementById("status");
    if (!status) return;
    status.className = `status ${level}`;
    status.textContent = text;
    if (retry && lastRequest) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "retry";
      button.textContent = "Retry";
      const again = lastRequest;
      button.addEventListener("click", () => send(again.url, again.values));
      status.append(" ", button);
    }
  }

  function send(url, values) {
    lastRequest = { url, values };
    setStatus("Saving…", "saving");
    htmx.ajax("POST", url, {
      target: "#workspace", swap: "outerHTML", values, headers: { "X-CSRFToken": csrfToken() },
    });
  }

  document.addEventListener("htmx:beforeSwap", (event) => {
    if ([403, 409, 422].includes(event.detail.xhr.status)) { event.detail.shouldSwap = true; event.detail.isError = false; }
  });
  document.addEventListener("htmx:sendError", () => setStatus("Not saved: the server could not be reached.", "error", true));
  document.addEventListener("htmx:responseError", (event) =>
    setStatus(`Not saved: the server answered ${event.detail.xhr.status}.`, "error", true));

  return { send, setStatus };
})();
