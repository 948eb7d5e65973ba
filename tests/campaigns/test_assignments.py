"""annotator.campaigns.assignments: giving out, withdrawing and reassigning work, without losing
any."""

import pytest

from annotator.campaigns import assignments
from annotator.campaigns.access import can_edit_annotation, visible_annotations
from annotator.editing.errors import NotAllowed, RuleBroken
from annotator.models import Assignment, Docset, Membership, PeerAnnotation, Pyramid, Role, Summary
from annotator.peer_annotation import editing as peer_editing
from annotator.pyramids import editing

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_docset(demo):
    """A second docset of the demo collection: two models, two peers, a submitted pyramid."""
    docset = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    for kind, author in [("model", "A"), ("model", "B"), ("peer", "1"), ("peer", "2")]:
        Summary.objects.create(
            docset=docset, kind=kind, author=author, text=f"Summary {author} of DEMO02."
        )
    pyramid = Pyramid.objects.create(docset=docset, name="DEMO02", status=Pyramid.Status.SUBMITTED)
    return docset, pyramid


def test_each_annotator_builds_a_pyramid_of_their_own(demo, second_docset):
    docset, _ = second_docset
    report = assignments.assign_pyramids(
        [docset], [demo["annotator"], demo["outsider"]], demo["admin"]
    )
    assert report.summary == "2 assignments made"
    built = Pyramid.objects.filter(docset=docset, assignments__task="pyramid").order_by("name")
    assert [p.name for p in built] == ["DEMO02-annotator", "DEMO02-outsider"]
    assert all(list(p.models_used.values_list("author", flat=True)) == ["A", "B"] for p in built)
    assert Membership.objects.filter(
        user=demo["outsider"], collection=demo["collection"], role=Role.ANNOTATOR
    ).exists()
    # Asking again changes nothing.
    again = assignments.assign_pyramids([docset], [demo["annotator"]], demo["admin"])
    assert again.summary == "0 assignments made, 1 already assigned"
    assert Pyramid.objects.filter(docset=docset).count() == 3


def test_a_builder_whose_pyramid_name_is_taken_gets_the_next_free_one(demo, second_docset):
    docset, _ = second_docset
    Pyramid.objects.create(
        docset=docset, name="DEMO02-annotator", status=Pyramid.Status.SUBMITTED
    )  # imported, say
    assignments.assign_pyramids([docset], [demo["annotator"]], demo["admin"])
    built = Pyramid.objects.get(docset=docset, assignments__task="pyramid")
    assert built.name == "DEMO02-annotator (2)"
    assert built.created_by == demo["annotator"]


def test_round_robin_spreads_docsets_and_peers(demo, second_docset):
    docset, pyramid = second_docset
    users = [demo["annotator"], demo["outsider"]]
    report = assignments.assign_pyramids(
        [demo["pyramid"].docset, docset], users, demo["admin"], assignments.ROUND_ROBIN
    )
    assert [(a.pyramid.docset.name, a.user.username) for a in report.created] == [
        ("DEMO01", "annotator"),
        ("DEMO02", "outsider"),
    ]
    report = assignments.assign_peers([docset], users, demo["admin"], assignments.ROUND_ROBIN)
    assert [(a.peer.author, a.user.username, a.pyramid_id) for a in report.created] == [
        ("1", "annotator", pyramid.pk),
        ("2", "outsider", pyramid.pk),
    ]


def test_peers_need_a_submitted_pyramid(demo, second_docset):
    docset, pyramid = second_docset
    pyramid.status = Pyramid.Status.IN_PROGRESS
    pyramid.save()
    report = assignments.assign_peers([docset], [demo["annotator"]], demo["admin"])
    assert report.skipped == ["Docset DEMO02 has no submitted pyramid to annotate against."]
    assert not report.created


def test_withdrawing_keeps_the_work_and_giving_back_resumes_it(demo):
    assignment = Assignment.objects.get(user=demo["annotator"])
    annotation = PeerAnnotation.objects.create(
        pyramid=assignment.pyramid, peer=assignment.peer, annotator=demo["annotator"]
    )
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    assignments.withdraw(assignment, demo["admin"])
    assert not visible_annotations(demo["annotator"]).exists()
    assert annotation.pses.count() == 1
    with pytest.raises(NotAllowed):
        peer_editing.assign(annotation.pk, demo["annotator"], 2, [(10, 12)], 1)
    report = assignments.assign_peers(
        [assignment.pyramid.docset], [demo["annotator"]], demo["admin"], peers=[assignment.peer]
    )
    assert [a.pk for a in report.created] == [assignment.pk]
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.IN_PROGRESS


