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

from .ducview.names import system_id

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
OWN_NAME = re.compile(r"^(?P<docset>[\w-]+)\.(?P<kind>model|peer)\.(?P<author>[\w-]+)(?:\.txt)?$", re.I)
DUC_NAME = re.compile(r"^(?P<docset>D\d+[A-Za-z]?(?:-[A-Z])?)\.[A-Z]\.\d+\.[A-Z]\.(?P<author>[A-Za-z]|\d+)(?:\.txt)?$")
FOLDER_KINDS = {"model": "model", "models": "model", "peer": "peer", "peers": "peer"}


class UploadRefused(Exception):
    """Every problem found in an upload; nothing of it was stored."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class UploadedFile:
    name: str  # the path inside the zip, or the file's name
    data: bytes


@dataclass(frozen=True)
class SummaryName:
    docset: str
    kind: str  # "model" or "peer"
    author: str


def one_blob(files) -> tuple[str, bytes]:
    """One zip, or the several uploaded files packed into one (an import job keeps one blob)."""
    if len(files) == 1:
        return files[0].name, files[0].read()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            archive.writestr(file.name, file.read())
    return f"{len(files)} files", buffer.getvalue()  # a zip by its bytes (is_zip), not by this name


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


def read_upload(name: str, data: bytes, max_file_bytes: int, max_total_bytes: int) -> list[UploadedFile]:
    """The files of an upload (a zip is opened), checked for size and safety; UploadRefused if not."""
    if not is_zip(name, data):
        if len(data) > max_file_bytes:
            raise UploadRefused([f"{name}: {len(data):,} bytes, more than the {max_file_bytes:,} allowed per file"])
        return [UploadedFile(name, data)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, OSError) as error:
        raise UploadRefused([f"{name}: not a readable zip file ({error})"]) from None
    problems: list[str] = []
    files: list[UploadedFile] = []
    total = 0
    wanted = [e for e in entries if not e.is_dir() and not e.filename.startswith(IGNORED)
              and not PurePosixPath(e.filename).name.startswith(".")]
    if len(wanted) > MAX_ENTRIES:
        raise UploadRefused([f"{name}: {len(wanted):,} files, more than the {MAX_ENTRIES:,} allowed in one zip"])
    for entry in wanted:
        where = f"{name}: {entry.filename}"
        reason = unsafe_path(entry.filename)
        if reason:
            problems.append(f"{where}: refused, {reason}")
            continue
        if entry.file_size > max_file_bytes:
            problems.append(f"{where}: {entry.file_size:,} bytes, more than the {max_file_bytes:,} allowed per file")
            continue
        try:
            with archive.open(entry) as stream:
                content = stream.read(max_file_bytes + 1)  # never more, whatever the entry claims
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError) as error:
            problems.append(f"{where}: cannot be read ({error})")
            continue
        if len(content) > max_file_bytes:
            problems.append(f"{where}: more than the {max_file_bytes:,} bytes allowed per file")
            continue
        total += len(content)
        if total > max_total_bytes:
            problems.append(f"{name}: unpacks to more than the {max_total_bytes:,} bytes allowed in one upload")
            break
        files.append(UploadedFile(entry.filename, content))
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


def decode_text(file: UploadedFile) -> str:
    """The file's text; UploadRefused naming the file and the first bad byte if it is not UTF-8."""
    try:
        text = file.data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UploadRefused([
            f"{file.name}: not UTF-8 text (byte 0x{file.data[error.start]:02X} at offset {error.start}); "
            "save it as UTF-8 and upload it again"
        ]) from None
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
        return SummaryName(own["docset"], kind, system_id(own["author"]) if kind == "peer" else own["author"])
    duc = DUC_NAME.match(base)
    if duc:
        author = duc["author"]
        return SummaryName(duc["docset"], "peer", system_id(author)) if author.isdigit() else \
            SummaryName(duc["docset"], "model", author)
    if len(parts) >= 3 and parts[-2].lower() in FOLDER_KINDS:
        author = re.sub(r"\.txt$", "", base, flags=re.I)
        if re.fullmatch(r"[\w-]+", author) and re.fullmatch(r"[\w-]+", parts[-3]):
            return SummaryName(parts[-3], FOLDER_KINDS[parts[-2].lower()], author)
    return None
