"""A peer annotation's history keeps only the PSEs each change changed (issue 19): in a
consensus, whose decisions are changes, and through an archive, with rows of both forms."""

import io

import pytest

from annotator.adjudication import annotation_consensus
from annotator.models import PeerAnnotation
from annotator.peer_annotation import editing as peer_editing
from annotator.transfer import archive
from tests.archives import pse_state, with_version, written
from tests.peer_annotation.test_peer_editing import as_written_before_issue_19, full_state

pytestmark = pytest.mark.django_db


def version(annotation_id) -> int:
    return PeerAnnotation.objects.get(pk=annotation_id).version


@pytest.fixture
def consensus(demo):
    """A consensus of demo peer 1: the demo's annotation and the annotator's (one PSE of nothing),
    with what both matched alike taken at the start."""
    theirs = demo["annotations"]["1"]
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=theirs.peer, annotator=demo["annotator"]
    )
    peer_editing.assign(mine.pk, demo["annotator"], mine.version, [(0, 9)], 0)
    return annotation_consensus.start([theirs, mine], demo["admin"]), theirs, mine


def test_decisions_keep_the_pses_of_their_scu_and_undo_and_redo_exactly(consensus, demo):
    made, theirs, mine = consensus
    admin = demo["admin"]
    undecided = annotation_consensus.undecided_scus(made)
    assert len(undecided) >= 3
    states = [full_state(made.pk)]
    for uid, source in zip(undecided[:2], (theirs, mine)):
        change = annotation_consensus.choose(
            made.pk, admin, version(made.pk), uid, source.pk
        ).change
        # the row names the PSEs of the SCU decided only, every one of them copied or dropped
        kept = peer_editing.pses_in(change.before) + peer_editing.pses_in(change.after)
        assert {p["scu"] for p in kept} <= {uid}
        states.append(full_state(made.pk))
    kept_as_is = annotation_consensus.keep(made.pk, admin, version(made.pk), undecided[2]).change
    assert kept_as_is.before == kept_as_is.after == {"pses": [], "absent": []}
    states.append(full_state(made.pk))
    decided = [str(uid) for uid in undecided[:3]]
    assert set(decided) <= set(annotation_consensus.decisions(made))
    for back in (2, 1, 0):
        peer_editing.undo(made.pk, admin, version(made.pk))
        assert full_state(made.pk) == states[back]
        assert decided[back] not in annotation_consensus.decisions(made)
    for forward in (1, 2, 3):
        peer_editing.redo(made.pk, admin, version(made.pk))
        assert full_state(made.pk) == states[forward]
        assert decided[forward - 1] in annotation_consensus.decisions(made)
    # provenance: the copies point to the chosen source's PSEs
    sources = set(made.pses.exclude(source=None).values_list("source__annotation_id", flat=True))
    assert sources
    assert sources <= {theirs.pk, mine.pk}


def test_an_archive_of_rows_holding_every_pse_restores_and_goes_on_undoing(demo):
    """An archive written before issue 19 (format 2) holds rows of every PSE: restored, its undo
    and redo go on as the original's."""
    user = demo["annotator"]
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=user
    )
    text = mine.peer.text
    for phrase, uid in [("Buzz Aldrin followed him", 2), ("Michael Collins", 4)]:
        before = peer_editing.snapshot(mine)
        start = text.index(phrase)
        change = peer_editing.assign(
            mine.pk, user, version(mine.pk), [(start, start + len(phrase))], uid
        ).change
        as_written_before_issue_19(change, before, peer_editing.snapshot(mine))
    peer_editing.undo(mine.pk, user, version(mine.pk))  # a PSE only history holds
    older = with_version(written(demo["collection"]), 2)
    collection, _ = archive.restore(io.BytesIO(older), "Restored")
    copy = PeerAnnotation.objects.get(pyramid__docset__collection=collection, annotator=user)
    assert isinstance(copy.changes.order_by("id").first().after, list)
    assert pse_state(copy.pk) == pse_state(mine.pk)
    for step in ("redo", "undo", "undo", "redo", "redo"):
        for pk in (mine.pk, copy.pk):
            getattr(peer_editing, step)(pk, user, version(pk))
        assert pse_state(copy.pk) == pse_state(mine.pk), step
    assert len(pse_state(copy.pk)) == 2
