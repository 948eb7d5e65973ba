"""Aligning the SCUs of two pyramids of the same model summaries by the words their contributors
cover (issue 8, adjudication). Pure functions, no Django.

Each SCU is given as the set of words (model, word index) its contributors cover. Two SCUs of
different pyramids are linked when they share at least `min_share` of the smaller one's words
(the overlap coefficient): a small overlap, as overlapping contributors make, does not link them.
The linked SCUs form groups (the connected components):
- one SCU on each side: a one-to-one match (identical, or differing in some words);
- one SCU on one side, several on the other: one annotator merged what the other split;
- several on both sides: a tangle to look at as a whole;
- one SCU alone: found by only one annotator.
Each group says which words the two sides disagree on (in one side's SCUs and not the other's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Mapping

Word = tuple[int, int]  # (model position, word index)

ONE_TO_ONE = "one-to-one"
SPLIT = "split/merged"
TANGLE = "many-to-many"
ONLY_A = "only in A"
ONLY_B = "only in B"


@dataclass
class AlignedGroup:
    kind: str
    a: list[Hashable]  # SCUs of pyramid A in the group
    b: list[Hashable]  # SCUs of pyramid B
    only_a_words: set[Word] = field(default_factory=set)  # covered by A's SCUs here, not by B's
    only_b_words: set[Word] = field(default_factory=set)
    shared_words: set[Word] = field(default_factory=set)

    @property
    def identical(self) -> bool:
        return self.kind == ONE_TO_ONE and not self.only_a_words and not self.only_b_words


def overlap(x: set, y: set) -> float:
    """|X ∩ Y| / min(|X|, |Y|): 1 when one holds the other."""
    return len(x & y) / min(len(x), len(y)) if x and y else 0.0


def align(a: Mapping[Hashable, set[Word]], b: Mapping[Hashable, set[Word]], min_share: float = 0.5) -> list[AlignedGroup]:
    """The groups of aligned SCUs (see the module's description), largest shared text first."""
    by_word: dict[Word, list] = {}
    for scu, words in b.items():
        for word in words:
            by_word.setdefault(word, []).append(scu)
    links: dict[tuple[str, Hashable], set[tuple[str, Hashable]]] = {("a", s): set() for s in a}
    links.update({("b", s): set() for s in b})
    for scu, words in a.items():
        candidates = {other for word in words for other in by_word.get(word, [])}
        for other in candidates:
            if overlap(words, b[other]) >= min_share:
                links[("a", scu)].add(("b", other))
                links[("b", other)].add(("a", scu))
    groups, seen = [], set()
    for node in links:  # connected components, in the pyramids' order
        if node in seen:
            continue
        component, stack = [], [node]
        seen.add(node)
        while stack:
            current = stack.pop()
            component.append(current)
            for neighbour in links[current] - seen:
                seen.add(neighbour)
                stack.append(neighbour)
        side_a = [scu for side, scu in component if side == "a"]
        side_b = [scu for side, scu in component if side == "b"]
        words_a = set().union(*(a[s] for s in side_a)) if side_a else set()
        words_b = set().union(*(b[s] for s in side_b)) if side_b else set()
        kind = (ONLY_A if not side_b else ONLY_B if not side_a else ONE_TO_ONE if len(side_a) == len(side_b) == 1
                else SPLIT if min(len(side_a), len(side_b)) == 1 else TANGLE)
        groups.append(AlignedGroup(kind, sorted(side_a, key=str), sorted(side_b, key=str),
                                   words_a - words_b, words_b - words_a, words_a & words_b))
    return sorted(groups, key=lambda g: (-len(g.shared_words), -(len(g.only_a_words) + len(g.only_b_words))))


def summary(groups: list[AlignedGroup]) -> dict[str, int]:
    """How many groups of each kind (and how many one-to-one matches are identical)."""
    counts = {kind: 0 for kind in (ONE_TO_ONE, SPLIT, TANGLE, ONLY_A, ONLY_B)}
    for group in groups:
        counts[group.kind] += 1
    counts["identical"] = sum(group.identical for group in groups)
    return counts
