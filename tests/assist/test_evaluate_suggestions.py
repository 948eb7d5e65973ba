"""`manage.py evaluate_suggestions`: the suggestions replayed on NIST's own matches of the shared
DUC 2006 files, held to issue 20's targets."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from annotator.assist import semantic

pytestmark = [pytest.mark.django_db, pytest.mark.shared_data]


def evaluate(*options) -> dict:
    out = StringIO()
    call_command(
        "evaluate_suggestions", "--collection", "DUC 2006", *options, "--format", "json", stdout=out
    )
    return json.loads(out.getvalue())


def test_bm25_on_the_selected_words_meets_the_target(duc2006):
    result = evaluate("--ranker", "lexical")
    assert result["rankings"] == 970  # every PSE with an SCU of the 69 annotations
    assert result["pyramids"] == 3
    assert result["top1"] >= 0.65
    assert result["top5"] >= 0.85
    assert result["top1"] <= result["top3"] <= result["top5"]
    # Measured and reported; its target (< 20 ms) is bench/suggestions.py's: tests assert no
    # timings (one failed at 23 ms on a loaded machine).
    assert 0 < result["ms_median"] <= result["ms_p95"]


@pytest.mark.skipif(
    not semantic.available(),
    reason="the semantic extra is not installed (pip install -e '.[semantic]')",
)
def test_the_semantic_ranker_meets_its_target(duc2006):
    result = evaluate("--ranker", "semantic")
    assert result["top1"] >= 0.70
    assert result["top5"] >= 0.90
    assert 0 < result["ms_median"] <= result["ms_p95"]  # its target: bench/suggestions.py's


def test_the_sentence_around_ranks_worse_than_the_selection(duc2006):
    # What the page did before issue 20 (top-1 0.26 on these files).
    sentence = evaluate("--ranker", "overlap", "--query", "sentence")
    span = evaluate("--ranker", "overlap")
    assert sentence["top1"] < 0.3
    assert span["top1"] > 0.6


def test_one_docset_and_the_text_output(duc2006):
    assert evaluate("--ranker", "lexical", "--docset", "D0601")["pyramids"] == 1
    out = StringIO()
    call_command(
        "evaluate_suggestions", "--collection", "DUC 2006", "--ranker", "lexical", stdout=out
    )
    printed = out.getvalue()
    assert printed.startswith("lexical ranker, span as query: 970 PSEs with an SCU in 3 pyramids\n")
    assert "top-1 0.6" in printed


def test_refuses_what_it_does_not_hold(db):
    with pytest.raises(CommandError, match="no collection 'Nowhere'"):
        call_command("evaluate_suggestions", "--collection", "Nowhere")
