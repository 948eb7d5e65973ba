"""annotator.transfer.archive: a collection written to one file and restored, under a new name,
record for record; and archives that are wrong refused with what is wrong, nothing stored."""

import io
import json
import re
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotator.adjudication import pyramid_consensus
from annotator.models import (
    PSE,
    Collection,
    Judgment,
    JudgmentTask,
    PeerAnnotation,
    PeerAnnotationChange,
    Proposal,
    Pyramid,
    PyramidChange,
    PyramidMerge,
    Unit,
    UnitSet,
)
from annotator.peer_annotation import editing as peer_editing
from annotator.pyramids import editing
from annotator.transfer import archive
from annotator.transfer.archive import TABLES, ArchiveError
from tests.archives import (
    assert_same_records,
    pse_state,
    rich_collection,
    score_rows,
    scu_state,
    written,
)
from tests.helpers import record_counts

pytestmark = pytest.mark.django_db


@pytest.fixture
def rich(pair):
    return rich_collection(pair)


def restored(data: bytes, name="Restored"):
    return archive.restore(io.BytesIO(data), name)


def test_every_record_comes_back_under_new_ids_with_its_references_mapped(rich):
    original = rich["collection"]
    collection, report = restored(written(original))
    assert collection.name == "Restored"
    assert collection.pk != original.pk
    ids = assert_same_records(original, collection)
    # What the fixture promised is there to compare.
    assert len(ids["pyramid_merges"]) == len(ids["annotation_merges"]) == 1
    assert len(ids["annotation_merge_sources"]) == 2
    assert len(ids["peer_scu_comments"]) == 1
    assert len(ids["judgments"]) == 9
    assert len(ids["proposals"]) == 2
    assert ids["pyramid_work_times"]
    assert ids["annotation_work_times"]
    assert PSE.objects.filter(
        annotation__pyramid__docset__collection=collection, suggestion_rank=2
    ).exists()
    assert len(ids["unit_sets"]) == 2
    assert len(ids["units"]) == 5
    assert len(ids["judgment_tasks"]) == 4
    assert len(ids["coverage_judgments"]) == 6
    states = set(
        PyramidChange.objects.filter(pyramid__docset__collection=collection).values_list(
            "state", flat=True
        )
    )
    assert states == {"applied", "undone", "discarded"}
    assert report[0].startswith("Restored Restored: 1 docset, 7 summaries, 4 pyramids")
    assert report[0].endswith(", 2 unit sets (5 units), 4 judgment tasks (6 coverage judgments).")
    assert len(report) == 1  # every user was there


def test_every_score_row_is_the_same(rich):
    original = rich["collection"]
    collection, _ = restored(written(original))
    ids = assert_same_records(original, collection)
    assert score_rows(collection) == score_rows(original, ids)
    assert (
        len(score_rows(collection)) == 4
    )  # the demo's 3 and the annotator's (consensus work: with adjudicated)
    assert sorted((r["annotator"], r["status"]) for r in score_rows(collection)) == [
        ("annotator", "in_progress"),
        *[("demo", "submitted")] * 3,
    ]  # statuses restored as they were


def test_provenance_points_into_the_restored_collection_where_a_source_was_removed_and_restored(
    rich,
):
    collection, _ = restored(written(rich["collection"]))
    consensus = Pyramid.objects.get(docset__collection=collection, merge__isnull=False)
    sources = {scu.label: scu.source for scu in consensus.scus.select_related("source__pyramid")}
    # Its source SCU was removed, then brought back by undo: the provenance came back with it.
    assert sources["Apollo 11 landed on the Moon"].pyramid.docset.collection == collection
    assert sources["Apollo 11 landed on the Moon"].uid == 1
    assert (
        sources["Armstrong and Aldrin walked on the Moon"].pyramid.docset.collection == collection
    )
    assert consensus.merge.source_a.docset.collection == collection
    annotation = PeerAnnotation.objects.get(
        pyramid__docset__collection=collection, merge__isnull=False
    )
    assert {p.source.annotation_id for p in annotation.pses.select_related("source")} <= set(
        annotation.merge.sources.values_list("pk", flat=True)
    )
    decided = annotation.changes.filter(decision__choice__isnull=False).exclude(
        decision__choice__in=["identical", "edited"]
    )
    assert {c.decision["choice"] for c in decided} <= set(
        annotation.merge.sources.values_list("pk", flat=True)
    )


