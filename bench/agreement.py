"""Benchmark: Krippendorff's alpha, ours (NumPy) against NLTK's AnnotationTask on the same data.

    .venv/bin/python bench/agreement.py

- alpha-MASI for two pyramids of D0601 (4 models, ~1,000 words): NIST's pyramid, and a second
  annotator's made from it deterministically (every third SCU merged into the next, every
  seventh contributor left out), so that the two disagree as annotators do;
- alpha-Dice for the 44 annotations of D0631 by sites 114 and 115.
Both implementations get the same units and the same distance; the values must be equal. Both are
timed the same way, the same number of runs (BENCH_RUNS, default 5), each run from the units to
alpha: ours `krippendorff_alpha(units, distance)`; NLTK's the (coder, item, value) triples it takes
made from the units, its AnnotationTask built, and `alpha()`. Medians and min–max are printed
(bench/timing.py). With PYRAMID_FULL_DATA, D0601.pyr and D0631's peer annotations are taken from
that package (bench/benchdata.py). Target: ours at least 20 times faster than NLTK, and under 0.5 s.
"""

import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchdata import data_file, data_glob, describe  # noqa: E402
from nltk.metrics.agreement import AnnotationTask  # noqa: E402
from timing import measure, ratio, runs  # noqa: E402

from annotator.ducview.layout import split_models  # noqa: E402
from annotator.ducview.reader import read_peer_annotation, read_pyramid  # noqa: E402
from annotator.text.words import word_scus  # noqa: E402
from scoring.agreement.alpha import dice, krippendorff_alpha, masi  # noqa: E402
from scoring.agreement.units import peer_units, pyramid_units  # noqa: E402

RUNS = runs(5)
PYRAMID = "duc2006-nist/allpyramids/D0601.pyr"
PEERS = "duc2006-nist/allpans/11[45].D0631.*.pan"


def pyramid_annotators():
    document = read_pyramid(data_file(PYRAMID).read_bytes())
    layout = split_models(document.text, document.start_document_regex)

    def words_of(scu_of_part):
        models = []
        for model in layout.models:
            spans = [
                (p.start - model.offset, p.end - model.offset, scu_of_part(scu, c))
                for scu in document.scus
                for c, contributor in enumerate(scu.contributors)
                for p in contributor.parts
                if model.offset <= p.start < model.offset + len(model.text)
            ]
            models.append(word_scus(model.text, [s for s in spans if s[2] is not None]))
        return models

    uids = [scu.uid for scu in document.scus]
    merged = {
        uid: uids[i + 1] if i % 3 == 0 and i + 1 < len(uids) else uid for i, uid in enumerate(uids)
    }
    first = words_of(lambda scu, c: scu.uid)
    second = words_of(lambda scu, c: None if (scu.uid + c) % 7 == 0 else merged[scu.uid])
    return pyramid_units([first, second])


def peer_annotation_units():
    counts = defaultdict(dict)
    for path in data_glob(PEERS):
        annotator, peer = path.name.split(".")[0], path.name.split(".")[-2]
        document = read_peer_annotation(path.read_bytes())
        counts[peer][annotator] = Counter(
            {
                scu.uid: len(scu.contributors)
                for scu in document.peer_scus
                if scu.uid != 0 and scu.contributors
            }
        )
    return [
        unit
        for by_annotator in counts.values()
        if {"114", "115"} <= by_annotator.keys()  # peers both annotated
        for unit in peer_units([by_annotator["114"], by_annotator["115"]])
    ]


def masi_pair(a, b):
    """Passonneau 2009's MASI for one pair, in plain Python: what NLTK calls per pair."""
    if a == b:
        return 0.0
    shared = len(a & b)
    scale = 1 / 3 if shared == min(len(a), len(b)) else 2 / 3 if shared else 1.0
    return (1 - shared / len(a | b)) * scale


def dice_pair(a, b):
    return 0.0 if a == b else 1 - 2 * len(a & b) / (len(a) + len(b))


def compare(name, units, distance, same):
    assert all(
        abs(same(a, b) - distance([a, b])[0, 1]) < 1e-12
        for unit in units[:50]
        for a in unit
        for b in unit
    )

    def nltk_alpha():
        data = [
            (f"c{c}", f"u{u}", value)
            for u, unit in enumerate(units)
            for c, value in enumerate(unit)
        ]
        return AnnotationTask(data=data, distance=same).alpha()

    # Both sides: RUNS runs each, timed by the same `measure`, from the same units.
    ours = measure(lambda: krippendorff_alpha(units, distance), RUNS)
    theirs = measure(nltk_alpha, RUNS)
    assert abs(ours.value - theirs.value) < 1e-9, (ours.value, theirs.value)
    print(f"{name}: {len(units)} units; alpha {ours.value:.4f} (NLTK {theirs.value:.4f})")
    print(f"  ours {ours}")
    print(f"  NLTK {theirs}")
    print(f"  ours {ratio(theirs, ours)} faster (target >= 20x, ours < 500 ms)")


if __name__ == "__main__":
    print(describe([data_file(PYRAMID), *data_glob(PEERS)]))
    compare("alpha-Dice, the 44 D0631 annotations", peer_annotation_units(), dice, dice_pair)
    compare("alpha-MASI, two D0601 pyramids", pyramid_annotators(), masi, masi_pair)
