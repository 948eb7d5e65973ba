"""scoring.scores.exports and the streaming writers of scoring.scores.formats (issue 19): the same
bytes as the
whole-string exports had, rows loaded in chunks with a constant number of queries each, the peers'
texts never fetched, NIST's order in SQL, downloads streamed with the headers they had."""

import csv
import io
import json
import random
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import F
from django.http import StreamingHttpResponse
from django.test.utils import CaptureQueriesContext

from annotator.models import PSE, Collection, Docset, PeerAnnotation, Summary
from scoring.scores.exports import (
    _codepoints,
    in_blocks,
    iter_score_rows,
    rows_download,
    score_conventions,
    streamed_system_means,
    streaming_download,
    system_download,
)
from scoring.scores.formats import (
    SCORE_COLUMNS,
    SCORE_FIELDS,
    SUBMITTED,
    SYSTEM_COLUMNS,
    _flat,
    _nested,
    conventions_of,
    duc_order,
    four_decimals,
    nist_decimals,
    stream_duc,
    stream_json,
    systems_to_csv,
    systems_to_json,
    to_csv,
    to_duc,
    to_json,
)
from scoring.scores.records import collection_annotations, counted_annotations, score_annotations
from scoring.scores.tables import system_means
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import import_files

pytestmark = pytest.mark.django_db


# -- the whole-string exports as they were before streaming: the reference ------------------------


def old_flat(row):
    data = row.as_dict()
    return {column: data[column] for column in SCORE_COLUMNS}


def old_to_csv(rows):
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=SCORE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        flat = old_flat(row)
        writer.writerow({k: four_decimals(v) if k in SCORE_FIELDS else v for k, v in flat.items()})
    return out.getvalue()


def old_to_json(rows):
    conventions = sorted({(r.weight_convention, r.average_rounding) for r in rows})
    document = {
        "conventions": [{"weight": w, "average_rounding": a} for w, a in conventions],
        "rows": [old_flat(row) for row in rows],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def old_to_duc(rows):
    ordered = sorted(rows, key=lambda row: (row.collection, row.docset, row.annotator, row.peer))
    lines = [
        "\t".join(
            [
                row.docset,
                row.peer,
                nist_decimals(row.scores.modified),
                str(row.scores.unique_scus),
                str(row.scores.repetitions),
                *([row.annotator] if row.annotator else []),
                *(["#in_progress"] if row.status != SUBMITTED else []),
            ]
        )
        for row in ordered
    ]
    return "".join(line + "\n" for line in lines)


def old_systems_to_csv(means, rows=(), per="docset"):
    weights = " ".join(sorted({r.weight_convention for r in rows}))
    roundings = " ".join(sorted({r.average_rounding for r in rows}))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*SYSTEM_COLUMNS, "weight_convention", "average_rounding", "mean_per"])
    for mean in means:
        scores = (four_decimals(getattr(mean, c)) for c in SYSTEM_COLUMNS[3:])
        writer.writerow(
            [mean.peer, mean.docsets, mean.in_progress, *scores, weights, roundings, per]
        )
    return out.getvalue()


