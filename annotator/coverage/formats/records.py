"""What a unit file holds, as plain records: documents (a docset's units), peers (a system's
summary of a document) and answers (one judge's present/absent answers for a peer), and the
oddities met while reading, each naming its file, line and field.

Real files break their own rules (a BLANK statement answered, a statement whose text differs from
the units list, a missing answer, a ragged label line): a reader keeps what it can read, reports
the rest as an oddity, and gives up (FormatError) only when nothing at all can be read."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Oddity:
    """Something read but not as the format says, or left aside."""

    file: str
    line: int | None  # 1-based, as an editor shows it; None for the file as a whole
    field: str  # the column or part of the line, "" for the whole line
    message: str

    def __str__(self) -> str:
        where = self.file + (f", line {self.line}" if self.line else "")
        return f"{where}{', ' + self.field if self.field else ''}: {self.message}"


class FormatError(Exception):
    """Nothing could be read: every problem found, each naming its file, line and field."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class SourceFile:
    """A file to read: its path (relative to the folder or the zip) and bytes."""

    name: str
    data: bytes


@dataclass(frozen=True)
class SourceUnit:
    external_id: str  # REALSumm's questionId; "" where the format has none (Lite Pyramid)
    text: str


@dataclass
class SourceDocument:
    """A docset's units, in the order judges see them."""

    name: str
    units: list[SourceUnit]
    reference: str | None = None  # the model summary the units were written from, if given


@dataclass(frozen=True)
class SourcePeer:
    document: str
    system: str
    text: str


@dataclass
class SourceAnswers:
    """One judge's answers for one peer: unit index in its document -> present."""

    document: str
    system: str
    judge: str  # "crowd 1", "crowd 2", ... (REALSumm), "labels" (Lite Pyramid)
    answers: dict[int, bool]


@dataclass
class UnitSource:
    """Everything read from a set of files of one format."""

    format: str  # "realsumm" or "lite-pyramid"
    documents: list[SourceDocument] = field(default_factory=list)
    peers: list[SourcePeer] = field(default_factory=list)
    answers: list[SourceAnswers] = field(default_factory=list)
    oddities: list[Oddity] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # the files read
    ignored: list[str] = field(default_factory=list)  # files of the folder that are not read

    @property
    def systems(self) -> list[str]:
        return sorted({peer.system for peer in self.peers})


def decode(file: SourceFile) -> str:
    """The file's text (UTF-8, a byte-order mark dropped); FormatError naming the first bad
    byte."""
    try:
        return file.data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FormatError(
            [
                f"{file.name}: not UTF-8 text (byte 0x{file.data[error.start]:02X} at offset "
                f"{error.start})"
            ]
        ) from None


def base_name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]
