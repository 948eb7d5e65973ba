// The models' names stay in view as their texts scroll (issue 32: at 1280 px "Model A 96% in
// SCUs" scrolled away with the text). Each name sticks under its pane's own sticky tools, whose
// height (the legend wraps on narrow panes) only the browser knows: it is kept in --tools-height.
// What the page scrolls into view (a contributor's words) must clear both: the tallest name of the
// pane (at 1280 px, four models side by side, a name wraps to two lines) is kept in --title-height
// (a tester's drag started on a name that covered the words scrolled to).
(function () {
  "use strict";
  if (!window.ResizeObserver) return;
  const observer = new ResizeObserver((entries) => entries.forEach(({ target }) => {
    const pane = target.closest("section");
    if (!pane) return;
    if (target.matches(".pane-tools")) pane.style.setProperty("--tools-height", `${target.offsetHeight}px`);
    else {
      const tallest = Math.max(...Array.from(pane.querySelectorAll(".summary > h2"), (title) => title.offsetHeight));
      pane.style.setProperty("--title-height", `${tallest + 4}px`);
    }
  }));
  const watch = () => document.querySelectorAll(".models-pane > .pane-tools, .models-pane .summary > h2")
    .forEach((element) => observer.observe(element));
  watch();
  document.addEventListener("htmx:afterSettle", watch);  // a whole workspace swapped in
})();
