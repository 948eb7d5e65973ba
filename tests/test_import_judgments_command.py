"""python manage.py import_judgments: NIST's tables and a CSV, checked whole before storing."""

import pytest
from django.core.management.base import CommandError

from annotator.models import HumanJudgment

from .helpers import import_files, run

pytestmark = pytest.mark.django_db


@pytest.mark.shared_data
def test_nist_2006_judgments_of_the_stored_peers(shared_data):
    folder = shared_data / "duc2006-nist"
    import_files(folder / "allpyramids/D0601.pyr", *sorted((folder / "allpans").glob("*.D0601.*.pan")), collection="DUC 2006")
    out, _ = run("import_judgments", str(folder / "scoring/2006_modified_scores.txt"), collection="DUC 2006")
    assert out.startswith("132 judgments stored, 0 unchanged; rows of 19 docsets not in the collection left out")
    judged = HumanJudgment.objects.get(summary__docset__name="D0601", summary__author="1", criterion="content responsiveness")
    assert judged.value == 1  # NIST: D0601 peer 1, content 1
    again, _ = run("import_judgments", str(folder / "scoring/2006_modified_scores.txt"), collection="DUC 2006")
    assert again.startswith("0 judgments stored, 132 unchanged")


def test_a_csv_and_its_errors(demo, tmp_path):
    before = HumanJudgment.objects.count()  # the demo has some
    good = tmp_path / "judgments.csv"
    good.write_text("docset,peer,criterion,value,judge\nDEMO01,1,overall responsiveness,4,j1\nDEMO01,2,overall responsiveness,2,j1\n")
    out, _ = run("import_judgments", str(good), collection=demo["collection"].name)
    assert out.startswith("2 judgments stored")
    bad = tmp_path / "bad.csv"
    bad.write_text("docset,peer,criterion,value\nDEMO01,3,overall,5\nDEMO01,1,overall,high\n")
    with pytest.raises(CommandError, match=r"bad.csv, line 3: 'high' is not a number; nothing was stored"):
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
