"""The semantic ranker (the optional extra: `pip install -e '.[semantic]'`): WordLlama's static
word vectors, combined with BM25.

WordLlama ships its weights and tokenizer inside its wheel and needs only NumPy: nothing is
downloaded at run time (a hub download fails on our machines), no PyTorch, about 0.1 ms a query on
a CPU. Its loader looks for the tokenizer in the wrong folder of its own package and would then
download it, so the package's folder is given as the cache and downloads are disabled.

An SCU's score, for a selection:
- its semantic similarity: half the best cosine between the selection and its label or one of its
  contributors (the wording closest to the selection), half the cosine with the centroid of them
  all (what the SCU says, whoever worded it);
- plus LEXICAL_WEIGHT × BM25 (annotator.assist.lexical) over the query's best BM25 score: shared
  rare words still count;
- plus WEIGHT_PRIOR × its weight over the pyramid's heaviest: an SCU of weight 4 is in four
  models, so more likely in a peer than one of weight 1 (this alone adds 0.03 to top-1).
The three constants were measured on the shared DUC 2006 files (bench/suggestions.py), round
values near the best: top-1 0.72, top-5 0.90, against BM25's 0.66 and 0.88. Held out (chosen
again on alternate docsets, reported on the others: bench/suggestions.py) they are no worse than
the constants chosen there, so they stay; but the docsets differ: D0631 (786 of the 970 PSEs)
0.77 / 0.94, D0601 and D0640 only 0.51 / 0.77 (BM25 0.46 / 0.67), whatever the constants.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from annotator.assist.lexical import LexicalIndex, words

if TYPE_CHECKING:
    from annotator.assist.rankers import ScuTexts

CENTROID_SHARE = 0.5
LEXICAL_WEIGHT = 0.3
WEIGHT_PRIOR = 0.1


def available() -> bool:
    """Whether the extra is installed (WordLlama importable): the page falls back to BM25 if not."""
    try:
        import wordllama  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def model() -> Any:
    """WordLlama's default model (256 dimensions), from the files inside its package: loaded once
    per process (about half a second)."""
    from pathlib import Path

    import wordllama

    return wordllama.WordLlama.load(
        cache_dir=Path(wordllama.__file__).parent, disable_download=True
    )


class SemanticIndex:
    """Each SCU's cosines with the text, its scaled BM25 score and its weight (module doc). The
    vectors of the SCUs' texts are computed here, once per pyramid version (rankers.pyramid_index
    caches the index)."""

    name = "semantic"

    def __init__(self, scus: Sequence[ScuTexts]):
        import numpy as np

        self.scus = tuple(scus)
        self.lexical = LexicalIndex(self.scus)
        texts, owners = [], []
        for position, scu in enumerate(self.scus):
            for text in scu.texts:
                texts.append(text)
                owners.append(position)
        self.owners = np.array(owners, dtype=np.intp)
        self.vectors = model().embed(texts, norm=True) if texts else np.zeros((0, 1))
        centroids = np.zeros((len(self.scus), self.vectors.shape[1]))
        np.add.at(centroids, self.owners, self.vectors)
        norms = np.linalg.norm(centroids, axis=1, keepdims=True)
        self.centroids = centroids / np.where(norms > 0, norms, 1)
        weights = np.array([scu.weight for scu in self.scus], dtype=float)
        self.prior = WEIGHT_PRIOR * weights / max(weights.max(initial=0.0), 1.0)

    def scores(self, text: str) -> list[float]:
        import numpy as np

        if not len(self.owners) or not words(text):  # only spaces, punctuation, function words
            return [0.0] * len(self.scus)
        query = model().embed([text], norm=True)[0]
        best = np.full(len(self.scus), -1.0)
        np.maximum.at(best, self.owners, self.vectors @ query)
        score = (1 - CENTROID_SHARE) * best + CENTROID_SHARE * (self.centroids @ query)
        lexical = np.array(self.lexical.scores(text))
        if lexical.max(initial=0.0) > 0:
            score += LEXICAL_WEIGHT * lexical / lexical.max()
        score += self.prior
        return [float(value) for value in score]
