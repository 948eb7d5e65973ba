"""import_ducview: what it stores, how it reports, and that bad files change nothing."""

from pathlib import Path

import pytest
from django.core.management import CommandError

from annotator.models import PSE, SCU, Collection, PeerAnnotation, Pyramid, Summary
from annotator.transfer.importing import DucviewImporter
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import import_files, record_counts

pytestmark = pytest.mark.django_db


def test_imports_a_pyramid_and_its_peer_annotation():
    out = import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="Fixtures")
    assert "2 files: 1 pyramid (5 SCUs, 8 contributors), 1 peer annotation (4 PSEs)" in out
    pyramid = Pyramid.objects.get()
    assert pyramid.name == "D9901"
    assert pyramid.docset.name == "D9901"
    assert pyramid.docset.collection.name == "Fixtures"
    assert [link.summary.author for link in pyramid.model_links.all()] == ["A", "B", "C"]
    model_c = Summary.objects.get(kind="model", author="C")
    assert model_c.text.startswith("Visitors love the tower \U0001f600 and it is 330 metres tall.")
    # Offsets are code points into each summary's own text.
    emoji_span = SCU.objects.get(uid=15).contributors.get().spans.get()
    assert model_c.text[emoji_span.start : emoji_span.end] == "Visitors love the tower \U0001f600"
    discontinuous = SCU.objects.get(uid=11).contributors.get(summary=model_c)
    assert [model_c.text[s.start : s.end] for s in discontinuous.spans.all()] == [
        "finishing it in 1889 for a world fair",
        "Eiffel's firm built the tower",
    ]
    annotation = PeerAnnotation.objects.get()
    assert (annotation.peer.author, annotation.annotator_code) == ("7", "100")
    assert annotation.peer.text.endswith("It is 330 metres high.")  # DUCView's final "\n" dropped
    assert PSE.objects.filter(scu__isnull=True).count() == 1
    non_matching = PSE.objects.get(scu__isnull=True).spans.get()
    assert (
        annotation.peer.text[non_matching.start : non_matching.end] == "Tourists climb it every day"
    )


def test_ducview_files_store_submitted_work_which_the_scores_count():
    """DUCView files cannot say a status: what they hold is finished work, stored as submitted, so
    that the score tables (submitted work only, issue 17) reproduce NIST's."""
    from scoring.scores.records import score_collection

    import_files(PYRAMID_FIXTURE, PAN_FIXTURE, collection="Fixtures")
    assert PeerAnnotation.objects.get().status == PeerAnnotation.Status.SUBMITTED
    assert Pyramid.objects.get().status == Pyramid.Status.SUBMITTED
    (row,) = score_collection(Collection.objects.get(name="Fixtures"))
    assert (row.peer, row.annotator, row.status) == ("7", "100", "submitted")


def test_the_pyramid_embedded_in_a_pan_is_the_same_record_as_its_pyr():
    import_files(PAN_FIXTURE, PYRAMID_FIXTURE)
    assert Pyramid.objects.count() == 1
    assert Pyramid.objects.get().source_name == "D9901.pyr"  # named after its own file once seen


def test_importing_again_changes_nothing_and_says_so():
    import_files(PYRAMID_FIXTURE, PAN_FIXTURE)
    before = record_counts()
    out = import_files(PYRAMID_FIXTURE, PAN_FIXTURE)
    assert record_counts() == before
    assert "2 unchanged" in out
    assert "Nothing changed" in out


def test_options_override_the_file_names(tmp_path):
    renamed = tmp_path / "anything.pan"
    renamed.write_bytes(PAN_FIXTURE.read_bytes())
    import_files(renamed, docset="T1", peer="42", annotator="ann")
    annotation = PeerAnnotation.objects.get()
    assert (annotation.pyramid.docset.name, annotation.peer.author, annotation.annotator_code) == (
        "T1",
        "42",
        "ann",
    )


def test_a_file_whose_docset_cannot_be_told_is_refused(tmp_path):
    renamed = tmp_path / "anything.pan"
    renamed.write_bytes(PAN_FIXTURE.read_bytes())
    with pytest.raises(CommandError, match="1 of 1 file failed"):
        import_files(renamed)
    assert Collection.objects.count() == 0


