"""Benchmark: how right the proposals to confirm are (issue 20), on NIST's own matches.

    DATABASE_URL=postgres://... .venv/bin/python bench/proposals.py

The shared DUC 2006 files (or PYRAMID_FULL_DATA's package, bench/benchdata.py) are imported into a
throwaway database (bench/benchdb.py); each peer annotation is replayed empty and proposed for
(annotator.assist.proposal_evaluation, the same as `manage.py evaluate_proposals --sweep`):
precision and recall over a grid of MIN_SCORE and MIN_MARGIN on alternate docsets (sorted by
name: the 1st, 3rd, ...), the point chosen there, and its figures on the other docsets. Then the
proposals' own thresholds (annotator.assist.proposals) on each half. The proposals' ranker first,
then the others for comparison (their scores are on other scales: a grid of their own).
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchduc import duc2006_database, installed  # noqa: E402

RANKERS = ["overlap", "semantic"]


def main() -> None:
    with duc2006_database():
        from annotator.assist import proposals
        from annotator.assist.evaluation import halves
        from annotator.assist.proposal_evaluation import evaluate, sweep
        from annotator.management.commands.evaluate_proposals import figures, sweep_text
        from annotator.models import PeerAnnotation

        annotations = PeerAnnotation.objects.all()
        for ranker in RANKERS:
            if not installed(ranker):
                continue
            print(sweep_text(sweep(annotations, ranker)), end="\n\n")
        tune, hold = halves(annotations.values_list("pyramid__docset__name", flat=True))
        for name, docsets in (("tuning", tune), ("held out", hold)):
            chosen = annotations.filter(pyramid__docset__name__in=docsets)
            print(f"the proposals' own thresholds, {name}: {figures(evaluate(chosen))}")
        print(
            f"(ranker {proposals.RANKER}, MIN_SCORE {proposals.MIN_SCORE}, "
            f"MIN_MARGIN {proposals.MIN_MARGIN})"
        )


if __name__ == "__main__":
    main()
