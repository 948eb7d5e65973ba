"""One rule for consensus work in every score and statistic (issue 15): without "adjudicated",
consensus annotations and annotations against a consensus pyramid are left out; with it,
submitted consensus work replaces its sources and consensus work in progress stays out. And one
rule for work in progress (issue 17), in the same function
(`scoring.scores.records.counted_annotations`):
only submitted annotations count, in every score table and analysis, unless work in progress is
asked for (then marked).

Two small scenes on the demo docset (peers 1, 2, 3 annotated by "demo" against DEMO01), all the
annotators' work submitted (work in progress is left out of both modes: issue 17, at the end):
- `peer_consensus`: peer 1 also annotated by the annotator, the two merged into a consensus
  annotation (complete, or in progress);
- `pyramid_consensus`: the `pair`'s pyramids merged into a submitted consensus pyramid, peer 2
  annotated against it.
"""

import csv
import io
import json

import pytest

from annotator.adjudication import annotation_consensus
from annotator.models import PeerAnnotation, Pyramid
from annotator.peer_annotation import editing as peer_editing
from scoring.agreement.records import peer_agreement, score_agreement
from scoring.scores.records import counted_annotations, score_collection
from tests.helpers import body, complete_consensus_of_peer_1, run

pytestmark = pytest.mark.django_db


def pairs(rows):
    return sorted((r.peer, r.annotator) for r in rows)


@pytest.fixture
def peer_consensus(demo):
    consensus = complete_consensus_of_peer_1(demo, mine_complete=True)
    return {"demo": demo, "consensus": consensus}


@pytest.fixture
def pyramid_consensus(pair):
    from tests.helpers import annotated_whole, submitted_consensus

    demo = pair["demo"]
    consensus = submitted_consensus(pair, "a")
    annotation = annotated_whole(
        consensus, demo["annotations"]["2"].peer, "against-consensus", demo["admin"], complete=True
    )
    return {"demo": demo, "consensus": consensus, "annotation": annotation}


DEMO = [("1", "demo"), ("2", "demo"), ("3", "demo")]


# -- the shared function -------------------------------------------------------------------------


def test_a_consensus_annotation_is_not_a_third_annotation(peer_consensus):
    collection = peer_consensus["demo"]["collection"]
    assert pairs(score_collection(collection)) == sorted([*DEMO, ("1", "annotator")])
    assert pairs(score_collection(collection, adjudicated=True)) == [
        ("1", "consensus"),
        ("2", "demo"),
        ("3", "demo"),
    ]


def test_a_consensus_in_progress_counts_in_neither_mode(demo):
    theirs = demo["annotations"]["1"]
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"],
        peer=theirs.peer,
        annotator=demo["annotator"],
        status=PeerAnnotation.Status.SUBMITTED,
    )
    annotation_consensus.start([theirs, mine], demo["admin"])
    expected = sorted([*DEMO, ("1", "annotator")])
    assert pairs(score_collection(demo["collection"])) == expected
    assert pairs(score_collection(demo["collection"], adjudicated=True)) == expected


def test_annotations_against_a_consensus_pyramid_replace_the_docsets_others_only_when_adjudicated(
    pyramid_consensus,
):
    collection = pyramid_consensus["demo"]["collection"]
    assert pairs(score_collection(collection)) == DEMO
    (row,) = score_collection(collection, adjudicated=True)
    assert (row.peer, row.annotator, row.pyramid) == (
        "2",
        "against-consensus",
        pyramid_consensus["consensus"].name,
    )


def test_a_consensus_pyramid_in_progress_counts_in_neither_mode(pyramid_consensus):
    Pyramid.objects.filter(pk=pyramid_consensus["consensus"].pk).update(
        status=Pyramid.Status.IN_PROGRESS
    )
    collection = pyramid_consensus["demo"]["collection"]
    assert pairs(score_collection(collection)) == DEMO
    assert pairs(score_collection(collection, adjudicated=True)) == DEMO


def test_agreement_follows_the_same_rule(peer_consensus):
    """The annotator's and the demo's annotations of peer 1 are a pair without adjudication; with
    it, the consensus replaces them and no peer is annotated twice."""
    demo = peer_consensus["demo"]
    peers, _ = peer_agreement(demo["collection"])
    assert [(p.peer, sorted(p.annotators)) for p in peers] == [("1", ["annotator", "demo"])]
    assert peer_agreement(demo["collection"], adjudicated=True) == ([], [])
    everything = PeerAnnotation.objects.filter(pyramid__docset__collection=demo["collection"])
    assert counted_annotations(everything).count() == 4
    assert score_agreement(demo["collection"], adjudicated=True) == ([], [])


