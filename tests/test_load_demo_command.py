"""load_demo: the demo docset loads once, with real SCUs, PSEs and the scores they imply."""

import pytest

from annotator.models import SCU, Collection, HumanJudgment, PeerAnnotation, Summary
from scoring.records import score_collection

from .helpers import record_counts, run

pytestmark = pytest.mark.django_db


def test_loads_the_demo_docset():
    out, _ = run("load_demo")
    assert "docset DEMO01 with 4 models, 3 peers and a pyramid of 11 SCUs" in out
    collection = Collection.objects.get()
    weights = {s.label: s.contributors.count() for s in SCU.objects.all()}
    assert weights["Apollo 11 landed the first people on the Moon in July 1969"] == 4
    assert sorted(weights.values(), reverse=True) == [4, 4, 3, 3, 3, 2, 2, 1, 1, 1, 1]
    scores = {row.peer: row.scores for row in score_collection(collection)}
    # 25 contributors / 4 models = 6.25 -> X_a = 6; the six heaviest SCUs weigh 19.
    assert scores["1"].modified == 1.0 and scores["1"].raw_score == 19
    assert (scores["2"].raw_score, scores["2"].non_matching) == (6, 2)
    assert f"{scores['2'].modified:.4f}" == "0.3158" and f"{scores['2'].original:.4f}" == "0.4286"
    assert (scores["3"].unique_scus, scores["3"].repetitions, scores["3"].non_matching) == (1, 1, 1)
    assert HumanJudgment.objects.count() == 3


def test_every_span_covers_the_words_it_names():
    run("load_demo")
    annotation = PeerAnnotation.objects.get(peer__author="2")
    texts = [annotation.peer.text[s.start : s.end] for pse in annotation.pses.all() for s in pse.spans.all()]
    assert texts[0] == "The Apollo program was run by NASA"
    model_c = Summary.objects.get(kind="model", author="C")
    spans = SCU.objects.get(uid=1).contributors.get(summary=model_c).spans.all()
    assert [model_c.text[s.start : s.end] for s in spans] == [
        "Apollo 11 was the first crewed mission to land on the Moon", "in July 1969"
    ]


def test_the_second_time_changes_nothing():
    run("load_demo")
    before = record_counts()
    out, _ = run("load_demo")
    assert "already loaded; nothing changed" in out
    assert record_counts() == before
