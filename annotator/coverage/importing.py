"""Storing unit sets read from REALSumm's or Lite Pyramid's files (annotator.coverage.formats), and
reading them back for export. The command (`import_units`, `export_units`) and the browser's
upload and download go through here, so the same files give the same records either way.

An import is one transaction of bulk queries, checked whole before anything is stored:
- a docset per document (created if absent), and in it a unit set named as asked (method presence,
  scale present/absent, source imported), its units in the file's order;
- the peers (kind peer, author = the system) and, from Lite Pyramid's references.txt, the model
  summary the units were written from (author "reference");
- a judgment task per judge, system and document ("crowd 1", ... from REALSumm's crowd batches;
  "labels" from Lite Pyramid's label files), submitted, with a judgment per answered unit.
Importing the same files again changes nothing and says so. A unit set that already holds other
units, a peer or reference stored with another text, or a judge whose stored answers differ is
refused, naming each, and nothing is stored.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from annotator.campaigns.models import Collection, Docset, Summary
from annotator.coverage.formats import lite_pyramid, realsumm
from annotator.coverage.formats.records import (
    FormatError,
    SourceAnswers,
    SourceDocument,
    SourceFile,
    SourcePeer,
    SourceUnit,
    UnitSource,
)
from annotator.coverage.majority import majority_present
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
from annotator.text.plurals import counted
from annotator.transfer.uploads import summary_text

FORMATS = {"realsumm": realsumm.read, "lite-pyramid": lite_pyramid.read}
DEFAULT_UNIT_SET = {"realsumm": "REALSumm", "lite-pyramid": "Lite Pyramid"}
REFERENCE_AUTHOR = "reference"
BATCH = 1000  # rows per INSERT


class UnitImportRefused(Exception):
    """Every reason the import was refused; nothing of it was stored."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def read_files(format_name: str, files: Sequence[SourceFile]) -> UnitSource:
    """The files read in `format_name`; FormatError if nothing can be read."""
    if format_name not in FORMATS:
        raise FormatError([f"unknown format {format_name!r}: {', '.join(FORMATS)}"])
    return FORMATS[format_name](files)


@dataclass
class UnitImportReport:
    collection: str
    unit_set: str
    format: str
    documents: int = 0
    new_docsets: int = 0
    unit_sets: int = 0
    unit_sets_unchanged: int = 0
    units: int = 0
    models: int = 0
    peers: int = 0
    peers_unchanged: int = 0
    tasks: int = 0
    tasks_unchanged: int = 0
    judgments: int = 0
    systems: Counter = field(default_factory=Counter)  # system -> peers in the files
    oddities: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        """Nothing stored: every record was there already."""
        return not (self.new_docsets or self.unit_sets or self.models or self.peers or self.tasks)

    def summary_line(self) -> str:
        return (
            f'{counted(self.documents, "document")} into unit sets "{self.unit_set}" of '
            f"{self.collection}: {counted(self.unit_sets, 'unit set')} "
            f"({counted(self.units, 'unit')}) new, {self.unit_sets_unchanged} unchanged; "
            f"{counted(self.peers, 'peer')} new, {self.peers_unchanged} unchanged; "
            f"{counted(self.tasks, 'judgment task')} ({counted(self.judgments, 'judgment')}) "
            f"new, {self.tasks_unchanged} unchanged; {counted(self.new_docsets, 'new docset')}; "
            f"{counted(len(self.oddities), 'oddity', 'oddities')}"
        )

    def systems_line(self) -> str:
        names = ", ".join(f"{s} ({counted(n, 'peer')})" for s, n in sorted(self.systems.items()))
        return f"Systems (the peers' authors): {names or 'none'}."

    def lines(self) -> list[str]:
        """As the job page shows them (ImportJob.report_sections): oddities as warnings."""
        lines = [self.summary_line(), self.systems_line()]
        if self.unchanged:
            lines.append("Nothing changed: these files were already imported.")
        if self.ignored:
            lines.append(f"Not read: {', '.join(self.ignored)}.")
        return lines + [f"warning: {oddity}" for oddity in self.oddities]


