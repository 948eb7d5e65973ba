"""annotator.adjudication.annotation_consensus: two annotations of one peer merged into a
consensus annotation."""

import pytest

from annotator.adjudication import annotation_consensus
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.models import PSE, Membership, PeerAnnotation, PeerAnnotationChange, Role
from annotator.peer_annotation import editing as peer_editing
from scoring.scores.records import score_annotations

pytestmark = pytest.mark.django_db


def where(annotation, phrase):
    start = annotation.peer.text.index(phrase)
    return [(start, start + len(phrase))]


def uid(demo, label_start):
    return demo["pyramid"].scus.get(label__startswith=label_start).uid


@pytest.fixture
def two(demo, django_user_model):
    """The demo's annotation of peer 1 and the annotator's own, which differs: Aldrin not matched,
    Collins as content of no SCU, the samples matched without "The astronauts"."""
    demo_annotation = demo["annotations"]["1"]
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo_annotation.peer, annotator=demo["annotator"]
    )
    for phrase, label in [
        ("Apollo 11 landed on the Moon in July 1969", "Apollo 11 landed"),
        ("Neil Armstrong was the first man to walk on the Moon", "Armstrong was"),
        ("Michael Collins remained in orbit", None),
        ("The astronauts returned to Earth", "The crew returned"),
        ("with lunar rock samples", "The crew brought"),
    ]:
        mine.refresh_from_db()
        peer_editing.assign(
            mine.pk,
            demo["annotator"],
            mine.version,
            where(mine, phrase),
            uid(demo, label) if label else 0,
        )
    adjudicator = django_user_model.objects.create_user(
        "adjudicator", password="adjudicator-pass-1"
    )
    Membership.objects.create(
        collection=demo["collection"], user=adjudicator, role=Role.ADJUDICATOR
    )
    return {"demo": demo, "theirs": demo_annotation, "mine": mine, "adjudicator": adjudicator}


def version(annotation):
    return PeerAnnotation.objects.get(pk=annotation.pk).version


def matched(annotation):
    """{SCU uid (0: none): [the texts of its PSEs]}."""
    found = {}
    for pse in (
        PSE.objects.filter(annotation=annotation).prefetch_related("spans").select_related("scu")
    ):
        text = "...".join(annotation.peer.text[s.start : s.end] for s in pse.spans.all())
        found.setdefault(pse.scu.uid if pse.scu else 0, []).append(text)
    return found


def test_starting_takes_what_both_matched_alike(two):
    demo = two["demo"]
    consensus = annotation_consensus.start([two["theirs"], two["mine"]], two["adjudicator"])
    assert consensus.annotator is None
    assert consensus.annotator_code == "consensus"
    assert sorted(matched(consensus)) == sorted(
        uid(demo, label) for label in ["Apollo 11 landed", "Armstrong was", "The crew returned"]
    )
    assert all(
        p.source.annotation_id == two["theirs"].pk
        for p in PSE.objects.filter(annotation=consensus).select_related("source")
    )
    readings = annotation_consensus.readings(consensus)
    samples = readings[uid(demo, "The crew brought")]
    assert len(samples[two["theirs"].pk][0]) == 2
    assert len(samples[two["mine"].pk][0]) == 1
    assert readings[uid(demo, "Aldrin also")][two["mine"].pk] == []
    assert sorted(annotation_consensus.undecided_scus(consensus)) == sorted(
        [0, uid(demo, "Aldrin also"), uid(demo, "Michael Collins"), uid(demo, "The crew brought")]
    )
    # Starting again gives the consensus already begun.
    assert (
        annotation_consensus.start([two["mine"], two["theirs"]], two["adjudicator"]).pk
        == consensus.pk
    )


def test_choosing_editing_keeping_and_completing(two):
    demo, user = two["demo"], two["adjudicator"]
    consensus = annotation_consensus.start([two["theirs"], two["mine"]], user)
    aldrin, collins, samples = (
        uid(demo, "Aldrin also"),
        uid(demo, "Michael Collins"),
        uid(demo, "The crew brought"),
    )
    annotation_consensus.choose(consensus.pk, user, version(consensus), aldrin, two["theirs"].pk)
    result = annotation_consensus.choose(
        consensus.pk, user, version(consensus), collins, two["mine"].pk
    )
    assert f"SCU {collins}: left out, as annotator " in result.description
    assert "matched nothing to it" in result.description
    assert collins not in matched(consensus)
    annotation_consensus.choose(consensus.pk, user, version(consensus), 0, two["mine"].pk)
    assert matched(consensus)[0] == ["Michael Collins remained in orbit"]
    with pytest.raises(RuleBroken, match="1 SCU of this consensus is not decided"):
        peer_editing.complete(consensus.pk, user, version(consensus))
    annotation_consensus.choose(consensus.pk, user, version(consensus), samples, two["mine"].pk)
    pse = PSE.objects.get(annotation=consensus, scu__uid=samples)
    peer_editing.add_part(
        consensus.pk, user, version(consensus), pse.pk, where(consensus, "The astronauts")
    )
    annotation_consensus.keep(consensus.pk, user, version(consensus), samples)
    change = PeerAnnotationChange.objects.filter(annotation=consensus).latest("id")
    assert change.decision == {"groups": [str(samples)], "choice": "edited"}
    assert change.user == user
    peer_editing.complete(consensus.pk, user, version(consensus))
    assert sorted(matched(consensus)[samples][0].split("...")) == [
        "The astronauts",
        "with lunar rock samples",
    ]
    rows = {
        row.annotation_id: row.scores for row in score_annotations(PeerAnnotation.objects.all())
    }
    # The consensus has the demo's SCUs but Collins's: its score lies between the two annotations'.
    assert (
        rows[two["mine"].pk].modified
        < rows[consensus.pk].modified
        < rows[two["theirs"].pk].modified
    )


