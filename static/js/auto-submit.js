// Filters that apply at once: a field marked data-auto-submit submits its form when it changes.
// A listener in a file of ours, as the Content-Security-Policy refuses onchange="" attributes.
document.addEventListener("change", (event) => {
  const field = event.target.closest("[data-auto-submit]");
  if (field && field.form) field.form.submit();
});
