"""REALSumm's files (Bhandari et al. 2020; github.com/neulab/REALSumm, human_annotations/):

- `SCUs_list.csv` (eventId, questionId, questionText, answer, author, sourceSummaryId, forUse): the
  units of each document. eventId is the docset, questionId the unit's id (Unit.external_id),
  questionText its text; a document's units are ordered by questionId. REALSumm padded each
  document to a multiple of 16 units with `BLANK` rows (one HIT shows 16): those are no units.
- crowd batch CSVs (Amazon Mechanical Turk's results, one row per assignment): Input.eventId,
  Input.summaryId (the system, i.e. the peer's author), Input.qIdList (the HIT's questionIds, a
  Python list), Input.summary_text (the peer's text), Input.statement_1..16 and
  Answer.S1Answer..S16Answer (`p` present, `n` absent). Workers are not identified: the k-th row
  of a HIT (eventId, summaryId, qIdList) is judge "crowd k".

A file is told by its header, whatever its name. read() gives the records (formats.records);
write_units and write_batch write them back.
"""

from __future__ import annotations

import ast
import csv
import io
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from annotator.coverage.formats.records import (
    FormatError,
    Oddity,
    SourceAnswers,
    SourceDocument,
    SourceFile,
    SourcePeer,
    SourceUnit,
    UnitSource,
    decode,
)

BLANK = "BLANK"
UNIT_COLUMNS = (
    "eventId",
    "questionId",
    "questionText",
    "answer",
    "author",
    "sourceSummaryId",
    "forUse",
)
BATCH_INPUTS = ("Input.eventId", "Input.summaryId", "Input.qIdList", "Input.summary_text")
HIT_SIZE = 16  # statements per HIT, as REALSumm's MTurk template has them
ANSWERS = {"p": True, "n": False}


