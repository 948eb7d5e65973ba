"""The units and values that Krippendorff's alpha compares, as Passonneau 2009 §4.1 defines them.
Pure functions, no Django.

Peer annotations (§4.1.3, Fig. 4): for one peer, one unit per SCU that at least one annotator
matched; an annotator's value is the set {y1, ..., yk} of the k PSEs they found for it (the empty
set: none). The reduced representation (Binary′) keeps only whether any PSE was found.

Pyramids (§4.1.4, Figs. 5-6): one unit per word of the model summaries that at least one
annotator put in an SCU; an annotator's value is the set of the other words in the SCU(s) they
put it in ("less the current word", so that two SCUs never agree vacuously). Words are runs of
letters and digits (annotator.text.words, the pages' words too), so texts that differ only in
whitespace or punctuation spacing align.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from functools import cache

# A unit: the value each annotator gave it, in the annotators' order (scoring.agreement counts the
# units that repeat once).
Unit = Sequence[frozenset[Hashable]]


@cache  # one object per count: its hash is computed once, however many units hold it
def pse_values(count: int) -> frozenset[int]:
    """{y1, ..., yk}: k PSEs found for an SCU (y_i written as i)."""
    return frozenset(range(1, count + 1))


def peer_units(annotations: Sequence[Mapping[Hashable, int]], reduced: bool = False) -> list[Unit]:
    """One unit per SCU matched by any annotator; `annotations` holds each annotator's PSE count
    per SCU (SCUs they did not match may be absent). `reduced`: Binary′'s values (found or not)."""
    matched = sorted({scu for counts in annotations for scu, n in counts.items() if n > 0}, key=str)
    return [
        tuple(
            pse_values(min(counts.get(scu, 0), 1) if reduced else counts.get(scu, 0))
            for counts in annotations
        )
        for scu in matched
    ]


def pyramid_units(annotators: Sequence[Sequence[Sequence[frozenset[Hashable]]]]) -> list[Unit]:
    """Units for pyramids of the same models: `annotators[a][m][w]` is the set of SCUs annotator
    a put word w of model m in. ValueError if the annotators' models do not have the same words."""
    shapes = {tuple(len(model) for model in models) for models in annotators}
    if len(shapes) != 1:
        raise ValueError(
            "the pyramids are not built from the same model summaries (their words differ)"
        )
    members = []
    for models in annotators:
        # Each SCU's words, as (model, word) positions.
        scu_words: defaultdict[Hashable, set[tuple[int, int]]] = defaultdict(set)
        for m, model in enumerate(models):
            for w, scus in enumerate(model):
                for scu in scus:
                    scu_words[scu].add((m, w))
        members.append(scu_words)
    units: list[Unit] = []
    for m, model in enumerate(annotators[0]):
        for w in range(len(model)):
            if not any(models[m][w] for models in annotators):
                continue
            units.append(
                [
                    frozenset().union(*(scu_words[scu] for scu in models[m][w])) - {(m, w)}
                    for models, scu_words in zip(annotators, members)
                ]
            )
    return units
