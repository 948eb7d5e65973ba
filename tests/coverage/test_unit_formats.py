"""annotator.coverage.formats: REALSumm's and Lite Pyramid's files read into plain records, every
oddity kept where it can be and reported with its file, line and field; nothing readable, an
error."""

import pytest

from annotator.coverage.formats import lite_pyramid, realsumm
from annotator.coverage.formats.records import FormatError, SourceFile
from tests.coverage.unit_files import BATCH, BATCH_ANSWERS, LITE, SCUS_LIST


def files(**texts: str) -> list[SourceFile]:
    return [SourceFile(name, text.encode()) for name, text in texts.items()]


def realsumm_source():
    return realsumm.read(
        [SourceFile("SCUs_list.csv", SCUS_LIST.encode()), SourceFile("b.csv", BATCH.encode())]
    )


def test_realsumm_units_by_question_id_blank_rows_left_aside():
    source = realsumm_source()
    assert [(d.name, [(u.external_id, u.text) for u in d.units]) for d in source.documents] == [
        ("D1", [("0", "Armstrong walked on the Moon."), ("1", "Apollo 11 landed in 1969.")]),
        (
            "D2",
            [
                ("3", "Collins stayed in orbit."),
                ("4", "The crew returned on July 24, 1969."),
                ("10", "Aldrin followed Armstrong."),
            ],
        ),
    ]


def test_realsumm_answers_per_hit_row_are_crowd_judges():
    source = realsumm_source()
    assert {
        (a.document, a.system, a.judge): {i + 1: p for i, p in a.answers.items()}
        for a in source.answers
    } == BATCH_ANSWERS
    # The short row's peer is kept, with no answers.
    assert [(p.document, p.system) for p in source.peers] == [
        ("D1", "sys1"),
        ("D2", "sys1"),
        ("D2", "sys2"),
    ]


def test_realsumm_oddities_name_file_line_and_field():
    oddities = [str(o) for o in realsumm_source().oddities]
    assert oddities == [
        "SCUs_list.csv, questionText: 1 BLANK rows (no units) left aside",
        "b.csv, line 3, Answer.S3Answer: a BLANK statement answered p; left aside",
        "b.csv, line 4, Answer.S2Answer: no answer for unit 1 of D1",
        "b.csv, line 5, Input.statement_2: 'The crew came back.' differs from unit 4's text in "
        "the units list ('The crew returned on July 24, 1969.'); the answer kept for unit 4",
        "b.csv, line 5, Answer.S3Answer: answer 'x' for unit 10 of D2 is neither p nor n; "
        "left aside",
        "b.csv, line 7: 5 fields where the header has 11",
        "b.csv, Input.statement_*: 3 BLANK statements left aside",
    ]


def test_realsumm_without_a_units_list_is_an_error():
    with pytest.raises(FormatError, match="no units list"):
        realsumm.read(files(**{"b.csv": BATCH}))


def test_realsumm_units_list_without_its_columns_names_them():
    with pytest.raises(FormatError, match=r"u.csv, line 1: no column questionText"):
        realsumm.read(files(**{"u.csv": "eventId,questionId,questionTxt\nD1,1,x\n"}))


def lite_source():
    return lite_pyramid.read(files(**LITE))


def test_lite_pyramid_units_peers_and_labels():
    source = lite_source()
    assert [(d.name, len(d.units), d.reference is not None) for d in source.documents] == [
        ("D1", 2, True),
        ("D2", 3, True),
    ]
    assert sorted((p.document, p.system) for p in source.peers) == [
        ("D1", "abs_sys"),
        ("D1", "ext_other"),
        ("D2", "abs_sys"),
    ]
    assert {(a.document, a.system, a.judge): a.answers for a in source.answers} == {
        ("D1", "abs_sys", "labels"): {0: True, 1: False},
        ("D2", "abs_sys", "labels"): {0: False, 1: True},
    }
    assert source.ignored == ["README.md"]


def test_lite_pyramid_oddities():
    assert [str(o) for o in lite_source().oddities] == [
        "labels/orphan.label: no summaries/orphan.summary; labels left aside",
        "labels/abs_sys.label, line 2: 2 labels for 3 units of D2; those there kept",
    ]


def test_lite_pyramid_bad_label_and_ragged_file():
    source = lite_pyramid.read(
        files(
            **{
                "ids.txt": "D1\nD2\n",
                "SCUs.txt": "a\t\tc\n",
                "summaries/s.summary": "x\n",
                "labels/s.label": "1\t0\t2\n",
            }
        )
    )
    assert [str(o) for o in source.oddities] == [
        "SCUs.txt: 1 lines where ids.txt has 2",
        "SCUs.txt, line 1, unit 2: empty; left aside",
        "summaries/s.summary: 1 lines where ids.txt has 2",
        "labels/s.label: 1 lines where ids.txt has 2",
        "labels/s.label, line 1, label 3: '2' is neither 0 nor 1",
    ]
    # The empty unit's label is skipped with it: "a" is 1.
    assert source.answers[0].answers == {0: True}


def test_lite_pyramid_without_ids_is_an_error():
    with pytest.raises(FormatError, match=r"no ids.txt"):
        lite_pyramid.read(files(**{"SCUs.txt": "a\n"}))


def test_not_utf8_names_the_file():
    with pytest.raises(FormatError, match=r"SCUs.txt: not UTF-8 text \(byte 0xFF at offset 0\)"):
        lite_pyramid.read([SourceFile("ids.txt", b"D1\n"), SourceFile("SCUs.txt", b"\xff")])


def test_written_files_read_back():
    source = realsumm_source()
    written = realsumm.write_batch(source.documents, source.peers, source.answers)
    again = realsumm.read(
        files(**{"SCUs_list.csv": realsumm.write_units(source.documents), "b.csv": written})
    )
    assert [(a.document, a.system, a.judge, a.answers) for a in again.answers] == [
        (a.document, a.system, a.judge, a.answers) for a in source.answers
    ]
