"""Two copies of one summary that differ only by artefacts of how they were saved, and the
offsets of one copy translated into the other.

NIST's packages hold each model summary several times: in the .pyr and in every .pan made against
it, and the copies do not always agree. Seen in DUC 2006/2007:
- an encoding artefact: a character lost in one copy is U+FFFD there and "?" in another (or the
  original non-ASCII character survives in one of them);
- spacing: blank lines, spaces or dash lines cut differently where a model starts or ends.
Such copies are one summary: `translation(incoming, stored)` maps offsets of the incoming copy
into the stored one; copies that differ in anything else (a word) are different summaries.

`fold` gives the text that identifies a copy whatever its artefacts (used for fingerprints), and
`preferred` chooses, of two equally long copies, the one to keep whatever the order they came in.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from difflib import SequenceMatcher

LOST = "?\ufffd"  # how a character lost to an encoding shows in DUCView files
SPACING = set(" \t\r\n-")
_NOT_ASCII = re.compile("[^\x00-\x7f]")


def _same_character(a: str, b: str) -> bool:
    if a == b:
        return True
    # A lost character stands for any character that is not plain ASCII (or for another lost one).
    return (a in LOST and (b in LOST or not b.isascii())) or (b in LOST and not a.isascii())


def fold(text: str) -> str:
    """The text with every artefact-prone character made one ("?"), for comparing copies.

    >>> fold("caf\\ufffd au lait") == fold("caf? au lait") == fold("café au lait")
    True
    """
    if text.isascii():
        return text  # nothing to fold ("?" is itself): most texts, at C speed
    return _NOT_ASCII.sub("?", text)  # U+FFFD is not ASCII either


def preferred(a: str, b: str) -> str:
    """Of two copies of one text, the one to keep, the same whichever came first: the one that
    lost fewer characters (U+FFFD), then the one that kept more of the original (non-ASCII), then
    the first in code point order."""
    return min(
        a,
        b,
        key=lambda t: (
            t.count("\ufffd"),
            -sum(1 for c in t if not c.isascii() and c != "\ufffd"),
            t,
        ),
    )


class Translation:
    """Offsets of one copy mapped into another: exact inside the stretches both share; a position
    inside spacing that only one copy has goes to the nearest shared position after it."""

    def __init__(self, blocks: list[tuple[int, int, int]], source_length: int, target_length: int):
        self._blocks = blocks  # (source start, target start, length), in source order
        self._starts = [b[0] for b in blocks]
        self._source_length = source_length
        self._target_length = target_length

    @classmethod
    def identity(cls, length: int) -> Translation:
        return cls([(0, 0, length)], length, length)

    @property
    def is_identity(self) -> bool:
        return (
            self._blocks == [(0, 0, self._source_length)]
            and self._source_length == self._target_length
        )

    def __call__(self, offset: int) -> int:
        index = bisect_right(self._starts, offset) - 1
        if index >= 0:
            source, target, length = self._blocks[index]
            if offset <= source + length:
                return target + (offset - source)
        if index + 1 < len(self._blocks):
            return self._blocks[index + 1][
                1
            ]  # in spacing only this copy has: the next shared position
        return self._target_length


def translation(incoming: str, stored: str) -> Translation | None:
    """The offsets of `incoming` mapped into `stored` when the two are one text up to artefacts
    (see the module docstring), else None.

    >>> t = translation("Caf\\ufffd opens.\\n\\n----", "Caf? opens.")
    >>> t(0), t(5), t(11), t(14)
    (0, 5, 11, 11)
    >>> translation("The cat sat.", "The dog sat.") is None
    True
    """
    if incoming == stored:
        return Translation.identity(len(stored))
    if fold(incoming) == fold(stored) and len(incoming) == len(stored):
        return Translation.identity(len(stored))
    blocks: list[tuple[int, int, int]] = []
    matcher = SequenceMatcher(None, incoming, stored, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            blocks.append((i1, j1, i2 - i1))
            continue
        ours, theirs = incoming[i1:i2], stored[j1:j2]
        if len(ours) == len(theirs) and all(_same_character(a, b) for a, b in zip(ours, theirs)):
            blocks.append((i1, j1, i2 - i1))
        elif set(ours) <= SPACING and set(theirs) <= SPACING:
            continue  # spacing cut differently: no word is in it
        else:
            return None
    # Merge neighbours so that a position between two of them maps exactly.
    merged: list[tuple[int, int, int]] = []
    for block in blocks:
        if (
            merged
            and merged[-1][0] + merged[-1][2] == block[0]
            and merged[-1][1] + merged[-1][2] == block[1]
        ):
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + block[2])
        else:
            merged.append(block)
    return Translation(merged, len(incoming), len(stored))


def first_difference(a: str, b: str) -> str:
    """Where two texts part, for messages: 'at character 12: "dog sat." here, "cat sat." stored'."""
    index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at character {index}: {a[index : index + 20]!r} here, {b[index : index + 20]!r} stored"
