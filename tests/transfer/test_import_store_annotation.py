"""How the importer stores a peer annotation: in one statement on PostgreSQL
(importing.store_annotation_at_once), a statement a table elsewhere (importing.store_annotation);
the same records either way, every character of the comments as the file has it (issue 19)."""

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from annotator.ducview.names import FileIdentity
from annotator.models import (
    PSE,
    Collection,
    Docset,
    PeerAnnotation,
    PeerSCUComment,
    PSESpan,
    Summary,
)
from annotator.transfer import importing
from annotator.transfer.importing import DucviewImporter
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import write

pytestmark = pytest.mark.django_db

# Comments that a statement built of text could get wrong: quotes, a backslash, array and JSON
# punctuation, the word NULL, characters outside ASCII and outside the BMP, an XML entity.
ODD = 'It\'s "odd" \\ {a,NULL} [1, null] 😀 été <x>'
ODD_XML = ODD.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def commented_pan() -> bytes:
    """The fixture's .pan with comments on two peer SCUs (one the non-matching), a comment on a
    PSE, an empty comment on another, and a PSE of two parts."""
    text = PAN_FIXTURE.read_text(encoding="utf-8")
    for before, after in (
        (
            '<peerscu uid="11" label="(3) The tower was built for the 1889 World\'s Fair">',
            f'<peerscu uid="11" label="(3) The tower was built for the 1889 World\'s Fair" '
            f'comment="{ODD_XML}">',
        ),
        (
            '<peerscu uid="0" label="All non-matching SCUs go here">',
            '<peerscu uid="0" label="All non-matching SCUs go here" comment="NULL">',
        ),
        (
            '<contributor label="It is 330 metres high">',
            f'<contributor label="It is 330 metres high" comment="{ODD_XML}">',
        ),
        (
            '<contributor label="It is very tall">',
            '<contributor label="It is very tall" comment="">',
        ),
        (
            '<part label="Tourists climb it every day" start="83" end="110"/>',
            '<part label="Tourists climb" start="83" end="97"/>\n'
            '   <part label="every day" start="101" end="110"/>',
        ),
    ):
        assert text.count(before) == 1
        text = text.replace(before, after)
    return text.encode()


def stored(collection: str) -> dict:
    """A collection's peers and annotations as stored, with positions and comments, without ids;
    and whether the ids of PSEs and spans come in the order of their positions."""
    annotations = PeerAnnotation.objects.filter(pyramid__docset__collection__name=collection)
    pses = PSE.objects.filter(annotation__in=annotations)
    spans = PSESpan.objects.filter(pse__in=pses)
    return {
        "peers": sorted(
            Summary.objects.filter(docset__collection__name=collection, kind="peer").values_list(
                "author", "name", "text"
            )
        ),
        "annotations": sorted(
            annotations.values_list(
                "pyramid__name",
                "peer__author",
                "annotator_id",
                "annotator_code",
                "status",
                "source_name",
                "fingerprint",
                "version",
                "scus_changed",
            )
        ),
        "pses": sorted(
            pses.values_list(
                "annotation__annotator_code", "scu__uid", "comment", "position", "source_id"
            ),
            key=str,
        ),
        "spans": sorted(
            spans.values_list(
                "pse__annotation__annotator_code", "pse__position", "start", "end", "position"
            )
        ),
        "comments": sorted(
            PeerSCUComment.objects.filter(annotation__in=annotations).values_list(
                "annotation__annotator_code", "scu__uid", "comment"
            ),
            key=str,
        ),
        "ids in order": all(
            ids == sorted(ids)
            for ids in (
                list(pses.order_by("annotation_id", "position").values_list("id", flat=True)),
                list(spans.order_by("pse_id", "position").values_list("id", flat=True)),
            )
        ),
    }


def import_commented(tmp_path, collection: str) -> DucviewImporter:
    """The pyramid, the commented .pan by annotator 100 (a new peer), then by annotator 101 (the
    peer already stored)."""
    importer = DucviewImporter(collection)
    assert importer.import_file(PYRAMID_FIXTURE)
    for annotator in ("100", "101"):
        name = PAN_FIXTURE.name.replace("100.", f"{annotator}.", 1)
        assert importer.import_file(write(tmp_path / collection, name, commented_pan()))
    assert importer.report.failures == []
    return importer


