"""The proposals' thresholds and the suggestions' weights checked on docsets they were not chosen
on: NIST's own matches of the shared DUC 2006 files (D0601 and D0640 to tune on, D0631 held out)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from annotator.assist import proposals

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]

TOLERANCE = 0.02
# As documented in annotator/assist/proposals.py.
PRECISION = {"tuning": 0.89, "held_out": 0.93, "everything": 0.92}


def command(name, *options) -> dict:
    out = StringIO()
    call_command(name, "--collection", "DUC 2006", *options, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def test_the_sweep_chooses_the_proposals_thresholds_and_they_hold_out(duc2006):
    swept = command("evaluate_proposals", "--sweep")
    assert swept["tuning_docsets"] == ["D0601", "D0640"]
    assert swept["held_out_docsets"] == ["D0631"]
    assert swept["chosen"] == {
        "min_score": proposals.MIN_SCORE,
        "min_margin": proposals.MIN_MARGIN,
    }
    for half, precision in PRECISION.items():
        assert swept[half]["precision"] >= precision - TOLERANCE, half
        assert swept[half]["recall"] >= 0.05, half
    assert swept["everything"]["annotations"] == 69
    assert swept["everything"]["stored"] == 970


def test_the_proposals_own_thresholds_on_all_the_files(duc2006):
    result = command("evaluate_proposals")
    assert result["precision"] >= PRECISION["everything"] - TOLERANCE
    assert result["proposals"] >= 60


def test_the_suggestions_held_out(duc2006):
    # The two halves differ: D0631 (786 of the 970 PSEs) ranks far better than D0601 and D0640
    # (bench/suggestions.py prints both ways round).
    split = command("evaluate_suggestions", "--ranker", "lexical", "--split")
    assert split["tuning_docsets"] == ["D0601", "D0640"]
    assert split["held_out_docsets"] == ["D0631"]
    assert split["tuning"]["rankings"] + split["held_out"]["rankings"] == 970
    assert split["held_out"]["top1"] >= 0.70
    assert split["held_out"]["top5"] >= 0.90
    assert split["tuning"]["top1"] < 0.5