def _rows(file: SourceFile) -> tuple[list[str], Iterable[tuple[int, dict[str, str], int]]]:
    """The header, and each record with the line it starts on and its number of fields."""
    reader = csv.reader(io.StringIO(decode(file), newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise FormatError([f"{file.name}: the file is empty"]) from None
    except csv.Error as error:
        raise FormatError([f"{file.name}, line 1: not CSV ({error})"]) from None

    def records():
        line = reader.line_num + 1
        try:
            for fields in reader:
                if fields:
                    yield line, dict(zip(header, fields)), len(fields)
                line = reader.line_num + 1
        except csv.Error as error:
            raise FormatError([f"{file.name}, line {line}: not CSV ({error})"]) from None

    return header, records()


def _kind(file: SourceFile) -> str | None:
    """ "units", "batch", or None for a file of neither kind (told by its header)."""
    if not file.name.lower().endswith(".csv"):
        return None
    first = decode(file).split("\n", 1)[0]
    if "Input.eventId" in first:
        return "batch"
    if "questionId" in first:
        return "units"
    return None


def _id_order(external_id: str) -> tuple[int, int, str]:
    """questionIds are numbers: 2 before 10; any other id after them, by its text."""
    return (0, int(external_id), "") if external_id.isdigit() else (1, 0, external_id)


def read(files: Sequence[SourceFile]) -> UnitSource:
    source = UnitSource("realsumm")
    kinds = {file.name: _kind(file) for file in files}
    unit_files = [f for f in files if kinds[f.name] == "units"]
    batches = [f for f in files if kinds[f.name] == "batch"]
    source.ignored = sorted(name for name, kind in kinds.items() if kind is None)
    if not unit_files:
        raise FormatError(
            [
                "no units list: REALSumm's SCUs_list.csv (columns eventId, questionId, "
                "questionText, ...) is needed; read "
                + (", ".join(f.name for f in files) or "nothing")
            ]
        )
    units = _read_units(unit_files, source)
    hit_rows: Counter = Counter()  # rows met per HIT, over every batch file read
    for file in batches:
        _read_batch(file, units, source, hit_rows)
    source.answers = [a for a in source.answers if a.answers]
    return source


def _read_units(files: list[SourceFile], source: UnitSource) -> dict[str, dict[str, int]]:
    """The documents' units into `source`; returns each document's questionId -> unit index."""
    by_document: dict[str, dict[str, str]] = {}
    for file in files:
        header, records = _rows(file)
        missing = [c for c in ("eventId", "questionId", "questionText") if c not in header]
        if missing:
            raise FormatError([f"{file.name}, line 1: no column {', '.join(missing)}"])
        source.files.append(file.name)
        blanks = 0
        for line, row, _ in records:
            document, qid = row.get("eventId", "").strip(), row.get("questionId", "").strip()
            text = row.get("questionText", "").strip()
            if not document or not qid:
                field = "eventId" if not document else "questionId"
                source.oddities.append(Oddity(file.name, line, field, "empty; row left aside"))
                continue
            if text == BLANK:
                blanks += 1
                continue
            if not text:
                source.oddities.append(
                    Oddity(file.name, line, "questionText", f"empty; unit {qid} left aside")
                )
                continue
            known = by_document.setdefault(document, {})
            if qid in known:
                if known[qid] != text:
                    source.oddities.append(
                        Oddity(
                            file.name,
                            line,
                            "questionId",
                            f"{document} unit {qid} again, with another text; the first kept",
                        )
                    )
                continue
            known[qid] = text
        if blanks:
            source.oddities.append(
                Oddity(
                    file.name, None, "questionText", f"{blanks} BLANK rows (no units) left aside"
                )
            )
    index: dict[str, dict[str, int]] = {}
    for document, known in by_document.items():
        ids = sorted(known, key=_id_order)
        source.documents.append(SourceDocument(document, [SourceUnit(q, known[q]) for q in ids]))
        index[document] = {qid: i for i, qid in enumerate(ids)}
    if not source.documents:
        raise FormatError([f"{', '.join(f.name for f in files)}: holds no unit"])
    return index


def _question_ids(value: str) -> list[str] | None:
    """Input.qIdList, e.g. "['928', '929']", as strings; None if it is no list."""
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    if not isinstance(parsed, (list, tuple)):
        return None
    return [str(q).strip() for q in parsed]


def _read_batch(
    file: SourceFile, units: dict[str, dict[str, int]], source: UnitSource, hit_rows: Counter
) -> None:
    header, records = _rows(file)
    missing = [c for c in BATCH_INPUTS if c not in header]
    if missing:
        raise FormatError([f"{file.name}, line 1: no column {', '.join(missing)}"])
    slots = sorted(
        int(name.removeprefix("Input.statement_"))
        for name in header
        if name.startswith("Input.statement_") and name.removeprefix("Input.statement_").isdigit()
    )
    source.files.append(file.name)
    texts = {
        (d.name, i): u.text for d in source.documents for i, u in enumerate(d.units)
    }  # to check each statement against the units list
    peers = {(p.document, p.system): p for p in source.peers}
    answers = {(a.document, a.system, a.judge): a for a in source.answers}
    blanks = 0
    unknown_documents: Counter = Counter()
    for line, row, width in records:
        if width != len(header):
            source.oddities.append(
                Oddity(file.name, line, "", f"{width} fields where the header has {len(header)}")
            )
        document, system = (
            row.get("Input.eventId", "").strip(),
            row.get("Input.summaryId", "").strip(),
        )
        if not document or not system:
            field = "Input.eventId" if not document else "Input.summaryId"
            source.oddities.append(Oddity(file.name, line, field, "empty; row left aside"))
            continue
        if document not in units:
            unknown_documents[document] += 1
            continue
        qids = _question_ids(row.get("Input.qIdList", ""))
        if qids is None:
            source.oddities.append(
                Oddity(file.name, line, "Input.qIdList", "not a list of ids; row left aside")
            )
            continue
        text = row.get("Input.summary_text", "")
        peer = peers.get((document, system))
        if peer is None:
            peers[(document, system)] = peer = SourcePeer(document, system, text)
            source.peers.append(peer)
        elif peer.text != text:
            source.oddities.append(
                Oddity(
                    file.name,
                    line,
                    "Input.summary_text",
                    f"{system}'s summary of {document} differs from an earlier row's; the first "
                    "kept",
                )
            )
        hit_rows[(document, system, tuple(qids))] += 1
        judge = f"crowd {hit_rows[(document, system, tuple(qids))]}"
        judged = answers.get((document, system, judge))
        if judged is None:
            judged = answers[(document, system, judge)] = SourceAnswers(document, system, judge, {})
            source.answers.append(judged)
        for slot in slots:
            blanks += _read_statement(
                file,
                line,
                row,
                slot,
                qids,
                document,
                units[document],
                texts,
                judged,
                source.oddities,
            )
    if blanks:
        source.oddities.append(
            Oddity(file.name, None, "Input.statement_*", f"{blanks} BLANK statements left aside")
        )
    for document, rows in sorted(unknown_documents.items()):
        source.oddities.append(
            Oddity(
                file.name,
                None,
                "Input.eventId",
                f"{document} has no units in the units list: its {rows} rows left aside",
            )
        )


def _read_statement(
    file: SourceFile,
    line: int,
    row: dict,
    slot: int,
    qids: list[str],
    document: str,
    unit_index: dict[str, int],
    texts: dict,
    judged: SourceAnswers,
    oddities: list[Oddity],
) -> int:
    """A row's statement in `slot`: its answer stored for its unit, or an oddity said of the line.
    1 for a BLANK statement (they are counted once per file), else 0."""

    def say(field: str, message: str) -> None:
        oddities.append(Oddity(file.name, line, field, message))

    if f"Input.statement_{slot}" not in row or f"Answer.S{slot}Answer" not in row:
        return 0  # a short row (reported by the caller): these fields are not there
    statement = (row.get(f"Input.statement_{slot}") or "").strip()
    answer = (row.get(f"Answer.S{slot}Answer") or "").strip()
    field = f"Answer.S{slot}Answer"
    if statement == BLANK:
        if answer == "p":
            say(field, "a BLANK statement answered p; left aside")
        return 1
    qid = qids[slot - 1] if slot <= len(qids) else None
    if qid is None:
        if statement:
            say(f"Input.statement_{slot}", "a statement beyond Input.qIdList; left aside")
        return 0
    index = unit_index.get(qid)
    if index is None:
        say(f"Input.statement_{slot}", f"unit {qid} is not among {document}'s units; left aside")
        return 0
    if statement != texts[(document, index)]:
        say(
            f"Input.statement_{slot}",
            f"{statement!r} differs from unit {qid}'s text in the units list "
            f"({texts[(document, index)]!r}); the answer kept for unit {qid}",
        )
    if not answer:
        say(field, f"no answer for unit {qid} of {document}")
    elif answer not in ANSWERS:
        say(field, f"answer {answer!r} for unit {qid} of {document} is neither p nor n; left aside")
    elif index in judged.answers:
        say(field, f"unit {qid} of {document} answered twice by {judged.judge}; the first kept")
    else:
        judged.answers[index] = ANSWERS[answer]
    return 0


# -- writing ---------------------------------------------------------------------------------------


def write_units(documents: Sequence[SourceDocument]) -> str:
    """SCUs_list.csv: every unit with its questionId (the caller gives each unit one), no BLANK
    rows (they are no units: write_batch pads each HIT instead)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(UNIT_COLUMNS)
    for document in documents:
        for unit in document.units:
            writer.writerow([document.name, unit.external_id, unit.text, "Y", "", document.name, 1])
    return out.getvalue()


def write_batch(
    documents: Sequence[SourceDocument],
    peers: Sequence[SourcePeer],
    answers: Sequence[SourceAnswers],
) -> str:
    """A crowd batch CSV: for each judge's answers, one row per HIT of up to 16 units, the slots
    past the document's last unit BLANK; a unit not answered is an empty answer."""
    texts = {(p.document, p.system): p.text for p in peers}
    by_name = {d.name: d for d in documents}
    header = [
        *BATCH_INPUTS,
        *(f"Input.statement_{i}" for i in range(1, HIT_SIZE + 1)),
        *(f"Answer.S{i}Answer" for i in range(1, HIT_SIZE + 1)),
    ]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for judged in answers:
        document = by_name[judged.document]
        for start in range(0, len(document.units), HIT_SIZE):
            hit = document.units[start : start + HIT_SIZE]
            blank = HIT_SIZE - len(hit)
            statements = [u.text for u in hit] + [BLANK] * blank
            given = [_answer(judged.answers.get(start + i)) for i in range(len(hit))] + [
                "n"
            ] * blank
            writer.writerow(
                [
                    judged.document,
                    judged.system,
                    repr([u.external_id for u in hit]),
                    texts[(judged.document, judged.system)],
                    *statements,
                    *given,
                ]
            )
    return out.getvalue()


def _answer(present: bool | None) -> str:
    return "" if present is None else "p" if present else "n"


def group_answers(answers: Sequence[SourceAnswers]) -> dict[str, list[SourceAnswers]]:
    """Answers by system, for one batch file each (REALSumm's `<system>_Batch*.csv`)."""
    grouped: dict[str, list[SourceAnswers]] = defaultdict(list)
    for judged in answers:
        grouped[judged.system].append(judged)
    return dict(grouped)