def old_systems_to_json(means, rows=(), per="docset"):
    conventions = sorted({(r.weight_convention, r.average_rounding) for r in rows})
    document = {
        "conventions": [{"weight": w, "average_rounding": a} for w, a in conventions],
        "systems": [
            {**{column: getattr(mean, column) for column in SYSTEM_COLUMNS}, "mean_per": per}
            for mean in means
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


OLD = {"csv": old_to_csv, "json": old_to_json, "duc": old_to_duc}


# -- a collection: several docsets, peers named "1", "10", "2", "A", "b", work in progress ----

PEERS = ["1", "10", "2", "A", "b"]


def add_docset(mix: Collection, name: str) -> Docset:
    """The fixture's docset imported again and moved into `mix` under another name."""
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="staging")
    docset = Docset.objects.get(collection__name="staging")
    Docset.objects.filter(pk=docset.pk).update(collection=mix, name=name)
    Collection.objects.filter(name="staging").delete()
    return docset


def annotate(docset: Docset, author: str, pses: list, **fields) -> PeerAnnotation:
    """A peer of `docset` (its text long: exports must never fetch it) annotated with the first
    PSEs' SCUs of the fixture's annotation."""
    peer, _ = Summary.objects.get_or_create(
        docset=docset, kind="peer", author=author, defaults={"text": "words " * 2000}
    )
    annotation = PeerAnnotation.objects.create(
        pyramid=docset.pyramids.get(), peer=peer, **{"status": SUBMITTED, **fields}
    )
    PSE.objects.bulk_create(
        PSE(annotation=annotation, scu_id=scu, position=i) for i, scu in enumerate(pses)
    )
    return annotation


# The names a score table sorts by, and the width of their columns.
NAMED_COLUMNS = [
    ("annotator_collection", "name", 200),
    ("annotator_docset", "name", 100),
    ("annotator_summary", "author", 100),
    ("annotator_peerannotation", "annotator_code", 100),
    ("auth_user", "username", 150),
]


@pytest.fixture
def linguistic():
    """On PostgreSQL, the names compared as English does (ICU: "b" before "D", "d9900" before
    "D9902"), as a database created with such a locale compares them, for this test only (DDL is
    undone with the test's transaction): NIST's order must not depend on the database's
    collation. (The test server's own, C.UTF-8, is the code points' order already.)"""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for table, column, width in NAMED_COLUMNS:
                cursor.execute(
                    f'ALTER TABLE "{table}" ALTER COLUMN "{column}" '
                    f'TYPE varchar({width}) COLLATE "en-x-icu"'
                )


@pytest.fixture
def mixed(linguistic):
    """Collection "Mix": docsets D9901 (imported), D9902 and d9900 ("d" after "D" by code points,
    before it in most locales' collations), each with the imported peer "7" (annotator "100") and
    peers 1, 10, 2, A, b scored differently; peer 2 also annotated by a user with no annotator code
    ("zed") and by "H" in progress; peer "b" by "a1", in progress. And a second collection "extra"
    ("e" after "M" by code points) with one docset."""
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="Mix")
    mix = Collection.objects.get(name="Mix")
    zed = get_user_model().objects.create_user("zed", password="zed-pass-1")
    fixture_pses = list(PeerAnnotation.objects.get().pses.values_list("scu_id", flat=True))
    docsets = [mix.docsets.get(), add_docset(mix, "D9902"), add_docset(mix, "d9900")]
    for d, docset in enumerate(docsets):
        scus = list(docset.pyramids.get().scus.order_by("uid").values_list("id", flat=True))
        by_uid = dict(zip(sorted(set(fixture_pses) - {None}), scus, strict=False))
        pses = [by_uid.get(scu) for scu in fixture_pses]
        for p, author in enumerate(PEERS):
            annotate(docset, author, pses[: (p + d) % 5], annotator_code=f"{100 + p % 2}")
        annotate(docset, "2", pses[1:], annotator=zed)
        annotate(docset, "2", pses[:2], annotator_code="H", status="in_progress")
        annotate(docset, "b", pses, annotator_code="a1", status="in_progress")
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="extra")
    return mix


def counted_of(collection, include_in_progress=False):
    return counted_annotations(
        collection_annotations(collection), include_in_progress=include_in_progress
    )


def joined(chunks) -> str:
    return "".join(chunks)


# -- the same bytes --------------------------------------------------------------------------------


@pytest.mark.parametrize("include_in_progress", [False, True])
@pytest.mark.parametrize("fmt", ["csv", "json", "duc"])
def test_streamed_exports_are_the_whole_strings_byte_for_byte(mixed, fmt, include_in_progress):
    counted = counted_of(mixed, include_in_progress)
    rows = score_annotations(counted)
    assert len(rows) == (27 if include_in_progress else 21)
    expected = OLD[fmt](rows)
    response = rows_download(counted, fmt, "Mix-scores", chunk=2)
    assert b"".join(response.streaming_content).decode() == expected
    assert {"csv": to_csv, "json": to_json, "duc": to_duc}[fmt](rows) == expected
    # NIST's layout is in another order than the table's: the difference is real here.
    assert [r.peer for r in iter_score_rows(counted, "duc")] != [r.peer for r in rows]


def test_over_every_collection_too(mixed):
    everything = PeerAnnotation.objects.all()
    rows = score_annotations(everything)
    assert {r.collection for r in rows} == {"Mix", "extra"}
    for fmt, old in OLD.items():
        response = rows_download(everything, fmt, "all", chunk=4)
        assert b"".join(response.streaming_content).decode() == old(rows)


def test_empty_exports_are_the_whole_strings():
    empty = PeerAnnotation.objects.none()
    for fmt, old in OLD.items():
        assert b"".join(rows_download(empty, fmt, "none").streaming_content).decode() == old([])
    assert joined(stream_json([], [("contributors", "half_up")])).endswith('"rows": []\n}\n')


def test_json_conventions_come_first_from_one_query(mixed):
    counted = counted_of(mixed, include_in_progress=True)
    rows = score_annotations(counted)
    Collection.objects.filter(name="extra").update(average_rounding="floor")
    everything = PeerAnnotation.objects.all()
    with CaptureQueriesContext(connection) as queries:
        conventions = score_conventions(everything)
    assert len(queries) == 1
    assert conventions == conventions_of(score_annotations(everything))
    assert conventions == [("contributors", "floor"), ("contributors", "half_up")]
    stream = stream_json(iter(rows), score_conventions(counted))
    assert next(stream).startswith('{\n  "conventions": [\n    {\n      "weight": "contributors"')


