"""Reading uploads safely, and what their file names say.

An upload is one file, or a zip of files. Everything is checked before anything is stored, and
every problem is reported at once (UploadRefused holds them all):
- zip entries: no absolute paths, no "..", no backslashes or drive letters (path traversal), no
  more than MAX_ENTRIES files, none larger than the per-file limit and all together no larger than
  the upload limit, measured on the bytes actually read (a zip's declared sizes can lie);
- text: UTF-8 (a byte-order mark is dropped), not empty.

Summary file names (SUMMARY_NAMING, shown on the upload page):
    D0601.model.A.txt    our convention: docset, "model" or "peer", author or system id
    D0601/peer/10.txt    the same in folders (docset/kind/author)
    D0601.M.250.A.H      DUC's: docset, task, length, assessor, summarizer; a summarizer letter is a
    D0736-A.M.100.H.35   human (a model summary), a number a system (a peer); update-task docsets
                         carry their "-A"/"-B" part. An optional ".txt" is allowed.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Protocol

from annotator.ducview.names import system_id

MAX_ENTRIES = 10_000
SUMMARY_MAX_BYTES = 1024 * 1024  # a summary is a few hundred words: a bigger file is a mistake
DUCVIEW_MAX_BYTES = 20 * 1024 * 1024
IGNORED = ("__MACOSX/",)

SUMMARY_NAMING = [
    ("D0601.model.A.txt", "docset D0601, model summary by A"),
    ("D0601.peer.10.txt", "docset D0601, peer summary of system 10"),
    ("D0601/model/A.txt", "the same in folders: docset/kind/author"),
    ("D0601.M.250.A.H", "DUC: summarizer H is a letter, so a model summary"),
    ("D0601.M.250.A.10", "DUC: summarizer 10 is a number, so a peer summary"),
    ("D0736-A.M.100.H.35", "DUC update task: docset D0736-A, peer 35"),
]
OWN_NAME = re.compile(
    r"^(?P<docset>[\w-]+)\.(?P<kind>model|peer)\.(?P<author>[\w-]+)(?:\.txt)?$", re.I
)
DUC_NAME = re.compile(
    r"^(?P<docset>D\d+[A-Za-z]?(?:-[A-Z])?)\.[A-Z]\.\d+\.[A-Z]\.(?P<author>[A-Za-z]|\d+)(?:\.txt)?$"
)
FOLDER_KINDS = {"model": "model", "models": "model", "peer": "peer", "peers": "peer"}


class UploadRefused(Exception):
    """Every problem found in an upload; nothing of it was stored."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


class Upload(Protocol):
    """A file of an upload: an UploadedFile, or a ZipMember (unpacked when its data is read)."""

    @property
    def name(self) -> str: ...
    @property
    def data(self) -> bytes: ...


@dataclass(frozen=True)
class UploadedFile:
    name: str  # the path inside the zip, or the file's name
    data: bytes


@dataclass(frozen=True)
class SummaryName:
    docset: str
    kind: str  # "model" or "peer"
    author: str


def is_zip(name: str, data: bytes) -> bool:
    return name.lower().endswith(".zip") or data[:4] == b"PK\x03\x04"


def unsafe_path(name: str) -> str | None:
    """Why a zip entry's path could write outside the folder it is unpacked in, or None."""
    if "\x00" in name:
        return "its name holds a NUL byte"
    if "\\" in name:
        return "its name holds a backslash"
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        return "its path is absolute"
    if ".." in PurePosixPath(name).parts:
        return "its path climbs out of the archive (..)"
    return None


