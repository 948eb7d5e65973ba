"""Migration 0023 on annotations imported before it: each gets the peer id its file name wrote
("06" for system 6), where that differs from the peer's, so that NIST's table is written as NIST
wrote it (issue 33)."""

import pytest

from tests.helpers import latest_migrations, migrate

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("annotator", "0022_shared_cache_table")]


def test_annotations_imported_before_keep_the_spelling_of_their_file_names():
    apps = migrate(BEFORE)
    try:
        Collection = apps.get_model("annotator", "Collection")
        Docset = apps.get_model("annotator", "Docset")
        Summary = apps.get_model("annotator", "Summary")
        Pyramid = apps.get_model("annotator", "Pyramid")
        PeerAnnotation = apps.get_model("annotator", "PeerAnnotation")
        docset = Docset.objects.create(
            collection=Collection.objects.create(name="DUC 2006"), name="D0647"
        )
        pyramid = Pyramid.objects.create(docset=docset, name="D0647")
        made = {}
        for author, file_name in (
            ("6", "119.D0647.M.250.B.06.pan"),
            ("10", "119.D0647.M.250.B.10.pan"),
            ("7", "made in the app"),
            ("H", "119.D0647.M.250.B.H.pan"),
        ):
            peer = Summary.objects.create(docset=docset, kind="peer", author=author, text="x")
            made[author] = PeerAnnotation.objects.create(
                pyramid=pyramid, peer=peer, source_name=file_name
            ).pk
    finally:
        apps = migrate(latest_migrations())
    written = dict(
        apps.get_model("annotator", "PeerAnnotation").objects.values_list("pk", "peer_as_written")
    )
    assert {author: written[pk] for author, pk in made.items()} == {
        "6": "06",
        "10": "",
        "7": "",
        "H": "",
    }
