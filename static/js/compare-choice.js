// The comparison page: its Merge button merges the pyramids shown, not those chosen in the selects
// above since. When a select changes, the Merge button (and "Start another") waits for Compare,
// and says so, so that an adjudicator never merges pyramids they have not seen compared.
(function () {
  "use strict";
  const choice = document.getElementById("choose-pyramids");
  if (!choice) return;
  const shown = new FormData(choice);
  choice.addEventListener("change", () => {
    const now = new FormData(choice);
    const changed = Array.from(choice.querySelectorAll("select")).some((s) => (now.get(s.name) || "") !== (shown.get(s.name) || ""));
    document.querySelectorAll("#start-consensus button[type=submit]").forEach((button) => { button.disabled = changed; });
    // What is said of the pyramids shown (their consensus, a wider one) is not said of the new choice.
    document.querySelectorAll("#pair-consensus > p, #wider-consensus").forEach((said) => { said.hidden = changed; });
    let note = document.getElementById("compare-first");
    if (changed && !note && document.getElementById("start-consensus")) {
      note = document.createElement("p");
      note.id = "compare-first";
      note.className = "message warning";
      note.setAttribute("role", "status");
      note.textContent = "The choice changed: press Compare to see these pyramids compared before merging them.";
      document.getElementById("start-consensus").before(note);
    } else if (!changed && note) {
      note.remove();
    }
  });
})();
