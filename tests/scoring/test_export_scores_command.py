"""export_scores: the formats, the docset filter, the number of queries, and the same bytes
streamed as written whole."""

import csv
import io
import json

import pytest
from django.core.management import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.models import Collection
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import import_files, run
from tests.scoring import test_score_exports

pytestmark = pytest.mark.django_db

# The streaming tests' collection (several docsets, mixed peer ids, work in progress) and their
# reference: the whole-string exports as they were.
linguistic, mixed = test_score_exports.linguistic, test_score_exports.mixed
OLD = test_score_exports.OLD


@pytest.fixture
def fixture_collection():
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="Fixtures")
    return Collection.objects.get(name="Fixtures")


def test_duc_format_has_nists_columns(fixture_collection):
    out, err = run("export_scores", collection="Fixtures", format="duc")
    # setid peerid modifiedscore numSCUs numrepetitions annotator: 5 / 6 with X_a = round(8 / 3) = 3
    assert out == "D9901\t7\t0.8333\t2\t1\t100\n"
    assert "SCU weight = contributors, X_a rounding = half_up" in err


def test_the_duc_format_writes_peer_ids_as_the_source_wrote_them(tmp_path):
    """Issue 33: DUC 2006's D0647 names systems 01..08 (the same systems as 1..8: one peer each);
    NIST's table writes them so, in that order ("01" < "10" < "2" as text), and so must ours for a
    clean diff. An export and import keeps the spelling (its note and file name)."""
    from tests.helpers import write

    data = PAN_FIXTURE.read_bytes()
    pans = [write(tmp_path, f"100.D9901.M.100.A.{peer}.pan", data) for peer in ("01", "10", "2")]
    import_files(PYRAMID_FIXTURE, *pans, collection="Fixtures")
    out, _ = run("export_scores", collection="Fixtures", format="duc")
    assert [line.split("\t")[1] for line in out.splitlines()] == ["01", "10", "2"]
    csv_out, _ = run("export_scores", collection="Fixtures", format="csv")
    assert [row["peer"] for row in csv.DictReader(io.StringIO(csv_out))] == ["1", "10", "2"]
    run("export_ducview", collection="Fixtures", out=str(tmp_path / "out"))
    import_files(tmp_path / "out", collection="Again")
    again, _ = run("export_scores", collection="Again", format="duc")
    assert again == out


NIST_TABLES = {"duc2006-nist": "2006", "duc2007-main-nist": "2007", "duc2007-update-nist": "2007"}


@pytest.mark.shared_data
@pytest.mark.parametrize("folder", sorted(NIST_TABLES))
def test_duc_format_diffs_empty_against_nists_table(shared_data, folder):
    """`export_scores --format duc` against NIST's official table, line by line, for the rows of the
    .pan files shared here: NIST's numbers (0.046, 0), NIST's order (a docset's rows by annotator,
    then peer id as text), NIST's first columns (the 2007 main table has no annotator column)."""
    import_files(shared_data / folder, collection=folder)
    ours = run("export_scores", collection=folder, format="duc")[0].splitlines()
    columns = 5 if folder == "duc2007-main-nist" else 6
    assert all(
        len(line.split("\t")) == columns for line in ours
    )  # no empty annotator column for 2007 main
    table = (
        shared_data / folder / "scoring" / f"{NIST_TABLES[folder]}_modified_scores.txt"
    ).read_text()
    keys = {tuple(line.split("\t")[:2] + line.split("\t")[5:columns]) for line in ours}
    theirs = [
        "\t".join(fields[:columns])
        for fields in (line.split("\t") for line in table.splitlines())
        if tuple(fields[:2] + fields[5:columns]) in keys
    ]
    assert len(ours) == len(list((shared_data / folder / "allpans").glob("*.pan")))
    assert ours == theirs
    assert (
        any("\t0.046\t" in line for line in ours) or folder != "duc2006-nist"
    )  # D0601 peer 14: 4 / 87
    # DUCView imports are submitted work: asking for work in progress too changes nothing
    # (issue 17).
    assert (
        run("export_scores", "--include-in-progress", collection=folder, format="duc")[
            0
        ].splitlines()
        == ours
    )


