"""annotator.assist.proposals and editing.accept_proposal: proposals to confirm (issue 20)."""

import pytest

from annotator.assist import proposals
from annotator.editing.errors import NotAllowed, RuleBroken, StaleVersion
from annotator.models import PSE, PeerAnnotation, Proposal
from annotator.peer_annotation import editing
from scoring.scores.records import score_annotations

pytestmark = pytest.mark.django_db


@pytest.fixture
def annotation(demo):
    """A new annotation of demo peer 1 ("Apollo 11 landed on the Moon in July 1969. Neil
    Armstrong was the first man to walk on the Moon, and Buzz Aldrin followed him. ..."), by the
    annotator assigned to it."""
    return PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )


def version(annotation):
    return PeerAnnotation.objects.get(pk=annotation.pk).version


def span(annotation, phrase):
    start = annotation.peer.text.index(phrase)
    return (start, start + len(phrase))


def proposed(annotation):
    """{words: (SCU uid, state)} of the annotation's proposals."""
    text = annotation.peer.text
    return {
        text[p.start : p.end]: (p.scu.uid, p.state)
        for p in Proposal.objects.filter(annotation=annotation).select_related("scu")
    }


def test_clauses_cut_sentences_at_clause_breaks_and_drop_a_leading_conjunction():
    text = "Apollo 11 landed; it was July 1969. Armstrong walked first, and Aldrin followed him."
    assert [text[s:e] for s, e in proposals.clauses(text)] == [
        "Apollo 11 landed",
        "it was July 1969",
        "Armstrong walked first",
        "Aldrin followed him",
    ]
    # A piece of fewer than two content words joins its neighbour.
    text = "In 1969, and then, Apollo 11 landed on the Moon."
    assert [text[s:e] for s, e in proposals.clauses(text)] == [
        "In 1969, and then, Apollo 11 landed on the Moon"
    ]


def test_only_confident_clauses_are_proposed(demo, annotation):
    start = version(annotation)
    made = proposals.propose(annotation.pk, demo["annotator"])
    assert proposed(annotation) == {
        "Apollo 11 landed on the Moon in July 1969": (1, "open"),
        "Neil Armstrong was the first man to walk on the Moon": (3, "open"),
        "Buzz Aldrin followed him": (2, "open"),
        "Michael Collins remained in orbit": (4, "open"),
    }
    # "The astronauts returned to Earth with lunar rock samples" is as close to SCU 5 as to SCU 6
    # (no margin): left to the annotator.
    assert all(p.ranker == "overlap" and p.score >= proposals.MIN_SCORE for p in made)
    # Proposing changes nothing the page versions, and makes no PSE.
    assert version(annotation) == start
    assert not PSE.objects.filter(annotation=annotation).exists()


def test_a_second_request_adds_nothing_and_rejected_clauses_are_not_proposed_again(
    demo, annotation
):
    assert len(proposals.propose(annotation.pk, demo["annotator"])) == 4
    assert proposals.propose(annotation.pk, demo["annotator"]) == []
    first = Proposal.objects.filter(annotation=annotation).order_by("start").first()
    proposals.reject(annotation.pk, demo["annotator"], first.pk)
    assert proposals.propose(annotation.pk, demo["annotator"]) == []
    assert Proposal.objects.filter(annotation=annotation).count() == 4


def test_words_already_in_a_pse_are_never_proposed(demo, annotation):
    editing.assign(
        annotation.pk,
        demo["annotator"],
        version(annotation),
        [span(annotation, "Michael Collins")],
        4,
    )
    editing.assign(
        annotation.pk,
        demo["annotator"],
        version(annotation),
        [span(annotation, "Neil Armstrong was the first")],
        0,
    )
    proposals.propose(annotation.pk, demo["annotator"])
    found = proposed(annotation)
    # "remained in orbit" is what is left of Collins's clause: too far from SCU 4 alone.
    assert "Michael Collins remained in orbit" not in found
    covered = [(s, e) for s, e in [span(annotation, "Michael Collins")]]
    covered.append(span(annotation, "Neil Armstrong was the first"))
    for proposal in Proposal.objects.filter(annotation=annotation):
        assert not any(s < proposal.end and proposal.start < e for s, e in covered)
    assert found["man to walk on the Moon"] == (3, "open")