# -- NIST's order from the database ----------------------------------------------------------------


def test_codepoint_order_in_sql_is_pythons_sorted(mixed):
    names = ["1", "10", "2", "A", "b", "B", "a", "Z", "é", "e", "_", "10a"]
    docset = Docset.objects.create(collection=mixed, name="codepoints")
    Summary.objects.bulk_create(
        Summary(docset=docset, kind="model", author=name, text="x") for name in names
    )
    in_sql = list(
        Summary.objects.filter(docset=docset)
        .order_by(_codepoints(F("author")))
        .values_list("author", flat=True)
    )
    assert in_sql == sorted(names)
    assert in_sql[:5] == ["1", "10", "10a", "2", "A"]


def test_duc_order_from_the_database_is_to_ducs_sort(mixed):
    counted = counted_of(mixed, include_in_progress=True)
    in_table_order = score_annotations(counted)
    expected = [r.annotation_id for r in sorted(in_table_order, key=duc_order)]
    streamed = list(iter_score_rows(counted, "duc", chunk=3))
    assert [r.annotation_id for r in streamed] == expected
    assert [r.docset for r in streamed][::9] == ["D9901", "D9902", "d9900"]
    # Within a docset: annotator as the rows name it ("zed", a username), then peer as text.
    first = [(r.annotator, r.peer) for r in streamed if r.docset == "D9901"]
    assert first == sorted(first)
    assert ("zed", "2") in first
    assert [p for a, p in first if a == "100"] == ["1", "2", "7", "b"]
    assert joined(stream_duc(streamed)) == old_to_duc(in_table_order)


def test_an_unknown_order_is_refused(mixed):
    with pytest.raises(ValueError, match="order is one of table, duc, systems"):
        iter_score_rows(PeerAnnotation.objects.all(), "peer")


# -- queries and what they fetch -------------------------------------------------------------------


@pytest.mark.parametrize("order", ["table", "duc", "systems"])
def test_a_constant_number_of_queries_per_chunk(mixed, order):
    six = PeerAnnotation.objects.filter(
        pk__in=list(
            counted_of(mixed).filter(pyramid__docset__name="D9902").values_list("pk", flat=True)[:6]
        )
    )
    for chunk, chunks in [(2, 3), (3, 2), (6, 1), (500, 1)]:
        with CaptureQueriesContext(connection) as queries:
            rows = list(iter_score_rows(six, order, chunk=chunk))
        assert len(rows) == 6
        # One query walks the annotations; each chunk is scored in three (SCU weights, model
        # counts, PSEs).
        assert len(queries) == 1 + 3 * chunks, [q["sql"] for q in queries]


def test_nothing_is_loaded_before_the_first_row_is_asked_for(mixed):
    with CaptureQueriesContext(connection) as queries:
        rows = iter_score_rows(counted_of(mixed), "duc")
        response = rows_download(counted_of(mixed), "csv", "Mix")
    assert len(queries) == 0
    with CaptureQueriesContext(connection) as queries:
        first_block = next(iter(response.streaming_content))
    assert first_block.decode() == ",".join(SCORE_COLUMNS) + "\n"  # the header before any row
    assert len(queries) == 0
    assert next(rows).docset == "D9901"


def test_the_texts_are_never_fetched(mixed):
    with CaptureQueriesContext(connection) as queries:
        rows = list(iter_score_rows(counted_of(mixed), "duc"))
    assert rows
    walk = queries[0]["sql"]
    assert '"annotator_summary"."author"' in walk
    for column in ('"annotator_summary"."text"', '"trailer"', '"start_document_regex"'):
        assert column not in walk
    assert '"description"' not in walk
    assert '"scus_changed"' not in walk
    assert '"password"' not in walk


# -- downloads -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "content_type", "filename"),
    [
        ("csv", "text/csv; charset=utf-8", "Mix_2006-D9901-scores.csv"),
        ("json", "application/json; charset=utf-8", "Mix_2006-D9901-scores.json"),
        ("duc", "text/tab-separated-values; charset=utf-8", "Mix_2006-D9901-scores.txt"),
    ],
)
def test_downloads_stream_with_the_headers_they_had(mixed, fmt, content_type, filename):
    counted = counted_of(mixed)
    response = streaming_download(
        iter_score_rows(counted, "duc" if fmt == "duc" else "table"),
        fmt,
        "Mix 2006:-D9901-scores",
        score_conventions(counted),
    )
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'attachment; filename="{filename}"'
    assert b"".join(response.streaming_content).decode() == OLD[fmt](score_annotations(counted))


