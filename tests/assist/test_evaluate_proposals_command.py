"""`manage.py evaluate_proposals` on the demo docset: three peers whose stored PSEs are known, so
each proposal's verdict can be checked by hand."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotator.models import Proposal

pytestmark = pytest.mark.django_db

DEMO = "Demo: Apollo 11"


def run(*options) -> str:
    out = StringIO()
    call_command("evaluate_proposals", "--collection", DEMO, *options, stdout=out)
    return out.getvalue()


def test_proposals_are_compared_with_the_stored_pses(demo):
    result = json.loads(run("--min-score", "0.45", "--min-margin", "0.15", "--format", "json"))
    # Peer 1: its four clauses proposed and right (the fifth is as close to SCU 5 as to SCU 6).
    # Peer 2: "Apollo 11 reached the Moon in 1969" (SCU 1) and "Millions of people watched the
    # landing on television" (SCU 7), right. Peer 3: "Neil Armstrong walked on the Moon" is
    # proposed SCU 2 (Aldrin walked too) where the annotator chose SCU 3: wrong; "Armstrong was the
    # first person on the Moon" (SCU 3) right.
    assert result["annotations"] == 3
    assert result["proposals"] == 8
    assert result["correct"] == 7
    assert result["precision"] == 0.875
    assert result["stored"] == 10  # 6 + 2 + 2 PSEs with an SCU (3 match nothing)
    assert result["found"] == 7
    assert result["recall"] == 0.7
    assert result["docsets"] == ["DEMO01"]
    assert result["ms_max"] < 1000
    # A replay proposes nothing in the database.
    assert not Proposal.objects.exists()


def test_the_thresholds_default_to_the_proposals_own_and_change_the_figures(demo):
    from annotator.assist import proposals

    default = json.loads(run("--format", "json"))
    assert (default["min_score"], default["min_margin"]) == (
        proposals.MIN_SCORE,
        proposals.MIN_MARGIN,
    )
    assert default["ranker"] == "overlap"
    strict = json.loads(run("--min-score", "0.9", "--format", "json"))
    # Only "Apollo 11 landed on the Moon in July 1969" (0.93) and Collins's clause (1.0).
    assert (strict["proposals"], strict["correct"], strict["found"]) == (2, 2, 2)


def test_the_text_output_and_the_sweep(demo):
    printed = run("--min-score", "0.45", "--min-margin", "0.15")
    assert printed.startswith(
        "overlap ranker, MIN_SCORE 0.45, MIN_MARGIN 0.15: 3 peer annotations of DEMO01\n"
        "proposals 8, correct 7: precision 0.875; stored PSEs with an SCU 10, found 7: "
        "recall 0.700; F0.5 0.833\n"
    )
    swept = json.loads(run("--sweep", "--format", "json"))
    assert swept["tuning_docsets"] == ["DEMO01"]
    assert swept["held_out_docsets"] == []
    assert swept["held_out"] is None  # one docset: nothing to hold out
    assert len(swept["grid"]) == 21 * 7
    # The best recall at precision >= 0.8: MIN_SCORE 0.35 with no margin also proposes the tied
    # clause of peer 1 ("... with lunar rock samples": SCU 5, right).
    assert swept["chosen"] == {"min_score": 0.35, "min_margin": 0.0}
    assert (swept["tuning"]["precision"], swept["tuning"]["recall"]) == (0.8889, 0.8)
    text = run("--sweep")
    assert "tuning on DEMO01, held out: none (one docset)" in text
    assert "score         0.0       0.05" in text
    assert "\n0.35    0.89/0.80" in text


def test_refuses_what_it_does_not_hold(demo):
    with pytest.raises(CommandError, match="no collection 'Nowhere'"):
        call_command("evaluate_proposals", "--collection", "Nowhere")
    with pytest.raises(CommandError, match="no peer annotation of docset 'D9999'"):
        call_command("evaluate_proposals", "--collection", DEMO, "--docset", "D9999")