def test_fractional_x_a_in_csv_and_json(fixture_collection):
    """X_a = 8 / 3 left fractional (PyrEval v2): Max = 3 + 2 + 2/3 of 1,
    modified 5 / (17/3) = 15/17."""
    fixture_collection.average_rounding = "fractional"
    fixture_collection.save()
    out, err = run("export_scores", collection="Fixtures", format="csv")
    assert "X_a rounding = fractional" in err
    (row,) = csv.DictReader(io.StringIO(out))
    assert row["average_rounding"] == "fractional"
    assert row["modified"] == f"{15 / 17:.4f}"
    assert float(row["average_scu_count"]) == pytest.approx(8 / 3)
    assert float(row["max_modified"]) == pytest.approx(17 / 3)
    document = json.loads(run("export_scores", collection="Fixtures", format="json")[0])
    assert document["conventions"] == [{"weight": "contributors", "average_rounding": "fractional"}]
    assert document["rows"][0]["average_scu_count"] == pytest.approx(8 / 3)
    assert (
        run("export_scores", collection="Fixtures", format="duc")[0]
        == "D9901\t7\t0.8824\t2\t1\t100\n"
    )


def test_csv_has_every_score_and_count(fixture_collection):
    out, _ = run("export_scores", collection="Fixtures", format="csv")
    (row,) = csv.DictReader(io.StringIO(out))
    assert row["modified"] == "0.8333"
    assert row["original"] == "0.7143"
    assert row["quality"] == "0.7143"
    assert row["coverage"] == "0.8333"
    assert row["comprehensive"] == "0.7692"
    assert (row["unique_scus"], row["repetitions"], row["non_matching"], row["pse_count"]) == (
        "2",
        "1",
        "1",
        "4",
    )
    assert (
        row["raw_score"],
        row["average_scu_count"],
        row["max_modified"],
        row["max_original"],
    ) == ("5", "3", "6", "7")
    assert (row["weight_convention"], row["average_rounding"]) == ("contributors", "half_up")


def test_json_says_which_conventions_were_used(fixture_collection):
    fixture_collection.average_rounding = "floor"
    fixture_collection.save()
    document = json.loads(run("export_scores", collection="Fixtures", format="json")[0])
    assert document["conventions"] == [{"weight": "contributors", "average_rounding": "floor"}]
    (row,) = document["rows"]
    assert row["average_scu_count"] == 2
    assert row["modified"] == 1.0


def test_out_writes_a_file(fixture_collection, tmp_path):
    target = tmp_path / "scores.csv"
    _, err = run("export_scores", collection="Fixtures", out=str(target))
    assert "1 row written" in err
    assert "rows" not in err
    assert target.read_text().startswith("collection,docset,peer")


def test_docset_filter(fixture_collection):
    assert (
        run("export_scores", collection="Fixtures", docset="D9901", format="duc")[0].count("\n")
        == 1
    )
    with pytest.raises(CommandError, match="has no docset 'D0000'"):
        run("export_scores", collection="Fixtures", docset="D0000")


def test_unknown_collection_lists_the_known_ones(fixture_collection):
    with pytest.raises(CommandError, match="known: Fixtures"):
        run("export_scores", collection="DUC 1999")


def test_queries_do_not_grow_with_peers(fixture_collection, tmp_path):
    with CaptureQueriesContext(connection) as one_peer:
        run("export_scores", collection="Fixtures", format="csv")
    # Nine more peer annotations of the same pyramid, by other annotators.
    for annotator in range(1, 10):
        import_files(PAN_FIXTURE, collection="Fixtures", annotator=f"a{annotator}")
    with CaptureQueriesContext(connection) as ten_peers:
        out, _ = run("export_scores", collection="Fixtures", format="csv")
    assert out.count("\n") == 11
    assert len(ten_peers) == len(one_peer)


