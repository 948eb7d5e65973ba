// The judging page (annotator/coverage/views/judging.py): one unit at a time, each answer saved at
// once and the next unit shown. The keys are on the page (its Keys table); what is kept here:
// - every unit's saved answer (value, sentences), the unit shown, and when it was shown (the
//   seconds an answer took are sent with it, and capped by the server);
// - the undo stack: the answers each save replaced; undo sends the last one back as an answer
//   (or clears the unit), so that it is saved and checked like any answer. It is kept in the
//   tab's sessionStorage with the task's version, so that a reload keeps it (a stack kept at
//   another version is dropped: another tab or person has answered since);
// - the task's version and the units' (the unit set's): each answer carries both. One answer at
//   a time, in the order given: an answer given while one is on its way is sent once that one is
//   saved.
// - a stale version (409: another tab or person answered) brings the task as it now is: the page
//   shows it, keeps the answer that could not be saved (with a button to save it again), and goes
//   on saving the answers given after it on the current version;
// - units an administrator changed since the page was opened (409 with the units): the page puts
//   the units in place of its own and says so; nothing given on the old units is kept or sent.
// - SEE's "none" (0) means no sentence expresses the unit: it is saved with none marked.
// - a SEE answer above none with no sentence marked is saved, and the status line says how to mark.
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("judging-data").textContent);
  const root = document.getElementById("judging");
  let units = data.units.map((u) => ({ id: u.id, value: u.value, sentences: spans(u.sentences) }));
  let articles = Array.from(root.querySelectorAll("article.unit"));
  const answerButtons = Array.from(root.querySelectorAll("button.answer"));
  const sentenceButtons = Array.from(root.querySelectorAll("button.sentence"));
  const status = document.getElementById("status");
  const unsavedLine = document.getElementById("unsaved");
  const progress = document.getElementById("progress");
  const act = (name) => root.querySelector(`[data-act="${name}"]`);
  const keyOf = new Map(data.choices.map((c) => [c.key, c.value]));
  const sentenceKeys = new Map(sentenceButtons.map((b) => [(b.querySelector(".key") || {}).textContent, b]).filter(([k]) => k));
  const csrfToken = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1] || "";

  let version = data.version;
  let unitsVersion = data.unitsVersion;
  let editable = data.editable;
  let current = Math.max(0, Math.min(units.length - 1, data.start - 1));
  let shownAt = performance.now();
  let selected = new Set();  // the sentences marked for the unit shown ("start-end")
  const undoKey = `judging-undo ${data.answerUrl}`;
  const undoStack = restoredUndo();  // { id, value, sentences }: the answer a save replaced
  let chain = Promise.resolve();  // the answers on their way, one after the other
  const unsaved = new Map();  // unit id -> the answer a refusal left unsaved (the last one)

  function spans(list) { return (list || []).map(([s, e]) => `${s}-${e}`).sort(); }
  function pairs(set) { return Array.from(set).map((k) => k.split("-").map(Number)).sort((a, b) => a[0] - b[0]); }
  const label = (value) => (data.choices.find((c) => c.value === value) || { label: String(value) }).label;
  const indexOf = (id) => units.findIndex((u) => u.id === id);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  function say(text, level) {
    status.className = `status ${level || ""}`;
    status.replaceChildren(document.createTextNode(text));
  }

  // -- the undo stack, kept over a reload ---------------------------------------------------------
  function restoredUndo() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(undoKey) || "null");
      if (kept && kept.version === data.version && kept.unitsVersion === data.unitsVersion && data.editable) return kept.stack;
    } catch (error) { /* storage off or garbled: an empty stack */ }
    return [];
  }

  function keepUndo() {
    try {
      if (undoStack.length > 200) undoStack.splice(0, undoStack.length - 200);
      sessionStorage.setItem(undoKey, JSON.stringify({ version, unitsVersion, stack: undoStack }));
    } catch (error) { /* storage full or off: undo lasts as long as the page */ }
  }

  // -- what is shown ------------------------------------------------------------------------------
  function show(index) {
    current = (index + units.length) % units.length;
    articles.forEach((a, i) => { a.hidden = i !== current; });
    selected = new Set(units[current].sentences);
    shownAt = performance.now();
    paint();
  }

  function paint() {
    const unit = units[current];
    answerButtons.forEach((b) => b.setAttribute("aria-pressed", String(unit.value !== null && Number(b.dataset.value) === unit.value)));
    sentenceButtons.forEach((b) => b.setAttribute("aria-pressed", String(selected.has(`${b.dataset.start}-${b.dataset.end}`))));
    const answered = units.filter((u) => u.value !== null).length;
    document.getElementById("answered").textContent = answered;
    document.getElementById("total").textContent = units.length;
    progress.max = units.length;
    progress.value = answered;
    progress.textContent = `${answered} of ${units.length}`;  // what shows where <progress> does not
    const line = document.getElementById(`unit-answer-${current + 1}`);
    if (line) line.textContent = unit.value === null ? "Not answered yet." : `Answered: ${label(unit.value)}${data.see ? `, ${plural(unit.sentences.length, "sentence")} marked` : ""}.`;
    act("undo").disabled = !editable || undoStack.length === 0;
    act("submit").disabled = !editable || answered < units.length;
    answerButtons.concat(sentenceButtons).forEach((b) => { b.disabled = !editable; });
  }

  // The answers a refusal left unsaved, each offered to be saved again.
  function paintUnsaved() {
    if (!unsaved.size || !editable) { unsavedLine.hidden = true; unsavedLine.replaceChildren(); return; }
    const kept = Array.from(unsaved.values()).map((item) => `unit ${indexOf(item.id) + 1} (${what(item)})`);
    const again = document.createElement("button");
    again.type = "button";
    again.className = "retry";
    again.textContent = unsaved.size === 1 ? "Save it again" : "Save them again";
    again.addEventListener("click", retry);
    unsavedLine.replaceChildren(document.createTextNode(`Not saved yet: your answer${unsaved.size === 1 ? "" : "s"} for ${kept.join(", ")}. `), again);
    unsavedLine.hidden = false;
  }

  const what = (item) => (item.value === null ? "to leave it unanswered" : `${label(item.value)}${data.see ? `, ${plural(item.sentences.length, "sentence")}` : ""}`);

  // -- saving -------------------------------------------------------------------------------------
  // Send one answer for unit `index`; `undo`: it restores an earlier answer (not itself undoable).
  function save(index, value, sentences, seconds, undo, cleared) {
    const unit = units[index];
    const item = {
      id: unit.id, unitsVersion, value, sentences, seconds, undo, cleared,
      before: { id: unit.id, value: unit.value, sentences: unit.sentences.slice() },
    };
    // Shown at once; put back if the server refuses it.
    unit.value = value;
    unit.sentences = spans(sentences);
    paint();
    chain = chain.then(() => post(item));
  }

  async function post(item) {
    // Given on units since replaced (an administrator changed them): it is for a unit the judge
    // no longer sees, and the page has said that nothing of the old units is sent.
    if (item.unitsVersion !== unitsVersion) return;
    say("Saving…", "saving");
    const body = new URLSearchParams({
      version: String(version), units_version: String(item.unitsVersion), unit: String(item.id),
      value: item.value === null ? "" : String(item.value), sentences: JSON.stringify(item.sentences),
      seconds: item.seconds === null ? "" : item.seconds.toFixed(2),
    });
    let response;
    try {
      response = await fetch(data.answerUrl, { method: "POST", body, headers: { "X-CSRFToken": csrfToken() }, credentials: "same-origin" });
    } catch (error) {
      return refused(item, "Not saved: the server could not be reached.");
    }
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      if (response.status === 409 && answer.state && answer.state.units) return replaceUnits(answer.state, answer.error);
      if (response.status === 409 && answer.state) adopt(answer.state);
      else putBack(item);
      return refused(item, answer.error || `Not saved: the server answered ${response.status}.`);
    }
    version = answer.version;
    const index = indexOf(item.id);
    // What the server stored (after a 409 the units were read again from it).
    units[index].value = item.value;
    units[index].sentences = answer.sentencesCleared ? [] : spans(item.sentences);
    if (index === current && answer.sentencesCleared) selected = new Set();
    if (!item.undo) undoStack.push(item.before);
    keepUndo();
    if (unsaved.has(item.id)) { unsaved.delete(item.id); paintUnsaved(); }  // answered anew
    const none = item.cleared || answer.sentencesCleared
      ? " The marked sentences were cleared: none means no sentence expresses the unit." : "";
    say(item.value === null ? `Saved: unit ${index + 1} is not answered.` : `Saved: unit ${index + 1} ${label(item.value)}${item.undo ? " (undone)" : ""}.${none}${unmarked(index)}`, "saved");
    paint();
  }

  // A SEE answer above "none" with no sentence marked is saved (the judge may mark them after
  // answering), but said: which sentences express the unit is half of the answer.
  function unmarked(index) {
    const unit = units[index];
    if (!data.see || !unit.value || unit.sentences.length) return "";
    const back = index === current ? "" : index === current - 1 ? "press k to go back to it, then " : "go back to it (j, k), then ";
    return ` No peer sentence is marked for unit ${index + 1}: to mark those that express it, ${back}press a sentence's letter, or Tab to the sentence and press Space.`;
  }

  function putBack(item) {
    const unit = units[indexOf(item.id)];
    if (unit) { unit.value = item.before.value; unit.sentences = item.before.sentences; }
  }

  // The task as the server has it now (after a 409).
  function adopt(state) {
    version = state.version;
    units.forEach((u) => {
      const found = state.judgments[String(u.id)];
      u.value = found ? found.value : null;
      u.sentences = spans(found ? found.sentences : []);
    });
    if (state.status === "submitted") editable = false;
    selected = new Set(units[current].sentences);
  }

  // The units as they now are, in place of those the page showed: nothing of the old ones is
  // kept (their answers unsent, their undo stack, an answer kept to be saved again).
  function replaceUnits(state, message) {
    unitsVersion = state.unitsVersion;
    document.getElementById("units").innerHTML = state.unitsHtml;
    articles = Array.from(root.querySelectorAll("article.unit"));
    units = state.units.map((u) => ({ id: u.id, value: u.value, sentences: spans(u.sentences) }));
    current = 0;  // the unit shown may be gone: shown again below
    adopt(state);
    undoStack.length = 0;
    keepUndo();
    unsaved.clear();
    paintUnsaved();
    const first = units.findIndex((u) => u.value === null);
    show(first >= 0 ? first : 0);
    say(`${message || "The units were changed by an administrator."} Your answers to the old units were not saved: answer the units shown.`, "conflict");
  }

  // Say why the answer was not saved, and keep it: "Save it again" sends it on the current version.
  function refused(item, message) {
    paint();
    say(`${message} Your answer for unit ${indexOf(item.id) + 1} (${what(item)}) is kept.`, "conflict");
    if (!editable) return;
    unsaved.set(item.id, item);
    paintUnsaved();
  }

  function retry() {
    const kept = Array.from(unsaved.values());
    unsaved.clear();
    paintUnsaved();
    kept.forEach((item) => {
      const index = indexOf(item.id);
      if (index < 0) return;
      show(index);
      save(index, item.value, item.sentences, item.seconds, item.undo, item.cleared);
    });
  }

  // -- what the judge does ------------------------------------------------------------------------
  function elapsed() {
    const seconds = (performance.now() - shownAt) / 1000;
    shownAt = performance.now();
    return seconds;
  }

  function answer(value) {
    if (!editable) return;
    const index = current;
    // "None": no sentence expresses the unit, so none stays marked.
    const cleared = data.see && value === 0 && selected.size > 0;
    if (cleared) selected = new Set();
    save(index, value, pairs(selected), elapsed(), false, cleared);
    // On to the next unit; after the last, the first one still open, else to Submit.
    const first = units.findIndex((u) => u.value === null);
    if (index + 1 < units.length) show(index + 1);
    else if (first >= 0) show(first);
    else { paint(); act("submit").focus(); }
  }

  function toggle(button) {
    if (!editable) return;
    const key = `${button.dataset.start}-${button.dataset.end}`;
    if (selected.has(key)) selected.delete(key); else selected.add(key);
    const unit = units[current];
    // An answered unit's sentences are part of its answer: saved at once; else kept for the
    // answer. "None" keeps no sentence: they wait for another answer.
    if (unit.value === 0 && data.see) say("Marked: None keeps no sentences, so give the answer these sentences express.", "");
    else if (unit.value !== null) save(current, unit.value, pairs(selected), elapsed(), false, false);
    paint();
  }

  function undo() {
    if (!editable || !undoStack.length) return;
    const last = undoStack.pop();
    const index = indexOf(last.id);
    if (index < 0) { keepUndo(); paint(); return; }
    show(index);
    save(index, last.value, pairs(new Set(last.sentences)), null, true, false);
    selected = new Set(last.sentences);
    paint();
  }

  async function submit() {
    await chain;
    if (!editable) return;
    if (unsaved.size) { say("Not submitted: an answer is not saved yet (Save it again, or answer the unit anew).", "conflict"); return; }
    say("Submitting…", "saving");
    const response = await fetch(data.submitUrl, { method: "POST", body: new URLSearchParams({ version: String(version) }), headers: { "X-CSRFToken": csrfToken() }, credentials: "same-origin" });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      if (response.status === 409 && answer.state) { adopt(answer.state); paint(); }
      say(answer.error || `Not submitted: the server answered ${response.status}.`, "conflict");
      return;
    }
    version = answer.version;
    editable = false;
    undoStack.length = 0;
    try { sessionStorage.removeItem(undoKey); } catch (error) { /* nothing kept */ }
    paint();
    say("Submitted: your judgments of this peer are saved and final.", "saved");
    const next = document.getElementById("next-peer");
    if (next) next.focus();
  }

  root.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button || button.disabled) return;
    if (button.classList.contains("answer")) answer(Number(button.dataset.value));
    else if (button.classList.contains("sentence")) toggle(button);
    else if (button.dataset.act === "next") show(current + 1);
    else if (button.dataset.act === "previous") show(current - 1);
    else if (button.dataset.act === "undo") undo();
    else if (button.dataset.act === "submit") submit();
  });

  document.addEventListener("keydown", (event) => {
    if (event.repeat || event.altKey || event.metaKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    if (event.ctrlKey) {
      if (event.key.toLowerCase() === "z") { event.preventDefault(); undo(); }
      return;
    }
    const key = event.key;
    if (keyOf.has(key)) { event.preventDefault(); answer(keyOf.get(key)); }
    else if (data.see && sentenceKeys.has(key)) { event.preventDefault(); toggle(sentenceKeys.get(key)); }
    else if (key === "j" || key === "ArrowRight") { event.preventDefault(); show(current + 1); }
    else if (key === "k" || key === "ArrowLeft") { event.preventDefault(); show(current - 1); }
    else if (key === "u") { event.preventDefault(); undo(); }
  });

  show(current);
  // The keys are listened to from here on (a test waits for it before its first key).
  root.dataset.ready = "true";
})();
