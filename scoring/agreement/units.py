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
from typing import Any

# A unit: the value each annotator gave it, in the annotators' order (scoring.agreement.alpha
# counts the
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


def span_words(bounds: Any, first: Any, spans: Any) -> tuple[Any, Any]:
    """The words each span touches, for every span of a collection at once (NumPy, no loop over
    spans: a collection has hundreds of thousands). The summaries' words are `bounds`, rows
    (start, end) laid end to end, summary k's the rows first[k]:first[k + 1]
    (annotator.text.words.words_of_texts); `spans` holds rows (k, start, end). A span touches the
    words ending after it starts and starting before it ends, as in
    annotator.text.words.word_scus. Returns (span, word) pairs as two arrays: the span's row, the
    word's index in its summary's words."""
    import numpy as np

    spans = np.asarray(spans, dtype=np.int64).reshape(-1, 3)
    bounds = np.asarray(bounds, dtype=np.int64).reshape(-1, 2)
    first = np.asarray(first, dtype=np.int64)
    # Each summary's words shifted past the longest text (and span), so that one sorted array
    # answers for all.
    shift = 1 + max(int(spans[:, 2].max(initial=0)), int(bounds[:, 1].max(initial=0)))
    shifted = bounds + (np.repeat(np.arange(len(first) - 1), np.diff(first)) * shift)[:, None]
    k = spans[:, 0]
    start = np.searchsorted(shifted[:, 1], k * shift + spans[:, 1], side="right")
    stop = np.searchsorted(shifted[:, 0], k * shift + spans[:, 2], side="left")
    lengths = np.maximum(stop - start, 0)
    within = counted_within(lengths)  # each span's words start..stop-1, laid end to end
    touched = np.repeat(np.arange(len(spans)), lengths)
    return touched, (start - first[k])[touched] + within


def counted_within(lengths: Any) -> Any:
    """0..n-1 for each n of `lengths`, laid end to end (NumPy: [2, 0, 3] -> [0, 1, 0, 1, 2])."""
    import numpy as np

    lengths = np.asarray(lengths, dtype=np.int64)
    return np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