def _natural(text: str) -> list:
    """ "crowd 2" before "crowd 10"."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def import_units(
    collection_name: str,
    source: UnitSource,
    unit_set_name: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> UnitImportReport:
    """Store what `source` holds (see the module's docstring); UnitImportRefused with every
    reason, nothing stored, if it contradicts what is stored. `progress(n)` is told of each
    document checked."""
    name = unit_set_name or DEFAULT_UNIT_SET[source.format]
    report = UnitImportReport(collection_name, name, source.format)
    report.documents = len(source.documents)
    report.systems = Counter(peer.system for peer in source.peers)
    report.oddities = [str(o) for o in source.oddities]
    report.ignored = list(source.ignored)
    with transaction.atomic():
        _Import(collection_name, name, source, report, progress).run()
    return report


class _Import:
    """One import: read what is stored (a few queries), check everything, then store what is new
    (bulk inserts)."""

    def __init__(self, collection_name, name, source, report, progress):
        self.collection_name, self.name, self.source = collection_name, name, source
        self.report, self.progress = report, progress or (lambda n: None)
        self.problems: list[str] = []

    def run(self) -> None:
        collection, _ = Collection.objects.get_or_create(name=self.collection_name)
        names = [d.name for d in self.source.documents]
        docsets = {d.name: d for d in collection.docsets.filter(name__in=names)}
        unit_sets = {
            u.docset_id: u
            for u in UnitSet.objects.filter(docset__in=docsets.values(), name=self.name)
        }
        stored_units: dict[int, list[Unit]] = defaultdict(list)
        for unit in Unit.objects.filter(unit_set__in=unit_sets.values()).order_by("position"):
            stored_units[unit.unit_set_id].append(unit)
        summaries = {
            (s.docset_id, s.kind, s.author): s
            for s in Summary.objects.filter(docset__in=docsets.values())
        }
        stored_tasks = self._stored_tasks(unit_sets.values())

        for document in self.source.documents:
            docset = docsets.get(document.name)
            unit_set = unit_sets.get(docset.pk) if docset else None
            if unit_set:
                self._check_units(document, unit_set, stored_units[unit_set.pk])
            if docset:
                self._check_texts(document, docset, summaries)
            self.progress(1)
        if unit_sets and not self.problems:
            self._check_answers(docsets, unit_sets, stored_units, summaries, stored_tasks)
        if self.problems:
            raise UnitImportRefused(self.problems)
        self._store(collection, docsets, unit_sets, stored_units, summaries, stored_tasks)

    # -- checks --------------------------------------------------------------------------------

    def _check_units(self, document: SourceDocument, unit_set: UnitSet, units: list[Unit]) -> None:
        where = f'{document.name}: unit set "{unit_set.name}"'
        if unit_set.method != UnitSet.Method.PRESENCE:
            self.problems.append(f"{where} is a {unit_set.get_method_display()} unit set")
            return
        stored = [(u.text, u.external_id) for u in units]
        incoming = [(u.text, u.external_id) for u in document.units]
        if stored == incoming:
            return
        if len(stored) != len(incoming):
            differs = f"{len(stored)} units stored, {len(incoming)} in the files"
        else:
            at = next(i for i, (a, b) in enumerate(zip(stored, incoming)) if a != b)
            differs = f"unit {at + 1} is {stored[at][0]!r} there, {incoming[at][0]!r} in the files"
        self.problems.append(
            f"{where} already holds other units ({differs}); import under another --unit-set "
            "name, or delete that unit set first"
        )

    def _check_texts(self, document: SourceDocument, docset: Docset, summaries) -> None:
        wanted = [(Summary.Kind.PEER, p.system, p.text) for p in self._peers(document.name)]
        if document.reference:
            wanted.append((Summary.Kind.MODEL, REFERENCE_AUTHOR, document.reference))
        for kind, author, text in wanted:
            stored = summaries.get((docset.pk, kind, author))
            if stored is not None and not _same_text(stored.text, text):
                self.problems.append(
                    f"{document.name}: {kind} {author} is already stored with another text (a "
                    "summary's text never changes once stored)"
                )

    @staticmethod
    def _stored_tasks(unit_sets) -> dict[tuple[int, int, str], dict[int, float]]:
        """The imported judges' answers: (unit set, peer, judge code) -> unit id -> value."""
        tasks: dict[tuple[int, int, str], dict[int, float]] = {}
        rows = JudgmentTask.objects.filter(unit_set__in=unit_sets, judge__isnull=True)
        for unit_set, peer, code in rows.values_list("unit_set_id", "peer_id", "judge_code"):
            tasks[(unit_set, peer, code)] = {}
        for unit_set, peer, code, unit, value in Judgment.objects.filter(task__in=rows).values_list(
            "task__unit_set_id", "task__peer_id", "task__judge_code", "unit_id", "value"
        ):
            tasks[(unit_set, peer, code)][unit] = value
        return tasks

    def _check_answers(self, docsets, unit_sets, stored_units, summaries, stored_tasks) -> None:
        for answers in self.source.answers:
            docset = docsets.get(answers.document)
            unit_set = unit_sets.get(docset.pk) if docset else None
            peer = summaries.get((docset.pk, Summary.Kind.PEER, answers.system)) if docset else None
            if unit_set is None or peer is None:
                continue  # new: nothing to contradict
            stored = stored_tasks.get((unit_set.pk, peer.pk, answers.judge))
            if stored is None:
                continue
            units = stored_units[unit_set.pk]
            incoming = {
                units[i].pk: 1.0 if present else 0.0 for i, present in answers.answers.items()
            }
            if stored != incoming:
                self.problems.append(
                    f"{answers.document}: {answers.system} judged by {answers.judge} is already "
                    f'stored in unit set "{unit_set.name}" with other answers'
                )

    def _peers(self, document: str) -> list[SourcePeer]:
        if not hasattr(self, "_peers_by_document"):
            self._peers_by_document: dict[str, list[SourcePeer]] = defaultdict(list)
            for peer in self.source.peers:
                self._peers_by_document[peer.document].append(peer)
        return self._peers_by_document[document]

    # -- storing -------------------------------------------------------------------------------

    def _store(self, collection, docsets, unit_sets, stored_units, summaries, stored_tasks) -> None:
        report = self.report
        # Docsets in the files' order: their ids keep it (the order of the documents' mean).
        new_docsets = Docset.objects.bulk_create(
            Docset(collection=collection, name=d.name)
            for d in self.source.documents
            if d.name not in docsets
        )
        report.new_docsets = len(new_docsets)
        docsets.update({d.name: d for d in new_docsets})

        new_summaries = []
        for document in self.source.documents:
            docset = docsets[document.name]
            wanted = [(Summary.Kind.PEER, p.system, p.text) for p in self._peers(document.name)]
            if document.reference:
                wanted.append((Summary.Kind.MODEL, REFERENCE_AUTHOR, document.reference))
            for kind, author, text in wanted:
                if (docset.pk, kind, author) in summaries:
                    report.peers_unchanged += kind == Summary.Kind.PEER
                    continue
                new_summaries.append(
                    Summary(docset=docset, kind=kind, author=author, text=summary_text(text))
                )
        for summary in Summary.objects.bulk_create(new_summaries, batch_size=BATCH):
            summaries[(summary.docset_id, summary.kind, summary.author)] = summary
            report.peers += summary.kind == Summary.Kind.PEER
            report.models += summary.kind == Summary.Kind.MODEL

        made = UnitSet.objects.bulk_create(
            UnitSet(
                docset=docsets[d.name],
                name=self.name,
                method=UnitSet.Method.PRESENCE,
                scale=UnitSet.Scale.PRESENT_ABSENT,
                source=UnitSet.Source.IMPORTED,
                source_name=", ".join(self.source.files)[:300],
            )
            for d in self.source.documents
            if docsets[d.name].pk not in unit_sets
        )
        report.unit_sets = len(made)
        report.unit_sets_unchanged = len(self.source.documents) - len(made)
        new_sets = {u.docset_id for u in made}
        unit_sets.update({u.docset_id: u for u in made})
        new_units = []
        for document in self.source.documents:
            docset = docsets[document.name]
            if docset.pk not in new_sets:
                continue
            model = summaries.get((docset.pk, Summary.Kind.MODEL, REFERENCE_AUTHOR))
            new_units += [
                Unit(
                    unit_set=unit_sets[docset.pk],
                    position=position,
                    text=unit.text,
                    external_id=unit.external_id,
                    model=model if document.reference else None,
                )
                for position, unit in enumerate(document.units, start=1)
            ]
        for unit in Unit.objects.bulk_create(new_units, batch_size=BATCH):
            stored_units[unit.unit_set_id].append(unit)
        report.units = len(new_units)

        self._store_answers(docsets, unit_sets, stored_units, summaries, stored_tasks)

    def _store_answers(self, docsets, unit_sets, stored_units, summaries, stored_tasks) -> None:
        new_tasks: list[tuple[JudgmentTask, SourceAnswers]] = []
        for answers in self.source.answers:
            docset = docsets[answers.document]
            unit_set = unit_sets[docset.pk]
            peer = summaries[(docset.pk, Summary.Kind.PEER, answers.system)]
            if (unit_set.pk, peer.pk, answers.judge) in stored_tasks:
                self.report.tasks_unchanged += 1
                continue
            task = JudgmentTask(
                unit_set=unit_set,
                peer=peer,
                judge_code=answers.judge,
                status=JudgmentTask.Status.SUBMITTED,
            )
            new_tasks.append((task, answers))
        JudgmentTask.objects.bulk_create([t for t, _ in new_tasks], batch_size=BATCH)
        judgments = [
            Judgment(task=task, unit=stored_units[task.unit_set_id][i], value=1.0 if p else 0.0)
            for task, answers in new_tasks
            for i, p in sorted(answers.answers.items())
        ]
        Judgment.objects.bulk_create(judgments, batch_size=BATCH)
        self.report.tasks = len(new_tasks)
        self.report.judgments = len(judgments)


def _same_text(stored: str, incoming: str) -> bool:
    return stored == summary_text(incoming)


# -- export ----------------------------------------------------------------------------------------


class UnitExportError(Exception):
    pass


def _presence_sets(collection: Collection, docset: str | None = None):
    """The presence unit sets of the collection (of its docset named `docset`): every one,
    imported, from a pyramid or written by hand. Only presence: a name is chosen per docset, so a
    SEE set of another docset may carry it too, and its 0-4 answers are no p/n."""
    found = UnitSet.objects.filter(docset__collection=collection, method=UnitSet.Method.PRESENCE)
    return found.filter(docset__name=docset) if docset else found


def presence_unit_set_names(collection: Collection, docset: str | None = None) -> list[str]:
    return sorted(set(_presence_sets(collection, docset).values_list("name", flat=True)))


def chosen_unit_set(collection: Collection, name: str | None, docset: str | None = None) -> str:
    """The unit set name to export: the one given, or the collection's only presence one."""
    names = presence_unit_set_names(collection, docset)
    if name:
        if name not in names:
            raise UnitExportError(
                f'{collection.name} has no presence unit set "{name}" '
                f"(it has: {', '.join(names) or 'none'})"
            )
        return name
    if len(names) != 1:
        raise UnitExportError(
            f"{collection.name} has {counted(len(names), 'presence unit set name')}"
            f"{': ' + ', '.join(names) if names else ''}; name one with --unit-set"
        )
    return names[0]


@dataclass
class UnitExport:
    files: dict[str, str]  # path -> text
    notes: list[str]

    def zip_bytes(self) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for path, text in self.files.items():
                archive.writestr(path, text)
        return out.getvalue()


def export_units(
    collection: Collection, format_name: str, name: str | None = None, docset: str | None = None
) -> UnitExport:
    """The presence unit sets named `name` of `collection` (of its docset `docset` only, if
    named) in `format_name` (counting the submitted judgments of tasks not withdrawn, as the
    scores do); notes say what the format could not hold."""
    if format_name not in FORMATS:
        raise UnitExportError(f"unknown format {format_name!r}: {', '.join(FORMATS)}")
    name = chosen_unit_set(collection, name, docset)
    unit_sets = list(
        _presence_sets(collection, docset)
        .filter(name=name)
        .select_related("docset")
        .order_by("docset_id")  # the order the docsets were made: an imported file's order
    )
    units: dict[int, list[Unit]] = defaultdict(list)
    for unit in Unit.objects.filter(unit_set__in=unit_sets).select_related("model"):
        units[unit.unit_set_id].append(unit)
    notes: list[str] = []
    documents = [_document(u, units[u.pk]) for u in unit_sets]
    if format_name == "realsumm":
        _number_units(documents)
    tasks = list(
        JudgmentTask.objects.filter(
            unit_set__in=unit_sets, status=JudgmentTask.Status.SUBMITTED, withdrawn=False
        ).select_related("peer", "judge")
    )
    # Per peer, imported judges first in their natural order ("crowd 2" before "crowd 10"): a
    # batch's k-th row of a HIT is read back as "crowd k".
    tasks.sort(
        key=lambda t: (
            t.unit_set_id,
            t.peer.author,
            t.judge_id is not None,
            _natural(t.judge_name),
            t.pk,
        )
    )
    position = {u.pk: i for us in unit_sets for i, u in enumerate(units[us.pk])}
    answers: list[SourceAnswers] = []
    by_task: dict[int, SourceAnswers] = {}
    names = {us.pk: us.docset.name for us in unit_sets}
    for task in tasks:
        judged = SourceAnswers(names[task.unit_set_id], task.peer.author, task.judge_name, {})
        answers.append(judged)
        by_task[task.pk] = judged
    for task_id, unit_id, value in Judgment.objects.filter(task_id__in=by_task).values_list(
        "task_id", "unit_id", "value"
    ):
        by_task[task_id].answers[position[unit_id]] = value >= 0.5
    # Every peer of the unit sets' docsets, judged or not.
    peers = [
        SourcePeer(docset, author, text)
        for docset, author, text in Summary.objects.filter(
            docset__in=[u.docset for u in unit_sets], kind=Summary.Kind.PEER
        )
        .order_by("docset_id", "author")
        .values_list("docset__name", "author", "text")
    ]
    if format_name == "realsumm":
        return UnitExport(_realsumm_files(documents, peers, answers, notes), notes)
    return UnitExport(_lite_files(documents, peers, answers, notes), notes)


def _document(unit_set: UnitSet, units: list[Unit]) -> SourceDocument:
    """The unit set as the formats read it; its reference is the one model all its units were
    written from, if they were."""
    models = {u.model for u in units if u.model is not None}
    reference = models.pop().text if len(models) == 1 and all(u.model for u in units) else None
    return SourceDocument(
        unit_set.docset.name, [SourceUnit(u.external_id, u.text) for u in units], reference
    )


def _number_units(documents: list[SourceDocument]) -> None:
    """A questionId for every unit: its own where it has a number not yet taken, else the next
    number after the largest."""
    taken = {u.external_id for d in documents for u in d.units if u.external_id.isdigit()}
    following = max((int(i) for i in taken), default=-1) + 1
    seen: set[str] = set()
    for document in documents:
        for i, unit in enumerate(document.units):
            if unit.external_id.isdigit() and unit.external_id not in seen:
                seen.add(unit.external_id)
                continue
            document.units[i] = SourceUnit(str(following), unit.text)
            seen.add(str(following))
            following += 1


def _realsumm_files(documents, peers, answers, notes) -> dict[str, str]:
    """SCUs_list.csv, and a batch file per system (`<system>_Batch.csv`). A peer no judge has
    answered for is written as one row with no answers (read back: the peer, and no judgment)."""
    files = {"SCUs_list.csv": realsumm.write_units(documents)}
    renamed = sorted({a.judge for a in answers if not a.judge.startswith("crowd ")})
    if renamed:
        notes.append(
            f"judges {', '.join(renamed)} written as anonymous crowd rows (REALSumm's batches do "
            "not name workers): read back, they are crowd 1, crowd 2, ..."
        )
    judged = {(a.document, a.system) for a in answers}
    unanswered = [
        SourceAnswers(p.document, p.system, "", {})
        for p in peers
        if (p.document, p.system) not in judged
    ]
    for system, rows in realsumm.group_answers([*answers, *unanswered]).items():
        system_peers = [p for p in peers if p.system == system]
        files[f"{_file_stem(system)}_Batch.csv"] = realsumm.write_batch(
            documents, system_peers, rows
        )
    return files


def _lite_files(documents, peers, answers, notes) -> dict[str, str]:
    """The folder's files: every peer's summary line, its labels (each unit's majority) if any."""
    sizes = {d.name: len(d.units) for d in documents}
    given: dict[tuple[str, str], dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for judged in answers:
        for index, present in judged.answers.items():
            given[(judged.document, judged.system)][index].append(present)
    labels: dict[tuple[str, str], list[bool]] = {}
    unlabelled = 0
    for key, by_unit in given.items():
        # A label line is read from its first unit on: the labels of the first units judged are
        # written (a short line, as an imported ragged line was); a unit not judged before one
        # judged cannot be written.
        if set(by_unit) != set(range(len(by_unit))):
            unlabelled += 1
            continue
        labels[key] = [majority_present(by_unit[i]) for i in range(len(by_unit))]
        if len(by_unit) < sizes[key[0]]:
            notes.append(
                f"{key[1]} in {key[0]}: {len(by_unit)} labels for {sizes[key[0]]} units (its "
                "last units not judged)"
            )
    if unlabelled:
        notes.append(
            f"{counted(unlabelled, 'peer')} with a unit not judged before one judged: written "
            "with no labels (a label line has one label per unit, in order)"
        )
    if any(len(v) > 1 for by_unit in given.values() for v in by_unit.values()):
        notes.append("labels are the majority of each unit's judges (a tie is absent)")
    if len({d.reference is None for d in documents}) > 1:
        notes.append("references.txt left out: not every document's units have one model summary")
    if any("\t" in u.text or "\n" in u.text for d in documents for u in d.units):
        notes.append("tabs and line breaks inside unit texts written as spaces")
    return lite_pyramid.write(documents, peers, labels)


def _file_stem(system: str) -> str:
    return re.sub(r"[^\w.-]", "_", system)


# -- files -----------------------------------------------------------------------------------------


def files_from_paths(paths: Sequence[Path]) -> list[SourceFile]:
    """The files named, those of the folders named (recursively, hidden ones left out) and those
    of the zips named, each named by its path from the folder or zip it is in (that folder's name
    first, as a zip of it has it)."""
    files: list[SourceFile] = []
    for path in paths:
        if path.is_dir():
            for member in sorted(path.rglob("*")):
                relative = member.relative_to(path.parent)
                if member.is_file() and not any(p.startswith(".") for p in relative.parts):
                    files.append(SourceFile(relative.as_posix(), member.read_bytes()))
        elif path.suffix.lower() == ".zip":
            with zipfile.ZipFile(path) as archive:
                files += [
                    SourceFile(info.filename, archive.read(info))
                    for info in archive.infolist()
                    if not info.is_dir() and not info.filename.startswith("__MACOSX/")
                ]
        else:
            files.append(SourceFile(path.name, path.read_bytes()))
    return files


def import_upload(collection: Collection, options: dict, files) -> list[str]:
    """An upload's files (annotator.transfer.uploads: UploadedFile or ZipMember) imported as
    `import_units` imports them, for an import job (annotator.transfer.jobs): the report's lines;
    UploadRefused with every problem if the files cannot be read or contradict what is stored."""
    from annotator.transfer.uploads import UploadRefused

    try:
        source = read_files(options["format"], [SourceFile(f.name, f.data) for f in files])
        report = import_units(collection.name, source, options.get("unit_set") or None)
    except (FormatError, UnitImportRefused) as refused:
        raise UploadRefused(refused.problems) from None
    return report.lines()
