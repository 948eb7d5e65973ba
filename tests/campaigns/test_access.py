"""annotator.campaigns.access: what each role sees and may change."""

import pytest
from django.contrib.auth.models import AnonymousUser

from annotator.campaigns import access
from annotator.models import Assignment, Collection, Membership, PeerAnnotation, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def own(demo):
    """The annotator's own annotation of their peer, and the other annotator's of theirs."""
    make = PeerAnnotation.objects.create
    return {
        "annotator": make(
            pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
        ),
        "other_annotator": make(
            pyramid=demo["pyramid"],
            peer=demo["annotations"]["2"].peer,
            annotator=demo["other_annotator"],
        ),
    }


def test_site_administrators_and_organizers_read_everything(demo, own):
    other = Collection.objects.create(name="Elsewhere")
    assert set(access.readable_collections(demo["admin"])) == {demo["collection"], other}
    assert set(access.readable_collections(demo["organizer"])) == {demo["collection"]}
    for who in ("admin", "organizer"):
        assert access.visible_annotations(demo[who]).count() == PeerAnnotation.objects.count() == 5
    assert access.can_administer(demo["admin"], other)
    assert not access.can_administer(demo["organizer"], demo["collection"])


def test_organizers_edit_nothing(demo, own):
    assert not access.can_edit_annotation(demo["organizer"], own["annotator"])
    assert not access.can_edit_pyramid(demo["organizer"], demo["pyramid"])
    assert not access.can_reopen(demo["organizer"], demo["pyramid"])


def test_a_collection_administrator_manages_their_collection_only(demo, own):
    other = Collection.objects.create(name="Elsewhere")
    Membership.objects.create(
        collection=demo["collection"], user=demo["outsider"], role=Role.ADMINISTRATOR
    )
    assert list(access.administered_collections(demo["outsider"])) == [demo["collection"]]
    assert not access.can_administer(demo["outsider"], other)
    assert access.can_edit_annotation(demo["outsider"], own["other_annotator"])
    assert access.can_reopen(demo["outsider"], own["annotator"])


def test_annotators_see_their_own_assigned_work_only(demo, own):
    annotator = demo["annotator"]
    assert list(access.visible_annotations(annotator)) == [own["annotator"]]
    assert access.can_edit_annotation(annotator, own["annotator"])
    assert not access.can_edit_annotation(annotator, own["other_annotator"])
    assert not access.can_edit_annotation(
        annotator, demo["annotations"]["1"]
    )  # the imported one of their peer
    assert list(access.visible_pyramids(annotator)) == [
        demo["pyramid"]
    ]  # submitted: what they annotate against
    assert list(access.readable_collections(annotator)) == []
    assert list(access.visible_collections(annotator)) == [demo["collection"]]
    assert not access.can_reopen(annotator, own["annotator"])


def test_a_withdrawn_assignment_takes_the_work_out_of_sight(demo, own):
    Assignment.objects.filter(user=demo["annotator"]).update(status=Assignment.Status.WITHDRAWN)
    assert not access.visible_annotations(demo["annotator"]).exists()
    assert not access.visible_pyramids(demo["annotator"]).exists()
    assert not access.can_edit_annotation(demo["annotator"], own["annotator"])


def test_anonymous_and_outsiders_see_nothing(demo, own):
    for user in (AnonymousUser(), demo["outsider"]):
        assert not access.visible_collections(user).exists()
        assert not access.visible_pyramids(user).exists()
        assert not access.visible_annotations(user).exists()
        assert not access.can_edit_pyramid(user, demo["pyramid"])


def test_the_summaries_each_role_reads(demo, own):
    """One rule for the pages and the API (visible_summaries): an annotator reads the models of the
    docsets they work in and the peers assigned to them; readers of the collection read all."""
    from annotator.models import Summary

    docset = demo["pyramid"].docset
    everything = set(Summary.objects.filter(docset=docset))
    models = set(Summary.objects.filter(docset=docset, kind="model"))
    peer = {demo["annotations"][name].peer for name in ("1", "2")}
    assert len(models) == 4
    assert len(everything) == 7
    assert set(access.visible_summaries(demo["annotator"])) == models | {
        demo["annotations"]["1"].peer
    }
    assert set(access.visible_summaries(demo["other_annotator"])) == models | {
        demo["annotations"]["2"].peer
    }
    assert peer <= everything
    for who in ("organizer", "admin"):
        assert set(access.visible_summaries(demo[who])) == everything
    assert not access.visible_summaries(demo["outsider"]).exists()
    assert not access.visible_summaries(AnonymousUser()).exists()


def test_who_edits_a_pyramid_unassigned_is_read_in_one_query(demo, pair, django_assert_num_queries):
    """The edits' check of a user not assigned to build the pyramid (issue 32: it asked for the
    assignment again, then two or three queries more): the collection's administrators, and for a
    consensus pyramid its adjudicators; nobody else, in one query (a site administrator's
    permissions are read only where the membership says no: an adjudicator's decision never needs
    them)."""
    from annotator.adjudication import pyramid_consensus
    from annotator.models import Docset

    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    ordinary = pair["a"]
    elsewhere = Collection.objects.create(name="Elsewhere")
    for who, role in (("outsider", Role.ADMINISTRATOR), ("other_annotator", Role.ADJUDICATOR)):
        Membership.objects.create(collection=elsewhere, user=demo[who], role=role)
    elsewhere_pyramid = ordinary.__class__.objects.create(
        docset=Docset.objects.create(collection=elsewhere, name="D9"), name="D9"
    )
    expected = {
        ("adjudicator", "consensus"): True,
        ("adjudicator", "ordinary"): False,
        ("organizer", "consensus"): False,
        ("annotator", "consensus"): False,
        ("outsider", "consensus"): False,
        ("outsider", "elsewhere"): True,
        ("other_annotator", "elsewhere"): False,  # an adjudicator, of no consensus there
    }
    pyramids = {"consensus": consensus, "ordinary": ordinary, "elsewhere": elsewhere_pyramid}
    for (who, which), allowed in expected.items():
        user = pair["adjudicator"] if who == "adjudicator" else demo[who]
        pyramid = ordinary.__class__.objects.select_related("docset").get(pk=pyramids[which].pk)
        access.is_site_administrator(user)  # the user's permissions, read once a request anyway
        with django_assert_num_queries(1):
            assert access.can_edit_pyramid_unassigned(user, pyramid) is allowed, (who, which)
        assert access.can_edit_pyramid(user, pyramid) is allowed, (who, which)
    access.is_site_administrator(demo["admin"])
    consensus = consensus.__class__.objects.select_related("docset").get(pk=consensus.pk)
    with django_assert_num_queries(1):
        assert access.can_edit_pyramid_unassigned(demo["admin"], consensus)
    assert not access.can_edit_pyramid_unassigned(AnonymousUser(), consensus)
