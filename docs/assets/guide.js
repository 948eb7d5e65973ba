// The theme's search dialog has no name of its own (axe-core's aria-dialog-name): name it.
document.querySelectorAll(".md-search[role=dialog]").forEach((dialog) => {
  dialog.setAttribute("aria-label", "Search the guide");
});
