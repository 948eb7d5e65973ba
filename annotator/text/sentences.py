"""Where the sentences of a summary start: pySBD's rule-based segmenter (Sadvilkar & Neumann
2020, the "Golden Rules" of English sentence boundaries), which knows the abbreviations of news
text ("Jan. 1", "the U.S. dollar", "3 p.m.", "St. Louis", "Ariz."), within each line (a line
break always ends a sentence: DUC's summaries put one a line).

Issue 33: cut after every full stop, 56 of 3,781 SEE units over the DUC 2006/2007 models began
with a lower-case word or a digit ("…the euro on Jan" / "1, 1999 were positive"), and a proposal
stopped at "…1 percent of the U.S". Every cutter of the tool starts here: SEE's units and the
proposals' clauses (annotator.coverage.splitting), the builder's phrases and the suggestions'
sentences (annotator.assist.lexical.sentence_bounds).

Texts are cut once per process (a summary's text does not change; the proposals and the builder
cut the same texts at every action): pySBD takes ~3 ms a 1,000 characters.
"""

from __future__ import annotations

import functools
import re

import pysbd

LINE = re.compile(r"[^\n]+")
# A full stop, question or exclamation mark and the spaces after it: the plain cut, used where
# pySBD's pieces do not put the line back together (never seen; a guard, not a path).
PLAIN_END = re.compile(r"(?<=[.!?])\s+")


@functools.cache
def _segmenter() -> pysbd.Segmenter:
    return pysbd.Segmenter(language="en", clean=False)


@functools.lru_cache(maxsize=4096)
def sentence_starts(text: str) -> tuple[int, ...]:
    """The offsets where the sentences of `text` start (the first at the first line's start),
    each after the spaces and line breaks before it.

    >>> text = "Sales of the euro on Jan. 1, 1999 were up. The U.S. dollar fell.\\nA new line"
    >>> [text[s:s + 12] for s in sentence_starts(text)]
    ['Sales of the', 'The U.S. dol', 'A new line']
    """
    starts: list[int] = []
    for line in LINE.finditer(text):
        at = line.start()
        pieces = _segmenter().segment(line.group())
        if "".join(pieces) != line.group():
            pieces = _plain(line.group())
        for piece in pieces:
            lead = len(piece) - len(piece.lstrip())
            if piece.strip():
                starts.append(at + lead)
            at += len(piece)
    return tuple(starts)


def _plain(line: str) -> list[str]:
    bounds = [0, *(m.end() for m in PLAIN_END.finditer(line)), len(line)]
    return [line[a:b] for a, b in zip(bounds, bounds[1:]) if a < b]
