"""python manage.py agreement: Krippendorff's alpha from the stored records, on real data."""

import json
from statistics import fmean

import pytest
from django.core.management.base import CommandError
from nltk.metrics.agreement import AnnotationTask

from annotator.models import Collection
from scoring.agreement.alpha import dice, krippendorff_alpha
from scoring.agreement.records import peer_agreement, pyramid_agreement, score_agreement
from scoring.models import StoredScore
from scoring.scores.records import score_collection
from scoring.statistics.significance import pearson
from tests.helpers import import_files, run, spoil_stored_scores

pytestmark = pytest.mark.django_db


@pytest.fixture
def d0631(shared_data):
    """D0631, annotated by sites 114 and 115 against the same pyramid (44 .pan files)."""
    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0631.pyr",
        *sorted((folder / "allpans").glob("11[45].D0631.*.pan")),
        collection="DUC 2006",
    )
    return Collection.objects.get(name="DUC 2006")


@pytest.mark.shared_data
def test_d0631_two_sites(d0631):
    peers, pooled = peer_agreement(d0631)
    assert len(peers) == 22
    assert all(p.annotators == ["114", "115"] for p in peers)
    # The data's README: mean Jaccard of the matched-SCU sets per peer = 0.776.
    assert round(fmean(p.matched_jaccard for p in peers), 3) == 0.776
    # Where they differ, said SCU by SCU: a peer whose matched SCUs differ has some.
    for peer in peers:
        assert peer.matched_jaccard == 1 or peer.disagreements
        for uid, label, (a, b) in peer.disagreements:
            assert a != b
            assert uid > 0
            assert label
    (docset, everything) = pooled
    assert docset.scope == "D0631"
    assert everything.scope == "all"
    assert docset.units == everything.units
    assert 0 < everything.alpha["dice"] < 1  # its value is checked against NLTK below
    correlations, anovas = score_agreement(d0631)
    overall = next(c for c in correlations if c.score == "modified" and c.scope == "all")
    assert overall.n == 22
    assert round(overall.r, 3) == 0.915
    assert overall.low < overall.r < overall.high
    modified = next(a for a in anovas if a.score == "modified")
    assert modified.groups == {"114": 22, "115": 22}
    assert 0 <= modified.p <= 1


@pytest.mark.shared_data
def test_d0631_alphas_equal_those_of_each_peers_units(d0631):
    """peer_agreement computes every peer's and docset's alphas at once; each is what
    krippendorff_alpha gives its units, to 1e-12 (issue 19)."""
    from collections import Counter, defaultdict

    from annotator.models import PSE, PeerAnnotation
    from scoring.agreement.alpha import nominal
    from scoring.agreement.units import peer_units

    peers, pooled = peer_agreement(d0631)
    counts = defaultdict(Counter)
    for annotation_id, scu_id in PSE.objects.filter(scu__isnull=False).values_list(
        "annotation_id", "scu_id"
    ):
        counts[annotation_id][scu_id] += 1
    by_peer = defaultdict(dict)
    for a in PeerAnnotation.objects.select_related("peer"):
        by_peer[a.peer.author][a.annotator_code] = counts[a.pk]
    everything = ([], [])
    for peer in peers:
        coders = [by_peer[peer.peer]["114"], by_peer[peer.peer]["115"]]
        units, reduced = peer_units(coders), peer_units(coders, reduced=True)
        everything[0].extend(units)
        everything[1].extend(reduced)
        assert peer.units == len(units)
        for name, value in [
            ("dice", krippendorff_alpha(units, dice)),
            ("binary", krippendorff_alpha(units, nominal)),
            ("binary_reduced", krippendorff_alpha(reduced, nominal)),
        ]:
            assert peer.alpha[name] == pytest.approx(value, abs=1e-12, nan_ok=True)
    assert pooled[-1].units == len(everything[0])
    assert pooled[-1].alpha["binary"] == pytest.approx(
        krippendorff_alpha(everything[0], nominal), abs=1e-12
    )
    assert pooled[-1].alpha["binary_reduced"] == pytest.approx(
        krippendorff_alpha(everything[1], nominal), abs=1e-12
    )