@pytest.mark.parametrize("per", ["docset", "annotation"])
@pytest.mark.parametrize("include_in_progress", [False, True])
@pytest.mark.parametrize(
    ("fmt", "old", "new"),
    [("csv", old_systems_to_csv, systems_to_csv), ("json", old_systems_to_json, systems_to_json)],
)
def test_system_downloads_are_the_whole_strings(mixed, fmt, old, new, include_in_progress, per):
    counted = counted_of(mixed, include_in_progress)
    rows = score_annotations(counted)
    means = system_means(rows, per)
    assert any(m.in_progress for m in means) == include_in_progress
    response = system_download(counted, fmt, "Mix-system-scores", chunk=2, per=per)
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Disposition"] == (f'attachment; filename="Mix-system-scores.{fmt}"')
    streamed = b"".join(response.streaming_content).decode()
    assert streamed == old(means, rows, per) == new(means, rows, per)


def test_a_system_download_sends_its_header_before_scoring(mixed):
    response = system_download(counted_of(mixed), "json", "Mix")
    with CaptureQueriesContext(connection) as queries:
        first = next(iter(response.streaming_content)).decode()
    assert len(queries) == 0
    assert first.startswith('{\n  "conventions": [')
    assert first.endswith('"systems": [')
    with pytest.raises(ValueError, match="csv or json"):
        system_download(counted_of(mixed), "duc", "Mix")


def test_streamed_system_means_are_system_means_to_the_last_bit():
    """Many docsets, several annotations of a peer in some, undefined scores: the means kept as
    exact running sums equal `statistics.fmean`'s over the rows kept whole."""
    generator = random.Random(19)
    rows = []
    for docset in range(40):
        for peer in ["1", "10", "2", "A", "b", "x"]:
            for annotator in range(generator.choice([1, 1, 2, 3])):
                scores = {
                    name: (None if generator.random() < 0.1 else generator.random() * 1.3)
                    for name in ("modified", "original", "coverage", "comprehensive")
                }
                rows.append(
                    SimpleNamespace(
                        docset=f"D{docset:04}",
                        peer=peer,
                        annotator=str(annotator),
                        status=generator.choice([SUBMITTED, SUBMITTED, "in_progress"]),
                        scores=SimpleNamespace(**scores),
                    )
                )
    rows.append(  # a peer whose every score is undefined
        SimpleNamespace(
            docset="D9999",
            peer="empty",
            annotator="1",
            status=SUBMITTED,
            scores=SimpleNamespace(modified=None, original=None, coverage=None, comprehensive=None),
        )
    )
    grouped = sorted(rows, key=lambda r: (r.docset, r.peer))
    assert streamed_system_means(grouped) == system_means(rows)


def test_in_blocks_sends_the_first_chunk_at_once_then_blocks():
    chunks = ["head\n", *(f"row {i}\n" for i in range(100))]
    blocks = list(in_blocks(chunks, size=64))
    assert blocks[0] == "head\n"
    assert "".join(blocks) == "".join(chunks)
    assert all(len(b) >= 64 for b in blocks[1:-1])
    assert list(in_blocks([])) == []


def test_a_rows_columns_are_those_of_its_dict(mixed):
    rows = score_annotations(PeerAnnotation.objects.all())
    assert rows
    assert [_flat(row) for row in rows] == [old_flat(row) for row in rows]
    assert all(list(_flat(row)) == SCORE_COLUMNS for row in rows)


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_objects_of_scalars_are_written_as_json_writes_them(level):
    """The JSON rows' own writer, byte for byte json.dumps(indent=2, ensure_ascii=False), on
    every kind of scalar; anything else goes to json itself."""
    scalars = {
        "text": 'D0601 "quoted" \\ back/slash',
        "unicode": "Zoë, Ünïcode — ☃ 😀",
        "controls": "tab\tnewline\nnul\x00bell\x07\u2028",
        "empty": "",
        "none": None,
        "true": True,
        "false": False,
        "zero": 0,
        "negative": -12,
        "big": 10**30,
        "float": 0.1 + 0.2,
        "whole float": 1.0,
        "tiny": 5e-324,
        "huge": 1.7976931348623157e308,
        "negative zero": -0.0,
        "nan": float("nan"),
        "inf": float("inf"),
        "-inf": float("-inf"),
        'quoted "key" é': 1,
    }
    expected = json.dumps(scalars, indent=2, ensure_ascii=False).replace("\n", "\n" + "  " * level)
    assert _nested(scalars, level) == expected
    for other in ({}, {"list": [1, 2]}, {"object": {"a": 1}}, [1, "a"], "text", None):
        expected = json.dumps(other, indent=2, ensure_ascii=False).replace(
            "\n", "\n" + "  " * level
        )
        assert _nested(other, level) == expected
