// The SCU lists of both pages are trees (role="tree"): SCUs, and under them contributors and their
// parts (builder) or PSEs and their parts (peer page). One item of a tree takes Tab (a roving
// tabindex); the arrow keys move between the items shown, Right and Left open and close an SCU or
// go to its first item and back, Home and End go to the ends. Focusing an item tells the page
// ("tree:focus"); Enter or Space on it too ("tree:activate").
// Items carry data-key; when an answer replaces the focused item, the focus goes back to the item
// with the same key (or, if it went, to the item that held it), so keyboard work goes on.
window.TreeKeys = (function () {
  "use strict";

  const ITEM = "[role=treeitem]";
  let focusedKeys = null;  // the focused item's key and its ancestors' keys, nearest first
  let focusedAt = 0;  // and its place among the tree's items (for when it and its SCU are gone)

  const treeOf = (element) => element && element.closest && element.closest("[role=tree]");
  const shown = (item) => item.offsetParent !== null || item.getClientRects().length > 0;
  // Whether an item is shown, read from the tree itself (not inside a closed SCU, not filtered out)
  // rather than from the layout: asked right after an answer's swap, the layout would be computed
  // early, then again for the frame once the answer's other changes are made (issue 32: ~2 ms).
  const openInTree = (item) =>
    !item.closest("[hidden]") && !item.parentElement.closest(`${ITEM}[aria-expanded="false"]`);
  const itemsOf = (tree) => Array.from(tree.querySelectorAll(ITEM)).filter(shown);
  const parentItem = (item) => item.parentElement.closest(ITEM);
  const expandable = (item) => item.hasAttribute("aria-expanded");

  function keysOf(item) {
    const keys = [];
    for (let at = item; at; at = parentItem(at)) keys.push(at.dataset.key);
    return keys;
  }

  // Exactly one item of the tree takes Tab: the one given, else the one that had it, else the
  // selected one, else the first.
  function settle(tree, wanted = null) {
    if (!tree) return null;
    const items = Array.from(tree.querySelectorAll(ITEM));
    const chosen = wanted || items.find((i) => i.tabIndex === 0 && openInTree(i)) || tree.querySelector(`${ITEM}[aria-selected=true]`)
      || items.find(openInTree);
    // Only the items whose stop changes are written: each write restyles, and a tree has hundreds.
    items.forEach((item) => {
      const stop = item === chosen ? 0 : -1;
      if (item.tabIndex !== stop) item.tabIndex = stop;
    });
    return chosen;
  }

  function focus(item, { preventScroll = false } = {}) {
    settle(treeOf(item), item);
    item.focus({ preventScroll });
  }

  document.addEventListener("focusin", (event) => {
    const item = event.target.closest && event.target.closest(ITEM);
    if (!item || event.target !== item) return;
    settle(treeOf(item), item);
    focusedKeys = keysOf(item);
    // Among all the items, not only those shown: asking each whether it is shown lays the page out,
    // and a focus comes with every answer (restore).
    focusedAt = Array.from(treeOf(item).querySelectorAll(ITEM)).indexOf(item);
    item.dispatchEvent(new CustomEvent("tree:focus", { bubbles: true, detail: { item } }));
  });
  document.addEventListener("focusout", (event) => {
    // Focus that leaves for good (not to nothing, as when the item is swapped out) is let go.
    if (event.relatedTarget && !treeOf(event.relatedTarget)) focusedKeys = null;
  });

  document.addEventListener("keydown", (event) => {
    const item = event.target.closest && event.target.closest(ITEM);
    if (!item || event.target !== item || event.altKey || event.ctrlKey || event.metaKey) return;
    const tree = treeOf(item), items = itemsOf(tree), at = items.indexOf(item);
    const go = (target) => { event.preventDefault(); if (target) focus(target); };
    switch (event.key) {
      case "ArrowDown": return go(items[at + 1]);
      case "ArrowUp": return go(items[at - 1]);
      case "Home": return go(items[0]);
      case "End": return go(items[items.length - 1]);
      case "ArrowRight":
        if (expandable(item) && item.getAttribute("aria-expanded") === "false") {
          event.preventDefault();
          item.dispatchEvent(new CustomEvent("tree:expand", { bubbles: true, detail: { item, open: true } }));
          return;
        }
        return go(item.querySelector(ITEM) && shown(item.querySelector(ITEM)) ? item.querySelector(ITEM) : null);
      case "ArrowLeft":
        if (expandable(item) && item.getAttribute("aria-expanded") === "true" && !parentItem(item)) {
          event.preventDefault();
          item.dispatchEvent(new CustomEvent("tree:expand", { bubbles: true, detail: { item, open: false } }));
          return;
        }
        return go(parentItem(item));
      case "Enter":
      case " ":
        event.preventDefault();
        item.dispatchEvent(new CustomEvent("tree:activate", { bubbles: true, detail: { item } }));
        return;
      default:
    }
  });

  // After an answer swapped pieces in: one Tab stop per tree, and the focus back where it was.
  function restore() {
    document.querySelectorAll("[role=tree]").forEach((tree) => settle(tree));
    if (!focusedKeys) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    for (const key of focusedKeys) {
      const item = key && document.querySelector(`${ITEM}[data-key="${key}"]`);
      if (item && openInTree(item)) { focusBack(item); return; }
    }
    const tree = document.querySelector("[role=tree]");  // removed: the item now in its place
    const items = tree ? Array.from(tree.querySelectorAll(ITEM)) : [];
    let at = Math.min(focusedAt, items.length - 1);
    while (at > 0 && !openInTree(items[at])) at -= 1;
    if (items.length) focus(items[at]);
  }

  // The focus back on an item an answer redrew: where it is still in view, the screen stays as it
  // is (a focus that scrolls lays the page out once more); else it is brought into view.
  function focusBack(item) {
    const pane = item.closest("[data-keep-scroll]");
    const box = pane ? pane.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
    const { top, bottom } = item.getBoundingClientRect();
    focus(item, { preventScroll: top >= Math.max(box.top, 0) && bottom <= Math.min(box.bottom, window.innerHeight) });
  }

  return { settle, focus, restore, items: itemsOf };
})();