def _wanted(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The zip's files, without folders, macOS' resource forks and hidden files."""
    return [
        e
        for e in archive.infolist()
        if not e.is_dir()
        and not e.filename.startswith(IGNORED)
        and not PurePosixPath(e.filename).name.startswith(".")
    ]


def _entry_problem(where: str, entry: zipfile.ZipInfo, max_file_bytes: int) -> str | None:
    """What is wrong with a zip entry by its name and declared size, or None."""
    reason = unsafe_path(entry.filename)
    if reason:
        return f"{where}: refused, {reason}"
    if entry.file_size > max_file_bytes:
        return (
            f"{where}: {entry.file_size:,} bytes, more than the {max_file_bytes:,} allowed per file"
        )
    return None


def check_before_storing(files, max_file_bytes: int, max_total_bytes: int) -> None:
    """What can be told of uploaded files before anything of them is stored (issue 16: a 99 MiB
    .pyr was kept in the job, read by a worker, and only then refused): a file over the per-file
    limit, and a zip's entries by their names, number and declared sizes (read from its directory,
    without unpacking it). The worker checks the bytes actually unpacked again (a zip can lie).
    UploadRefused with every problem."""
    problems: list[str] = []
    for file in files:
        file.seek(0)
        head = file.read(4)
        file.seek(0)
        if not is_zip(file.name, head):
            if file.size > max_file_bytes:
                problems.append(
                    f"{file.name}: {file.size:,} bytes, more than the {max_file_bytes:,} allowed "
                    "per file"
                )
            continue
        try:
            wanted = _wanted(zipfile.ZipFile(file))
        except (zipfile.BadZipFile, OSError) as error:
            problems.append(f"{file.name}: not a readable zip file ({error})")
            continue
        finally:
            file.seek(0)
        if len(wanted) > MAX_ENTRIES:
            problems.append(
                f"{file.name}: {len(wanted):,} files, more than the {MAX_ENTRIES:,} allowed in one "
                "zip"
            )
            continue
        problems.extend(
            filter(
                None,
                (_entry_problem(f"{file.name}: {e.filename}", e, max_file_bytes) for e in wanted),
            )
        )
        if sum(e.file_size for e in wanted) > max_total_bytes:
            problems.append(
                f"{file.name}: unpacks to more than the {max_total_bytes:,} bytes allowed in one "
                "upload"
            )
    if problems:
        raise UploadRefused(problems)


class ZipMember:
    """A file of an uploaded zip, unpacked when its bytes are asked for: the files of a zip are
    read one at a time, never all held at once (read_upload has measured each)."""

    def __init__(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo):
        self.archive, self.info, self.name = archive, info, info.filename

    @property
    def data(self) -> bytes:
        with self.archive.open(self.info) as stream:
            return stream.read()

    def __repr__(self):
        return f"ZipMember({self.name!r})"


def _unpacked_size(archive: zipfile.ZipFile, entry: zipfile.ZipInfo, limit: int) -> int:
    """The bytes the entry unpacks to, measured a piece at a time, up to limit + 1."""
    size = 0
    with archive.open(entry) as stream:
        while size <= limit and (piece := stream.read(min(64 * 1024, limit + 1 - size))):
            size += len(piece)
    return size


def read_upload(name: str, source, max_file_bytes: int, max_total_bytes: int) -> list[Upload]:
    """The files of an upload (bytes, or a binary file at its start; a zip is opened), checked for
    size and safety on the bytes they actually hold; UploadRefused with every problem if not.
    A zip's files are measured here and read when used (the zip's file must stay open till then)."""
    if isinstance(source, (bytes, bytearray)):
        source = io.BytesIO(source)
    head = source.read(4)
    source.seek(0)
    if not is_zip(name, head):
        data = source.read(max_file_bytes + 1)
        if len(data) > max_file_bytes:
            size = source.seek(0, io.SEEK_END)
            raise UploadRefused(
                [f"{name}: {size:,} bytes, more than the {max_file_bytes:,} allowed per file"]
            )
        return [UploadedFile(name, data)]
    try:
        archive = zipfile.ZipFile(source)
        wanted = _wanted(archive)
    except (zipfile.BadZipFile, OSError) as error:
        raise UploadRefused([f"{name}: not a readable zip file ({error})"]) from None
    problems: list[str] = []
    files: list[Upload] = []
    total = 0
    if len(wanted) > MAX_ENTRIES:
        raise UploadRefused(
            [f"{name}: {len(wanted):,} files, more than the {MAX_ENTRIES:,} allowed in one zip"]
        )
    for entry in wanted:
        where = f"{name}: {entry.filename}"
        problem = _entry_problem(where, entry, max_file_bytes)
        if problem:
            problems.append(problem)
            continue
        try:
            size = _unpacked_size(
                archive, entry, max_file_bytes
            )  # never more, whatever the entry claims
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as error:
            problems.append(f"{where}: cannot be read ({error})")
            continue
        if size > max_file_bytes:
            problems.append(f"{where}: more than the {max_file_bytes:,} bytes allowed per file")
            continue
        total += size
        if total > max_total_bytes:
            problems.append(
                f"{name}: unpacks to more than the {max_total_bytes:,} bytes allowed in one upload"
            )
            break
        files.append(ZipMember(archive, entry))
    if problems:
        raise UploadRefused(problems)
    if not files:
        raise UploadRefused([f"{name}: the zip holds no files"])
    return files


def summary_text(text: str) -> str:
    """A summary's text as stored, whatever wrote it: line breaks as "\\n" (Windows' CRLF, old
    Mac's CR) and no blank space around it. Offsets into it then mean the same in every export;
    XML readers, which turn CR into LF, read back the text stored; and DUCView's layout, which
    keeps a model summary without the blank lines around it, gives it back unchanged."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def decode_text(file: Upload) -> str:
    """The file's text; UploadRefused naming the file and the first bad byte if it is not UTF-8,
    or the line and column of the first NUL character."""
    try:
        text = file.data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UploadRefused(
            [
                f"{file.name}: not UTF-8 text (byte 0x{file.data[error.start]:02X} at offset "
                f"{error.start}); save it as UTF-8 and upload it again"
            ]
        ) from None
    if "\x00" in text:  # valid UTF-8, but PostgreSQL text cannot hold it (and no summary means it)
        # Lines as an editor shows them (CRLF and CR are one line break each).
        before = text[: text.index("\x00")].replace("\r\n", "\n").replace("\r", "\n")
        line, column = before.count("\n") + 1, len(before) - before.rfind("\n")
        raise UploadRefused(
            [
                f"{file.name}: holds a NUL character (line {line}, column {column}), which no text "
                "may hold; remove it and upload it again"
            ]
        )
    if not text.strip():
        raise UploadRefused([f"{file.name}: the file is empty"])
    return summary_text(text)


def summary_name(path: str) -> SummaryName | None:
    """Docset, kind and author from a summary's file name (see SUMMARY_NAMING), or None."""
    parts = PurePosixPath(path).parts
    base = parts[-1] if parts else path
    own = OWN_NAME.match(base)
    if own:
        kind = own["kind"].lower()
        return SummaryName(
            own["docset"], kind, system_id(own["author"]) if kind == "peer" else own["author"]
        )
    duc = DUC_NAME.match(base)
    if duc:
        author = duc["author"]
        return (
            SummaryName(duc["docset"], "peer", system_id(author))
            if author.isdigit()
            else SummaryName(duc["docset"], "model", author)
        )
    if len(parts) >= 3 and parts[-2].lower() in FOLDER_KINDS:
        author = re.sub(r"\.txt$", "", base, flags=re.I)
        if re.fullmatch(r"[\w-]+", author) and re.fullmatch(r"[\w-]+", parts[-3]):
            return SummaryName(parts[-3], FOLDER_KINDS[parts[-2].lower()], author)
    return None
