// The merge pages' decisions (a consensus pyramid's groups, a consensus annotation's SCUs) go
// through WorkspaceActions, as the builder's edits do: the version is read when a decision is
// sent, and a refusal shows the merge as it now is with the reason, the page's scroll and the
// decision's place kept, and Retry after a conflict. Without JavaScript the forms post as they are.
(function () {
  "use strict";

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
    window.WorkspaceActions.send(action, values, {
      place: place ? `[data-keep-place="${CSS.escape(place.dataset.keepPlace)}"]` : null,
    });
  });
})();