def test_an_annotation_is_stored_the_same_in_one_statement_as_a_statement_a_table(
    tmp_path, monkeypatch
):
    at_once = import_commented(tmp_path, "at once")  # one statement on PostgreSQL
    monkeypatch.setattr(importing, "store_annotation_at_once", importing.store_annotation)
    by_table = import_commented(tmp_path, "by table")
    assert stored("at once") == stored("by table")
    assert at_once.report.summary_line() == by_table.report.summary_line()
    assert at_once.report.warnings == [
        w.replace("/by table/", "/at once/") for w in by_table.report.warnings
    ]
    records = stored("at once")
    assert records["ids in order"]
    assert [(author, name) for author, name, _ in records["peers"]] == [("7", "D9901.M.100.A.7")]
    assert records["comments"] == sorted(
        [
            (code, uid, comment)
            for code in ("100", "101")
            for uid, comment in [(11, ODD), (None, "NULL")]
        ],
        key=str,
    )
    pses = {(position, uid, comment) for _, uid, comment, position, _ in records["pses"]}
    assert sorted(pses) == [(0, 11, ""), (1, 12, ODD), (2, 12, ""), (3, None, "")]  # by annotator
    # the non-matching PSE's two parts, in their order (in code points: the 😀 is 2 in the file)
    non_matching = [(s, e, p) for code, position, s, e, p in records["spans"] if position == 3]
    assert non_matching == [(82, 96, 0), (100, 109, 1)] * 2


def test_the_statement_stores_an_annotation_of_no_pses_and_no_comments(tmp_path):
    # An annotation with nothing in it (no peerscu at all): the statement's row sets are empty.
    text = PAN_FIXTURE.read_text(encoding="utf-8")
    start, end = text.index(" <peerscu "), text.index("</annotation>")
    empty = write(tmp_path, PAN_FIXTURE.name, (text[:start] + text[end:]).encode())
    importer = DucviewImporter("Test")
    assert importer.import_file(PYRAMID_FIXTURE)
    assert importer.import_file(empty), importer.report.failures
    annotation = PeerAnnotation.objects.get()
    assert annotation.peer.author == "7"
    assert not annotation.pses.exists()
    assert not annotation.scu_comments.exists()
    assert annotation.version == 1
    assert annotation.scus_changed == []
    assert annotation.created_at == annotation.updated_at


