"""python manage.py import_judgments: NIST's tables and a CSV, checked whole before storing."""

import pytest
from django.core.management.base import CommandError

from annotator.models import HumanJudgment
from tests.helpers import import_files, run

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_nist_2006_judgments_of_the_stored_peers(shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0601.pyr",
        *sorted((folder / "allpans").glob("*.D0601.*.pan")),
        collection="DUC 2006",
    )
    out, _ = run(
        "import_judgments", str(folder / "scoring/2006_modified_scores.txt"), collection="DUC 2006"
    )
    assert out.startswith(
        "132 judgments stored, 0 unchanged; rows of 19 docsets not in the collection left out"
    )
    judged = HumanJudgment.objects.get(
        summary__docset__name="D0601", summary__author="1", criterion="content responsiveness"
    )
    assert judged.value == 1  # NIST: D0601 peer 1, content 1
    again, _ = run(
        "import_judgments", str(folder / "scoring/2006_modified_scores.txt"), collection="DUC 2006"
    )
    assert again.startswith("0 judgments stored, 132 unchanged")


@pytest.mark.shared_data
def test_the_peers_left_out_are_named_once_each(shared_data):
    """D0640 has 22 peers in NIST's table, 3 of them annotated: the other 19 are left out, each line
    of the table six judgments. Each is named once, with its count; the first five, then the rest
    counted (D0640 peer 15 was named five times over, the one name filling the message)."""
    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0640.pyr",
        *sorted((folder / "allpans").glob("*.D0640.*.pan")),
        collection="DUC 2006",
    )
    out, _ = run(
        "import_judgments", str(folder / "scoring/2006_modified_scores.txt"), collection="DUC 2006"
    )
    assert out == (
        "18 judgments stored, 0 unchanged; rows of 19 docsets not in the collection left out; 114 "
        "judgments of 19 peers not in the collection left out: D0640 peer 15 (6 judgments), D0640 "
        "peer 17 (6 judgments), D0640 peer 18 (6 judgments), D0640 peer 19 (6 judgments), D0640 "
        "peer 2 (6 judgments) and 14 more\n"
    )
    assert out.count("D0640 peer 15") == 1


def test_the_peers_left_out_of_a_csv(demo, tmp_path):
    """A peer judged once is named without a count; "07" and "7" are one peer; fewer than six
    peers are all named, with no "more"."""
    table = tmp_path / "judgments.csv"
    table.write_text(
        "docset,peer,criterion,value\n"
        "DEMO01,1,overall,4\n"
        "DEMO01,07,overall,3\nDEMO01,7,grammar,3\nDEMO01,07,focus,2\n"
        "DEMO01,9,overall,1\n"
    )
    out, _ = run("import_judgments", str(table), collection=demo["collection"].name)
    assert out == (
        "1 judgment stored, 0 unchanged; 4 judgments of 2 peers not in the collection left out: "
        "DEMO01 peer 07 (3 judgments), DEMO01 peer 9\n"
    )


def test_a_csv_and_its_errors(demo, tmp_path):
    before = HumanJudgment.objects.count()  # the demo has some
    good = tmp_path / "judgments.csv"
    good.write_text(
        "docset,peer,criterion,value,judge\nDEMO01,1,overall responsiveness,4,j1\nDEMO01,2,overall "
        "responsiveness,2,j1\n"
    )
    out, _ = run("import_judgments", str(good), collection=demo["collection"].name)
    assert out.startswith("2 judgments stored")
    bad = tmp_path / "bad.csv"
    bad.write_text("docset,peer,criterion,value\nDEMO01,3,overall,5\nDEMO01,1,overall,high\n")
    with pytest.raises(
        CommandError, match=r"bad.csv, line 3: 'high' is not a number; nothing was stored"
    ):
        run("import_judgments", str(bad), collection=demo["collection"].name)
    assert HumanJudgment.objects.count() == before + 2
    header = tmp_path / "header.csv"
    header.write_text("set,peer,value\n")
    with pytest.raises(CommandError, match="the header lacks criterion, docset"):
        run("import_judgments", str(header), collection=demo["collection"].name)


def test_a_table_with_other_columns_is_refused(demo, tmp_path):
    table = tmp_path / "scores.txt"
    table.write_text("DEMO01\t1\t0.5\t3\n")
    with pytest.raises(CommandError, match="line 1: 4 columns"):
        run("import_judgments", str(table), collection=demo["collection"].name)


# NIST's judgment tables begin so (DUC 2006's 2006_content.table, 2006_linguistic_quality.table).
CONTENT_TABLE_HEAD = (
    "Topic\n|       Selector\n|       |       Assessor\n"
    "|       |       |       Summarizer (baseline=1; human=A..J; system=2..32)\n"
    "|       |       |       |       Content Responsiveness Score (1 = very poor...5 = very good)\n"
    "|       |       |       |       |\n"
)
QUALITY_TABLE_HEAD = (
    "Topic\n|       Selector\n|       |       Assessor\n"
    "|       |       |       Summarizer  (baseline=1; human=A..J; system=2..32)\n"
    "|       |       |       |       Quality Question Number\n"
    "|       |       |       |       |       Quality Score (1 = very poor...5 = very good)\n"
    "|       |       |       |       |       |\n"
)


