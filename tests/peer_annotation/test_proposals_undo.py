"""Accepted proposals follow their PSE (found by a tester): undone or removed, the proposal is open
again (listed, acceptable, counted neither accepted nor rejected); brought back by redo or by
undoing the removal, it is accepted again, with its PSE. The page's list and the report agree."""

import pytest

from annotator.assist import proposals
from annotator.models import PSE, PeerAnnotation, Proposal
from annotator.peer_annotation import editing
from scoring.reports.proposals import proposals_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def annotation(demo):
    """A new annotation of demo peer 1 by its annotator, with its 4 proposals (SCUs 1-4)."""
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    proposals.propose(annotation.pk, demo["annotator"])
    return annotation


def version(annotation):
    return PeerAnnotation.objects.get(pk=annotation.pk).version


def stored(proposal):
    """(state, PSE id, decided by) of a proposal as stored."""
    proposal.refresh_from_db()
    return proposal.state, proposal.pse_id, proposal.decided_by_id


def report_row(demo):
    """The report's row for all annotators: accepted, rejected, edited, open, precision."""
    return proposals_report(demo["collection"], {})["tables"][0]["rows"][-1][1:]


def test_undo_opens_the_proposal_again_and_redo_accepts_it_again(demo, annotation):
    user = demo["annotator"]
    collins = annotation.proposals.get(scu__uid=4)
    editing.accept_proposal(annotation.pk, user, version(annotation), collins.pk)
    pse = PSE.objects.get(annotation=annotation)
    assert stored(collins) == ("accepted", pse.pk, user.pk)

    editing.undo(annotation.pk, user, version(annotation))
    assert not PSE.objects.filter(annotation=annotation).exists()
    assert stored(collins) == ("open", None, None)
    assert collins.decided_at is None
    shown = proposals.listed(annotation)
    assert collins in shown["proposals"]
    assert (shown["accepted_count"], shown["rejected_count"]) == (0, 0)
    assert report_row(demo) == [0, 0, 0, 4, None]

    editing.redo(annotation.pk, user, version(annotation))
    assert list(PSE.objects.filter(annotation=annotation).values_list("pk", flat=True)) == [pse.pk]
    assert stored(collins) == ("accepted", pse.pk, user.pk)
    assert collins.decided_at is not None
    shown = proposals.listed(annotation)
    assert collins not in shown["proposals"]
    assert shown["accepted_count"] == 1
    assert report_row(demo) == [1, 0, 0, 3, 1.0]


def test_an_undone_acceptance_may_be_accepted_again(demo, annotation):
    user = demo["annotator"]
    collins = annotation.proposals.get(scu__uid=4)
    editing.accept_proposal(annotation.pk, user, version(annotation), collins.pk)
    editing.undo(annotation.pk, user, version(annotation))
    editing.accept_proposal(annotation.pk, user, version(annotation), collins.pk)
    pse = PSE.objects.get(annotation=annotation)
    assert stored(collins) == ("accepted", pse.pk, user.pk)
    assert report_row(demo) == [1, 0, 0, 3, 1.0]


def test_removing_the_pse_opens_the_proposal_and_undoing_the_removal_accepts_it(demo, annotation):
    user = demo["annotator"]
    apollo = annotation.proposals.get(scu__uid=1)
    editing.accept_proposal(annotation.pk, user, version(annotation), apollo.pk)
    pse = PSE.objects.get(annotation=annotation)
    editing.remove_pse(annotation.pk, user, version(annotation), pse.pk)
    assert stored(apollo) == ("open", None, None)
    assert report_row(demo) == [0, 0, 0, 4, None]
    editing.undo(annotation.pk, user, version(annotation))  # the removal
    assert stored(apollo) == ("accepted", pse.pk, user.pk)
    assert report_row(demo) == [1, 0, 0, 3, 1.0]
    # Its last part removed, the PSE goes: the proposal is open again.
    span = pse.spans.get()
    editing.remove_part(annotation.pk, user, version(annotation), span.pk)
    assert stored(apollo) == ("open", None, None)


def test_a_rejection_is_not_touched_by_undo(demo, annotation):
    user = demo["annotator"]
    aldrin = annotation.proposals.get(scu__uid=2)
    proposals.reject(annotation.pk, user, aldrin.pk)
    editing.accept_proposal(
        annotation.pk, user, version(annotation), annotation.proposals.get(scu__uid=1).pk
    )
    editing.undo(annotation.pk, user, version(annotation))
    assert stored(aldrin) == ("rejected", None, user.pk)
    assert report_row(demo) == [0, 1, 0, 3, 0.0]


def test_an_edited_span_counts_as_edited_after_undo_and_redo(demo, annotation):
    """Found by a tester: "accepted, span edited" stayed 0. The report compares the proposal's
    words with its PSE's; undo emptied the link to the PSE and redo did not make it again."""
    user = demo["annotator"]
    collins = annotation.proposals.get(scu__uid=4)
    start = annotation.peer.text.index("Michael Collins")
    editing.accept_proposal(
        annotation.pk, user, version(annotation), collins.pk, [(start, start + 15)]
    )
    assert report_row(demo) == [1, 0, 1, 3, 1.0]
    editing.undo(annotation.pk, user, version(annotation))
    editing.redo(annotation.pk, user, version(annotation))
    assert stored(collins)[:2] == ("accepted", PSE.objects.get(annotation=annotation).pk)
    assert report_row(demo) == [1, 0, 1, 3, 1.0]


def test_proposing_again_after_an_undo_says_the_proposal_is_open(demo, annotation):
    user = demo["annotator"]
    for proposal in annotation.proposals.all():
        editing.accept_proposal(annotation.pk, user, version(annotation), proposal.pk)
    editing.undo(annotation.pk, user, version(annotation))
    assert proposals.propose(annotation.pk, user) == []  # nothing new: the undone one is shown
    assert annotation.proposals.filter(state=Proposal.State.OPEN).count() == 1
