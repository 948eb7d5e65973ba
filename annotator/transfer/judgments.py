"""Human judgments of summaries (content responsiveness, linguistic quality), for correlation
studies.

Three inputs:
- NIST's score tables, whose layout is told by their number of columns:
    DUC 2006 (13)         setid peerid modifiedscore numSCUs numrepetitions annotatorid
                          pyramidcreator lingqual1..5 content
    DUC 2007 main (11)    setid peerid modifiedscore numSCUs numrepetitions lingqual1..5 content
    DUC 2007 update (8)   setid peerid modifiedscore numSCUs numrepetitions annotatorid
                          pyramidcreator content
  giving the criteria "content responsiveness" and "linguistic quality 1" .. "5";
- NIST's judgment tables (`2006_content.table`, `2006_linguistic_quality.table`, the NISTeval
  `overall.table`, ...): a header naming the columns ("Topic", then lines of "|" each naming one
  more: Selector, Assessor, Summarizer, [Quality Question Number,] the score), then one judgment
  a line, giving the criterion the score column names ("content responsiveness", "overall
  responsiveness", "linguistic quality 1" .. "5");
- a CSV with the header `docset,peer,criterion,value` (and optionally `judge`).

Every line is read before anything is stored; a malformed one stops the import with its line
number, and nothing is stored. A blank cell of a NIST table (no judgment: DUC 2006's D0647
systems 01..08 have none) is left out and named in the report, by docset and peer. Rows of
docsets or peers the collection does not hold are counted and left out (a NIST table covers every
topic; a collection may hold some); the peers left out are named once each, with the number of
their judgments, the first few of them. A summary judged twice on one criterion (NIST repeats
D0631's judgments for its two annotations) must agree.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.db import transaction

from annotator.campaigns.models import Collection, HumanJudgment, Summary
from annotator.text.plurals import counted

CONTENT = "content responsiveness"
QUALITY = [f"linguistic quality {i}" for i in range(1, 6)]
NIST_LAYOUTS = {  # number of columns -> {column: criterion}
    13: dict(zip(range(7, 13), [*QUALITY, CONTENT])),
    11: dict(zip(range(5, 11), [*QUALITY, CONTENT])),
    8: {7: CONTENT},
}


class JudgmentsError(Exception):
    """The file cannot be imported; nothing was stored."""


PEERS_NAMED = 5  # of the peers left out, how many the summary line names (then "and K more")


@dataclass
class JudgmentReport:
    stored: int = 0
    unchanged: int = 0
    skipped_docsets: set[str] = field(default_factory=set)
    # "D0640 peer 15" -> the judgments of it left out (a line of a NIST table holds up to six), in
    # the file's order, each summary once
    skipped_peers: dict[str, int] = field(default_factory=dict)
    # "D0647 peer 01" -> its blank cells (no judgment) in a NIST table, in the file's order
    blank_cells: dict[str, int] = field(default_factory=dict)

    def summary_line(self) -> str:
        line = f"{counted(self.stored, 'judgment')} stored, {self.unchanged} unchanged"
        if self.skipped_docsets:
            line += (
                f"; rows of {counted(len(self.skipped_docsets), 'docset')} not in the "
                "collection left out"
            )
        if self.skipped_peers:
            judgments = sum(self.skipped_peers.values())
            named = [
                name if n == 1 else f"{name} ({counted(n, 'judgment')})"
                for name, n in list(self.skipped_peers.items())[:PEERS_NAMED]
            ]
            more = len(self.skipped_peers) - len(named)
            line += (
                f"; {counted(judgments, 'judgment')} of {counted(len(self.skipped_peers), 'peer')} "
                "not in the collection left out: "
                f"{', '.join(named)}" + (f" and {more} more" if more else "")
            )
        if self.blank_cells:
            cells = sum(self.blank_cells.values())
            line += f"; {counted(cells, 'blank cell')} (no judgment) left out: " + ", ".join(
                f"{name} ({n})" for name, n in self.blank_cells.items()
            )
        return line


def _number(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise JudgmentsError(f"{where}: {text!r} is not a number") from None


# (docset, peer, criterion, judge, value): one judgment; value None for a blank cell of a NIST
# table (no judgment made)
Row = tuple[str, str, str, str, float | None]


def read_nist_table(name: str, text: str) -> list[Row]:
    """(docset, peer, criterion, judge, value) for every cell of a NIST score table or judgment
    table (value None: a blank cell)."""
    if text.lstrip().startswith("Topic"):
        return read_judgment_table(name, text)
    rows: list[Row] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) - 1 in NIST_LAYOUTS and fields[-1].strip() == "":
            fields = fields[:-1]  # the 2006 table ends its lines with a tab
        layout = NIST_LAYOUTS.get(len(fields))
        if layout is None:
            raise JudgmentsError(
                f"{name}, line {number}: {counted(len(fields), 'column')}; a NIST table has 13 "
                "(DUC 2006), 11 (DUC 2007 main) or 8 (DUC 2007 update)"
            )
        docset, peer = fields[0].strip(), fields[1].strip()
        for column, criterion in layout.items():
            cell = fields[column].strip()
            where = f"{name}, line {number}, {criterion}"
            rows.append((docset, peer, criterion, "", _number(cell, where) if cell else None))
    return rows


# The columns of a NIST judgment table before its judgment: topic, the topic's selector, its
# assessor, the summarizer (the peer); a linguistic quality table then has the question's number.
JUDGMENT_TABLE_COLUMNS = ("Topic", "Selector", "Assessor", "Summarizer")
QUESTION_COLUMN = "Quality Question Number"


def _column_name(column: str) -> str:
    """A judgment table's column without its explanation: "Summarizer (baseline=1; ...)" ->
    "Summarizer"."""
    return column.split("(")[0].strip()


def read_judgment_table(name: str, text: str) -> list[Row]:
    """The cells of a NIST judgment table (see the module's description), the judge left empty as
    in NIST's score tables (so that the same judgments read from either are one record)."""
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip())  # "Topic"
    columns = [lines[first].strip()]
    body = first + 1
    while body < len(lines) and lines[body].lstrip().startswith("|"):
        column = lines[body].strip().strip("|").strip(" \t|")
        if column:
            columns.append(column)
        body += 1
    score = columns[-1] if len(columns) > len(JUDGMENT_TABLE_COLUMNS) else ""
    questions = len(columns) == len(JUDGMENT_TABLE_COLUMNS) + 2 and columns[-2].startswith(
        QUESTION_COLUMN
    )
    known = [_column_name(c) for c in columns[: len(JUDGMENT_TABLE_COLUMNS)]]
    if (
        known != list(JUDGMENT_TABLE_COLUMNS)
        or not score
        or (len(columns) == len(JUDGMENT_TABLE_COLUMNS) + 2 and not questions)
        or len(columns) > len(JUDGMENT_TABLE_COLUMNS) + 2
    ):
        raise JudgmentsError(
            f"{name}: a NIST judgment table's header names Topic, Selector, Assessor, Summarizer, "
            f"[{QUESTION_COLUMN},] then the score; this one names {', '.join(columns)}"
        )
    criterion = _column_name(score).removesuffix(" Score").lower()
    rows: list[Row] = []
    for number, line in enumerate(lines[body:], start=body + 1):
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split("\t")]
        if len(fields) != len(columns):
            raise JudgmentsError(
                f"{name}, line {number}: {counted(len(fields), 'column')}; the header names "
                f"{len(columns)} ({', '.join(map(_column_name, columns))})"
            )
        docset, peer, cell = fields[0], fields[3], fields[-1]
        named = criterion
        if questions:
            if not fields[4].isdigit():
                raise JudgmentsError(
                    f"{name}, line {number}: the question number {fields[4]!r} is not a number"
                )
            named = f"linguistic quality {int(fields[4])}"
        where = f"{name}, line {number}, {named}"
        rows.append((docset, peer, named, "", _number(cell, where) if cell else None))
    return rows