@pytest.mark.shared_data
def test_nists_judgment_tables_are_read_as_they_are(shared_data, tmp_path):
    """Issue 33: 2006_content.table and 2006_linguistic_quality.table were refused ("line 1: 1
    column"). Read, they give the judgments NIST's score table gives for the same peers: the same
    records (importing the score table after them changes nothing)."""
    folder = shared_data / "duc2006-nist"
    import_files(
        folder / "allpyramids/D0601.pyr",
        *sorted((folder / "allpans").glob("*.D0601.*.pan")),
        collection="DUC 2006",
    )
    content = tmp_path / "2006_content.table"  # NIST's values of these peers (their score table's)
    content.write_text(CONTENT_TABLE_HEAD + "D0601\tA\tA\t10\t3\nD0601\tA\tA\t1\t1\n")
    quality = tmp_path / "2006_linguistic_quality.table"
    quality.write_text(
        QUALITY_TABLE_HEAD
        + "".join(f"D0601\tA\tA\t10\t{q}\t{v}\n" for q, v in enumerate([3, 4, 2, 1, 1], start=1))
    )
    out, _ = run("import_judgments", str(content), collection="DUC 2006")
    assert out == "2 judgments stored, 0 unchanged\n"
    out, _ = run("import_judgments", str(quality), collection="DUC 2006")
    assert out == "5 judgments stored, 0 unchanged\n"
    stored = dict(
        HumanJudgment.objects.filter(
            summary__docset__name="D0601", summary__author="10"
        ).values_list("criterion", "value")
    )
    assert stored == {
        "content responsiveness": 3,
        **{f"linguistic quality {q}": v for q, v in enumerate([3, 4, 2, 1, 1], start=1)},
    }
    out, _ = run(
        "import_judgments", str(folder / "scoring/2006_modified_scores.txt"), collection="DUC 2006"
    )
    assert out.startswith("125 judgments stored, 7 unchanged")
    assert HumanJudgment.objects.filter(judge="").count() == 132


def test_an_overall_responsiveness_table_names_its_criterion(demo, tmp_path):
    table = tmp_path / "overall.table"
    table.write_text(
        CONTENT_TABLE_HEAD.replace("Content Responsiveness", "Overall Responsiveness")
        + "DEMO01\tA\tA\t1\t4\nDEMO01\tA\tA\t2\t\n"
    )
    out, _ = run("import_judgments", str(table), collection=demo["collection"].name)
    assert out == (
        "1 judgment stored, 0 unchanged; 1 blank cell (no judgment) left out: DEMO01 peer 2 (1)\n"
    )
    assert (
        HumanJudgment.objects.get(
            summary__docset__name="DEMO01", summary__author="1", criterion="overall responsiveness"
        ).value
        == 4
    )


def test_every_blank_cell_of_a_score_table_is_named_by_docset_and_peer(demo, tmp_path):
    """NIST's 2006 table has no judgments of D0647's systems 01..08: the import said "2604
    judgments" and nothing of the 36 blank cells it left out."""
    table = tmp_path / "2006_modified_scores.txt"
    table.write_text(
        "DEMO01\t01\t0.0972\t4\t0\t119\tV\t\t\t\t\t\t\t\n"
        "DEMO01\t2\t0.1389\t4\t0\t119\tV\t1\t4\t1\t2\t1\t\t\n"
        "DEMO01\t3\t0.125\t5\t0\t119\tV\t2\t5\t3\t4\t4\t4\t\n"
    )
    out, _ = run("import_judgments", str(table), collection=demo["collection"].name)
    assert out == (
        "11 judgments stored, 0 unchanged; 7 blank cells (no judgment) left out: "
        "DEMO01 peer 01 (6), DEMO01 peer 2 (1)\n"
    )


def test_a_judgment_table_with_another_header_or_row_is_refused(demo, tmp_path):
    table = tmp_path / "odd.table"
    table.write_text("Topic\n|   Judge\n|   |   Score\nDEMO01\tx\t3\n")
    with pytest.raises(CommandError, match=r"odd.table: a NIST judgment table's header names"):
        run("import_judgments", str(table), collection=demo["collection"].name)
    table.write_text(CONTENT_TABLE_HEAD + "DEMO01\tA\tA\t1\t4\nDEMO01\tA\tA\t2\n")
    with pytest.raises(CommandError, match=r"odd.table, line 8: 4 columns; the header names 5"):
        run("import_judgments", str(table), collection=demo["collection"].name)
    table.write_text(QUALITY_TABLE_HEAD + "DEMO01\tA\tA\t1\tq1\t4\n")
    with pytest.raises(CommandError, match=r"line 8: the question number 'q1' is not a number"):
        run("import_judgments", str(table), collection=demo["collection"].name)
    assert not HumanJudgment.objects.filter(criterion__startswith="linguistic").exists()
