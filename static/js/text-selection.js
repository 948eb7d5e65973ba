// Turning a text selection into offsets the server understands: code points into a summary's
// text (the browser counts UTF-16 units), snapped to whole words as annotator/selection.py does.
// Texts are rendered as runs that carry data-start, their code point offset.
window.TextSelection = (function () {
  "use strict";

  const SEPARATORS = new Set(" \t\n\r\f\v,.-:;!?\"'()[]{}…–—“”‘’");
  const codePoints = (s) => Array.from(s).length;

  function pointOffset(container, offset) {
    if (container.nodeType === Node.TEXT_NODE) {
      const run = container.parentElement.closest("[data-start]");
      return Number(run.dataset.start) + codePoints(container.data.slice(0, offset));
    }
    const runs = container.matches("[data-start]") ? [container] : Array.from(container.querySelectorAll("[data-start]"));
    if (container.matches("[data-start]")) {
      return Number(container.dataset.start) + (offset > 0 ? codePoints(container.textContent) : 0);
    }
    const child = container.childNodes[offset];
    if (child) {
      const run = child.nodeType === Node.ELEMENT_NODE ? (child.matches("[data-start]") ? child : child.querySelector("[data-start]")) : null;
      if (run) return Number(run.dataset.start);
    }
    const last = runs[runs.length - 1];
    return last ? Number(last.dataset.start) + codePoints(last.textContent) : 0;
  }

  function isWordChar(ch) { return !/\s/.test(ch) && !SEPARATORS.has(ch); }

  // The same snapping as annotator/selection.py, to show what will be stored.
  function snap(chars, start, end) {
    while (start < end && !isWordChar(chars[start])) start++;
    while (end > start && !isWordChar(chars[end - 1])) end--;
    if (start === end) return null;
    while (start > 0 && isWordChar(chars[start - 1])) start--;
    while (end < chars.length && isWordChar(chars[end])) end++;
    return [start, end];
  }

  function readSelection() {
    const sel = window.getSelection();
    if (!sel || sel.rangeCount === 0 || sel.isCollapsed) return null;
    const range = sel.getRangeAt(0);
    const box = (node) => (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement).closest(".text[data-summary]");
    const startBox = box(range.startContainer), endBox = box(range.endContainer);
    if (!startBox || startBox !== endBox) return startBox || endBox ? { error: "Select words within one summary." } : null;
    const chars = Array.from(startBox.textContent);
    const snapped = snap(chars, pointOffset(range.startContainer, range.startOffset), pointOffset(range.endContainer, range.endOffset));
    if (!snapped) return { error: "The selection holds no words." };
    return { summary: startBox.dataset.summary, author: startBox.dataset.author, range: snapped,
             text: chars.slice(snapped[0], snapped[1]).join("") };
  }

  // The texts are contenteditable only so that the keyboard can select; nothing may change them.
  ["beforeinput", "paste", "drop", "cut"].forEach((type) =>
    document.addEventListener(type, (event) => { if (event.target.closest && event.target.closest(".text[data-summary]")) event.preventDefault(); }, true));

  return { read: readSelection, snap };
})();