def test_adjudicated_keeps_the_consensus_pyramids_annotations(pair):
    from tests.helpers import annotated_whole, submitted_consensus

    demo = pair["demo"]
    consensus = submitted_consensus(pair, "b")
    annotated_whole(
        consensus, demo["annotations"]["2"].peer, "adjudicated", demo["admin"], complete=True
    )
    everything, _ = run("export_scores", collection=demo["collection"].name)
    adjudicated, _ = run("export_scores", "--adjudicated", collection=demo["collection"].name)
    # Without --adjudicated consensus work is left out: the demo's three annotations, not the
    # fourth.
    assert len(everything.splitlines()) == 4
    assert "adjudicated" not in everything
    assert len(adjudicated.splitlines()) == 2  # header and one row
    assert "adjudicated" in adjudicated.splitlines()[1]


# -- work in progress (issue 17) -----------------------------------------------------------------


@pytest.fixture
def one_in_progress(fixture_collection):
    """The fixture's annotation (annotator 100, submitted, as every DUCView import) and the same
    file imported as annotator "a1", whose annotation is then reopened: in progress."""
    from annotator.models import PeerAnnotation

    import_files(PAN_FIXTURE, collection="Fixtures", annotator="a1")
    PeerAnnotation.objects.filter(annotator_code="a1").update(
        status=PeerAnnotation.Status.IN_PROGRESS
    )
    return fixture_collection


def test_work_in_progress_is_left_out_and_the_count_said(one_in_progress):
    """It was exported with nothing to mark it (issue 17): now only submitted work, and stderr says
    what was left out."""
    out, err = run("export_scores", collection="Fixtures", format="duc")
    assert out == "D9901\t7\t0.8333\t2\t1\t100\n"  # NIST's layout, as before
    left_out = (
        "1 submitted annotation counted; 1 in progress not counted "
        "(--include-in-progress counts them)"
    )
    assert left_out in err
    (row,) = csv.DictReader(
        io.StringIO(run("export_scores", collection="Fixtures", format="csv")[0])
    )
    assert (row["annotator"], row["status"]) == ("100", "submitted")
    assert [
        r["status"]
        for r in json.loads(run("export_scores", collection="Fixtures", format="json")[0])["rows"]
    ] == ["submitted"]


def test_include_in_progress_counts_it_marked_in_every_format(one_in_progress):
    out, err = run("export_scores", "--include-in-progress", collection="Fixtures", format="duc")
    # Submitted rows as NIST's; the row in progress ends with one more field.
    assert out == "D9901\t7\t0.8333\t2\t1\t100\nD9901\t7\t0.8333\t2\t1\ta1\t#in_progress\n"
    assert "1 submitted annotation and 1 in progress (marked) counted" in err
    rows = list(
        csv.DictReader(
            io.StringIO(run("export_scores", "--include-in-progress", collection="Fixtures")[0])
        )
    )
    assert [(r["annotator"], r["status"]) for r in rows] == [
        ("100", "submitted"),
        ("a1", "in_progress"),
    ]
    document = json.loads(
        run("export_scores", "--include-in-progress", collection="Fixtures", format="json")[0]
    )
    assert [(r["annotator"], r["status"]) for r in document["rows"]] == [
        ("100", "submitted"),
        ("a1", "in_progress"),
    ]


def test_without_an_annotator_column_the_mark_is_never_read_as_an_annotator(one_in_progress):
    """NIST's DUC 2007 main table has no annotator column: the mark starts with "#", which no
    annotator id does."""
    from annotator.models import PeerAnnotation

    PeerAnnotation.objects.filter(annotator_code="a1").update(annotator_code="")
    out, _ = run("export_scores", "--include-in-progress", collection="Fixtures", format="duc")
    assert out.splitlines() == [
        "D9901\t7\t0.8333\t2\t1\t#in_progress",
        "D9901\t7\t0.8333\t2\t1\t100",
    ]


