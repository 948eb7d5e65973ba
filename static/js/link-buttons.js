// Links that look like buttons (a.button.work-action: "Build pyramid", "Continue annotating" on the
// home page) answer the keys a button answers: Enter, as every link does, and Space, which a link
// leaves to scrolling the page. Beside them a button ("Annotate") answers both by itself, so both
// kinds of work open alike from the keyboard. As a button does, Space acts when it is released.
document.addEventListener("keydown", (event) => {
  if (event.key === " " && event.target.matches("a.button.work-action")) event.preventDefault();  // no scrolling
});
document.addEventListener("keyup", (event) => {
  if (event.key === " " && event.target.matches("a.button.work-action")) {
    event.preventDefault();
    event.target.click();
  }
});