def test_undo_and_redo_go_on_after_a_restore_as_they_would_have(rich):
    collection, _ = restored(written(rich["collection"]))
    for original_pk in (rich["consensus"].pk, rich["a"].pk):
        original = Pyramid.objects.get(pk=original_pk)
        copy = Pyramid.objects.get(docset__collection=collection, name=original.name)
        user = rich["demo"]["admin"]
        for step in ("undo", "undo", "redo"):
            getattr(editing, step)(original.pk, user, Pyramid.objects.get(pk=original.pk).version)
            getattr(editing, step)(copy.pk, user, Pyramid.objects.get(pk=copy.pk).version)
            assert scu_state(copy.pk) == scu_state(original.pk), (original.name, step)
    # The annotation's redo brings back a PSE only its history held, under the id kept for it.
    mine = rich["mine"]
    copy = PeerAnnotation.objects.get(
        pyramid__docset__collection=collection, annotator=mine.annotator, merge__isnull=True
    )
    for pk in (mine.pk, copy.pk):
        peer_editing.redo(pk, rich["demo"]["admin"], PeerAnnotation.objects.get(pk=pk).version)
    assert pse_state(copy.pk) == pse_state(mine.pk)
    assert len(pse_state(copy.pk)) == 2
    brought_back = PeerAnnotationChange.objects.filter(annotation=copy).latest("id").after
    assert {p["id"] for p in brought_back["pses"]} <= set(copy.pses.values_list("pk", flat=True))
    assert brought_back["pses"]  # the PSE only history held, under the id kept for it
    peer_editing.undo(
        copy.pk, rich["demo"]["admin"], PeerAnnotation.objects.get(pk=copy.pk).version
    )
    assert len(pse_state(copy.pk)) == 1


def test_a_restored_pyramid_keeps_its_last_number_and_its_snapshots_ids_point_at_its_records(
    rich,
):
    """Format 6 (issue 32): a pyramid's last_uid comes back (no number given twice after a
    restore), and the contributor and part ids its history's snapshots hold are the restored
    records' (undo brings them back under their ids), never the original's."""
    from annotator.models import Contributor, PyramidChange, Span

    collection, _ = restored(written(rich["collection"]))
    for original in Pyramid.objects.exclude(docset__collection=collection):
        copy = Pyramid.objects.get(docset__collection=collection, name=original.name)
        assert copy.last_uid == original.last_uid
        mine = set(Contributor.objects.filter(scu__pyramid=copy).values_list("pk", flat=True))
        my_spans = set(
            Span.objects.filter(contributor__scu__pyramid=copy).values_list("pk", flat=True)
        )
        theirs = set(Contributor.objects.exclude(scu__pyramid=copy).values_list("pk", flat=True))
        for change in PyramidChange.objects.filter(pyramid=copy):
            for state in (change.before, change.after):
                for scu in state["scus"].values():
                    for contributor in (scu or {}).get("contributors", []):
                        if "id" in contributor:
                            assert contributor["id"] not in theirs
                            assert set(contributor.get("span_ids", [])) - my_spans == set()
                            assert contributor["id"] in mine or contributor["id"] not in theirs


def test_restoring_twice_into_an_instance_holding_both_keeps_them_apart(rich):
    data = written(rich["collection"])
    first, _ = restored(data, "First")
    second, _ = restored(data, "Second")
    assert_same_records(first, second)
    ids = lambda c: set(
        PSE.objects.filter(annotation__pyramid__docset__collection=c).values_list("pk", flat=True)
    )  # noqa: E731
    assert not ids(first) & ids(second)


def test_writing_takes_a_query_or_two_per_table_whatever_the_size(rich):
    with CaptureQueriesContext(connection) as queries:
        written(rich["collection"])
    assert len(queries) <= 2 * len(TABLES) + 5


def test_reading_goes_in_batches_not_a_query_per_record(rich):
    data = written(rich["collection"])
    with CaptureQueriesContext(connection) as queries:
        restored(data)
    records = sum(
        json.loads(zipfile.ZipFile(io.BytesIO(data)).read("archive.json"))["counts"].values()
    )
    assert records > 150
    assert len(queries) < 4 * len(TABLES) + 15