def test_adjudicated_and_work_in_progress_together(pair):
    """An annotation in progress against a submitted consensus pyramid replaces nothing by default;
    with --include-in-progress it is counted, marked, and replaces the docset's others."""
    from tests.helpers import annotated_whole, submitted_consensus

    demo = pair["demo"]
    annotated_whole(
        submitted_consensus(pair, "b"), demo["annotations"]["2"].peer, "adjudicated", demo["admin"]
    )
    name = demo["collection"].name
    default = list(
        csv.DictReader(io.StringIO(run("export_scores", "--adjudicated", collection=name)[0]))
    )
    assert [(r["peer"], r["annotator"]) for r in default] == [
        ("1", "demo"),
        ("2", "demo"),
        ("3", "demo"),
    ]
    included = list(
        csv.DictReader(
            io.StringIO(
                run("export_scores", "--adjudicated", "--include-in-progress", collection=name)[0]
            )
        )
    )
    assert [(r["peer"], r["annotator"], r["status"]) for r in included] == [
        ("2", "adjudicated", "in_progress")
    ]


# -- streamed (issue 19) ---------------------------------------------------------------------------


@pytest.mark.parametrize("include", [[], ["--include-in-progress"]])
@pytest.mark.parametrize("fmt", ["csv", "json", "duc"])
def test_streamed_output_is_the_whole_table_byte_for_byte(mixed, fmt, include, tmp_path):
    """Several docsets, peers 1, 10, 2, A, b, a username for an annotator, work in progress: what
    the command writes, to standard output or a file, is what the whole-string exports wrote."""
    from scoring.scores.records import (
        collection_annotations,
        counted_annotations,
        score_annotations,
    )

    rows = score_annotations(
        counted_annotations(collection_annotations(mixed), include_in_progress=bool(include))
    )
    expected = OLD[fmt](rows)
    out, _ = run("export_scores", *include, collection="Mix", format=fmt)
    assert out == expected
    target = tmp_path / f"scores.{fmt}"
    _, err = run("export_scores", *include, collection="Mix", format=fmt, out=str(target))
    assert target.read_text(encoding="utf-8") == expected
    assert f"{len(rows)} rows written to {target}" in err


def test_queries_do_not_grow_with_chunks(fixture_collection):
    """Beyond the rows, the command's queries are fixed: a chunk of 500 annotations more costs
    three (scoring.scores.exports.iter_score_rows; tests/scoring/test_score_exports.py counts
    them)."""
    with CaptureQueriesContext(connection) as queries:
        run("export_scores", collection="Fixtures", format="json")
    walks = [q["sql"] for q in queries if "annotator_summary" in q["sql"]]
    assert len(walks) == 1
    assert '"annotator_summary"."text"' not in walks[0]


# -- coverage judgments (issue 21) ----------------------------------------------------------------


def test_coverage_judgments_as_csv_and_json(demo):
    from tests.scoring.coverage_scores import ROWS, close, coverage_collection

    coverage_collection(demo)
    name = demo["collection"].name
    out, err = run("export_scores", collection=name, scores="coverage-judgments")
    assert "16 submitted judgment tasks counted; 1 in progress not counted" in err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["docset"], r["unit_set"], r["peer"]) for r in rows] == list(ROWS)
    assert rows[0] == {
        "collection": name,
        "docset": "DEMO01",
        "unit_set": "Lite",
        "method": "presence",
        "peer": "1",
        "judges": "2",
        "units": "4",
        "in_progress": "0",
        "presence": "0.5000",
        "presence_weighted": "0.7143",
        "see_coverage": "",
    }
    document = json.loads(
        run("export_scores", collection=name, scores="coverage-judgments", format="json")[0]
    )
    assert document["collection"] == name
    found = {
        (r["docset"], r["unit_set"], r["peer"]): (
            r["presence"],
            r["presence_weighted"],
            r["see_coverage"],
        )
        for r in document["rows"]
    }
    assert close(found, ROWS)


