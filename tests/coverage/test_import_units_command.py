"""`import_units`: REALSumm's and Lite Pyramid's files stored as unit sets, peers and judgments in
one transaction of bulk queries; again, nothing changes; a conflict is refused, nothing stored."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.coverage.models import JudgmentTask, Unit, UnitSet
from annotator.models import Collection, Docset, Summary
from tests.coverage.unit_files import (
    BATCH_ANSWERS,
    SCUS_LIST,
    answers,
    stored,
    write_lite,
    write_realsumm,
)
from tests.helpers import run

pytestmark = pytest.mark.django_db


def import_units(*paths, **options):
    return run(
        "import_units",
        *[str(p) for p in paths],
        no_progress=True,
        **{"format": "realsumm", "collection": "Crowd", **options},
    )


def test_realsumm_files_give_unit_sets_peers_and_crowd_judgments(tmp_path):
    out, _ = import_units(*write_realsumm(tmp_path))
    collection = Collection.objects.get(name="Crowd")  # created
    assert list(collection.docsets.values_list("name", flat=True)) == ["D1", "D2"]
    unit_sets = UnitSet.objects.filter(docset__collection=collection)
    assert {(u.docset.name, u.name, u.method, u.scale, u.source) for u in unit_sets} == {
        ("D1", "REALSumm", "presence", "present_absent", "imported"),
        ("D2", "REALSumm", "presence", "present_absent", "imported"),
    }
    assert list(
        Unit.objects.filter(unit_set__docset__name="D2").values_list(
            "position", "external_id", "text", "model"
        )
    ) == [
        (1, "3", "Collins stayed in orbit.", None),
        (2, "4", "The crew returned on July 24, 1969.", None),
        (3, "10", "Aldrin followed Armstrong.", None),
    ]
    assert sorted(Summary.objects.values_list("docset__name", "kind", "author", "text")) == [
        ("D1", "peer", "sys1", "Armstrong walked."),
        ("D2", "peer", "sys1", "Collins orbited; the crew returned."),
        ("D2", "peer", "sys2", "Nothing."),
    ]
    assert answers("Crowd") == BATCH_ANSWERS
    assert set(JudgmentTask.objects.values_list("status", "judge", "withdrawn")) == {
        ("submitted", None, False)
    }
    assert (
        '2 documents into unit sets "REALSumm" of Crowd: 2 unit sets (5 units) new, 0 unchanged; '
        "3 peers new, 0 unchanged; 5 judgment tasks (10 judgments) new, 0 unchanged; "
        "2 new docsets; 7 oddities"
    ) in out
    assert "Systems (the peers' authors): sys1 (2 peers), sys2 (1 peer)." in out
    assert "warning: sys1_Batch.csv, line 4, Answer.S2Answer: no answer for unit 1 of D1" in out


def test_the_same_files_again_change_nothing(tmp_path):
    paths = write_realsumm(tmp_path)
    import_units(*paths)
    before = stored("Crowd")
    out, _ = import_units(tmp_path)  # the folder this time
    assert stored("Crowd") == before
    assert "0 unit sets (0 units) new, 2 unchanged; 0 peers new, 3 unchanged" in out
    assert "5 judgment tasks" not in out
    assert "0 judgment tasks (0 judgments) new, 5 unchanged" in out
    assert "Nothing changed: these files were already imported." in out


def test_other_units_under_the_same_name_are_refused_and_nothing_is_stored(tmp_path):
    import_units(*write_realsumm(tmp_path / "a"))
    before = stored("Crowd")
    other = tmp_path / "b"
    write_realsumm(other)
    (other / "SCUs_list.csv").write_text(
        SCUS_LIST.replace("Collins stayed in orbit.", "Collins orbited."), encoding="utf-8"
    )
    (other / "D9.csv").write_text(
        "eventId,questionId,questionText\nD9,99,A new document.\n", encoding="utf-8"
    )
    with pytest.raises(CommandError, match="nothing was stored") as refused:
        import_units(other)
    assert stored("Crowd") == before
    assert not Docset.objects.filter(name="D9").exists()
    assert "refused (1 conflicting" in str(refused.value)


def test_refusal_names_each_conflict(tmp_path):
    import_units(*write_realsumm(tmp_path / "a"))
    other = tmp_path / "b"
    paths = write_realsumm(other)
    (other / "SCUs_list.csv").write_text(
        SCUS_LIST.replace("Collins stayed in orbit.,Y", "Collins orbited.,Y"), encoding="utf-8"
    )
    batch = paths[1].read_text(encoding="utf-8")
    paths[1].write_text(batch.replace("Armstrong walked.", "Armstrong walked far."))
    err = StringIO()
    with pytest.raises(CommandError):
        call_command(
            "import_units",
            *map(str, paths),
            format="realsumm",
            collection="Crowd",
            no_progress=True,
            stdout=StringIO(),
            stderr=err,
        )
    assert err.getvalue().splitlines() == [
        "error: D1: peer sys1 is already stored with another text (a summary's text never "
        "changes once stored)",
        'error: D2: unit set "REALSumm" already holds other units (unit 1 is \'Collins stayed in '
        "orbit.' there, 'Collins orbited.' in the files); import under another --unit-set name, "
        "or delete that unit set first",
    ]


def test_other_answers_by_the_same_judge_are_refused(tmp_path):
    paths = write_realsumm(tmp_path)
    import_units(*paths)
    before = stored("Crowd")
    batch = paths[1].read_text(encoding="utf-8")
    paths[1].write_text(batch.replace("BLANK,p,p,p,", "BLANK,p,p,n,"), encoding="utf-8")
    with pytest.raises(CommandError):
        import_units(*paths)
    assert stored("Crowd") == before


def test_another_unit_set_name_stores_beside(tmp_path):
    paths = write_realsumm(tmp_path)
    import_units(*paths)
    out, _ = import_units(*paths, unit_set="REALSumm again")
    assert UnitSet.objects.filter(name="REALSumm again").count() == 2
    assert Summary.objects.count() == 3  # the peers are the same peers
    assert "3 peers" not in out.split(";")[1]


def test_bulk_queries_whatever_the_number_of_rows(tmp_path):
    def queries(copies: int) -> int:
        folder = tmp_path / str(copies)
        lines = ["eventId,questionId,questionText"] + [
            f"D{d},{d * 100 + u},Unit {u} of D{d}." for d in range(copies) for u in range(5)
        ]
        folder.mkdir()
        (folder / "SCUs_list.csv").write_text("\n".join(lines) + "\n")
        with CaptureQueriesContext(connection) as captured:
            import_units(folder, collection=f"C{copies}")
        return len(captured)

    assert queries(2) == queries(40)


def test_lite_pyramid_folder(tmp_path):
    out, _ = import_units(write_lite(tmp_path / "lite"), format="lite-pyramid")
    assert set(UnitSet.objects.values_list("name", flat=True)) == {"Lite Pyramid"}
    assert answers("Crowd") == {
        ("D1", "abs_sys", "labels"): {1: True, 2: False},
        ("D2", "abs_sys", "labels"): {1: False, 2: True},
    }
    assert sorted(Summary.objects.values_list("docset__name", "kind", "author")) == [
        ("D1", "model", "reference"),
        ("D1", "peer", "abs_sys"),
        ("D1", "peer", "ext_other"),
        ("D2", "model", "reference"),
        ("D2", "peer", "abs_sys"),
    ]
    assert set(Unit.objects.values_list("model__author", flat=True)) == {"reference"}
    assert "Systems (the peers' authors): abs_sys (2 peers), ext_other (1 peer)." in out
    assert "warning: lite/labels/abs_sys.label, line 2: 2 labels for 3 units of D2" in out
    assert "Not read: lite/README.md." in out
    again, _ = import_units(tmp_path / "lite", format="lite-pyramid")
    assert "Nothing changed" in again


def test_unreadable_files_are_an_error(tmp_path):
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    with pytest.raises(CommandError, match="no units list"):
        import_units(tmp_path / "x.csv")
    assert not Collection.objects.exists()
    with pytest.raises(CommandError, match="no such file"):
        import_units(tmp_path / "missing.csv")