def test_accepting_makes_a_pse_and_rejecting_does_not(demo, annotation):
    user = demo["annotator"]
    proposals.propose(annotation.pk, user)
    by_words = {annotation.peer.text[p.start : p.end]: p for p in annotation.proposals.all()}
    apollo = by_words["Apollo 11 landed on the Moon in July 1969"]
    aldrin = by_words["Buzz Aldrin followed him"]

    result = editing.accept_proposal(annotation.pk, user, version(annotation), apollo.pk)
    assert result.description == (
        "Accepted a proposal: matched “Apollo 11 landed on the Moon in July 1969” to SCU 1"
    )
    apollo.refresh_from_db()
    assert apollo.state == Proposal.State.ACCEPTED
    assert apollo.decided_by == user
    assert apollo.decided_at is not None
    assert apollo.pse.scu.uid == 1
    assert list(apollo.pse.spans.values_list("start", "end")) == [(apollo.start, apollo.end)]

    accepted_at = version(annotation)
    proposals.reject(annotation.pk, user, aldrin.pk)
    aldrin.refresh_from_db()
    assert aldrin.state == Proposal.State.REJECTED
    assert aldrin.decided_by == user
    assert aldrin.pse is None
    assert aldrin.decided_at is not None
    assert PSE.objects.filter(annotation=annotation).count() == 1
    assert version(annotation) == accepted_at  # the rejection is no edit of the PSEs

    # Decided once only.
    with pytest.raises(RuleBroken, match="accepted already"):
        editing.accept_proposal(annotation.pk, user, version(annotation), apollo.pk)
    with pytest.raises(RuleBroken, match="rejected already"):
        proposals.reject(annotation.pk, user, aldrin.pk)


def test_the_annotator_may_edit_the_span_before_accepting(demo, annotation):
    user = demo["annotator"]
    proposals.propose(annotation.pk, user)
    armstrong = annotation.proposals.get(scu__uid=3)
    words = span(annotation, "Neil Armstrong was the first man to walk on the Moon, and")
    editing.accept_proposal(annotation.pk, user, version(annotation), armstrong.pk, [words])
    armstrong.refresh_from_db()
    assert list(armstrong.pse.spans.values_list("start", "end")) == [words]
    assert armstrong.pse.scu.uid == 3


def test_undo_and_redo_of_an_acceptance(demo, annotation):
    user = demo["annotator"]
    proposals.propose(annotation.pk, user)
    collins = annotation.proposals.get(scu__uid=4)
    editing.accept_proposal(annotation.pk, user, version(annotation), collins.pk)
    editing.undo(annotation.pk, user, version(annotation))
    assert not PSE.objects.filter(annotation=annotation).exists()
    collins.refresh_from_db()
    # Its PSE gone, the proposal is open again (tests/peer_annotation/test_proposals_undo.py).
    assert collins.state == Proposal.State.OPEN
    assert collins.pse is None
    editing.redo(annotation.pk, user, version(annotation))
    assert list(PSE.objects.filter(annotation=annotation).values_list("scu__uid", flat=True)) == [4]
    collins.refresh_from_db()
    assert collins.state == Proposal.State.ACCEPTED
    assert collins.pse == PSE.objects.get(annotation=annotation)


def test_scores_ignore_open_and_rejected_proposals(demo, annotation):
    user = demo["annotator"]

    def scores():
        (row,) = score_annotations(PeerAnnotation.objects.filter(pk=annotation.pk))
        return row.scores

    editing.assign(
        annotation.pk, user, version(annotation), [span(annotation, "Michael Collins remained")], 4
    )
    before = scores()
    proposals.propose(annotation.pk, user)
    assert annotation.proposals.filter(state="open").count() == 3
    assert scores() == before
    proposals.reject(annotation.pk, user, annotation.proposals.get(scu__uid=2).pk)
    assert scores() == before
    editing.accept_proposal(
        annotation.pk, user, version(annotation), annotation.proposals.get(scu__uid=1).pk
    )
    assert scores() != before
    assert scores().raw_score == before.raw_score + 4  # SCU 1 weighs 4


def test_only_the_annotator_proposes_and_decides(demo, annotation):
    proposals.propose(annotation.pk, demo["annotator"])
    proposal = annotation.proposals.first()
    for user in (demo["other_annotator"], demo["admin"]):
        with pytest.raises(NotAllowed):
            proposals.propose(annotation.pk, user)
        with pytest.raises(NotAllowed):
            editing.accept_proposal(annotation.pk, user, version(annotation), proposal.pk)
        with pytest.raises(NotAllowed):
            proposals.reject(annotation.pk, user, proposal.pk)
    proposal.refresh_from_db()
    assert proposal.state == Proposal.State.OPEN


def test_a_stale_version_accepts_nothing(demo, annotation):
    user = demo["annotator"]
    proposals.propose(annotation.pk, user)
    editing.assign(
        annotation.pk, user, version(annotation), [span(annotation, "Michael Collins")], 4
    )
    proposal = annotation.proposals.get(scu__uid=1)
    with pytest.raises(StaleVersion):
        editing.accept_proposal(annotation.pk, user, version(annotation) - 1, proposal.pk)
    proposal.refresh_from_db()
    assert proposal.state == Proposal.State.OPEN
    assert PSE.objects.filter(annotation=annotation).count() == 1


def test_a_proposal_of_another_annotation_is_refused(demo, annotation):
    other = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"],
        peer=demo["annotations"]["2"].peer,
        annotator=demo["other_annotator"],
    )
    proposals.propose(other.pk, demo["other_annotator"])
    theirs = other.proposals.first()
    with pytest.raises(RuleBroken, match="not in this annotation"):
        editing.accept_proposal(annotation.pk, demo["annotator"], version(annotation), theirs.pk)