def test_missing_users_are_made_inactive_without_a_password_and_reported(rich):
    data = written(rich["collection"])
    get_user_model().objects.filter(username="adjudicator").update(username="adjudicator-renamed")
    collection, report = restored(data)
    made = get_user_model().objects.get(username="adjudicator")
    assert not made.is_active
    assert not made.has_usable_password()
    assert report[1].startswith(
        "Created 1 inactive account, without a password, for users this instance did not have: "
        "adjudicator."
    )
    assert collection.memberships.filter(user=made, role="adjudicator").exists()
    assert (
        Pyramid.objects.get(docset__collection=collection, merge__isnull=False).created_by == made
    )


def test_the_archive_is_a_zip_of_a_header_and_one_json_lines_file_per_table(rich):
    with zipfile.ZipFile(io.BytesIO(written(rich["collection"]))) as files:
        header = json.loads(files.read("archive.json"))
        assert header["format"] == "pyramid-annotator-archive"
        assert header["version"] == archive.FORMAT_VERSION == 6
        assert header["collection"]["weight_convention"] == "models"
        assert header["collection"]["average_rounding"] == "floor"
        assert header["users"] == [
            "adjudicator",
            "admin",
            "annotator",
            "organizer",
            "other_annotator",
            "outsider",
        ]
        assert sorted(files.namelist()) == sorted(
            ["archive.json", *(f"{t.name}.jsonl" for t in TABLES)]
        )
        first = json.loads(files.read("memberships.jsonl").splitlines()[0])
        assert set(first) == {"id", "role", "added_at", "user"}
        assert isinstance(first["user"], str)


def test_every_foreign_key_of_every_archived_model_is_mapped():
    for table in TABLES:
        relations = {f.name for f in table.model._meta.concrete_fields if f.is_relation}
        assert relations == set(table.refs) | (
            {"collection"} if table.scope == "collection" else set()
        ), table.name


# -- refused, nothing changed ----------------------------------------------------------------------


def rewritten(data: bytes, file: str, change) -> bytes:
    """The archive with one file's text changed by `change(text) -> text`."""
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            text = source.read(name).decode()
            target.writestr(name, change(text) if name == file else text)
    return out.getvalue()


def line_changed(number: int, **fields):
    def change(text):
        lines = text.splitlines()
        row = {**json.loads(lines[number - 1]), **fields}
        lines[number - 1] = json.dumps(
            {name: value for name, value in row.items() if value is not ...}
        )  # ...: left out
        return "\n".join(lines) + "\n"

    return change


def refused(data: bytes, name="Restored") -> str:
    before = record_counts()
    with pytest.raises(ArchiveError) as problem:
        restored(data, name)
    assert record_counts() == before
    assert not Collection.objects.filter(name=name).exists()
    return str(problem.value)


@pytest.mark.parametrize(
    ("file", "change", "message"),
    [
        ("spans.jsonl", line_changed(2, end=10_000), "spans.jsonl line 2: field 'end': the span"),
        (
            "scus.jsonl",
            line_changed(3, pyramid=999_999),
            "scus.jsonl line 3: field 'pyramid': no record 999999 in pyramids.jsonl",
        ),
        (
            "summaries.jsonl",
            line_changed(1, kind="essay"),
            "summaries.jsonl line 1: field 'kind': 'essay' is not one of model, peer",
        ),
        (
            "pses.jsonl",
            line_changed(1, position="first"),
            "pses.jsonl line 1: field 'position': 'first' is not of the right type",
        ),
        (
            "pyramids.jsonl",
            line_changed(1, created_by="nobody"),
            "pyramids.jsonl line 1: field 'created_by': user 'nobody' is not",
        ),
        (
            "docsets.jsonl",
            line_changed(1, colour="red"),
            "docsets.jsonl line 1: unknown field 'colour'",
        ),
        (
            "scus.jsonl",
            line_changed(1, label=None),
            "scus.jsonl line 1: field 'label' may not be null",
        ),
        ("scus.jsonl", line_changed(2, label=...), "scus.jsonl line 2: field 'label' is missing"),
        ("pse_spans.jsonl", lambda text: text + "{not json\n", "pse_spans.jsonl line "),
        (
            "judgments.jsonl",
            lambda text: "\n".join(text.splitlines()[:-1]) + "\n",
            "judgments.jsonl: 8 records, but archive.json counts 9",
        ),
        (
            "pyramid_changes.jsonl",
            line_changed(2, before={"scus": {"1": {"label": "x"}}, "order": []}),
            "pyramid_changes.jsonl line 2: field 'before': not a pyramid snapshot",
        ),
        (
            "archive.json",
            lambda text: text.replace('"version": 6', '"version": 7'),
            "archive.json: unknown format version 7; this instance reads versions 1 to 6.",
        ),
        (
            "archive.json",
            lambda text: text.replace('"format": "pyramid-annotator-archive"', '"format": "other"'),
            "archive.json: not a collection archive",
        ),
    ],
)
def test_a_malformed_archive_is_refused_naming_what_is_wrong(rich, file, change, message):
    assert refused(rewritten(written(rich["collection"]), file, change)).startswith(message)


