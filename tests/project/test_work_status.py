"""One set of choices for where a pyramid or a peer annotation stands."""

from annotator.models import PeerAnnotation, Pyramid, WorkStatus


def test_pyramids_and_peer_annotations_share_their_status_choices():
    assert Pyramid.Status is PeerAnnotation.Status is WorkStatus
    assert WorkStatus.choices == [("in_progress", "In progress"), ("submitted", "Submitted")]
    for model in (Pyramid, PeerAnnotation):
        assert model._meta.get_field("status").choices == WorkStatus.choices