@pytest.mark.shared_data
def test_d0631_pooled_alpha_equals_nltks(d0631):
    peers, pooled = peer_agreement(d0631)
    from collections import Counter, defaultdict

    from annotator.models import PSE, PeerAnnotation
    from scoring.agreement.units import peer_units

    counts = defaultdict(Counter)
    for annotation_id, scu_id in PSE.objects.filter(scu__isnull=False).values_list(
        "annotation_id", "scu_id"
    ):
        counts[annotation_id][scu_id] += 1
    data = []
    by_peer = defaultdict(dict)
    for a in PeerAnnotation.objects.all():
        by_peer[a.peer_id][a.annotator_code] = counts[a.pk]
    for peer, coders in by_peer.items():
        for u, unit in enumerate(peer_units([coders["114"], coders["115"]])):
            data += [("114", f"{peer}-{u}", unit[0]), ("115", f"{peer}-{u}", unit[1])]

    def distance(a, b):
        return 0.0 if a == b else float(dice([a, b])[0, 1])

    assert pooled[-1].alpha["dice"] == pytest.approx(
        AnnotationTask(data=data, distance=distance).alpha(), abs=1e-9
    )
    assert pooled[-1].alpha["dice"] == pytest.approx(
        krippendorff_alpha([[u[2] for u in data[i : i + 2]] for i in range(0, len(data), 2)], dice)
    )


@pytest.mark.shared_data
def test_the_matter_pyramids_of_three_annotators(shared_data):
    """Three annotators' pyramids of the same five student summaries; their texts differ in
    separator lines and whitespace, so words align them."""
    folder = shared_data / "pyreval-matter"
    import_files(
        folder / "IA/Yinghui_12_10_09_MATTER_fixed.pyr",
        folder / "Becky_MATTER.pyr",
        collection="MATTER",
        docset="MATTER",
    )
    import_files(
        folder / "IA/12_10_09_MATTER_fixed.pyr",
        collection="MATTER",
        docset="MATTER",
        model_regex=r"(?m)^---\n",
    )
    (result,), skipped = pyramid_agreement(Collection.objects.get(name="MATTER"))
    assert skipped == []
    assert result.pyramids == [
        "12_10_09_MATTER_fixed",
        "Becky_MATTER",
        "Yinghui_12_10_09_MATTER_fixed",
    ]
    assert result.units > 500  # words of five student summaries put in an SCU by someone
    assert -1 < result.alpha["masi"] < 1
    assert result.alpha["masi"] != result.alpha["masi_nltk"]
    out, _ = run("agreement", collection="MATTER", kind="pyramids")
    assert out.splitlines()[1].startswith(
        "MATTER\t12_10_09_MATTER_fixed,Becky_MATTER,Yinghui_12_10_09_MATTER_fixed\t"
    )


@pytest.mark.shared_data
def test_the_command_writes_a_table_and_json(d0631):
    out, _ = run("agreement", collection="DUC 2006", docset="D0631")
    lines = out.splitlines()
    header = (
        "docset\tpeer\tannotators\tSCUs\talpha_dice\talpha_binary\talpha_binary'\tmatched_jaccard"
    )
    assert lines[0] == header
    assert lines[1].startswith("D0631\t1\t114,115\t")
    document = json.loads(run("agreement", collection="DUC 2006", format="json")[0])
    assert len(document["peers"]) == 22
    assert document["pooled"][-1]["scope"] == "all"
    assert document["score_correlations"][0]["annotators"] == ["114", "115"]


def test_unknown_collections_and_nothing_to_compare(demo):
    with pytest.raises(CommandError, match="no collection 'Nope'"):
        run("agreement", collection="Nope")
    _, err = run("agreement", collection=demo["collection"].name)
    assert "No peer is annotated twice against the same pyramid." in err


@pytest.fixture
def demo_with_open_work(django_user_model):
    """The demo as `load_demo` installs it with a user `demo`: beside the submitted DEMO01-example,
    that user's pyramid DEMO01-demo, in progress and still empty."""
    from annotator.demo import install_demo

    install_demo(django_user_model.objects.create_user("demo", password="pyramid-demo"))
    return Collection.objects.get()


