"""What a DUCView file is about, from its name or the note export_ducview writes."""

from pathlib import Path

import pytest

from annotator.ducview.names import (
    FileIdentity,
    export_note,
    identity_from_name,
    identity_from_note,
)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("100.D0601.M.250.A.10.pan", FileIdentity("D0601", "10", "100")),
        ("D0703.M.250.A.9.pan", FileIdentity("D0703", "9", None)),
        ("D0736-A.M.100.H.35.pan", FileIdentity("D0736-A", "35", "H")),
        ("D0703-ACDJ.pyr", FileIdentity("D0703")),
        ("D0736-C-GHIJ.pyr", FileIdentity("D0736-C")),
        ("D0601.pyr", FileIdentity("D0601")),
        ("Becky_MATTER.pyr", FileIdentity()),
        ("notes.pan", FileIdentity()),
    ],
)
def test_identity_from_duc_names(name, expected):
    assert identity_from_name(Path("some/folder") / name) == expected


def test_the_export_note_round_trips_whatever_the_values_hold():
    note = export_note("D0601", "10", 'ann "x" -- <y>', pyramid="D0601 (2)", status="in_progress")
    assert "--" not in note[4:-3]
    assert ">" not in note[4:-3]
    data = f'<?xml version="1.0"?>\n{note}\n<!DOCTYPE peerAnnotation [\n'.encode()
    assert identity_from_note(data) == FileIdentity(
        "D0601", "10", 'ann "x" -- <y>', "D0601 (2)", "in_progress"
    )
    assert identity_from_note(b"<pyramid/>") == FileIdentity()


def test_overrides_win_but_keep_what_they_do_not_say():
    from_name = FileIdentity("D0601", "10", "100")
    assert from_name.overridden_by(FileIdentity(peer="11")) == FileIdentity("D0601", "11", "100")
    assert from_name.overridden_by(FileIdentity(annotator="")) == FileIdentity("D0601", "10", "")
