"""What one import reads once and keeps across its files (collection, docsets, summaries,
pyramids, annotations), so that each further file costs a few statements (issue 19); and what a
failed file's rolled back transaction takes with it, so that nothing kept points to it."""

from pathlib import Path

import pytest
from django.db import DatabaseError, connection
from django.test.utils import CaptureQueriesContext

from annotator.ducview.reader import read_peer_annotation
from annotator.models import (
    PSE,
    Collection,
    Docset,
    PeerAnnotation,
    PSESpan,
    Pyramid,
    Span,
    Summary,
)
from annotator.transfer import importing
from annotator.transfer.importing import DucviewImporter
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import write

pytestmark = pytest.mark.django_db

PAN = PAN_FIXTURE.read_bytes()


def refused_late_pan() -> bytes:
    """The fixture's .pan with one PSE part on the peer text's final line break only (and a label
    found nowhere): read, its pyramid and peer stored, then refused ("lies outside the peer
    text") within its transaction."""
    document = read_peer_annotation(PAN)
    end = len(document.text.encode("utf-16-le")) // 2  # DUCView's offsets: UTF-16 units
    label = 'label="Tourists climb it every day" start="'
    text = PAN.decode()
    at = text.rindex(label)
    close = text.index("/>", at)
    broken = text[:at] + f'label="nowhere in the text" start="{end - 1}" end="{end}"' + text[close:]
    return broken.encode()


def records(collection: str) -> dict:
    """What an import stored in a collection, without database ids."""
    where = {"docset__collection__name": collection}
    return {
        "docsets": sorted(Docset.objects.filter(collection__name=collection).values_list("name")),
        "summaries": sorted(
            Summary.objects.filter(**where).values_list("docset__name", "kind", "author", "text")
        ),
        "pyramids": sorted(
            Pyramid.objects.filter(**where).values_list("docset__name", "name", "fingerprint")
        ),
        "spans": sorted(
            Span.objects.filter(summary__docset__collection__name=collection).values_list(
                "contributor__scu__uid", "summary__author", "start", "end"
            )
        ),
        "annotations": sorted(
            PeerAnnotation.objects.filter(pyramid__docset__collection__name=collection).values_list(
                "peer__author", "annotator_code", "fingerprint"
            )
        ),
        "pses": sorted(
            (uid or 0, start, end)
            for uid, start, end in PSESpan.objects.filter(
                pse__annotation__pyramid__docset__collection__name=collection
            ).values_list("pse__scu__uid", "start", "end")
        ),
    }


def clean_import(*paths: Path, collection: str = "clean") -> dict:
    importer = DucviewImporter(collection)
    for path in paths:
        assert importer.import_file(path)
    return records(collection)


def test_a_file_refused_after_storing_leaves_nothing_and_the_next_file_of_its_docset_is_whole(
    tmp_path,
):
    bad = write(tmp_path, f"bad/{PAN_FIXTURE.name}", refused_late_pan())
    importer = DucviewImporter("Test")
    # The first file of a new collection: it makes the collection, the docset, the models, the
    # pyramid and the peer, then is refused; all of that is rolled back.
    assert not importer.import_file(bad)
    (failure,) = importer.report.failures
    assert failure.startswith(f"{bad}: line ")
    assert "lies outside the peer text" in failure
    assert not Collection.objects.filter(name="Test").exists()
    assert Summary.objects.count() == Pyramid.objects.count() == 0
    # The good file after it, in the same import, stores it all again, whole and right.
    assert importer.import_file(PAN_FIXTURE)
    assert importer.report.failures == [failure]
    assert importer.report.peer_annotations == 1
    stored = records("Test")
    assert stored["docsets"] == [("D9901",)]
    assert stored == clean_import(PAN_FIXTURE)
    docset = Docset.objects.get(collection__name="Test")
    assert Pyramid.objects.get(docset__collection__name="Test").docset == docset
    assert Summary.objects.filter(docset=docset, kind="peer").get().author == "7"


