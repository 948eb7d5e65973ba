"""Integrity in the database: constraints and PostgreSQL triggers refuse inconsistent records."""

import pytest
from django.db import IntegrityError, transaction

from annotator.models import PSE, SCU, Contributor, Docset, PeerAnnotation, PSESpan, Span, Summary
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import import_files

pytestmark = pytest.mark.django_db


@pytest.fixture
def records():
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="Fixtures")
    import_files(PYRAMID_FIXTURE, collection="Other")
    return {
        "contributor": Contributor.objects.filter(
            scu__pyramid__docset__collection__name="Fixtures"
        ).first(),
        "annotation": PeerAnnotation.objects.get(),
        "other_scu": SCU.objects.filter(pyramid__docset__collection__name="Other").first(),
    }


def refused(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_a_span_never_ends_before_it_starts(records):
    contributor = records["contributor"]
    refused(
        lambda: Span.objects.create(
            contributor=contributor, summary=contributor.summary, start=5, end=4
        )
    )
    refused(lambda: PSESpan.objects.create(pse=PSE.objects.first(), start=9, end=3))
    # An empty part is allowed: imports keep one where DUCView's offsets placed no word.
    Span.objects.create(contributor=contributor, summary=contributor.summary, start=5, end=5)


def test_only_a_peer_summary_may_be_empty(records):
    docset = Docset.objects.first()
    Summary.objects.create(
        docset=docset, kind="peer", author="31", text=""
    )  # a system that produced nothing
    refused(lambda: Summary.objects.create(docset=docset, kind="model", author="Z", text=""))


def test_a_span_ends_within_its_summary(records, postgresql_only):
    contributor = records["contributor"]
    length = len(contributor.summary.text)
    Span.objects.create(contributor=contributor, summary=contributor.summary, start=0, end=length)
    refused(
        lambda: Span.objects.create(
            contributor=contributor, summary=contributor.summary, start=0, end=length + 1
        )
    )
    pse = PSE.objects.first()
    refused(
        lambda: PSESpan.objects.create(
            pse=pse, start=0, end=len(records["annotation"].peer.text) + 1
        )
    )


def test_a_summary_cannot_shrink_below_its_spans(records, postgresql_only):
    summary = records["contributor"].summary
    summary.text = summary.text[:3]
    refused(summary.save)


def test_a_pse_names_an_scu_of_its_own_pyramid(records, postgresql_only):
    refused(lambda: PSE.objects.create(annotation=records["annotation"], scu=records["other_scu"]))


def test_a_peer_annotation_annotates_a_peer_of_its_docset(records, postgresql_only):
    annotation = records["annotation"]
    model = Summary.objects.filter(docset=annotation.pyramid.docset, kind="model").first()
    refused(
        lambda: PeerAnnotation.objects.create(
            pyramid=annotation.pyramid, peer=model, annotator_code="x"
        )
    )


def test_unique_names_and_labels(records):
    docset = records["annotation"].pyramid.docset
    refused(lambda: Docset.objects.create(collection=docset.collection, name=docset.name))
    scu = records["contributor"].scu
    refused(lambda: SCU.objects.create(pyramid=scu.pyramid, uid=scu.uid, label="duplicate uid"))
    refused(lambda: SCU.objects.create(pyramid=scu.pyramid, uid=999, label=""))
    refused(
        lambda: SCU.objects.create(
            pyramid=scu.pyramid, uid=0, label="uid 0 is for non-matching PSEs"
        )
    )


def test_one_annotation_of_a_peer_per_annotator(records, django_user_model):
    annotation = records["annotation"]
    alice, bob = (django_user_model.objects.create_user(name) for name in ("alice", "bob"))
    for user in (alice, bob):  # two users of the app, neither with an imported annotator id
        PeerAnnotation.objects.create(
            pyramid=annotation.pyramid, peer=annotation.peer, annotator=user
        )
    refused(
        lambda: PeerAnnotation.objects.create(
            pyramid=annotation.pyramid, peer=annotation.peer, annotator=alice
        )
    )
    refused(
        lambda: PeerAnnotation.objects.create(
            pyramid=annotation.pyramid,
            peer=annotation.peer,
            annotator_code=annotation.annotator_code,
        )
    )
