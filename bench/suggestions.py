"""Benchmark: how well the peer page's suggestions find the SCU (issue 20), on NIST's own matches.

    DATABASE_URL=postgres://... .venv/bin/python bench/suggestions.py

The shared DUC 2006 files (or PYRAMID_FULL_DATA's package, bench/benchdata.py) are imported into a
throwaway database (bench/benchdb.py); every PSE with an SCU is then replayed as the annotator saw
it (its words ranked against all the SCUs of its pyramid: annotator.assist.evaluation, the same as
`manage.py evaluate_suggestions`), by each ranker:

- overlap on the sentence around the PSE: what the page did before issue 20 (top-1 0.26,
  top-5 0.65);
- overlap on the selected words (~0.61);
- lexical, BM25 on the selected words (the default without the extra): targets top-1 >= 0.65,
  top-5 >= 0.85;
- semantic, WordLlama + BM25 (the semantic extra): targets top-1 >= 0.70, top-5 >= 0.90.
Each ranking (8 suggestions from a prepared pyramid, as the page's cached index serves them) must
take under 20 ms: its median, 95th percentile and max are printed; preparing a pyramid (once per
pyramid version) apart.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchduc import duc2006_database, installed  # noqa: E402

RUNS = [("overlap", "sentence"), ("overlap", "span"), ("lexical", "span"), ("semantic", "span")]
TARGETS = {"lexical": (0.65, 0.85), "semantic": (0.70, 0.90)}


def main() -> None:
    with duc2006_database():
        from annotator.assist.evaluation import evaluate
        from annotator.models import PeerAnnotation

        annotations = PeerAnnotation.objects.all()
        print(f"{'ranker':<9} {'query':<9} {'top-1':>6} {'top-3':>6} {'top-5':>6} {'MRR':>6}  ms")
        for ranker, query in RUNS:
            if not installed(ranker):
                continue
            r = evaluate(annotations, ranker, query)
            target = TARGETS.get(ranker) if query == "span" else None
            verdict = ""
            if target:
                met = r.top1 >= target[0] and r.top5 >= target[1] and r.ms_p95 < 20
                verdict = f"  target top-1 >= {target[0]}, top-5 >= {target[1]}, < 20 ms: " + (
                    "met" if met else "MISSED"
                )
            print(
                f"{ranker:<9} {query:<9} {r.top1:>6.3f} {r.top3:>6.3f} {r.top5:>6.3f} {r.mrr:>6.3f}"
                f"  median {r.ms_median:.2f}, p95 {r.ms_p95:.2f}, max {r.ms_max:.2f} "
                f"(prepare {r.prepare_ms_mean:.0f} ms/pyramid){verdict}"
            )
        print(f"{r.rankings} PSEs with an SCU in {r.pyramids} pyramids")


if __name__ == "__main__":
    main()
