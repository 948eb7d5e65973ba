"""Migration 0010 on records stored before it: pyramid names made unique per docset, peer ids with
leading zeros made one system, fingerprints recomputed so that re-imports recognise old imports."""

import pytest

from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import import_files, latest_migrations, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("annotator", "0009_collection_archives")]
AFTER = [("annotator", "0010_import_identities")]


@pytest.fixture
def before_0010():
    apps = migrate(BEFORE)
    yield apps
    migrate(latest_migrations())


def test_names_ids_and_fingerprints_are_brought_in_line(before_0010):
    apps = before_0010
    Collection = apps.get_model("annotator", "Collection")
    Docset = apps.get_model("annotator", "Docset")
    Summary = apps.get_model("annotator", "Summary")
    Pyramid = apps.get_model("annotator", "Pyramid")
    PeerAnnotation = apps.get_model("annotator", "PeerAnnotation")
    collection = Collection.objects.create(name="old")
    docset = Docset.objects.create(collection=collection, name="D0608")
    first = Pyramid.objects.create(docset=docset, name="D0608")
    second = Pyramid.objects.create(docset=docset, name="D0608")
    zero = Summary.objects.create(docset=docset, kind="peer", author="06", text="Peer six.")
    six = Summary.objects.create(docset=docset, kind="peer", author="6", text="Peer six.")
    lone = Summary.objects.create(docset=docset, kind="peer", author="09", text="Peer nine.")
    moved = PeerAnnotation.objects.create(pyramid=first, peer=zero, annotator_code="100")
    PeerAnnotation.objects.create(pyramid=first, peer=six, annotator_code="101")

    migrate(AFTER)

    assert sorted(Pyramid.objects.filter(docset=docset).values_list("name", flat=True)) == [
        "D0608",
        "D0608 (2)",
    ]
    assert Pyramid.objects.get(pk=second.pk).name == "D0608 (2)"  # the later one renamed
    assert sorted(Summary.objects.filter(docset=docset).values_list("author", flat=True)) == [
        "6",
        "9",
    ]
    assert PeerAnnotation.objects.get(pk=moved.pk).peer_id == six.pk
    assert Summary.objects.get(pk=lone.pk).author == "9"


def test_an_old_import_is_recognised_unchanged_after_the_migration(before_0010):
    migrate(AFTER)
    migrate(latest_migrations())
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="again")
    from annotator.models import Pyramid

    fingerprint = Pyramid.objects.get().fingerprint
    # What 0010 computes from the records is what the importer computes from the files.
    migrate(BEFORE)
    migrate(AFTER)
    migrate(latest_migrations())
    assert Pyramid.objects.get().fingerprint == fingerprint
    assert "2 unchanged" in import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="again")