def test_coverage_system_means_and_work_in_progress(demo, tmp_path):
    from tests.scoring.coverage_scores import SYSTEMS, close, coverage_collection

    coverage_collection(demo)
    name = demo["collection"].name
    out, _ = run("export_scores", collection=name, scores="coverage-judgments", systems=True)
    lines = out.splitlines()
    assert lines[0] == "collection,peer,docsets,in_progress,presence,presence_weighted,see_coverage"
    assert lines[1] == f"{name},2,2,0,0.6250,0.5714,0.3333"  # (1/4 + 1) / 2, (1/7 + 1) / 2, 8/24
    target = tmp_path / "systems.json"
    _, err = run(
        "export_scores",
        collection=name,
        scores="coverage-judgments",
        systems=True,
        format="json",
        include_in_progress=True,
        out=str(target),
    )
    assert "16 submitted judgment tasks and 1 in progress counted" in err
    assert "3 systems written to" in err
    systems = json.loads(target.read_text())["systems"]
    peer_3 = next(s for s in systems if s["peer"] == "3")
    assert (peer_3["docsets"], peer_3["in_progress"], peer_3["presence"]) == (2, 1, 0.5)
    submitted = json.loads(
        run(
            "export_scores",
            collection=name,
            scores="coverage-judgments",
            systems=True,
            format="json",
        )[0]
    )["systems"]
    found = {
        s["peer"]: (s["docsets"], s["presence"], s["presence_weighted"], s["see_coverage"])
        for s in submitted
    }
    assert close(found, SYSTEMS)
    one = run("export_scores", collection=name, docset="DEMO02", scores="coverage-judgments")[0]
    assert [line.split(",")[1] for line in one.splitlines()[1:]] == ["DEMO02", "DEMO02"]


def test_pyramid_system_means_are_the_scores_pages(client, demo):
    """--systems with the pyramid scores: the bytes of the scores page's systems download."""
    from tests.helpers import body

    client.force_login(demo["organizer"])
    page = client.get(f"/collections/{demo['collection'].pk}/scores/?view=systems&format=csv")
    out, _ = run("export_scores", collection=demo["collection"].name, systems=True)
    assert out == body(page).decode()
    page = client.get(f"/collections/{demo['collection'].pk}/scores/?view=systems&format=json")
    out, _ = run("export_scores", collection=demo["collection"].name, systems=True, format="json")
    assert out == body(page).decode()


@pytest.mark.parametrize(
    "options",
    [
        {"scores": "coverage-judgments", "format": "duc"},
        {"systems": True, "format": "duc"},
        {"scores": "coverage-judgments", "adjudicated": True},
    ],
)
def test_what_coverage_judgments_cannot_be_is_refused(demo, options):
    with pytest.raises(CommandError):
        run("export_scores", collection=demo["collection"].name, **options)


@pytest.mark.shared_data
def test_realsumm_bart_out_system_presence_is_the_published_value(shared_data, client, demo):
    """REALSumm's crowd batch for bart_out, imported: its system mean in the export, the scores
    page and the API is the published "human" presence, 0.48349483849483854, to the last digit
    (numpy's mean over the docsets as loaded: scoring.coverage.records.system_mean)."""
    folder = shared_data / "realsumm" / "human_annotations"
    if not folder.is_dir():
        pytest.skip(f"REALSumm data not found at {folder}")
    run(
        "import_units",
        str(folder / "SCUs_list.csv"),
        str(folder / "bart_out_Batch_crowd_3.csv"),
        format="realsumm",
        collection="REALSumm",
        no_progress=True,
    )
    published = 0.48349483849483854
    document = json.loads(
        run(
            "export_scores",
            collection="REALSumm",
            scores="coverage-judgments",
            systems=True,
            format="json",
        )[0]
    )
    (system,) = document["systems"]
    assert (system["peer"], system["docsets"], system["presence"]) == ("bart_out", 100, published)
    collection = Collection.objects.get(name="REALSumm")
    client.force_login(demo["admin"])
    page = client.get(f"/collections/{collection.pk}/scores/?view=systems")
    assert page.context["coverage"]["means"][0].presence == published
    api = client.get(f"/api/coverage-scores/?collection={collection.pk}&view=systems").json()
    assert api["results"][0]["presence"] == published