def read_csv(name: str, text: str) -> list[Row]:
    reader = csv.DictReader(io.StringIO(text))
    missing = {"docset", "peer", "criterion", "value"} - set(reader.fieldnames or [])
    if missing:
        raise JudgmentsError(
            f"{name}: the header lacks {', '.join(sorted(missing))} (expected "
            "docset,peer,criterion,value[,judge])"
        )
    rows: list[Row] = []
    for number, row in enumerate(reader, start=2):
        where = f"{name}, line {number}"
        if (
            not (row["docset"] or "").strip()
            or not (row["peer"] or "").strip()
            or not (row["criterion"] or "").strip()
        ):
            raise JudgmentsError(f"{where}: docset, peer and criterion must not be empty")
        rows.append(
            (
                row["docset"].strip(),
                row["peer"].strip(),
                row["criterion"].strip(),
                (row.get("judge") or "").strip(),
                _number((row["value"] or "").strip(), where),
            )
        )
    return rows


def _peer_key(peer: str) -> str:
    """NIST writes some system ids with a leading zero ("01" in D0647)."""
    return str(int(peer)) if peer.isdigit() else peer


@transaction.atomic
def import_judgments(collection: Collection, rows: list[Row]) -> JudgmentReport:
    report = JudgmentReport()
    peers = {
        (docset, _peer_key(author)): pk
        for pk, docset, author in Summary.objects.filter(
            docset__collection=collection, kind=Summary.Kind.PEER
        ).values_list("pk", "docset__name", "author")
    }
    docsets = set(collection.docsets.values_list("name", flat=True))
    wanted: dict[tuple[int, str, str], float] = {}
    skipped: dict[
        tuple[str, str], str
    ] = {}  # a peer left out, "01" and "1" alike -> its name in the report
    for docset, peer, criterion, judge, value in rows:
        if docset not in docsets:
            report.skipped_docsets.add(docset)
            continue
        summary = peers.get((docset, _peer_key(peer)))
        if summary is None and value is None:
            continue  # a blank cell of a peer not held: neither a judgment nor the collection's
        if summary is None:
            named = skipped.setdefault(
                (docset, _peer_key(peer)), f"{docset} peer {peer}"
            )  # as first spelled
            report.skipped_peers[named] = report.skipped_peers.get(named, 0) + 1
            continue
        if value is None:  # a blank cell: no judgment to store, said in the report
            blank = f"{docset} peer {peer}"
            report.blank_cells[blank] = report.blank_cells.get(blank, 0) + 1
            continue
        key = (summary, criterion, judge)
        if key in wanted and wanted[key] != value:
            raise JudgmentsError(
                f"{docset} peer {peer}, {criterion}: judged both {wanted[key]:g} and {value:g}"
            )
        wanted[key] = value
    existing = {
        (s, c, j): (pk, v)
        for pk, s, c, j, v in HumanJudgment.objects.filter(
            summary_id__in={key[0] for key in wanted}
        ).values_list("pk", "summary_id", "criterion", "judge", "value")
    }
    new, changed = [], []
    for (summary, criterion, judge), value in wanted.items():
        if (summary, criterion, judge) not in existing:
            new.append(
                HumanJudgment(summary_id=summary, criterion=criterion, judge=judge, value=value)
            )
        elif existing[(summary, criterion, judge)][1] != value:
            changed.append(HumanJudgment(pk=existing[(summary, criterion, judge)][0], value=value))
        else:
            report.unchanged += 1
    HumanJudgment.objects.bulk_create(new)
    HumanJudgment.objects.bulk_update(changed, ["value"])
    report.stored = len(new) + len(changed)
    return report
