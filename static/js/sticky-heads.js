// The models' names stay in view as their texts scroll (issue 32: at 1280 px "Model A 96% in
// SCUs" scrolled away with the text). Each name sticks under its pane's own sticky tools, whose
// height (the legend wraps on narrow panes) only the browser knows: it is kept in --tools-height.
(function () {
  "use strict";
  if (!window.ResizeObserver) return;
  const observer = new ResizeObserver((entries) => entries.forEach(({ target }) => {
    const pane = target.closest("section");
    if (pane) pane.style.setProperty("--tools-height", `${target.offsetHeight}px`);
  }));
  const watch = () => document.querySelectorAll(".models-pane > .pane-tools").forEach((tools) => observer.observe(tools));
  watch();
  document.addEventListener("htmx:afterSettle", watch);  // a whole workspace swapped in
})();
