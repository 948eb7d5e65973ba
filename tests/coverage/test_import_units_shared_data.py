"""issue 21, what must hold: REALSumm's crowd batch for bart_out, imported, gives Lite²Pyramid's
labels for all 1,056 units and the published presence score 0.48349483849483854; Krippendorff's
alpha over the crowd answers equals NLTK's; the Lite Pyramid folder gives the same.

The published value is numpy's mean of the 100 documents' scores in the files' order (ids.txt,
the same as SCUs_list.csv's; the docsets are made in that order, so by id). numpy sums 100 floats
with 8 running sums (its pairwise summation's unrolled loop); a correctly rounded mean
(statistics.fmean, math.fsum) gives 0.4834948384948385, one unit in the last place less, and
Python's sum over the docsets sorted by name too."""

import os
from collections import defaultdict
from pathlib import Path
from statistics import fmean

import numpy as np
import pytest
from nltk.metrics.agreement import AnnotationTask  # type: ignore[import-untyped]

from annotator.coverage.models import Judgment, JudgmentTask, Unit
from scoring.agreement.alpha import krippendorff_alpha, nominal
from scoring.coverage.scores import majority_present, presence_score
from tests.conftest import shared_data_root
from tests.helpers import run

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]
PUBLISHED = 0.48349483849483854


@pytest.fixture(scope="module")
def realsumm() -> Path:
    root = shared_data_root() / "realsumm"
    if not (root / "human_annotations").is_dir():
        where = "$PYRAMID_DATA" if "PYRAMID_DATA" in os.environ else "../shared/data/pyramids"
        pytest.skip(f"REALSumm data not found at {root} (set {where})")
    return root


def label_file(realsumm: Path) -> dict[str, list[bool]]:
    folder = realsumm / "lite2-3pyramid"
    ids = (folder / "ids.txt").read_text(encoding="utf-8").split("\n")
    lines = (folder / "labels/abs_bart_out.label").read_text(encoding="utf-8").split("\n")
    return {i: [v == "1" for v in line.split("\t")] for i, line in zip(ids, lines, strict=True)}


def stored_answers(system: str) -> dict[str, list[list[bool]]]:
    """Each docset's units' answers (docsets by id: the files' order)."""
    answers: dict[tuple[str, int], list[bool]] = defaultdict(list)
    for docset, position, value in Judgment.objects.filter(task__peer__author=system).values_list(
        "unit__unit_set__docset__name", "unit__position", "value"
    ):
        answers[(docset, position)].append(value == 1.0)
    units: dict[str, list[list[bool]]] = {}
    for docset, position in Unit.objects.order_by("unit_set__docset_id", "position").values_list(
        "unit_set__docset__name", "position"
    ):
        units.setdefault(docset, []).append(answers[(docset, position)])
    return units


def test_realsumm_crowd_majority_is_the_lite_pyramid_label(realsumm):
    out, _ = run(
        "import_units",
        str(realsumm / "human_annotations/SCUs_list.csv"),
        str(realsumm / "human_annotations/bart_out_Batch_crowd_3.csv"),
        format="realsumm",
        collection="REALSumm",
        no_progress=True,
    )
    assert "100 documents" in out
    assert "100 unit sets (1056 units) new" in out
    assert "bart_out (100 peers)" in out
    assert JudgmentTask.objects.count() == 315
    units = stored_answers("bart_out")
    counts = [len(a) for d in units.values() for a in d]
    assert len(counts) == 1056
    assert (counts.count(3), counts.count(4)) == (895, 161)

    majority = {d: [majority_present(a) for a in answers] for d, answers in units.items()}
    assert majority == label_file(realsumm)
    scores = [presence_score(labels) for labels in majority.values()]
    assert float(np.mean(scores)) == PUBLISHED
    assert fmean(scores) == 0.4834948384948385  # correctly rounded: 1 ulp below

    # Krippendorff's alpha, nominal, over the crowd's answers (coders anonymous per HIT).
    ours = krippendorff_alpha([a for d in units.values() for a in d], nominal)
    rows = JudgmentTask.objects.values_list(
        "judge_code",
        "judgments__unit__unit_set__docset__name",
        "judgments__unit__position",
        "judgments__value",
    )
    nltk = AnnotationTask(data=[(c, f"{d}/{p}", v) for c, d, p, v in rows]).alpha()
    assert ours == pytest.approx(nltk, abs=1e-9)
    print(f"alpha: ours {ours!r}, NLTK {nltk!r}")

    again, _ = run(
        "import_units",
        str(realsumm / "human_annotations"),
        format="realsumm",
        collection="REALSumm",
        no_progress=True,
    )
    assert "Nothing changed" in again
    assert JudgmentTask.objects.count() == 315


def test_the_lite_pyramid_folder_gives_the_same_labels_and_score(realsumm):
    out, _ = run(
        "import_units",
        str(realsumm / "lite2-3pyramid"),
        format="lite-pyramid",
        collection="Lite",
        no_progress=True,
    )
    assert "abs_bart_out (100 peers)" in out
    units = stored_answers("abs_bart_out")
    labels = {d: [a == [True] for a in answers] for d, answers in units.items()}
    assert all(len(a) == 1 for d in units.values() for a in d)
    assert labels == label_file(realsumm)
    assert float(np.mean([presence_score(v) for v in labels.values()])) == PUBLISHED
    assert Unit.objects.exclude(model__author="reference").count() == 0