def test_a_consensus_of_three_pyramids_comes_back_with_its_third_source(trio):
    consensus = pyramid_consensus.start_many([trio["a"], trio["b"], trio["c"]], trio["adjudicator"])
    original = Collection.objects.get(pk=trio["demo"]["collection"].pk)
    collection, _ = restored(written(original))
    ids = assert_same_records(original, collection)
    assert len(ids["pyramid_merge_sources"]) == 1
    merge = PyramidMerge.objects.get(consensus_id=ids["pyramids"][consensus.pk])
    assert [(side, p.name, p.docset.collection_id) for side, p in merge.sides()] == [
        ("a", "by-annotator", collection.pk),
        ("b", "by-other", collection.pk),
        ("c", "by-third", collection.pk),
    ]


def test_an_archive_of_version_1_without_the_merges_of_more_than_two_pyramids_is_read(demo):
    source = zipfile.ZipFile(io.BytesIO(written(demo["collection"])))
    older = io.BytesIO()
    with zipfile.ZipFile(older, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name == "pyramid_merge_sources.jsonl":
                continue  # version 1 had no such table
            if name == "archive.json":
                header = json.loads(data)
                header["counts"].pop("pyramid_merge_sources", None)
                data = json.dumps({**header, "version": 1}).encode()
            target.writestr(name, data)
    collection, _ = restored(older.getvalue())
    assert (
        Pyramid.objects.filter(docset__collection=collection).count()
        == Pyramid.objects.filter(docset__collection=demo["collection"]).count()
    )


def older(data: bytes, version: int) -> bytes:
    """The archive as an instance of that format version wrote it: without the tables added
    since (archive.ADDED_IN)."""
    added = {name for name, since in archive.ADDED_IN.items() if since > version}
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name.removesuffix(".jsonl") in added:
                continue
            if name == "archive.json":
                header = json.loads(data)
                for table in added:
                    header["counts"].pop(table)
                data = json.dumps({**header, "version": version}).encode()
            target.writestr(name, data)
    return out.getvalue()


def test_an_archive_of_version_3_without_proposals_and_time_on_task_is_read(rich):
    collection, _ = restored(older(written(rich["collection"]), 3))
    assert not Proposal.objects.filter(annotation__pyramid__docset__collection=collection).exists()
    assert (
        PeerAnnotation.objects.filter(pyramid__docset__collection=collection).count()
        == PeerAnnotation.objects.filter(pyramid__docset__collection=rich["collection"]).count()
    )


def coverage(collection) -> dict[str, list[tuple]]:
    """The collection's coverage records as the models read them, every link followed to what it
    names (and checked to stay within the collection)."""
    unit_sets = UnitSet.objects.filter(docset__collection=collection).order_by("name")
    assert {u.pyramid.docset.collection for u in unit_sets if u.pyramid} == {collection}
    units = Unit.objects.filter(unit_set__docset__collection=collection).order_by("pk")
    assert {u.model.docset.collection for u in units if u.model} == {collection}
    assert {u.scu.pyramid.docset.collection for u in units if u.scu} == {collection}
    return {
        "unit_sets": list(
            unit_sets.values_list(
                "name",
                "method",
                "scale",
                "source",
                "pyramid__name",
                "source_name",
                "version",
                "created_at",
            )
        ),
        "units": list(
            units.values_list(
                "unit_set__name",
                "position",
                "text",
                "model__author",
                "start",
                "end",
                "scu__uid",
                "scu__pyramid__name",
                "weight",
                "external_id",
            )
        ),
        "tasks": list(
            JudgmentTask.objects.filter(unit_set__docset__collection=collection)
            .order_by("pk")
            .values_list(
                "unit_set__name",
                "peer__author",
                "judge__username",
                "judge_code",
                "status",
                "withdrawn",
                "assigned_by__username",
                "version",
                "created_at",
                "updated_at",
            )
        ),
        "judgments": list(
            Judgment.objects.filter(task__unit_set__docset__collection=collection)
            .order_by("pk")
            .values_list(
                "task__judge__username",
                "task__judge_code",
                "task__peer__author",
                "unit__unit_set__name",
                "unit__position",
                "value",
                "sentences",
                "seconds",
                "updated_at",
            )
        ),
    }


def test_coverage_judgments_come_back_as_they_were(rich):
    original = rich["collection"]
    collection, _ = restored(written(original))
    assert coverage(collection) == coverage(original)
    records = coverage(collection)
    # What the fixture made is there to compare.
    assert records["unit_sets"][0][:7] == (
        "Lite Pyramid",
        "presence",
        "present_absent",
        "pyramid",
        "DEMO01",
        "apollo.pyr",
        3,
    )
    assert records["units"][1][-2:] == (3, "u1")
    assert records["units"][3][3:6] == ("A", 0, len(records["units"][3][2]))
    assert records["tasks"][1][2:8] == (None, "crowd 1", "in_progress", False, None, 1)
    assert records["tasks"][3][5:7] == (True, "organizer")
    value, sentences, seconds = records["judgments"][4][5:8]
    assert (value, seconds) == (3.0, 9.5)
    assert len(sentences) == 2  # the peer's sentences marked


@pytest.mark.parametrize(
    ("file", "change", "message"),
    [
        (
            "units.jsonl",
            line_changed(4, end=10**6),
            "units.jsonl line 4: field 'end': the span 0-1000000 is not within its model's text",
        ),
        (
            "coverage_judgments.jsonl",
            line_changed(1, value=0.5),
            "coverage_judgments.jsonl line 1: field 'value': 0.5 is not an answer on its unit "
            "set's scale (1, 0)",
        ),
        (
            "coverage_judgments.jsonl",
            line_changed(6, unit=999_999_999),
            "coverage_judgments.jsonl line 6: field 'unit': no record 999999999 in units.jsonl",
        ),
        (
            "coverage_judgments.jsonl",
            line_changed(5, sentences=[[0, 10**6]]),
            "coverage_judgments.jsonl line 5: field 'sentences': not [start, end] spans within",
        ),
        (
            "judgment_tasks.jsonl",
            line_changed(1, judge="nobody"),
            "judgment_tasks.jsonl line 1: field 'judge': user 'nobody' is not",
        ),
        (
            "unit_sets.jsonl",
            line_changed(1, scale="stars"),
            "unit_sets.jsonl line 1: field 'scale': 'stars' is not one of",
        ),
    ],
)
def test_coverage_records_that_are_wrong_are_refused(rich, file, change, message):
    assert refused(rewritten(written(rich["collection"]), file, change)).startswith(message)


def test_a_judgment_of_a_unit_of_another_unit_set_is_refused(rich):
    data = written(rich["collection"])
    lines = zipfile.ZipFile(io.BytesIO(data)).read("units.jsonl").decode().splitlines()
    see_unit = json.loads(lines[-1])["id"]  # the SEE set's; line 1 judges a presence unit
    message = refused(rewritten(data, "coverage_judgments.jsonl", line_changed(1, unit=see_unit)))
    assert message == (
        f"coverage_judgments.jsonl line 1: field 'unit': unit {see_unit} is not of its task's "
        "unit set"
    )


def test_an_archive_of_version_4_without_coverage_judgments_is_read(rich):
    collection, report = restored(older(written(rich["collection"]), 4))
    assert not UnitSet.objects.filter(docset__collection=collection).exists()
    assert not JudgmentTask.objects.filter(unit_set__docset__collection=collection).exists()
    assert report[0].endswith("human judgments.")  # no coverage judgments to name
    assert Proposal.objects.filter(annotation__pyramid__docset__collection=collection).count() == 2


def test_a_proposal_beyond_its_peer_text_is_refused(rich):
    data = rewritten(written(rich["collection"]), "proposals.jsonl", line_changed(1, end=10**6))
    with pytest.raises(ArchiveError, match=r"proposals.jsonl line 1: field 'end'"):
        restored(data)
    assert not Collection.objects.filter(name="Restored").exists()


def test_a_field_an_older_archive_lacks_takes_its_default(demo):
    data = rewritten(written(demo["collection"]), "scus.jsonl", line_changed(1, comment=...))
    collection, _ = restored(data)
    assert [
        scu.comment
        for scu in Pyramid.objects.get(docset__collection=collection).scus.order_by("id")
    ][0] == ""


def test_a_file_missing_or_added_or_not_a_zip_is_refused(rich):
    data = written(rich["collection"])
    source, out = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            if name != "scus.jsonl":
                target.writestr(name, source.read(name))
        target.writestr("notes.txt", "hello")
    assert refused(out.getvalue()) == "Unexpected file in the archive: notes.txt."
    assert refused(b"PK not really").startswith("Not a collection archive: not a zip file")
    empty = io.BytesIO()
    zipfile.ZipFile(empty, "w").close()
    assert refused(empty.getvalue()) == "Not a collection archive: it holds no archive.json."


def test_a_name_in_use_is_refused_and_another_is_accepted(rich):
    data = written(rich["collection"])
    name = rich["collection"].name
    assert (
        refused(data, name=None)
        == f"A collection named {name!r} exists already: restore this archive under another name."
    )
    assert restored(data, "Apollo again")[0].name == "Apollo again"


def _page(client, url, names):
    html = client.get(url).content.decode()
    for old, new in names:
        html = html.replace(old, new)
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    # Ids: in links, element ids and the attributes naming records; positions and uids stay
    # compared.
    html = re.sub(ID_ATTRIBUTES, lambda m: m.group(1) + re.sub(r"\d+", "N", m.group(2)) + '"', html)
    return re.sub(r"/\d+/", "/N/", html)


ID_ATTRIBUTES = re.compile(
    r"(\s(?:id|for|href|action|hx-[a-z]+|aria-[a-z]+|data-(?:summary|pse|span|contributor|annotation"
    r'|pyramid|peer|source|id|url|key|assignment)[\w-]*)=")([^"]*)"'
)


def test_the_pages_of_the_restored_collection_read_as_the_original_s_but_for_ids(client, rich):
    original = rich["collection"]
    collection, _ = restored(written(original), "Restored")
    ids = assert_same_records(original, collection)
    client.force_login(rich["demo"]["admin"])
    names = [(original.name, "COLLECTION"), ("Restored", "COLLECTION")]
    for name in ("collection-detail", "collection-progress", "collection-scores"):
        urls = [reverse(name, args=[c.pk]) for c in (original, collection)]
        assert _page(client, urls[0], names) == _page(client, urls[1], names), name
    consensus, peer = rich["consensus"].pk, rich["mine"].peer_id
    for name, args in [
        ("pyramid-merge", [consensus]),
        ("peer-comparison", [rich["demo"]["pyramid"].pk, peer]),
    ]:
        mapped = [ids["pyramids"][args[0]], *([ids["summaries"][peer]] if len(args) > 1 else [])]
        assert _page(client, reverse(name, args=args), names) == _page(
            client, reverse(name, args=mapped), names
        ), name
    for name, table in [
        ("docset-detail", "docsets"),
        ("pyramid-detail", "pyramids"),
        ("pyramid-history", "pyramids"),
        ("annotation-detail", "peer_annotations"),
        ("annotation-history", "peer_annotations"),
    ]:
        for old, new in ids[table].items():
            assert _page(client, reverse(name, args=[old]), names) == _page(
                client, reverse(name, args=[new]), names
            ), (name, old)
