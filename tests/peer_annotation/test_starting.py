"""annotator.peer_annotation.starting: the one way a peer annotation is started (page and API)."""

import pytest

from annotator.editing.errors import NotAllowed
from annotator.models import Assignment, PeerAnnotation
from annotator.peer_annotation.starting import StartRefused, start_annotation

pytestmark = pytest.mark.django_db


def test_starting_creates_once_and_marks_the_assignment_started(demo):
    pyramid, peer = demo["pyramid"], demo["annotations"]["1"].peer
    annotation, created = start_annotation(demo["annotator"], pyramid, peer)
    assert created
    assert (annotation.status, annotation.version, annotation.annotator) == (
        "in_progress",
        1,
        demo["annotator"],
    )
    assert Assignment.objects.get(user=demo["annotator"]).status == "in_progress"
    assert start_annotation(demo["annotator"], pyramid, peer) == (annotation, False)
    with pytest.raises(StartRefused, match="You already have an annotation"):
        start_annotation(demo["annotator"], pyramid, peer, existing=False)


def test_only_an_assigned_peer_unless_an_administrator(demo):
    pyramid, peer = demo["pyramid"], demo["annotations"]["2"].peer
    for user in [demo["annotator"], demo["organizer"], demo["outsider"]]:
        with pytest.raises(NotAllowed):
            start_annotation(user, pyramid, peer)
    Assignment.objects.filter(user=demo["other_annotator"]).update(status="withdrawn")
    with pytest.raises(NotAllowed):
        start_annotation(demo["other_annotator"], pyramid, peer)
    annotation, _ = start_annotation(demo["admin"], pyramid, peer)
    assert annotation.annotator == demo["admin"]
    assert not PeerAnnotation.objects.filter(annotator__in=[demo["annotator"]]).exists()