def test_pyramid_agreement_leaves_pyramids_in_progress_out_and_says_so(demo_with_open_work):
    """Issue 17: the empty DEMO01-demo, in progress, was compared with the example (MASI 0.1403)."""
    name = demo_with_open_work.name
    out, err = run("agreement", collection=name, kind="pyramids")
    assert out.splitlines() == [
        "docset\tpyramids\tannotators\twords\talpha_masi\talpha_masi_nltk\talpha_jaccard\talpha_nominal"
    ]
    assert "No docset has two or more submitted pyramids of the same model summaries." in err
    assert "1 pyramid in progress left out (--include-in-progress compares it)" in err
    assert pyramid_agreement(demo_with_open_work) == ([], [])
    assert json.loads(run("agreement", collection=name, kind="pyramids", format="json")[0]) == {
        "pyramids": [],
        "skipped": [],
        "pyramids_in_progress_left_out": 1,
    }


def test_include_in_progress_compares_pyramids_in_progress_marked(demo_with_open_work):
    out, err = run(
        "agreement", "--include-in-progress", collection=demo_with_open_work.name, kind="pyramids"
    )
    (row,) = out.splitlines()[1:]
    docset, pyramids, annotators, _, masi, *_ = row.split("\t")
    assert (docset, pyramids, masi) == (
        "DEMO01",
        "DEMO01-demo (in progress),DEMO01-example",
        "0.1403",
    )
    assert "left out" not in err
    document = json.loads(
        run(
            "agreement",
            "--include-in-progress",
            collection=demo_with_open_work.name,
            kind="pyramids",
            format="json",
        )[0]
    )
    assert document["pyramids"][0]["in_progress"] == ["DEMO01-demo"]
    assert document["pyramids_in_progress_left_out"] == 0


def test_a_submitted_pyramid_of_the_same_models_is_compared(demo_with_open_work):
    from annotator.models import Pyramid

    Pyramid.objects.filter(name="DEMO01-demo").update(status=Pyramid.Status.SUBMITTED)
    out, err = run("agreement", collection=demo_with_open_work.name, kind="pyramids")
    assert out.splitlines()[1].startswith("DEMO01\tDEMO01-demo,DEMO01-example\t")
    assert err == ""


def test_peer_agreement_leaves_annotations_in_progress_out_unless_asked_and_counts_peers_in_words(
    demo,
):
    """One peer annotated twice: "(1 peer)", not "(1 peers)"; a second annotation still in progress
    is compared only with --include-in-progress, and otherwise said to be left out."""
    from annotator.models import PeerAnnotation

    first = demo["annotations"]["1"]
    second = PeerAnnotation.objects.create(
        pyramid=first.pyramid, peer=first.peer, annotator_code="200"
    )
    name = demo["collection"].name
    _, err = run("agreement", collection=name)
    assert "No peer is annotated twice against the same pyramid." in err
    assert "1 peer annotation in progress left out (--include-in-progress counts them)" in err
    out, err = run("agreement", "--include-in-progress", collection=name)
    assert "\t(1 peer)\t" in out
    assert "(1 peers)" not in out
    assert "left out" not in err
    second.status = PeerAnnotation.Status.SUBMITTED
    second.save()
    out, _ = run("agreement", collection=name)
    assert "DEMO01\t(1 peer)\t" in out
    assert "all\t(1 peer)\t" in out


@pytest.mark.shared_data
def test_score_agreement_reads_the_stored_scores_as_fresh_whatever_their_state(d0631):
    """The correlations and ANOVA between annotators read the stored scores (issue 19): missing,
    current or stale, the output is that of the scores computed afresh."""
    fresh = {(r.docset, r.peer, r.annotator): r.scores for r in score_collection(d0631)}
    assert not StoredScore.objects.exists()  # the import's refresh is a task, not run here
    document = run("agreement", collection="DUC 2006", format="json")[0]
    table = run("agreement", collection="DUC 2006")[0]
    overall = next(
        c
        for c in json.loads(document)["score_correlations"]
        if c["score"] == "modified" and c["scope"] == "all"
    )
    pairs = sorted((docset, peer) for docset, peer, annotator in fresh if annotator == "114")
    x = [fresh[(*pair, "114")].modified for pair in pairs]
    y = [fresh[(*pair, "115")].modified for pair in pairs]
    assert overall["r"] == pytest.approx(pearson(x, y)[0], rel=1e-12)
    for _ in range(2):  # a third of them stale, a third missing; twice over
        spoil_stored_scores()
        assert run("agreement", collection="DUC 2006", format="json")[0] == document
        assert run("agreement", collection="DUC 2006")[0] == table
