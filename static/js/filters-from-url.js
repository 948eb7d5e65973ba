// After Back or Forward, htmx puts back the page as it was first drawn: its filter form would show
// the choices of that first load, not those of the table restored. Each filter takes the value the
// address gives it (none: the first option, "all").
document.addEventListener("htmx:historyRestore", () => {
  const chosen = new URLSearchParams(window.location.search);
  for (const form of document.querySelectorAll("form.filters")) {
    for (const field of form.querySelectorAll("select[name]")) {
      const value = chosen.get(field.name);
      const option = [...field.options].find((o) => o.value === value);
      field.selectedIndex = option ? option.index : 0;
    }
  }
});