def test_reassigning_hands_over_unfinished_work(demo):
    assignment = Assignment.objects.get(user=demo["annotator"])
    annotation = PeerAnnotation.objects.create(
        pyramid=assignment.pyramid, peer=assignment.peer, annotator=demo["annotator"]
    )
    peer_editing.assign(annotation.pk, demo["annotator"], 1, [(0, 9)], 1)
    moved = assignments.reassign(assignment, demo["outsider"], demo["admin"])
    assert moved.user == demo["outsider"]
    assert moved.status == Assignment.Status.ASSIGNED
    annotation.refresh_from_db()
    assert annotation.annotator == demo["outsider"]
    assert annotation.pses.count() == 1
    assert can_edit_annotation(demo["outsider"], annotation)
    assert not can_edit_annotation(demo["annotator"], annotation)
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.WITHDRAWN
    with pytest.raises(RuleBroken, match="already has this work"):
        assignments.reassign(
            Assignment.objects.get(pk=assignment.pk), demo["outsider"], demo["admin"]
        )


def test_status_follows_the_work(demo):
    docset = demo["pyramid"].docset
    (assignment,) = assignments.assign_pyramids([docset], [demo["outsider"]], demo["admin"]).created
    pyramid = assignment.pyramid
    model = pyramid.models_used.get(author="A")
    editing.new_scu(pyramid.pk, demo["outsider"], 1, model.pk, [(0, 9)])
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.IN_PROGRESS
    editing.submit(pyramid.pk, demo["outsider"], 2)
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.DONE
    with pytest.raises(NotAllowed):
        editing.reopen(pyramid.pk, demo["outsider"], 3)  # annotators do not reopen
    editing.reopen(pyramid.pk, demo["admin"], 3)
    assert Assignment.objects.get(pk=assignment.pk).status == Assignment.Status.IN_PROGRESS


def test_a_builders_edit_starts_their_assignment_once(demo):
    """The first edit of a builder starts their assignment, whoever edited the pyramid before
    (handed over mid-way); later edits, the check of who may edit having found it under way,
    write no assignment (issue 32: an UPDATE per action)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    docset = demo["pyramid"].docset
    (assignment,) = assignments.assign_pyramids([docset], [demo["outsider"]], demo["admin"]).created
    pyramid = assignment.pyramid
    model = pyramid.models_used.get(author="A")
    editing.new_scu(pyramid.pk, demo["outsider"], 1, model.pk, [(0, 9)])
    moved = assignments.reassign(
        Assignment.objects.get(pk=assignment.pk), demo["annotator"], demo["admin"]
    )
    assert moved.status == Assignment.Status.ASSIGNED
    version = Pyramid.objects.get(pk=pyramid.pk).version
    editing.set_label(pyramid.pk, demo["annotator"], version, 1, "Apollo")
    assert Assignment.objects.get(pk=moved.pk).status == Assignment.Status.IN_PROGRESS
    with CaptureQueriesContext(connection) as queries:
        editing.set_label(pyramid.pk, demo["annotator"], version + 1, 1, "Apollo 11")
    assert not [q for q in queries if q["sql"].startswith('UPDATE "annotator_assignment"')]
    assert Pyramid.objects.get(pk=pyramid.pk).scus.get(uid=1).label == "Apollo 11"


def test_assign_holds_the_rules_the_page_and_the_api_share(demo):
    docset = demo["pyramid"].docset
    with pytest.raises(NotAllowed):
        assignments.assign("peer", [docset], [demo["outsider"]], demo["organizer"])
    with pytest.raises(RuleBroken, match="Unknown assignment mode"):
        assignments.assign("peer", [docset], [demo["outsider"]], demo["admin"], "sometimes")
    Pyramid.objects.filter(pk=demo["pyramid"].pk).update(status="in_progress")
    demo["pyramid"].refresh_from_db()
    with pytest.raises(RuleBroken, match="still being edited"):
        assignments.assign(
            "peer", [docset], [demo["outsider"]], demo["admin"], pyramid=demo["pyramid"]
        )
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()
