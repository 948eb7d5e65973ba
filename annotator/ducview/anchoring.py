"""Checking a part's offsets against its label, and re-anchoring the few that disagree.

In DUCView files text[start:end] == label for ~99% of parts. Two kinds of exceptions:
- the span crosses a line break, and DUCView deleted the "\\n" from the label: the offsets are
  right (ANCHOR_NEWLINE);
- the offsets are shifted by a character or more (the DUC 2006/2007 packages have ~67 such
  parts): the label is searched for near the stored start, nearest occurrence first
  (ANCHOR_MOVED). A label found nowhere near leaves the offsets as they were (ANCHOR_UNMATCHED).
"""

from __future__ import annotations

ANCHOR_EXACT = "exact"
ANCHOR_NEWLINE = "newline"
ANCHOR_MOVED = "moved"
ANCHOR_UNMATCHED = "unmatched"

SEARCH_WINDOW = 200  # characters either side of the stored start


def _same_ignoring_newlines(span: str, label: str) -> bool:
    return span.replace("\n", "") == label or span.replace("\n", " ") == label


def anchor(text: str, start: int, end: int, label: str) -> tuple[int, int, str]:
    """Return (start, end, how) for a part whose stored offsets are start/end."""
    span = text[start:end]
    if span == label:
        return start, end, ANCHOR_EXACT
    if _same_ignoring_newlines(span, label):
        return start, end, ANCHOR_NEWLINE
    if not label.strip():
        return start, end, ANCHOR_UNMATCHED
    low = max(0, start - SEARCH_WINDOW)
    high = min(len(text), end + SEARCH_WINDOW)
    best = None
    position = text.find(label, low, high)
    while position != -1:
        if best is None or abs(position - start) < abs(best - start):
            best = position
        position = text.find(label, position + 1, high)
    if best is not None:
        return best, best + len(label), ANCHOR_MOVED
    return start, end, ANCHOR_UNMATCHED