# -- export_scores, ranking ----------------------------------------------------------------------


def test_export_scores_in_both_modes(peer_consensus):
    name = peer_consensus["demo"]["collection"].name

    def exported(*flags):
        out, _ = run("export_scores", *flags, collection=name, format="csv")
        return sorted((r["peer"], r["annotator"]) for r in csv.DictReader(io.StringIO(out)))

    assert exported() == sorted([*DEMO, ("1", "annotator")])
    assert exported("--adjudicated") == [("1", "consensus"), ("2", "demo"), ("3", "demo")]


def test_ranking_in_both_modes(pyramid_consensus):
    name = pyramid_consensus["demo"]["collection"].name

    def observations(*flags):
        return {
            s: n
            for s, n, _ in json.loads(run("ranking", *flags, collection=name, format="json")[0])[
                "means"
            ]
        }

    assert observations() == {"1": 1, "2": 1, "3": 1}
    with pytest.raises(
        Exception, match="at least two systems"
    ):  # one annotation, one system, is left
        run("ranking", "--adjudicated", collection=name)


def test_agreement_command_takes_adjudicated(peer_consensus):
    name = peer_consensus["demo"]["collection"].name
    out, _ = run("agreement", collection=name, format="json")
    assert [p["peer"] for p in json.loads(out)["peers"]] == ["1"]
    out, _ = run("agreement", "--adjudicated", collection=name, format="json")
    assert json.loads(out)["peers"] == []


# -- the scores page and its downloads -----------------------------------------------------------


def test_scores_page_and_downloads_in_both_modes(client, pyramid_consensus):
    demo = pyramid_consensus["demo"]
    client.force_login(demo["organizer"])
    url = demo["scores_url"]
    page = body(client.get(url)).decode()
    assert "against-consensus" not in page
    assert page.count("<tr>") == 4
    assert "1 annotation of consensus work" in page
    assert "adjudicated=1" in page
    rows = list(csv.DictReader(io.StringIO(body(client.get(url + "?format=csv")).decode())))
    assert sorted((r["peer"], r["annotator"]) for r in rows) == DEMO
    page = body(client.get(url + "?adjudicated=1")).decode()
    assert "<td>against-consensus</td>" in page
    assert page.count("<tr>") == 2
    assert "3 annotations not counted" in page
    rows = list(
        csv.DictReader(io.StringIO(body(client.get(url + "?adjudicated=1&format=csv")).decode()))
    )
    assert [(r["peer"], r["annotator"]) for r in rows] == [("2", "against-consensus")]
    systems = json.loads(body(client.get(url + "?view=systems&adjudicated=1&format=json")))
    assert [s["peer"] for s in (systems["systems"] if isinstance(systems, dict) else systems)] == [
        "2"
    ]


# -- the API -------------------------------------------------------------------------------------


def test_api_scores_in_both_modes(client, peer_consensus):
    demo = peer_consensus["demo"]
    client.force_login(demo["organizer"])
    base = f"/api/scores/?collection={demo['collection'].pk}"

    def got(query=""):
        answer = client.get(base + query)
        assert answer.status_code == 200, body(answer)
        return sorted((r["peer"], r["annotator"]) for r in answer.json()["results"])

    assert got() == got("&adjudicated=false") == sorted([*DEMO, ("1", "annotator")])
    assert (
        got("&adjudicated=true")
        == got("&adjudicated=1")
        == [("1", "consensus"), ("2", "demo"), ("3", "demo")]
    )
    assert client.get(base + "&adjudicated=maybe").status_code == 400


def test_peer_agreement_keeps_two_annotators_against_a_consensus_pyramid(
    pyramid_consensus, django_user_model
):
    """What two annotators matched against the consensus pyramid is their own work: it stays in
    peer agreement (and so in "Peers annotated twice") in both modes, while their scores, made
    with the consensus's weights, are consensus work."""
    demo, first = pyramid_consensus["demo"], pyramid_consensus["annotation"]
    second = PeerAnnotation.objects.create(
        pyramid=first.pyramid, peer=first.peer, annotator_code="second"
    )
    peer_editing.assign(second.pk, demo["admin"], second.version, [(0, 20)], 0)
    peer_editing.complete(second.pk, demo["admin"], second.version + 1)
    for adjudicated in (False, True):
        peers, _ = peer_agreement(demo["collection"], adjudicated=adjudicated)
        assert [(p.peer, p.annotators) for p in peers] == [("2", ["against-consensus", "second"])]
    assert pairs(score_collection(demo["collection"])) == DEMO
    assert pairs(score_collection(demo["collection"], adjudicated=True)) == [
        ("2", "against-consensus"),
        ("2", "second"),
    ]


