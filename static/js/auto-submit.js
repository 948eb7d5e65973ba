// Filters that apply at once: a field marked data-auto-submit submits its form when it changes.
// A listener in a file of ours, as the Content-Security-Policy refuses onchange="" attributes.
// The page reloads with the new choice: the focus goes back to the field that made it, so that a
// person choosing with the keyboard (each arrow key is a change) goes on from where they were.
const FOCUS_KEY = "auto-submit-focus";

document.addEventListener("change", (event) => {
  const field = event.target.closest("[data-auto-submit]");
  if (!field || !field.form) return;
  if (field.name) sessionStorage.setItem(FOCUS_KEY, `${window.location.pathname} ${field.name}`);
  field.form.submit();
});

document.addEventListener("DOMContentLoaded", () => {
  const remembered = sessionStorage.getItem(FOCUS_KEY);
  sessionStorage.removeItem(FOCUS_KEY);
  if (!remembered) return;
  const [path, name] = remembered.split(" ");
  if (path !== window.location.pathname) return;
  const field = document.querySelector(`[data-auto-submit][name="${CSS.escape(name)}"]`);
  if (field) field.focus();
});
