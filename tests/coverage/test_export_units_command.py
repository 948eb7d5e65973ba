"""`export_units`: a collection's unit sets written in REALSumm's or Lite Pyramid's files; read
back by `import_units` into another collection, they give the same records."""

import zipfile

import pytest
from django.core.management.base import CommandError

from annotator.coverage.models import JudgmentTask
from tests.coverage.unit_files import stored, write_lite, write_realsumm
from tests.helpers import run

pytestmark = pytest.mark.django_db


def import_units(path, format_name, collection, **options):
    return run(
        "import_units",
        str(path),
        format=format_name,
        collection=collection,
        no_progress=True,
        **options,
    )[0]


def export_units(output, format_name, collection, **options):
    return run("export_units", str(output), format=format_name, collection=collection, **options)[0]


def test_realsumm_export_imports_as_the_same_records(tmp_path):
    write_realsumm(tmp_path / "in")
    import_units(tmp_path / "in", "realsumm", "First")
    out = export_units(tmp_path / "out", "realsumm", "First")
    assert "Wrote 3 files" in out
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "SCUs_list.csv",
        "sys1_Batch.csv",
        "sys2_Batch.csv",
    ]
    import_units(tmp_path / "out", "realsumm", "Second")
    assert stored("Second") == stored("First")
    assert stored("First")["judgments"]  # not two empty collections


def test_lite_pyramid_export_imports_as_the_same_records(tmp_path):
    import_units(write_lite(tmp_path / "in"), "lite-pyramid", "First")
    out = export_units(tmp_path / "out.zip", "lite-pyramid", "First")
    assert "note: abs_sys in D2: 2 labels for 3 units (its last units not judged)" in out
    with zipfile.ZipFile(tmp_path / "out.zip") as archive:
        assert sorted(archive.namelist()) == [
            "SCUs.txt",
            "ids.txt",
            "labels/abs_sys.label",
            "labels/ext_other.label",
            "references.txt",
            "summaries/abs_sys.summary",
            "summaries/ext_other.summary",
        ]
        assert archive.read("labels/abs_sys.label") == b"1\t0\n0\t1\n"
        assert archive.read("summaries/ext_other.summary") == b"Apollo 11 landed.\n\n"
    import_units(tmp_path / "out.zip", "lite-pyramid", "Second")
    assert stored("Second") == stored("First")


def test_crowd_answers_exported_as_lite_pyramid_labels_are_their_majority(tmp_path):
    write_realsumm(tmp_path / "in")
    import_units(tmp_path / "in", "realsumm", "First")
    out = export_units(tmp_path / "out", "lite-pyramid", "First")
    assert "note: labels are the majority of each unit's judges (a tie is absent)" in out
    # D1 sys1: unit 1 p, p, p; unit 2 n, p (a tie: absent). D2 sys1: n, p | p, p | p.
    assert (tmp_path / "out/labels/sys1.label").read_text() == "1\t0\n0\t1\t1\n"
    assert (tmp_path / "out/labels/sys2.label").read_text() == "\n\n"


def test_judges_of_the_judging_page_are_written_as_crowd_rows(tmp_path, django_user_model):
    write_realsumm(tmp_path / "in")
    import_units(tmp_path / "in", "realsumm", "First")
    task = JudgmentTask.objects.get(peer__docset__name="D1", judge_code="crowd 3")
    task.judge, task.judge_code = django_user_model.objects.create(username="ann"), ""
    task.save()
    out = export_units(tmp_path / "out", "realsumm", "First")
    assert "note: judges ann written as anonymous crowd rows" in out
    import_units(tmp_path / "out", "realsumm", "Second")
    assert {t[2] for t in stored("Second")["tasks"]} == {"crowd 1", "crowd 2", "crowd 3"}


def test_which_unit_set(tmp_path):
    write_realsumm(tmp_path / "in")
    import_units(tmp_path / "in", "realsumm", "First")
    import_units(tmp_path / "in", "realsumm", "First", unit_set="Other")
    with pytest.raises(CommandError, match="2 presence unit set names: Other, REALSumm; name one"):
        export_units(tmp_path / "out", "realsumm", "First")
    with pytest.raises(CommandError, match='no presence unit set "Nope"'):
        export_units(tmp_path / "out", "realsumm", "First", unit_set="Nope")
    with pytest.raises(CommandError, match="no collection 'Missing'"):
        export_units(tmp_path / "out", "realsumm", "Missing")
    assert "Wrote 3 files" in export_units(tmp_path / "o", "realsumm", "First", unit_set="Other")