@pytest.mark.parametrize("store", ["store_annotation_at_once", "store_annotation"])
def test_a_file_the_database_refuses_leaves_no_stale_peer_behind(tmp_path, monkeypatch, store):
    if store == "store_annotation_at_once" and connection.vendor != "postgresql":
        pytest.skip("one statement for an annotation on PostgreSQL only")
    importer = DucviewImporter("Test")
    assert importer.import_file(PYRAMID_FIXTURE)
    real_store = getattr(importing, store)
    refusals = iter([True])

    def refusing_once(annotation):
        real_store(annotation)  # the peer summary and the annotation stored (the peer's id set)
        if next(refusals, False):
            raise DatabaseError("refused for the test")

    # Either way of storing (one statement on PostgreSQL, one a table elsewhere) is refused.
    monkeypatch.setattr(importing, "store_annotation_at_once", refusing_once)
    monkeypatch.setattr(importing, "store_annotation", refusing_once)
    assert not importer.import_file(PAN_FIXTURE)
    assert "the database refused it: refused for the test" in importer.report.failures[0]
    assert not Summary.objects.filter(kind="peer").exists()
    assert PeerAnnotation.objects.count() == 0
    # The same file again, in the same import: the peer is made anew, not taken from before.
    assert importer.import_file(PAN_FIXTURE)
    assert records("Test") == clean_import(PYRAMID_FIXTURE, PAN_FIXTURE)
    assert PSE.objects.filter(annotation__pyramid__docset__collection__name="Test").count() > 0


def work_statements(queries) -> list[str]:
    """The statements that read or write records (not those that open or close a transaction or
    a savepoint: in a test, the file's transaction is a savepoint of the test's)."""
    control = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT")
    return [q["sql"] for q in queries if not q["sql"].startswith(control)]


def test_a_further_peer_annotation_of_a_known_docset_costs_its_inserts_only(tmp_path):
    importer = DucviewImporter("Test")
    assert importer.import_file(PYRAMID_FIXTURE)
    assert importer.import_file(PAN_FIXTURE)
    statements = []
    for peer in (8, 9, 10):  # the same annotation of other peers: nothing read, inserts only
        path = write(tmp_path, PAN_FIXTURE.name.replace(".7.pan", f".{peer}.pan"), PAN)
        with CaptureQueriesContext(connection) as queries:
            assert importer.import_file(path)
        statements.append(work_statements(queries.captured_queries))
    tables = ['"annotator_summary"', '"annotator_peerannotation"', '"annotator_pse"']
    tables.append('"annotator_psespan"')  # (and none of comments: the file has none)
    if connection.vendor == "postgresql":
        # one statement: the peer, the annotation, its PSEs and their spans (INSERTs in WITH)
        assert [len(s) for s in statements] == [1, 1, 1]  # the same for every further file
        (sql,) = statements[0]
        assert sql.startswith("WITH new_peer AS (INSERT")
        inserted = [part.split()[0] for part in sql.split("INSERT INTO ")[1:]]
        assert inserted == [*tables, '"annotator_peerscucomment"']
    else:
        assert [len(s) for s in statements] == [4, 4, 4]
        assert [s.split()[2] for s in statements[0]] == tables
    assert importer.report.failures == []
    assert PeerAnnotation.objects.count() == 4


def test_a_known_pyramid_embedded_again_reports_its_warnings_for_every_file(tmp_path):
    # A part of the pyramid whose label does not match the text: every .pan embedding it says so,
    # as before the copies were placed once (the import's report does not depend on the cache).
    pan = PAN.replace(b'label="Eiffel\'s firm built the tower"', b'label="Someone built it"', 1)
    assert pan != PAN
    importer = DucviewImporter("Test")
    for peer in (7, 8, 9):
        path = write(tmp_path, PAN_FIXTURE.name.replace(".7.pan", f".{peer}.pan"), pan)
        assert importer.import_file(path)
    warnings = [w for w in importer.report.warnings if "'Someone built it' does not match" in w]
    assert len(warnings) == 3
    assert [w.split(":")[0] for w in warnings] == [
        str(tmp_path / PAN_FIXTURE.name.replace(".7.pan", f".{peer}.pan")) for peer in (7, 8, 9)
    ]
    assert len({w.split(": ", 1)[1] for w in warnings}) == 1  # the same line, the same words
    assert Pyramid.objects.count() == 1


def test_inserting_rows_directly_refuses_to_leave_out_a_field_the_model_fills_in():
    # PSE.position has a default: a row without it would not be what the model makes.
    with pytest.raises(TypeError, match=r"insert_rows\(PSE\) must be given position"):
        importing.insert_rows(PSE, ("annotation", "scu", "comment"), [])
    with pytest.raises(TypeError, match=r"must be given .*created_at"):
        importing.insert_rows(PeerAnnotation, ("pyramid", "peer"), [])
