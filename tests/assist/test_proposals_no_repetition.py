"""Proposals never propose an SCU the annotation already has a PSE for: accepting one would make a
second PSE of that SCU in the peer (a repetition, annotator.peer_annotation.editing), from words
that most likely belong to the PSE already there."""

import pytest

from annotator.assist import proposals
from annotator.models import PeerAnnotation, Proposal
from annotator.peer_annotation import editing

pytestmark = pytest.mark.django_db


@pytest.fixture
def annotation(demo):
    """A new annotation of demo peer 1 ("... Neil Armstrong was the first man to walk on the Moon,
    and Buzz Aldrin followed him. ..."), by the annotator assigned to it."""
    return PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )


def match(annotation, user, phrase, uid):
    start = annotation.peer.text.index(phrase)
    version = PeerAnnotation.objects.get(pk=annotation.pk).version
    editing.assign(annotation.pk, user, version, [(start, start + len(phrase))], uid)


def test_the_leftover_words_of_a_clause_matched_in_part_are_not_proposed_its_scu(demo, annotation):
    user = demo["annotator"]
    # Part of Armstrong's clause matched to SCU 3; "man to walk on the Moon" is left over, and on
    # its own is closest to SCU 3 again (matched to nothing instead, it is proposed SCU 3:
    # tests/peer_annotation/test_proposals.py).
    match(annotation, user, "Neil Armstrong was the first", 3)
    proposals.propose(annotation.pk, user)
    stored = {
        annotation.peer.text[p.start : p.end]: p.scu.uid
        for p in Proposal.objects.filter(annotation=annotation).select_related("scu")
    }
    assert "man to walk on the Moon" not in stored
    assert 3 not in stored.values()
    # The other clauses are proposed as before.
    assert stored == {
        "Apollo 11 landed on the Moon in July 1969": 1,
        "Buzz Aldrin followed him": 2,
        "Michael Collins remained in orbit": 4,
    }


def test_an_scu_matched_elsewhere_in_the_peer_is_not_proposed_again(demo, annotation):
    user = demo["annotator"]
    # SCU 4 matched to other words than Collins's clause: that clause is not proposed SCU 4.
    match(annotation, user, "The astronauts returned", 4)
    proposals.propose(annotation.pk, user)
    uids = list(Proposal.objects.filter(annotation=annotation).values_list("scu__uid", flat=True))
    assert 4 not in uids
    assert sorted(uids) == [1, 2, 3, 5]  # 5: "to Earth with lunar rock samples"