def test_undo_makes_a_choice_undecided_again(two):
    user, demo = two["adjudicator"], two["demo"]
    consensus = annotation_consensus.start([two["theirs"], two["mine"]], user)
    aldrin = uid(demo, "Aldrin also")
    annotation_consensus.choose(consensus.pk, user, version(consensus), aldrin, two["theirs"].pk)
    assert str(aldrin) in annotation_consensus.decisions(consensus)
    peer_editing.undo(consensus.pk, user, version(consensus))
    assert str(aldrin) not in annotation_consensus.decisions(consensus)
    assert aldrin not in matched(consensus)


def test_who_may_merge_and_what(two):
    demo, user = two["demo"], two["adjudicator"]
    for outsider in (demo["annotator"], demo["organizer"], demo["outsider"]):
        with pytest.raises(NotAllowed):
            annotation_consensus.start([two["theirs"], two["mine"]], outsider)
    with pytest.raises(RuleBroken, match="at least two"):
        annotation_consensus.start([two["mine"]], user)
    with pytest.raises(RuleBroken, match="same peer"):
        annotation_consensus.start([two["mine"], demo["annotations"]["2"]], user)
    consensus = annotation_consensus.start([two["theirs"], two["mine"]], user)
    with pytest.raises(NotAllowed):
        annotation_consensus.choose(
            consensus.pk, demo["annotator"], version(consensus), 0, two["mine"].pk
        )
    with pytest.raises(RuleBroken, match="not one of this consensus's sources"):
        annotation_consensus.choose(
            consensus.pk, user, version(consensus), 0, demo["annotations"]["2"].pk
        )
    with pytest.raises(RuleBroken, match="cannot be one of its own sources"):
        annotation_consensus.start([consensus, two["mine"]], user)


def test_scores_of_adjudicated_work_use_the_complete_consensus_instead_of_its_sources(two):
    from scoring.scores.records import score_collection

    user, demo = two["adjudicator"], two["demo"]
    peer_editing.complete(
        two["mine"].pk, demo["annotator"], version(two["mine"])
    )  # submitted work counts (issue 17)
    consensus = annotation_consensus.start([two["theirs"], two["mine"]], user)
    for scu_uid in annotation_consensus.undecided_scus(consensus):
        annotation_consensus.choose(
            consensus.pk, user, version(consensus), scu_uid, two["theirs"].pk
        )
    everything = {(r.peer, r.annotator) for r in score_collection(demo["collection"])}
    # Without adjudication consensus work is left out (issue 15).
    assert ("1", "consensus") not in everything
    assert ("1", "annotator") in everything
    # In progress, the consensus does not yet replace its sources, and is not counted beside them.
    assert {
        (r.peer, r.annotator) for r in score_collection(demo["collection"], adjudicated=True)
    } == everything
    peer_editing.complete(consensus.pk, user, version(consensus))
    adjudicated = {
        (r.peer, r.annotator) for r in score_collection(demo["collection"], adjudicated=True)
    }
    assert adjudicated == {("1", "consensus"), ("2", "demo"), ("3", "demo")}


def test_keeping_an_scu_with_no_pse_of_it_in_the_consensus_says_it_is_left_out(two):
    demo, user = two["demo"], two["adjudicator"]
    consensus = annotation_consensus.start([two["theirs"], two["mine"]], user)
    aldrin = uid(demo, "Aldrin also")
    result = annotation_consensus.keep(consensus.pk, user, version(consensus), aldrin)
    assert (
        result.description
        == f"SCU {aldrin}: kept as edited, with no PSE of it in the consensus: it is left out"
    )
    annotation_consensus.choose(consensus.pk, user, version(consensus), aldrin, two["theirs"].pk)
    assert (
        annotation_consensus.keep(consensus.pk, user, version(consensus), aldrin).description
        == f"SCU {aldrin}: kept as edited"
    )