def test_a_stored_annotation_is_never_silently_replaced(tmp_path):
    import_files(PAN_FIXTURE)
    changed = tmp_path / PAN_FIXTURE.name
    data = PAN_FIXTURE.read_bytes()
    first_pse = data.index(b"<contributor", data.index(b'<peerscu uid="11"'))
    end = data.index(b"</contributor>", first_pse) + len(b"</contributor>")
    changed.write_bytes(data[:first_pse] + data[end:])
    with pytest.raises(CommandError):
        import_files(changed)
    assert PSE.objects.count() == 4


BAD_INPUTS = {
    "empty.pan": b"",
    "not-xml.pan": b"PK\x03\x04 this is a zip, not XML",
    "malformed.pyr": PYRAMID_FIXTURE.read_bytes()[:-40],
    "bomb.pyr": (
        b'<?xml version="1.0"?>\n<!DOCTYPE pyramid [\n <!ENTITY a "aaaaaaaaaa">\n <!ENTITY b '
        b'"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n<pyramid><text><line>&b;</line></text></pyramid>'
    ),
    "outside.pyr": PYRAMID_FIXTURE.read_bytes().replace(
        b'start="434" end="460"', b'start="434" end="99999"'
    ),
    "unknown-scu.pan": PAN_FIXTURE.read_bytes().replace(b'<peerscu uid="13"', b'<peerscu uid="77"'),
}
EXPECTED_MESSAGES = {
    "empty.pan": "the file is empty",
    "not-xml.pan": "malformed XML",
    "malformed.pyr": "malformed XML",
    "bomb.pyr": "refused unsafe XML",
    "outside.pyr": "lies outside the pyramid text",
    "unknown-scu.pan": "names an SCU the pyramid does not have",
}


def write_bad_file(tmp_path, name):
    path = tmp_path / ("100.D9902.M.100.A.9.pan" if name.endswith(".pan") else "D9902.pyr")
    path.write_bytes(BAD_INPUTS[name])
    return path


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_fails_the_command_and_stores_nothing(tmp_path, name):
    import_files(PYRAMID_FIXTURE)
    before = record_counts()
    with pytest.raises(CommandError, match="1 of 1 file failed"):
        import_files(write_bad_file(tmp_path, name))
    assert record_counts() == before


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_the_error_names_the_file_and_the_problem(tmp_path, name):
    bad = write_bad_file(tmp_path, name)
    importer = DucviewImporter("Test")
    assert importer.import_file(bad) is False
    (failure,) = importer.report.failures
    assert failure.startswith(str(bad))
    assert EXPECTED_MESSAGES[name] in failure


def test_one_bad_file_does_not_stop_the_others(tmp_path):
    bad = tmp_path / "D9902.pyr"
    bad.write_text("<pyramid>")
    with pytest.raises(CommandError, match="1 of 3 files failed"):
        import_files(PYRAMID_FIXTURE, bad, PAN_FIXTURE)
    assert PeerAnnotation.objects.count() == 1


def test_folders_are_searched_recursively(tmp_path):
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    (nested / PAN_FIXTURE.name).write_bytes(PAN_FIXTURE.read_bytes())
    (tmp_path / "notes.txt").write_text("not a DUCView file")
    out = import_files(tmp_path)
    assert out.startswith("1 file:")


def test_a_missing_path_is_an_error():
    with pytest.raises(CommandError, match="no such file"):
        import_files(Path("/nonexistent/D0101.pyr"))


