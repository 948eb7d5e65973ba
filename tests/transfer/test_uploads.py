"""annotator.transfer.uploads: zips opened safely, sizes enforced, texts decoded, file names
understood."""

import io
import zipfile

import pytest

from annotator.transfer.uploads import (
    SummaryName,
    UploadedFile,
    UploadRefused,
    decode_text,
    read_upload,
    summary_name,
    unsafe_path,
)


def zipped(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_gives_its_files_without_folders_and_junk():
    data = zipped(
        {"D1/": b"", "D1.model.A.txt": b"A.", "__MACOSX/._x": b"junk", "sub/.DS_Store": b"junk"}
    )
    assert [(f.name, f.data) for f in read_upload("up.zip", data, 100, 1000)] == [
        ("D1.model.A.txt", b"A.")
    ]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("../evil.txt", "climbs out"),
        ("a/../../evil.txt", "climbs out"),
        ("/etc/passwd", "absolute"),
        ("C:/x.txt", "absolute"),
        ("a\\..\\b.txt", "backslash"),
    ],
)
def test_path_traversal_entries_are_refused(name, reason):
    assert reason in unsafe_path(name)
    with pytest.raises(UploadRefused) as refused:
        read_upload("up.zip", zipped({name: b"x", "fine.model.A.txt": b"y"}), 100, 1000)
    (problem,) = refused.value.problems  # the good entry is fine; nothing is returned all the same
    assert problem.startswith(f"up.zip: {name}: refused, its ")
    assert reason in problem


def test_sizes_are_enforced_per_file_and_in_total_and_every_problem_is_listed():
    data = zipped({"a.txt": b"x" * 101, "b.txt": b"x" * 50, "c.txt": b"x" * 101})
    with pytest.raises(UploadRefused) as refused:
        read_upload("up.zip", data, 100, 1000)
    assert [p.split(": ")[1] for p in refused.value.problems] == ["a.txt", "c.txt"]
    with pytest.raises(UploadRefused, match="unpacks to more than the 120 bytes"):
        read_upload("up.zip", zipped({"a.txt": b"x" * 100, "b.txt": b"x" * 100}), 100, 120)
    with pytest.raises(UploadRefused, match="more than the 10 allowed per file"):
        read_upload("one.txt", b"x" * 11, 10, 1000)


def test_a_zip_lying_about_its_sizes_is_measured_on_what_it_holds():
    data = bytearray(zipped({"a.txt": b"x" * 500}))
    # Make the central directory claim the entry is 5 bytes long.
    at = data.rfind(b"PK\x01\x02")
    data[at + 24 : at + 28] = (5).to_bytes(4, "little")
    with pytest.raises(UploadRefused, match="a.txt"):
        read_upload("up.zip", bytes(data), 100, 1000)


def test_a_broken_zip_says_so():
    with pytest.raises(UploadRefused, match="not a readable zip file"):
        read_upload("up.zip", b"PK\x03\x04 this is not a zip", 100, 1000)


def test_text_must_be_utf8_and_not_empty():
    assert decode_text(UploadedFile("a.txt", "\ufeffÉté".encode())) == "Été"  # the BOM goes
    with pytest.raises(UploadRefused) as refused:
        decode_text(UploadedFile("a.txt", "Été".encode("latin-1")))
    assert refused.value.problems == [
        "a.txt: not UTF-8 text (byte 0xC9 at offset 0); save it as UTF-8 and upload it again"
    ]
    with pytest.raises(UploadRefused, match="empty"):
        decode_text(UploadedFile("a.txt", b"  \n"))


def test_a_text_holding_a_nul_character_is_refused_naming_the_file_and_the_line():
    """PostgreSQL text cannot hold a NUL: the job failed with "unexpected error" (issue 16)."""
    with pytest.raises(UploadRefused) as refused:
        decode_text(UploadedFile("D0601.model.A.txt", b"First line.\r\nSecond\x00 line.\x00\n"))
    assert refused.value.problems == [
        "D0601.model.A.txt: holds a NUL character (line 2, column 7), which no text may hold; "
        "remove it and upload it again"
    ]


def test_line_breaks_are_stored_as_line_feeds_whatever_wrote_them():
    assert (
        decode_text(UploadedFile("a.txt", b"One.\r\nTwo.\rThree.\n\n")) == "One.\nTwo.\nThree."
    )  # no blank around


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("D0601.model.A.txt", SummaryName("D0601", "model", "A")),
        ("D0601.Peer.10", SummaryName("D0601", "peer", "10")),
        ("batch/D0601/peers/10.txt", SummaryName("D0601", "peer", "10")),
        ("D0601/model/A.txt", SummaryName("D0601", "model", "A")),
        ("D0601.M.250.A.H", SummaryName("D0601", "model", "H")),
        ("D0601.M.250.A.10", SummaryName("D0601", "peer", "10")),
        (
            "D0601.M.250.B.06",
            SummaryName("D0601", "peer", "6"),
        ),  # NIST writes some system ids with a zero
        ("D0601.peer.06.txt", SummaryName("D0601", "peer", "6")),
        ("D0736-A.M.100.H.35.txt", SummaryName("D0736-A", "peer", "35")),
        ("notes.txt", None),
        ("D0601.summary.A.txt", None),
    ],
)
def test_summary_names(path, expected):
    assert summary_name(path) == expected