# -- work in progress (issue 17): the same function, every analysis ------------------------------


def reopened(annotation):
    PeerAnnotation.objects.filter(pk=annotation.pk).update(status=PeerAnnotation.Status.IN_PROGRESS)


def test_a_source_in_progress_counts_only_when_asked_for_and_says_so(demo):
    """The annotator's annotation of peer 1 is in progress, its consensus with the demo's
    complete."""
    complete_consensus_of_peer_1(demo)
    collection = demo["collection"]
    assert pairs(score_collection(collection)) == DEMO
    rows = score_collection(collection, include_in_progress=True)
    assert sorted((r.peer, r.annotator, r.status) for r in rows) == sorted(
        [(p, a, "submitted") for p, a in DEMO] + [("1", "annotator", "in_progress")]
    )
    # Adjudicated: the complete consensus replaces both its sources, whatever their status.
    for include in (False, True):
        assert pairs(
            score_collection(collection, adjudicated=True, include_in_progress=include)
        ) == [("1", "consensus"), ("2", "demo"), ("3", "demo")]


def test_work_in_progress_against_a_consensus_pyramid_replaces_nothing_until_asked_for(pair):
    from tests.helpers import annotated_whole, submitted_consensus

    demo = pair["demo"]
    annotated_whole(
        submitted_consensus(pair, "a"),
        demo["annotations"]["2"].peer,
        "against-consensus",
        demo["admin"],
    )
    collection = demo["collection"]
    assert pairs(score_collection(collection, adjudicated=True)) == DEMO
    (row,) = score_collection(collection, adjudicated=True, include_in_progress=True)
    assert (row.peer, row.annotator, row.status) == ("2", "against-consensus", "in_progress")


def test_agreement_counts_submitted_work_only(demo):
    from tests.helpers import complete_consensus_of_peer_1 as consensus_of_peer_1

    consensus_of_peer_1(
        demo
    )  # the annotator's annotation of peer 1, in progress, beside the demo's
    assert peer_agreement(demo["collection"]) == ([], [])
    PeerAnnotation.objects.filter(annotator=demo["annotator"]).update(
        status=PeerAnnotation.Status.SUBMITTED
    )
    peers, _ = peer_agreement(demo["collection"])
    assert [(p.peer, sorted(p.annotators)) for p in peers] == [("1", ["annotator", "demo"])]
    out, _ = run("agreement", collection=demo["collection"].name, format="json")
    assert [p["peer"] for p in json.loads(out)["peers"]] == ["1"]
    reopened(PeerAnnotation.objects.get(annotator=demo["annotator"]))
    out, _ = run("agreement", collection=demo["collection"].name, format="json")
    assert json.loads(out)["peers"] == []


def test_ranking_counts_submitted_work_only(demo):
    reopened(demo["annotations"]["3"])
    out, _ = run("ranking", collection=demo["collection"].name, format="json")
    assert sorted(s for s, _, _ in json.loads(out)["means"]) == ["1", "2"]


def test_stability_counts_submitted_work_only(demo):
    from scoring.stability.records import pyramid_stability

    reopened(demo["annotations"]["3"])
    result = pyramid_stability(
        Pyramid.objects.select_related("docset__collection").get(pk=demo["pyramid"].pk)
    )
    assert sorted(result.jackknifed_peers) == ["1", "2"]
    out, _ = run("stability", collection=demo["collection"].name, docset="DEMO01", format="json")
    assert "3" not in json.loads(out)["jackknifed_peers"]


def test_correlation_counts_submitted_work_only(demo):
    from annotator.models import HumanJudgment
    from scoring.judgments.records import judged_summaries

    for n, annotation in enumerate(demo["annotations"].values()):
        HumanJudgment.objects.create(summary=annotation.peer, criterion="overall", value=n + 1)
    assert sorted(s.system for s in judged_summaries(demo["collection"], "overall")) == [
        "1",
        "2",
        "3",
    ]
    reopened(demo["annotations"]["3"])
    assert sorted(s.system for s in judged_summaries(demo["collection"], "overall")) == ["1", "2"]