def test_model_regex_option_splits_a_pyramid_without_headers(tmp_path):
    text = "---\nFirst student text here.\n---\nSecond student text.\n"
    lines = "".join(f"  <line>{line}</line>\n" for line in text[:-1].split("\n"))
    pyr = tmp_path / "MATTER.pyr"
    pyr.write_text(
        '<?xml version="1.0"?>\n<pyramid>\n <text>\n' + lines + " </text>\n"
        ' <scu uid="1" label="student text">\n  <contributor label="student text">\n'
        '   <part label="student text" start="14" end="26"/>\n  </contributor>\n'
        '  <contributor label="student text">\n'
        '   <part label="student text" start="39" end="51"/>\n'
        "  </contributor>\n </scu>\n</pyramid>\n"
    )
    with pytest.raises(CommandError):
        import_files(pyr, docset="MATTER")
    import_files(pyr, docset="MATTER", model_regex=r"(?m)^---\n")
    assert sorted(Summary.objects.values_list("author", flat=True)) == ["1", "2"]
    assert set(SCU.objects.get().contributors.values_list("summary__author", flat=True)) == {
        "1",
        "2",
    }


def test_a_part_whose_offsets_are_shifted_is_re_anchored_and_counted(tmp_path):
    shifted = tmp_path / "D9901.pyr"
    # "was the tallest structure in the world until 1930" stored two characters too far right.
    shifted.write_bytes(
        PYRAMID_FIXTURE.read_bytes().replace(b'start="150" end="199"', b'start="152" end="201"')
    )
    out = import_files(shifted)
    assert "1 part re-anchored" in out
    span = SCU.objects.get(uid=14).contributors.get().spans.get()
    assert (
        span.summary.text[span.start : span.end]
        == "was the tallest structure in the world until 1930"
    )


def test_duc_data_breaking_the_rules_is_kept_and_reported(tmp_path):
    # As in NIST's D0727: an SCU with two contributors from one model. DUCView's weight counts both.
    extra = (
        b'  <contributor label="It is 330 metres tall">\n'
        b'   <part label="It is 330 metres tall" start="124" end="145"/>\n  </contributor>\n'
    )
    data = PYRAMID_FIXTURE.read_bytes()
    scu_14 = data.index(b'<scu uid="14"')
    closing = data.index(b" </scu>", scu_14)
    broken = tmp_path / "D9901.pyr"
    broken.write_bytes(data[:closing] + extra + data[closing:])
    out = import_files(broken)
    assert "SCU 14 has more than one contributor from model A" in out
    assert SCU.objects.get(uid=14).contributors.count() == 2

    from annotator.pyramids.problems import REPEATED_MODEL, pyramid_problems

    problems = pyramid_problems(Pyramid.objects.get())
    assert [(p.kind, p.scu_uid) for p in problems if p.kind == REPEATED_MODEL] == [
        (REPEATED_MODEL, 14)
    ]


@pytest.mark.shared_data
def test_each_problem_of_a_pyramid_is_said_once(shared_data):
    from annotator.pyramids.problems import pyramid_problems

    import_files(shared_data / "duc2006-nist/allpyramids/D0601.pyr")
    problems = pyramid_problems(Pyramid.objects.get())
    assert problems
    assert len(problems) == len(set(problems))


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path):
    """Issue 16: the command keeps the upload's per-file limit (a 200 MB file cost 2.9 GB), and a
    flag raises it for a file one trusts."""
    big = tmp_path / "D9901.pyr"
    big.write_bytes(PYRAMID_FIXTURE.read_bytes())
    limit_mb = (big.stat().st_size - 1) / (1024 * 1024)
    with pytest.raises(CommandError, match="1 of 1 file failed"):
        import_files(big, collection="Fixtures", max_file_mb=limit_mb)
    assert not Pyramid.objects.exists()
    out = import_files(big, collection="Fixtures", max_file_mb=1)
    assert "1 pyramid" in out
    assert Pyramid.objects.count() == 1


def test_the_size_refusal_names_the_file_and_the_flag(tmp_path, capsys):
    from django.core.management import call_command

    big = tmp_path / "D9901.pyr"
    big.write_bytes(PYRAMID_FIXTURE.read_bytes())
    with pytest.raises(CommandError):
        call_command(
            "import_ducview", str(big), collection="Fixtures", max_file_mb=0.001, no_progress=True
        )
    assert (
        f"{big}: {big.stat().st_size:,} bytes, more than the 1,048 allowed per file (--max-file-mb "
        "raises the limit)" in capsys.readouterr().err
    )
