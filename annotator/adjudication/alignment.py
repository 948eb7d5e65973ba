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

from collections.abc import Hashable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Generic, TypeVar

Word = tuple[int, int]  # (model position, word index)
S = TypeVar("S", bound=Hashable)  # what names an SCU of a pyramid (its id)

ONE_TO_ONE = "one-to-one"
SPLIT = "split/merged"
TANGLE = "many-to-many"
ONLY_A = "only in A"
ONLY_B = "only in B"


@dataclass
class AlignedGroup(Generic[S]):
    kind: str
    a: list[S]  # SCUs of pyramid A in the group
    b: list[S]  # SCUs of pyramid B
    only_a_words: set[Word] = field(default_factory=set)  # covered by A's SCUs here, not by B's
    only_b_words: set[Word] = field(default_factory=set)
    shared_words: set[Word] = field(default_factory=set)

    @property
    def identical(self) -> bool:
        return self.kind == ONE_TO_ONE and not self.only_a_words and not self.only_b_words


def overlap(x: Set[Hashable], y: Set[Hashable]) -> float:
    """|X ∩ Y| / min(|X|, |Y|): 1 when one holds the other."""
    return len(x & y) / min(len(x), len(y)) if x and y else 0.0


SIDES = "abcdefgh"  # the pyramids of an alignment are named A, B, C, ... (at most eight)
PARTIAL = "in some pyramids only"


def only_in(side: int) -> str:
    """The kind of a group found in one pyramid only: "only in A", "only in B", ..."""
    return f"only in {SIDES[side].upper()}"


@dataclass
class GroupOfMany(Generic[S]):
    """A group of aligned SCUs of several pyramids."""

    kind: str
    sides: list[list[S]]  # each pyramid's SCUs in the group
    differing: list[set[Word]]  # each pyramid's words in the group that not every pyramid has there
    shared_words: set[Word] = field(default_factory=set)  # words every pyramid has in the group

    @property
    def identical(self) -> bool:
        return self.kind == ONE_TO_ONE and not any(self.differing)


def _kind(sizes: list[int]) -> str:
    present = [n for n in sizes if n]
    if len(present) == 1:
        return only_in(next(i for i, n in enumerate(sizes) if n))
    if len(present) < len(sizes):
        return PARTIAL
    if all(n == 1 for n in sizes):
        return ONE_TO_ONE
    return SPLIT if sum(n > 1 for n in sizes) == 1 else TANGLE


def align_many(
    pyramids: Sequence[Mapping[S, set[Word]]], min_share: float = 0.5
) -> list[GroupOfMany[S]]:
    """The groups of aligned SCUs of two or more pyramids (see the module's description: SCUs of
    different pyramids are linked as two are), largest shared text first.

    Kinds: one-to-one (one SCU in every pyramid), split/merged (several SCUs in one pyramid, one in
    each other), many-to-many, "in some pyramids only" (one SCU in some, none in the others), and
    "only in X" (found by one annotator only)."""
    if len(pyramids) > len(SIDES):
        raise ValueError(f"at most {len(SIDES)} pyramids are aligned at once")
    by_word: dict[Word, list[tuple[int, S]]] = {}
    for side, scus in enumerate(pyramids):
        for scu, words in scus.items():
            for word in words:
                by_word.setdefault(word, []).append((side, scu))
    links: dict[tuple[int, S], set[tuple[int, S]]] = {
        (side, scu): set() for side, scus in enumerate(pyramids) for scu in scus
    }
    for node in links:
        side, scu = node
        words = pyramids[side][scu]
        for other in {o for word in words for o in by_word.get(word, []) if o[0] > side}:
            if overlap(words, pyramids[other[0]][other[1]]) >= min_share:
                links[node].add(other)
                links[other].add(node)
    groups: list[GroupOfMany[S]] = []
    seen: set[tuple[int, S]] = set()
    for node in links:  # connected components, in the pyramids' order
        if node in seen:
            continue
        component: list[tuple[int, S]] = []
        stack = [node]
        seen.add(node)
        while stack:
            current = stack.pop()
            component.append(current)
            for neighbour in links[current] - seen:
                seen.add(neighbour)
                stack.append(neighbour)
        sides = [
            sorted((scu for s, scu in component if s == side), key=str)
            for side in range(len(pyramids))
        ]
        covered = [
            set().union(*(pyramids[side][scu] for scu in scus)) if scus else set()
            for side, scus in enumerate(sides)
        ]
        shared = set.intersection(*covered)
        groups.append(
            GroupOfMany(
                _kind([len(scus) for scus in sides]),
                sides,
                [words - shared for words in covered],
                shared,
            )
        )
    return sorted(
        groups, key=lambda g: (-len(g.shared_words), -sum(len(words) for words in g.differing))
    )


def align(
    a: Mapping[S, set[Word]], b: Mapping[S, set[Word]], min_share: float = 0.5
) -> list[AlignedGroup[S]]:
    """The groups of aligned SCUs of two pyramids (see the module's description), largest shared
    text first."""
    return [
        AlignedGroup(g.kind, g.sides[0], g.sides[1], g.differing[0], g.differing[1], g.shared_words)
        for g in align_many([a, b], min_share)
    ]


def summary(groups: Sequence[AlignedGroup[S]]) -> dict[str, int]:
    """How many groups of each kind (and how many one-to-one matches are identical)."""
    counts = {kind: 0 for kind in (ONE_TO_ONE, SPLIT, TANGLE, ONLY_A, ONLY_B)}
    for group in groups:
        counts[group.kind] += 1
    counts["identical"] = sum(group.identical for group in groups)
    return counts
