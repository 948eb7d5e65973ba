// The unit set page (templates/coverage/unit_set_detail.html). An edit refused answers with the
// units as they now are and says why: 409 (the page was stale), 403 (judging has started), 422 (a
// broken rule). htmx swaps only 2xx answers by itself: let these in too, into #unit-set alone.
// The answer puts the focus where the next step starts (autofocus, which htmx honours).
document.addEventListener("htmx:beforeSwap", (event) => {
  if (!event.detail.target || event.detail.target.id !== "unit-set") return;
  if (![403, 409, 422].includes(event.detail.xhr.status)) return;
  event.detail.shouldSwap = true;
  event.detail.isError = false;
});
