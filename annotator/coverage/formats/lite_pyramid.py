"""Lite²/Lite³Pyramid's folder (Zhang & Bansal 2021; github.com/ZhangShiyue/Lite2-3Pyramid, data/):

    ids.txt                  one document id a line (the docset)
    SCUs.txt                 that document's units, tab-separated, a line per document
    references.txt           optional: the reference summary the units were written from
    summaries/<system>.summary   the system's summary of each document, a line each
    labels/<system>.label    0/1 per unit, tab-separated, a line per document: the final
                             (majority) label of each unit in that system's summary

Every file's lines follow ids.txt. The labels are final labels, not a judge's answers: they are
read as one judge named "labels" per system and document. The system is the file's stem as it
is ("abs_bart_out"). An empty label line means the document was not judged (as write() writes a
peer without labels); an empty summary line with no labels, that the system has no summary there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from annotator.coverage.formats.records import (
    FormatError,
    Oddity,
    SourceAnswers,
    SourceDocument,
    SourceFile,
    SourcePeer,
    SourceUnit,
    UnitSource,
    base_name,
    decode,
)

LABELS_JUDGE = "labels"
LABELS = {"1": True, "0": False}


def _lines(file: SourceFile) -> list[str]:
    """The file's lines: "\\n" ends a line ("\\r\\n" too); the last needs no line end. Never
    str.splitlines, which also breaks at characters summaries hold (U+2028, form feeds)."""
    text = decode(file)
    if text.endswith("\n"):
        text = text[:-1]
    return [line.removesuffix("\r") for line in text.split("\n")] if text else []


def _one(files: Sequence[SourceFile], name: str, required: bool) -> SourceFile | None:
    found = [f for f in files if base_name(f.name) == name]
    if len(found) > 1:
        raise FormatError(
            [
                f"{len(found)} files named {name} ("
                + ", ".join(f.name for f in found)
                + "): give one folder"
            ]
        )
    if required and not found:
        raise FormatError([f"no {name}: a Lite Pyramid folder holds ids.txt and SCUs.txt"])
    return found[0] if found else None


def _by_system(files: Sequence[SourceFile], suffix: str) -> dict[str, SourceFile]:
    systems: dict[str, SourceFile] = {}
    for file in files:
        name = base_name(file.name)
        if name.endswith(suffix) and len(name) > len(suffix):
            system = name.removesuffix(suffix)
            if system in systems:
                raise FormatError(
                    [f"two files for system {system}: {systems[system].name}, {file.name}"]
                )
            systems[system] = file
    return systems


@dataclass
class _Document:
    name: str
    line: int  # its line in every file, 1-based
    columns: dict[int, int]  # SCUs.txt column -> unit index (empty units left aside)
    width: int  # columns of its SCUs.txt line, empty units included: the labels it takes
    source: SourceDocument


def _ragged(file: SourceFile, lines: list[str], documents: int, source: UnitSource) -> None:
    if len(lines) != documents:
        source.oddities.append(
            Oddity(file.name, None, "", f"{len(lines)} lines where ids.txt has {documents}")
        )


def read(files: Sequence[SourceFile]) -> UnitSource:
    source = UnitSource("lite-pyramid")
    ids_file = _one(files, "ids.txt", required=True)
    units_file = _one(files, "SCUs.txt", required=True)
    reference_file = _one(files, "references.txt", required=False)
    summaries = _by_system(files, ".summary")
    labels = _by_system(files, ".label")
    assert ids_file is not None
    assert units_file is not None
    read_files = [ids_file, units_file, reference_file, *summaries.values(), *labels.values()]
    source.files = [f.name for f in read_files if f]
    source.ignored = sorted({f.name for f in files} - set(source.files))

    ids = _lines(ids_file)
    unit_lines = _lines(units_file)
    _ragged(units_file, unit_lines, len(ids), source)
    references = _lines(reference_file) if reference_file else []
    if reference_file:
        _ragged(reference_file, references, len(ids), source)
    documents: list[_Document] = []
    seen: set[str] = set()
    for line, (name, units) in enumerate(zip(ids, unit_lines), start=1):
        name = name.strip()
        if not name or name in seen:
            why = "an empty id" if not name else f"{name} again"
            source.oddities.append(Oddity(ids_file.name, line, "", f"{why}; line left aside"))
            continue
        seen.add(name)
        columns: dict[int, int] = {}
        texts: list[SourceUnit] = []
        for column, text in enumerate(units.split("\t"), start=1):
            if not text.strip():
                source.oddities.append(
                    Oddity(units_file.name, line, f"unit {column}", "empty; left aside")
                )
                continue
            columns[column] = len(texts)
            texts.append(SourceUnit("", text.strip()))
        if not texts:
            source.oddities.append(Oddity(units_file.name, line, "", f"{name} has no unit"))
            continue
        reference = references[line - 1].strip() if line <= len(references) else ""
        read_document = SourceDocument(name, texts, reference or None)
        documents.append(_Document(name, line, columns, len(units.split("\t")), read_document))
        source.documents.append(read_document)
    if not source.documents:
        raise FormatError([f"{units_file.name}: no document has units"])

    for system in sorted(labels.keys() - summaries.keys()):
        source.oddities.append(
            Oddity(
                labels[system].name, None, "", f"no summaries/{system}.summary; labels left aside"
            )
        )
    for system, summary_file in sorted(summaries.items()):
        texts_by_line = _lines(summary_file)
        _ragged(summary_file, texts_by_line, len(ids), source)
        label_file = labels.get(system)
        label_lines = _lines(label_file) if label_file else []
        if label_file:
            _ragged(label_file, label_lines, len(ids), source)
        for document in documents:
            text = texts_by_line[document.line - 1] if document.line <= len(texts_by_line) else ""
            labelled = document.line <= len(label_lines) and label_lines[document.line - 1].strip()
            if not text.strip() and not labelled:
                continue  # no summary of this document by this system
            if not text.strip():
                source.oddities.append(
                    Oddity(summary_file.name, document.line, "", "empty summary, labelled")
                )
            source.peers.append(SourcePeer(document.name, system, text))
            if label_file and labelled:
                answers = _labels(label_file, document, label_lines[document.line - 1], source)
                if answers:
                    source.answers.append(
                        SourceAnswers(document.name, system, LABELS_JUDGE, answers)
                    )
    return source


def _labels(
    file: SourceFile, document: _Document, line: str, source: UnitSource
) -> dict[int, bool]:
    values = line.split("\t")
    if len(values) != document.width:
        source.oddities.append(
            Oddity(
                file.name,
                document.line,
                "",
                f"{len(values)} labels for {document.width} units of {document.name}; those "
                "there kept",
            )
        )
    answers: dict[int, bool] = {}
    for column, value in enumerate(values, start=1):
        index = document.columns.get(column)
        if index is None:
            continue  # an empty unit, or a label past the last unit
        if value.strip() not in LABELS:
            source.oddities.append(
                Oddity(file.name, document.line, f"label {column}", f"{value!r} is neither 0 nor 1")
            )
            continue
        answers[index] = LABELS[value.strip()]
    return answers


# -- writing ---------------------------------------------------------------------------------------


def one_line(text: str) -> str:
    """A text on one line with no tab: the format's separators."""
    return " ".join(text.split())


def write(
    documents: Sequence[SourceDocument],
    peers: Sequence[SourcePeer],
    labels: dict[tuple[str, str], list[bool]],
) -> dict[str, str]:
    """The folder's files by path: ids.txt, SCUs.txt, references.txt (when every document has a
    reference), summaries/<system>.summary and labels/<system>.label. `labels`: (document,
    system) -> each unit's label; a peer without them gets an empty label line."""
    files = {
        "ids.txt": "\n".join(d.name for d in documents) + "\n",
        "SCUs.txt": "\n".join("\t".join(one_line(u.text) for u in d.units) for d in documents)
        + "\n",
    }
    if documents and all(d.reference for d in documents):
        files["references.txt"] = "\n".join(one_line(d.reference or "") for d in documents) + "\n"
    texts = {(p.document, p.system): p.text for p in peers}
    for system in sorted({p.system for p in peers}):
        files[f"summaries/{system}.summary"] = (
            "\n".join(one_line(texts.get((d.name, system), "")) for d in documents) + "\n"
        )
        files[f"labels/{system}.label"] = (
            "\n".join(
                "\t".join("1" if present else "0" for present in labels.get((d.name, system), []))
                for d in documents
            )
            + "\n"
        )
    return files