def test_postgresql_stores_an_annotation_in_one_statement(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("one statement for an annotation on PostgreSQL only")
    importer = DucviewImporter("Test")
    assert importer.import_file(PYRAMID_FIXTURE)
    with CaptureQueriesContext(connection) as queries:
        assert importer.import_file(write(tmp_path, PAN_FIXTURE.name, commented_pan()))
    writes = [q["sql"] for q in queries.captured_queries if "INSERT" in q["sql"]]
    assert len(writes) == 1
    assert stored("Test")["comments"] == sorted([("100", 11, ODD), ("100", None, "NULL")], key=str)


def sent_commands(monkeypatch) -> list[bytes]:
    """The commands psycopg sends of its own (BEGIN, COMMIT, ROLLBACK), as they are sent."""
    from psycopg._connection_base import BaseConnection

    sent: list[bytes] = []
    real = BaseConnection._exec_command

    def spying(self, command, *args, **kwargs):
        sent.append(bytes(command))
        return real(self, command, *args, **kwargs)

    monkeypatch.setattr(BaseConnection, "_exec_command", spying)
    return sent


@pytest.mark.django_db(transaction=True)
def test_a_pan_whose_only_write_is_its_annotation_is_one_statement_in_its_transaction(
    tmp_path, monkeypatch
):
    # Outside a test's transaction, as an import runs: the .pan of a known pyramid stores one
    # statement in the file's transaction (a worker killed while it waits commits nothing: the
    # job resumed stores the file once, tests/transfer/test_db_worker_command.py); the
    # database's refusal of it stores nothing of the file (the peer summary it would make
    # included).
    if connection.vendor != "postgresql":
        pytest.skip("one statement for an annotation on PostgreSQL only")
    importer = DucviewImporter("Test")
    assert importer.import_file(PYRAMID_FIXTURE)
    sent = sent_commands(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        assert importer.import_file(write(tmp_path, PAN_FIXTURE.name, commented_pan()))
    work = [q["sql"] for q in queries.captured_queries if q["sql"] not in ("BEGIN", "COMMIT")]
    assert len(work) == 1
    assert work[0].startswith("WITH new_peer AS")
    assert sent == [b"BEGIN", b"COMMIT"]
    assert stored("Test")["comments"] == sorted([("100", 11, ODD), ("100", None, "NULL")], key=str)

    sent.clear()
    too_long = "x" * 300 + ".pan"  # longer than PeerAnnotation.source_name takes
    peer_8 = FileIdentity(docset="D9901", peer="8", annotator="100")
    assert not importer.import_data(too_long, PAN_FIXTURE.read_bytes(), peer_8)
    assert "the database refused it: value too long" in importer.report.failures[0]
    assert sent == [b"BEGIN", b"ROLLBACK"]
    assert not Summary.objects.filter(kind="peer", author="8").exists()
    assert PeerAnnotation.objects.count() == 1
    # the same annotation under a name that fits: the peer made anew, in the same import
    assert importer.import_data("100.D9901.M.100.A.8.pan", PAN_FIXTURE.read_bytes())
    assert PeerAnnotation.objects.filter(peer__author="8").count() == 1
    assert importer.report.peer_annotations == 2


@pytest.mark.django_db(transaction=True)
def test_a_pan_that_also_writes_other_records_stores_its_annotation_in_its_transaction(
    tmp_path, monkeypatch
):
    # The first .pan of a docset makes the collection, docset, models and pyramid too: the
    # annotation is stored within the file's transaction, committed once.
    if connection.vendor != "postgresql":
        pytest.skip("one statement for an annotation on PostgreSQL only")
    sent = sent_commands(monkeypatch)
    importer = DucviewImporter("Test")
    assert importer.import_file(PAN_FIXTURE)
    assert sent.count(b"BEGIN") == 1
    assert sent[-1] == b"COMMIT"
    assert PeerAnnotation.objects.count() == 1


@pytest.mark.parametrize("as_json", [True, False])
def test_inserting_rows_stores_them_as_given_and_returns_their_ids_in_order(monkeypatch, as_json):
    # On PostgreSQL the rows go as one JSON parameter, else (and for fields JSON cannot carry) as
    # VALUES, a statement a batch: more rows than a batch, text a statement could get wrong.
    if as_json and connection.vendor != "postgresql":
        pytest.skip("rows as JSON on PostgreSQL only")
    if not as_json:
        monkeypatch.setattr(importing, "_json_insert", lambda *args: None)
    docset = Docset.objects.create(collection=Collection.objects.create(name="Test"), name="D1")
    rows = [
        (docset.id, "peer", f"{n}", f"name {n}", ODD if n % 2 else f"text {n}")
        for n in range(importing.INSERT_ROWS_BATCH + 5)
    ]
    ids = importing.insert_rows(Summary, importing.PEER_FIELDS, rows, returning_ids=True)
    assert ids == sorted(ids)
    stored = Summary.objects.in_bulk(ids)
    assert [
        (stored[i].docset_id, stored[i].kind, stored[i].author, stored[i].name, stored[i].text)
        for i in ids
    ] == rows
    assert importing.insert_rows(Summary, importing.PEER_FIELDS, []) == []
    if connection.vendor == "postgresql":  # (SQLite keeps text of any length)
        # too long a value is refused, not cut to the column's length
        with pytest.raises(DatabaseError), transaction.atomic():
            importing.insert_rows(
                Summary, importing.PEER_FIELDS, [(docset.id, "peer", "7" * 101, "", "")]
            )
        assert Summary.objects.count() == len(rows)


def test_inserting_rows_as_json_is_for_text_and_integers_only():
    assert importing._json_insert(PSE, ("annotation", "scu", "comment", "position"), True)
    fields = importing.ANNOTATION_FIELDS  # a JSON field and dates: VALUES
    assert importing._json_insert(PeerAnnotation, fields, True) is None
