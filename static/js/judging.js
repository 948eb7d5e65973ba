// The judging page (annotator/coverage/views/judging.py): one unit at a time, each answer saved at
// once and the next unit shown. The keys are on the page (its Keys table); what is kept here:
// - every unit's saved answer (value, sentences), the unit shown, and when it was shown (the
//   seconds an answer took are sent with it, and capped by the server);
// - the undo stack: the answers each save replaced; undo sends the last one back as an answer
//   (or clears the unit), so that it is saved and checked like any answer;
// - the task's version: each answer carries it. One answer at a time, in the order given: an
//   answer given while one is on its way is sent once that one is saved.
// - a stale version (409: another tab or person answered) brings the task as it now is: the page
//   shows it, and keeps the answer that could not be saved, with a button to save it again.
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("judging-data").textContent);
  const root = document.getElementById("judging");
  const units = data.units.map((u) => ({ id: u.id, value: u.value, sentences: spans(u.sentences) }));
  const articles = Array.from(root.querySelectorAll("article.unit"));
  const answerButtons = Array.from(root.querySelectorAll("button.answer"));
  const sentenceButtons = Array.from(root.querySelectorAll("button.sentence"));
  const status = document.getElementById("status");
  const act = (name) => root.querySelector(`[data-act="${name}"]`);
  const keyOf = new Map(data.choices.map((c) => [c.key, c.value]));
  const sentenceKeys = new Map(sentenceButtons.map((b) => [(b.querySelector(".key") || {}).textContent, b]).filter(([k]) => k));
  const csrfToken = () => (document.cookie.match(/(?:^|; )csrftoken=([^;]*)/) || [])[1] || "";

  let version = data.version;
  let editable = data.editable;
  let current = Math.max(0, Math.min(units.length - 1, data.start - 1));
  let shownAt = performance.now();
  let selected = new Set();  // the sentences marked for the unit shown ("start-end")
  const undoStack = [];  // { index, value, sentences }: the answer a save replaced
  let chain = Promise.resolve();  // the answers on their way, one after the other
  let unsaved = null;  // the answer a refusal left unsaved: { index, value, sentences, seconds, undo }
  let dropped = 0;  // answers given after a refusal, not sent

  function spans(list) { return (list || []).map(([s, e]) => `${s}-${e}`).sort(); }
  function pairs(set) { return Array.from(set).map((k) => k.split("-").map(Number)).sort((a, b) => a[0] - b[0]); }
  const label = (value) => (data.choices.find((c) => c.value === value) || { label: String(value) }).label;

  function say(text, level) {
    status.className = `status ${level || ""}`;
    status.replaceChildren(document.createTextNode(text));
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
    document.getElementById("progress").value = answered;
    const line = document.getElementById(`unit-answer-${current + 1}`);
    if (line) line.textContent = unit.value === null ? "Not answered yet." : `Answered: ${label(unit.value)}${data.see ? `, ${unit.sentences.length} sentence${unit.sentences.length === 1 ? "" : "s"} marked` : ""}.`;
    act("undo").disabled = !editable || undoStack.length === 0;
    act("submit").disabled = !editable || answered < units.length;
    answerButtons.concat(sentenceButtons).forEach((b) => { b.disabled = !editable; });
  }

  // -- saving -------------------------------------------------------------------------------------
  // Send one answer for unit `index`; `undo`: it restores an earlier answer (not itself undoable).
  function save(index, value, sentences, seconds, undo) {
    const unit = units[index];
    const before = { index, value: unit.value, sentences: unit.sentences.slice() };
    // Shown at once; put back if the server refuses it.
    unit.value = value;
    unit.sentences = spans(sentences);
    paint();
    chain = chain.then(() => post(index, value, sentences, seconds, undo, before));
  }

  async function post(index, value, sentences, seconds, undo, before) {
    if (unsaved) { dropped += 1; units[index].value = before.value; units[index].sentences = before.sentences; paint(); return; }
    say("Saving…", "saving");
    const body = new URLSearchParams({
      version: String(version), unit: String(units[index].id), value: value === null ? "" : String(value),
      sentences: JSON.stringify(sentences), seconds: seconds === null ? "" : seconds.toFixed(2),
    });
    let response;
    try {
      response = await fetch(data.answerUrl, { method: "POST", body, headers: { "X-CSRFToken": csrfToken() }, credentials: "same-origin" });
    } catch (error) {
      return refused(index, value, sentences, seconds, undo, before, "Not saved: the server could not be reached.");
    }
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      if (response.status === 409 && answer.state) adopt(answer.state);
      else { units[index].value = before.value; units[index].sentences = before.sentences; }
      return refused(index, value, sentences, seconds, undo, before, answer.error || `Not saved: the server answered ${response.status}.`);
    }
    version = answer.version;
    if (!undo) undoStack.push(before);
    say(value === null ? `Saved: unit ${index + 1} is not answered.` : `Saved: unit ${index + 1} ${label(value)}${undo ? " (undone)" : ""}.`, "saved");
    paint();
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

  // Say why the answer was not saved, and keep it: "Save it again" sends it on the current version.
  function refused(index, value, sentences, seconds, undo, before, message) {
    unsaved = { index, value, sentences, seconds, undo, before };
    paint();
    const what = value === null ? "to leave it unanswered" : `${label(value)}${data.see ? `, ${sentences.length} sentence${sentences.length === 1 ? "" : "s"}` : ""}`;
    say(`${message} Your answer for unit ${index + 1} (${what}) is kept.`, "conflict");
    if (!editable) return;
    const again = document.createElement("button");
    again.type = "button";
    again.className = "retry";
    again.textContent = "Save it again";
    again.addEventListener("click", () => {
      const kept = unsaved;
      unsaved = null;
      dropped = 0;
      show(kept.index);
      save(kept.index, kept.value, kept.sentences, kept.seconds, kept.undo);
    });
    status.append(" ", again);
    if (dropped) status.append(` ${dropped} answer${dropped === 1 ? "" : "s"} given meanwhile ${dropped === 1 ? "was" : "were"} not sent.`);
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
    save(index, value, pairs(selected), elapsed(), false);
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
    // An answered unit's sentences are part of its answer: saved at once; else kept for the answer.
    if (unit.value !== null) save(current, unit.value, pairs(selected), elapsed(), false);
    paint();
  }

  function undo() {
    if (!editable || !undoStack.length) return;
    const last = undoStack.pop();
    show(last.index);
    save(last.index, last.value, pairs(new Set(last.sentences)), null, true);
    selected = new Set(last.sentences);
    paint();
  }

  async function submit() {
    await chain;
    if (!editable || unsaved) return;
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
})();
