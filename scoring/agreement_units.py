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


def scu_incidence(models: Sequence[tuple[Any, Any]]) -> Any:
    """Which SCUs touch which words, for one annotator's pyramid: a W x S binary scipy.sparse CSR
    matrix, a row per word (the models' words in order), a column per SCU (in the order of their
    names, sorted). `models[m]` is (words, spans): the model's words as an array of (start, end)
    rows (annotator.text.words), and its contributor spans as rows (start, end, scu), scu an
    integer. A span touches the words ending after it starts and starting before it ends, as in
    annotator.text.words.word_scus; the same rule, but with NumPy over every span at once, since
    a collection has tens of thousands of them (issue 19)."""
    import numpy as np
    from scipy import sparse

    rows, scus, base = [], [], 0
    for bounds, spans in models:
        bounds = np.asarray(bounds, dtype=np.int64).reshape(-1, 2)
        spans = np.asarray(spans, dtype=np.int64).reshape(-1, 3)
        first = np.searchsorted(bounds[:, 1], spans[:, 0], side="right")
        stop = np.searchsorted(bounds[:, 0], spans[:, 1], side="left")
        lengths = np.maximum(stop - first, 0)
        # Each span's words first..stop-1, every span's run laid end to end.
        within = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        rows.append(base + np.repeat(first, lengths) + within)
        scus.append(np.repeat(spans[:, 2], lengths))
        base += len(bounds)
    names, columns = np.unique(np.concatenate([np.zeros(0, np.int64), *scus]), return_inverse=True)
    row = np.concatenate([np.zeros(0, np.int64), *rows])
    incidence = sparse.csr_matrix(
        (np.ones(len(row)), (row, columns.ravel())), shape=(base, len(names))
    )
    incidence.data[:] = 1  # a word two contributors of one SCU touch is in it once
    return incidence
