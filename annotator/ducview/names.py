"""What a DUCView file is about: docset, peer and annotator, from its name or its export note.

DUC names:  100.D0601.M.250.A.10.pan   annotator 100, docset D0601, peer 10
            D0703.M.250.A.9.pan        docset D0703, peer 9 (no annotator: "A" is the assessor who
                                       wrote the topic; NIST's annotator table lists 102)
            D0736-A.M.100.H.35.pan     docset D0736-A, peer 35, annotator H (update-task names: the
                                       letter is the annotator, as NIST's 2007 update table says)
            D0703-ACDJ.pyr             docset D0703 (built from models A, C, D and J)
Files written by export_ducview start with a comment that says the same whatever their name:
            <!-- pyramid-annotator: docset="D0601" peer="10" annotator="100" pyramid="D0601" status="submitted" -->
(with the pyramid's name and the record's status, which DUCView files cannot hold).
"""  # noqa: E501 (the export note above is one line, as export_ducview writes it)

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import PurePath

PAN_NAME = re.compile(
    r"^(?:(?P<annotator>\d+)\.)?(?P<docset>D\d+[A-Za-z]?(?:-[A-Z])?)\.[A-Z]\.\d+\.(?P<assessor>[A-Z])\.(?P<peer>\w+)\.pan$"
)
PYR_NAME = re.compile(r"^(?P<docset>D\d+[A-Za-z]?(?:-[A-Z])?)(?:-[A-Z]+)?\.pyr$")
EXPORT_NOTE = re.compile(rb"<!--\s*pyramid-annotator:(?P<fields>[^>]*?)-->")
NOTE_FIELD = re.compile(r'(\w+)="([^"]*)"')


def system_id(written: str) -> str:
    """A peer or system id as one value however it is written: NIST names some files ...B.06.pan
    and others ...A.6.pan for one system, so a number loses its leading zeros ("06" -> "6").

    >>> system_id("06"), system_id("6"), system_id("0"), system_id("H"), system_id("C06")
    ('6', '6', '0', 'H', 'C06')
    """
    return str(int(written)) if written.isdigit() else written


@dataclass
class FileIdentity:
    docset: str | None = None
    peer: str | None = None  # as written in the file name (system_id gives the id it stands for)
    annotator: str | None = None
    # Only in export notes: the pyramid's name, and the record's status ("in_progress",
    # "submitted"), which DUCView files cannot say.
    pyramid: str | None = None
    status: str | None = None

    def overridden_by(self, other: FileIdentity) -> FileIdentity:
        return FileIdentity(
            docset=other.docset or self.docset,
            peer=other.peer or self.peer,
            annotator=other.annotator if other.annotator is not None else self.annotator,
            pyramid=other.pyramid or self.pyramid,
            status=other.status or self.status,
        )


def identity_from_name(path: PurePath) -> FileIdentity:
    name = path.name
    pan = PAN_NAME.match(name)
    if pan:
        annotator = pan["annotator"]
        if annotator is None and "-" in pan["docset"]:
            annotator = pan["assessor"]
        return FileIdentity(docset=pan["docset"], peer=pan["peer"], annotator=annotator)
    pyr = PYR_NAME.match(name)
    if pyr:
        return FileIdentity(docset=pyr["docset"])
    return FileIdentity()


def identity_from_note(data: bytes) -> FileIdentity:
    note = EXPORT_NOTE.search(data[:2000])
    if not note:
        return FileIdentity()
    fields = {
        key: html.unescape(value)
        for key, value in NOTE_FIELD.findall(note["fields"].decode("utf-8", "replace"))
    }
    return FileIdentity(
        docset=fields.get("docset"),
        peer=fields.get("peer"),
        annotator=fields.get("annotator"),
        pyramid=fields.get("pyramid"),
        status=fields.get("status"),
    )


def export_note(
    docset: str,
    peer: str | None = None,
    annotator: str | None = None,
    *,
    pyramid: str | None = None,
    status: str | None = None,
) -> str:
    def clean(value: str) -> str:
        # Inside an XML comment: no "--", no ">" ending it early; quotes end the field.
        return html.escape(value, quote=True).replace("--", "-&#45;")

    fields = [f'docset="{clean(docset)}"']
    for name, value in (
        ("peer", peer),
        ("annotator", annotator),
        ("pyramid", pyramid),
        ("status", status),
    ):
        if value is not None:
            fields.append(f'{name}="{clean(value)}"')
    return f"<!-- pyramid-annotator: {' '.join(fields)} -->"
