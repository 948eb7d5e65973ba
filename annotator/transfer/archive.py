"""A collection archive: one file holding everything of a collection, and restoring it losslessly.

Format, version 1: a zip holding
- `archive.json`: {"format": "pyramid-annotator-archive", "version": 1, "exported_at",
  "collection": its fields (name, description, weight_convention, average_rounding, created_at),
  "users": the usernames its records name, "counts": {table: records}};
- `<table>.jsonl` for each of TABLES, one record a line: "id" (its id where it was written), every
  field by name (taken from the model: a field added to a model is archived without a change here),
  foreign keys as the ids of records in the archive, users as usernames, times in ISO 8601, JSON
  fields (history snapshots and decisions, merge groups) as stored. A field an archive lacks gets
  its default (what its migration gave older records) if it has one.

Why a zip of JSON lines rather than one JSON document: both sides go a record at a time (a large
collection is never held whole in memory), a problem is named by file, line and field, zip makes
the repeated field names cheap, and each table reads on its own (`unzip -p a.zip scus.jsonl | jq`).
A new table or a changed meaning raises FORMAT_VERSION; older versions are read where the change
allows it (version 1 had no pyramid_merge_sources: no consensus merged more than two pyramids;
in versions 1 and 2 a peer annotation change's snapshots hold every PSE, a list, where version 3's
hold only the PSEs it changed, {"pses": [...], "absent": [ids]}: both are read, as the instance
undoes both; version 4 added proposals and time on task, pyramid_work_times and
annotation_work_times, issue 20; version 5 the coverage judgments of issue 21, unit_sets, units,
judgment_tasks and coverage_judgments ("judgments" being the human judgments of summaries);
version 6, issue 32, a pyramid's last_uid (the largest SCU number its edits gave: never given
again; read as 0 from older versions, where numbers only in the history may be given again) and
the ids of contributors and their parts in pyramid snapshots (remapped on restore, dropped where
the record is gone)), newer ones are refused.

Not archived: import and archive jobs (uploads, emptied once stored) and scoring reports, which
are caches of what the records give (recomputed when asked for; their parameters hold ids of
their own). Accounts are named, not copied: passwords and site roles stay on each instance.

`restore` checks the header (format, version, the name is free), then reads the tables in order in
one transaction, in batches: every record gets a new id and every reference is remapped, also
inside history: pyramid snapshots (annotator.pyramids.editing) hold summary ids and the SCUs and
contributors a consensus copied; annotation snapshots (annotator.peer_annotation.editing) hold PSE
and PSE span ids that undo brings back as the same records, so ids of PSEs gone since get fresh ids
reserved for them; a consensus annotation's decision names the annotation taken. Provenance to
records gone is dropped, as undo drops it. Coverage judgments are checked as judging checks
them: a unit's span within its model, a judgment's unit one of its task's unit set, its value on
the unit set's scale, its sentences within the peer's text. Missing users are created inactive,
without a usable password, and reported. A problem raises ArchiveError naming file, line and
field; nothing is kept.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, TypeGuard

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, InternalError, connection, models, transaction
from django.utils import timezone

from annotator.adjudication.models import AnnotationMerge, PyramidMerge, PyramidMergeSource
from annotator.assist.models import Proposal
from annotator.campaigns.models import (
    Assignment,
    Collection,
    Docset,
    HumanJudgment,
    Membership,
    Summary,
)
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
from annotator.editing.models import PeerAnnotationChange, PyramidChange
from annotator.peer_annotation.models import PSE, PeerAnnotation, PeerSCUComment, PSESpan
from annotator.pyramids.models import SCU, Contributor, Pyramid, PyramidModel, Span
from annotator.text.plurals import counted
from annotator.worktime.models import WorkTime

FORMAT, FORMAT_VERSION, HEADER = "pyramid-annotator-archive", 6, "archive.json"
# tables an archive of an earlier version does not hold
ADDED_IN = {
    "pyramid_merge_sources": 2,
    "proposals": 4,
    "pyramid_work_times": 4,
    "annotation_work_times": 4,
    "unit_sets": 5,
    "units": 5,
    "judgment_tasks": 5,
    "coverage_judgments": 5,
}
BATCH = 1000
USER = "user"  # a reference to a user, written as the username
Progress = Callable[[int, int], None]  # (records done, records in all)


class ArchiveError(Exception):
    """What is wrong with an archive, or with restoring it (naming file, line and field); nothing
    was stored."""


@dataclass(frozen=True)
class Table:
    name: str
    model: type[models.Model]
    # the lookup from a record to its collection ("collection": set on restore, not written)
    scope: str
    refs: dict[str, str] = field(
        default_factory=dict
    )  # foreign key -> the table it points into, or USER

    @property
    def file(self) -> str:
        return f"{self.name}.jsonl"

    @property
    def plain(self) -> list[models.Field]:
        return [
            f for f in self.model._meta.concrete_fields if not f.primary_key and not f.is_relation
        ]

    @property
    def stamps(self) -> list[str]:
        """Times Django sets on insert (auto_now, auto_now_add): written again after it."""
        return [
            f.name
            for f in self.plain
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
        ]

    def rows(self, collection: Collection) -> Iterator[dict]:
        names = ["id", *(f.name for f in self.plain), *self.refs]
        columns = [
            "id",
            *(f.name for f in self.plain),
            *(f"{ref}__username" if to == USER else f"{ref}_id" for ref, to in self.refs.items()),
        ]
        query = (
            self.model._default_manager.filter(**{self.scope: collection})
            .order_by("id")
            .values_list(*columns)
        )
        for values in query.iterator(chunk_size=BATCH):
            yield dict(zip(names, values))


_C = "docset__collection"
_WORK_TIME_REFS = {"user": USER, "pyramid": "pyramids", "annotation": "peer_annotations"}
# in the order they are restored: a table's references point into those above it, or itself
TABLES = [
    Table("memberships", Membership, "collection", {"user": USER}),
    Table("docsets", Docset, "collection"),
    Table("summaries", Summary, _C, {"docset": "docsets"}),
    Table("pyramids", Pyramid, _C, {"docset": "docsets", "created_by": USER}),
    Table(
        "pyramid_models",
        PyramidModel,
        f"pyramid__{_C}",
        {"pyramid": "pyramids", "summary": "summaries"},
    ),
    Table("scus", SCU, f"pyramid__{_C}", {"pyramid": "pyramids", "source": "scus"}),
    Table(
        "contributors",
        Contributor,
        f"scu__pyramid__{_C}",
        {"scu": "scus", "summary": "summaries", "source": "contributors"},
    ),
    Table(
        "spans",
        Span,
        f"contributor__scu__pyramid__{_C}",
        {"contributor": "contributors", "summary": "summaries"},
    ),
    Table(
        "peer_annotations",
        PeerAnnotation,
        f"pyramid__{_C}",
        {"pyramid": "pyramids", "peer": "summaries", "annotator": USER},
    ),
    Table(
        "pses",
        PSE,
        f"annotation__pyramid__{_C}",
        {"annotation": "peer_annotations", "scu": "scus", "source": "pses"},
    ),
    Table("pse_spans", PSESpan, f"pse__annotation__pyramid__{_C}", {"pse": "pses"}),
    Table(
        "peer_scu_comments",
        PeerSCUComment,
        f"annotation__pyramid__{_C}",
        {"annotation": "peer_annotations", "scu": "scus"},
    ),
    Table(
        "assignments",
        Assignment,
        f"pyramid__{_C}",
        {"user": USER, "pyramid": "pyramids", "peer": "summaries", "assigned_by": USER},
    ),
    Table("judgments", HumanJudgment, f"summary__{_C}", {"summary": "summaries"}),
    Table(
        "pyramid_merges",
        PyramidMerge,
        f"consensus__{_C}",
        {
            "consensus": "pyramids",
            "source_a": "pyramids",
            "source_b": "pyramids",
            "created_by": USER,
        },
    ),
    Table(
        "pyramid_merge_sources",
        PyramidMergeSource,
        f"merge__consensus__{_C}",
        {"merge": "pyramid_merges", "pyramid": "pyramids"},
    ),
    Table(
        "annotation_merges",
        AnnotationMerge,
        f"consensus__pyramid__{_C}",
        {"consensus": "peer_annotations", "created_by": USER},
    ),
    Table(
        "annotation_merge_sources",
        AnnotationMerge.sources.through,
        f"annotationmerge__consensus__pyramid__{_C}",
        {"annotationmerge": "annotation_merges", "peerannotation": "peer_annotations"},
    ),
    Table(
        "pyramid_changes", PyramidChange, f"pyramid__{_C}", {"pyramid": "pyramids", "user": USER}
    ),
    Table(
        "peer_annotation_changes",
        PeerAnnotationChange,
        f"annotation__pyramid__{_C}",
        {"annotation": "peer_annotations", "user": USER},
    ),
    Table(
        "proposals",
        Proposal,
        f"annotation__pyramid__{_C}",
        {"annotation": "peer_annotations", "scu": "scus", "pse": "pses", "decided_by": USER},
    ),
    # Time on task, on a pyramid or on a peer annotation: one table each way to the collection.
    Table("pyramid_work_times", WorkTime, f"pyramid__{_C}", _WORK_TIME_REFS),
    Table("annotation_work_times", WorkTime, f"annotation__pyramid__{_C}", _WORK_TIME_REFS),
    # Coverage judgments (issue 21): unit sets of a docset, their units, judges' tasks and answers.
    Table("unit_sets", UnitSet, _C, {"docset": "docsets", "pyramid": "pyramids"}),
    Table(
        "units",
        Unit,
        f"unit_set__{_C}",
        {"unit_set": "unit_sets", "model": "summaries", "scu": "scus"},
    ),
    Table(
        "judgment_tasks",
        JudgmentTask,
        f"unit_set__{_C}",
        {"unit_set": "unit_sets", "peer": "summaries", "judge": USER, "assigned_by": USER},
    ),
    Table(
        "coverage_judgments",
        Judgment,
        f"task__unit_set__{_C}",
        {"task": "judgment_tasks", "unit": "units"},
    ),
]
COLLECTION = Table("collection", Collection, "pk")


def _json(value):
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


@contextmanager
def _one_snapshot():
    """Every query of the export sees the same state (PostgreSQL: a repeatable-read transaction)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def export(
    collection: Collection, out: str | IO[bytes], progress: Progress | None = None
) -> dict[str, int]:
    """Write the collection's archive to a path or a binary file; return the records per table.
    One query per table (and one to count it), streamed."""
    with _one_snapshot(), zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        counts = {
            t.name: t.model._default_manager.filter(**{t.scope: collection}).count() for t in TABLES
        }
        total, done = sum(counts.values()), 0
        users: set[str] = set()  # the usernames the records name
        for table in TABLES:
            named = [ref for ref, to in table.refs.items() if to == USER]
            with archive.open(table.file, "w", force_zip64=True) as member:
                for row in table.rows(collection):
                    member.write(
                        json.dumps(row, default=_json, ensure_ascii=False).encode() + b"\n"
                    )
                    users.update(row[ref] for ref in named if row[ref] is not None)
                    done += 1
                    if progress and done % BATCH == 0:
                        progress(done, total)
        header = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "exported_at": timezone.now().isoformat(),
            "collection": {f.name: getattr(collection, f.name) for f in COLLECTION.plain},
            "users": sorted(users),
            "counts": counts,
        }
        archive.writestr(HEADER, json.dumps(header, default=_json, ensure_ascii=False, indent=1))
    if progress:
        progress(total, total)
    return counts


def restore(
    source: str | IO[bytes], name: str | None = None, progress: Progress | None = None
) -> tuple[Collection, list[str]]:
    """Make a new collection (named as in the archive, or `name`) of an archive; return it and a
    report. ArchiveError, and nothing stored, if anything is wrong."""
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as problem:
        raise ArchiveError(f"Not a collection archive: not a zip file ({problem}).") from None
    with archive:
        restoring = _Restore(archive, name, progress)
        try:
            with transaction.atomic():
                return restoring.run()
        except (IntegrityError, DataError, InternalError) as problem:
            raise ArchiveError(
                f"{restoring.at}: the database refused a record: {problem}".strip()
            ) from None


def check(source: IO[bytes], name: str | None = None) -> str:
    """The name a restore of this archive would take, after the checks a restore begins with (a
    collection archive of a version this instance reads; the name free): ArchiveError if not.
    The restore page runs them on the upload, before a job is queued."""
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as problem:
        raise ArchiveError(f"Not a collection archive: not a zip file ({problem}).") from None
    with archive:
        return _Restore(archive, name, None).name


def describe(counts: dict[str, int]) -> str:
    """What an archive holds, in words: "1 docset, 7 summaries, …"."""
    n = {t.name: counts.get(t.name, 0) for t in TABLES}
    changes = n["pyramid_changes"] + n["peer_annotation_changes"]
    return (
        f"{counted(n['docsets'], 'docset')}, {counted(n['summaries'], 'summary', 'summaries')}, "
        f"{counted(n['pyramids'], 'pyramid')} ({counted(n['scus'], 'SCU')}), "
        f"{counted(n['peer_annotations'], 'peer annotation')} ({counted(n['pses'], 'PSE')}), "
        f"{counted(changes, 'history entry', 'history entries')}, "
        f"{counted(n['assignments'], 'assignment')}, {counted(n['memberships'], 'membership')}, "
        f"{counted(n['judgments'], 'human judgment')}"
        # Coverage judgments only where there are some: a collection of pyramids reads as before.
        + (
            f", {counted(n['unit_sets'], 'unit set')} ({counted(n['units'], 'unit')}), "
            f"{counted(n['judgment_tasks'], 'judgment task')} "
            f"({counted(n['coverage_judgments'], 'coverage judgment')})"
            if n["unit_sets"]
            else ""
        )
    )


def _is_id(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63


# The JSON types a plain field's value may have in an archive.
TYPES: dict[type[models.Field], type | tuple[type, ...]] = {
    models.CharField: str,
    models.TextField: str,
    models.DateTimeField: str,
    models.BooleanField: bool,
    models.FloatField: (int, float),
    models.IntegerField: int,
}


def _value(model_field: models.Field, row: dict, where: str):
    """The row's value of a plain field, checked as the model defines it."""
    name = model_field.name
    if (
        name not in row
    ):  # a field added since the archive was written gets what its migration gave old records
        if model_field.has_default() or model_field.null or model_field.blank:
            return model_field.get_default()
        raise ArchiveError(f"{where}: field {name!r} is missing")
    value = row[name]
    if value is None:
        if model_field.null:
            return None
        raise ArchiveError(f"{where}: field {name!r} may not be null")
    if isinstance(model_field, models.JSONField):
        return value
    try:
        wanted = next((t for kind, t in TYPES.items() if isinstance(model_field, kind)), object)
        if not isinstance(value, wanted) or (isinstance(value, bool) and wanted is not bool):
            raise ValidationError(f"{value!r} is not of the right type")
        value = model_field.to_python(value)
        if model_field.choices and value not in {choice for choice, _ in model_field.flatchoices}:
            raise ValidationError(
                f"{value!r} is not one of {', '.join(c for c, _ in model_field.flatchoices)}"
            )
        model_field.run_validators(value)
    except ValidationError as problem:
        raise ArchiveError(f"{where}: field {name!r}: {' '.join(problem.messages)}") from None
    return value


def _reserve(model: type[models.Model], n: int) -> list[int]:
    """n ids of the model's table that no new record will get: ids that history brings back."""
    if not n:
        return []
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)",
                [table, n],
            )
            return sorted(row[0] for row in cursor.fetchall())
        # SQLite's AUTOINCREMENT never gives an id at or below its sequence: move it past those
        # taken.
        cursor.execute(f"SELECT MAX(id) FROM {connection.ops.quote_name(table)}")
        top = cursor.fetchone()[0] or 0
        cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
        seq = cursor.fetchone()
        first = max(top, seq[0] if seq else 0) + 1
        statement = (
            "UPDATE sqlite_sequence SET seq = %s WHERE name = %s"
            if seq
            else "INSERT INTO sqlite_sequence (seq, name) VALUES (%s, %s)"
        )
        cursor.execute(statement, [first + n - 1, table])
        return list(range(first, first + n))


class _Restore:
    def __init__(self, archive: zipfile.ZipFile, name: str | None, progress: Progress | None):
        self.archive, self.progress, self.at = (
            archive,
            progress or (lambda done, total: None),
            HEADER,
        )
        self.header = self._header()
        self.name = _value(
            Collection._meta.get_field("name"),
            {"name": (name or "").strip() or self.header["collection"].get("name")},
            f"{HEADER}: collection",
        )
        if Collection.objects.filter(name=self.name).exists():
            raise ArchiveError(
                f"A collection named {self.name!r} exists already: restore this archive under "
                "another name."
            )
        self.ids: dict[str, dict[int, int]] = {t.name: {} for t in TABLES}  # archive id -> new id
        self.lengths: dict[str, dict[int, int]] = {
            "summaries": {},
            "peer_annotations": {},
            "pses": {},
        }  # text lengths
        # What a coverage judgment is checked against, by archive id: a unit set's answers, a
        # unit's unit set, a task's unit set and peer.
        self.answers: dict[int, tuple[float, ...]] = {}
        self.unit_sets: dict[int, int] = {}
        self.tasks: dict[int, tuple[int, int]] = {}
        self.total, self.done = sum(self.header["counts"].values()), 0

    def _header(self) -> dict:
        try:
            header = json.loads(self.archive.read(HEADER))
        except KeyError:
            raise ArchiveError(f"Not a collection archive: it holds no {HEADER}.") from None
        except (ValueError, zipfile.BadZipFile, zlib.error, EOFError) as problem:
            raise ArchiveError(f"{HEADER}: not readable JSON ({problem}).") from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ArchiveError(
                f"{HEADER}: not a collection archive (its format should be {FORMAT!r})."
            )
        if header.get("version") not in range(1, FORMAT_VERSION + 1) or isinstance(
            header.get("version"), bool
        ):
            raise ArchiveError(
                f"{HEADER}: unknown format version {header.get('version')!r}; this instance reads "
                f"versions 1 to {FORMAT_VERSION}."
            )
        counts, users = header.get("counts"), header.get("users")
        known = {t.name for t in TABLES}
        if not isinstance(header.get("collection"), dict):
            raise ArchiveError(f"{HEADER}: field 'collection' should be an object.")
        if not isinstance(users, list) or not all(isinstance(u, str) for u in users):
            raise ArchiveError(f"{HEADER}: field 'users' should be a list of usernames.")
        if (
            not isinstance(counts, dict)
            or set(counts) - known
            or not all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts.values()
            )
        ):
            raise ArchiveError(
                f"{HEADER}: field 'counts' should give the number of records of each table."
            )
        strays = set(self.archive.namelist()) - {HEADER} - {t.file for t in TABLES}
        if strays:
            raise ArchiveError(f"Unexpected file in the archive: {', '.join(sorted(strays))}.")
        return header

    def run(self) -> tuple[Collection, list[str]]:
        fields = {
            f.name: _value(f, self.header["collection"], f"{HEADER}: collection")
            for f in COLLECTION.plain
        }
        collection = Collection.objects.create(**{**fields, "name": self.name})
        Collection.objects.filter(pk=collection.pk).update(created_at=fields["created_at"])
        collection.created_at = fields["created_at"]
        created = self._users()
        self.hooks = {
            "summaries": self._summary,
            "spans": self._span,
            "peer_annotations": self._annotation,
            "pses": self._pse,
            "pse_spans": self._pse_span,
            "proposals": self._proposal,
            "pyramid_changes": self._pyramid_change,
            "peer_annotation_changes": self._peer_change,
            "unit_sets": self._unit_set,
            "units": self._unit,
            "judgment_tasks": self._judgment_task,
            "coverage_judgments": self._judgment,
        }
        for table in TABLES:
            self.at = table.file
            if self.header["version"] < ADDED_IN.get(table.name, 1):
                continue
            if table.name == "peer_annotation_changes":
                self._reserve_gone_pses()
            self._table(table, collection)
        self.progress(self.total, self.total)
        report = [
            f"Restored {collection.name}: "
            f"{describe({name: len(ids) for name, ids in self.ids.items()})}."
        ]
        if created:
            report.append(
                f"Created {counted(len(created), 'inactive account')}, without a password, for "
                f"users this instance did not have: {', '.join(created)}. An administrator sets "
                "their passwords and activates them."
            )
        return collection, report

    def _users(self) -> list[str]:
        User = get_user_model()
        names = self.header["users"]
        self.users = {u.username: u.pk for u in User.objects.filter(username__in=names)}
        missing = sorted(set(names) - self.users.keys())
        accounts = []
        for name in missing:
            account = User(
                username=_value(
                    User._meta.get_field("username"), {"username": name}, f"{HEADER}: users"
                ),
                is_active=False,
            )
            account.set_unusable_password()
            accounts.append(account)
        self.users.update((u.username, u.pk) for u in User.objects.bulk_create(accounts))
        return missing

    def _lines(self, file: str) -> Iterator[tuple[int, dict]]:
        try:
            member = self.archive.open(file)
        except KeyError:
            raise ArchiveError(f"{file} is missing from the archive.") from None
        try:
            with member:
                for number, line in enumerate(member, start=1):
                    if not line.strip():
                        continue
                    try:
                        row = json.loads(line)
                    except ValueError as problem:
                        raise ArchiveError(f"{file} line {number}: not JSON ({problem})") from None
                    if not isinstance(row, dict):
                        raise ArchiveError(f"{file} line {number}: not a JSON object")
                    if not _is_id(row.get("id")):
                        raise ArchiveError(
                            f"{file} line {number}: field 'id' should be a record's id"
                        )
                    yield number, row
        except (zipfile.BadZipFile, zlib.error, EOFError) as problem:
            raise ArchiveError(f"{file}: the archive is damaged ({problem})") from None

    def _table(self, table: Table, collection: Collection) -> None:
        known = {"id", *(f.name for f in table.plain), *table.refs}
        # later: references to records of the same table, (record, field, old id, where)
        later: list[tuple[models.Model, str, int, str]] = []
        batch: list[tuple[int, models.Model, dict[str, object]]] = []  # (old id, record, stamps)
        seen: set[int] = set()
        for number, row in self._lines(table.file):
            where = f"{table.file} line {number}"
            if row["id"] in seen:
                raise ArchiveError(f"{where}: field 'id': {row['id']} is there twice")
            seen.add(row["id"])
            if set(row) - known:
                raise ArchiveError(f"{where}: unknown field {sorted(set(row) - known)[0]!r}")
            record = table.model(
                **({"collection": collection} if table.scope == "collection" else {})
            )
            stamps = {}
            for plain in table.plain:
                setattr(record, plain.attname, _value(plain, row, where))
                if plain.name in table.stamps:
                    stamps[plain.name] = getattr(record, plain.attname)
            for ref, to in table.refs.items():
                self._refer(table, record, ref, to, row, where, later)
            if table.name in self.hooks:
                self.hooks[table.name](record, row, where)
            batch.append((row["id"], record, stamps))
            if len(batch) == BATCH:
                self._store(table, batch)
        self._store(table, batch)
        if len(seen) != self.header["counts"].get(table.name, 0):
            raise ArchiveError(
                f"{table.file}: {counted(len(seen), 'record')}, but {HEADER} counts "
                f"{self.header['counts'].get(table.name, 0)}: the archive is incomplete"
            )
        for ref in {ref for _, ref, _, _ in later}:
            linked = []
            for record, name, target, where in later:
                if name == ref:
                    if target not in self.ids[table.name]:
                        raise ArchiveError(
                            f"{where}: field {ref!r}: no record {target} in {table.file}"
                        )
                    setattr(record, f"{ref}_id", self.ids[table.name][target])
                    linked.append(record)
            table.model._default_manager.bulk_update(linked, [ref], batch_size=BATCH)

    def _refer(self, table, record, ref, to, row, where, later) -> None:
        if ref not in row:
            raise ArchiveError(f"{where}: field {ref!r} is missing")
        value, model_field = row[ref], table.model._meta.get_field(ref)
        if value is None:
            if not model_field.null:
                raise ArchiveError(f"{where}: field {ref!r} may not be null")
        elif to == USER:
            if value not in self.users:
                raise ArchiveError(
                    f"{where}: field {ref!r}: user {value!r} is not among the users of {HEADER}"
                )
            setattr(record, model_field.attname, self.users[value])
        elif not _is_id(value):
            raise ArchiveError(f"{where}: field {ref!r} should be a record's id")
        elif to == table.name:
            later.append((record, ref, value, where))
        elif value not in self.ids[to]:
            raise ArchiveError(f"{where}: field {ref!r}: no record {value} in {to}.jsonl")
        else:
            setattr(record, model_field.attname, self.ids[to][value])

    def _store(self, table: Table, batch: list) -> None:
        if not batch:
            return
        records = table.model._default_manager.bulk_create([record for _, record, _ in batch])
        for (old, _, stamps), record in zip(batch, records):
            self.ids[table.name][old] = record.pk
            for name, value in stamps.items():  # Django set these to now on insert
                setattr(record, name, value)
        if table.stamps:
            table.model._default_manager.bulk_update(records, table.stamps)
        self.done += len(batch)
        self.progress(self.done, self.total)
        batch.clear()

    # -- what the generic checks cannot see: spans within their texts, and ids inside history ------

    def _summary(self, record, row, where):
        self.lengths["summaries"][row["id"]] = len(record.text)

    def _annotation(self, record, row, where):
        self.lengths["peer_annotations"][row["id"]] = self.lengths["summaries"][row["peer"]]

    def _pse(self, record, row, where):
        self.lengths["pses"][row["id"]] = self.lengths["peer_annotations"][row["annotation"]]

    def _within(self, record, length: int, what: str, where: str) -> None:
        if record.end > length:  # start <= end is the database's check
            raise ArchiveError(
                f"{where}: field 'end': the span {record.start}-{record.end} is not within its "
                f"{what} ({length} characters)"
            )

    def _span(self, record, row, where):
        self._within(record, self.lengths["summaries"][row["summary"]], "summary's text", where)

    def _pse_span(self, record, row, where):
        self._within(record, self.lengths["pses"][row["pse"]], "peer summary's text", where)

    def _proposal(self, record, row, where):
        length = self.lengths["peer_annotations"][row["annotation"]]
        self._within(record, length, "peer summary's text", where)

    def _unit_set(self, record, row, where):
        self.answers[row["id"]] = record.answers

    def _unit(self, record, row, where):
        self.unit_sets[row["id"]] = row["unit_set"]
        if record.model_id is not None and record.end is not None:
            self._within(record, self.lengths["summaries"][row["model"]], "model's text", where)

    def _judgment_task(self, record, row, where):
        self.tasks[row["id"]] = (row["unit_set"], row["peer"])

    def _judgment(self, record, row, where):
        """As judging.answer checks an answer: a unit of the task's set, a value on its scale,
        sentences within the peer."""
        unit_set, peer = self.tasks[row["task"]]
        if self.unit_sets[row["unit"]] != unit_set:
            raise ArchiveError(
                f"{where}: field 'unit': unit {row['unit']} is not of its task's unit set"
            )
        answers = self.answers[unit_set]
        if record.value not in answers:
            raise ArchiveError(
                f"{where}: field 'value': {record.value:g} is not an answer on its unit set's "
                f"scale ({', '.join(f'{a:g}' for a in answers)})"
            )
        length = self.lengths["summaries"][peer]
        spans = record.sentences
        if not isinstance(spans, list) or not all(
            isinstance(span, list)
            and len(span) == 2
            and all(isinstance(i, int) and not isinstance(i, bool) for i in span)
            and 0 <= span[0] < span[1] <= length
            for span in spans
        ):
            raise ArchiveError(
                f"{where}: field 'sentences': not [start, end] spans within the peer's text "
                f"({length} characters)"
            )

    def _new_summary(self, summary_id, where):
        if summary_id not in self.ids["summaries"]:
            raise ArchiveError(f"{where}: summary {summary_id!r} is not in summaries.jsonl")
        return self.ids["summaries"][summary_id]

    def _provenance(self, state: dict, table: str) -> dict:
        """The copy of a snapshot's record whose source is remapped, or dropped if gone; and the
        consensus copies it notes (annotator.pyramids.editing: "copies"), remapped, those gone left
        out."""
        state = dict(state)
        if state.get("source") is not None:
            source = (
                self.ids[table].get(state["source"])
                if table != "pses"
                else self.pse_ids.get(state["source"])
            )
            if source:
                state["source"] = source
            else:
                del state["source"]
        if state.get("copies"):
            copies = [self.ids[table][copy] for copy in state["copies"] if copy in self.ids[table]]
            if copies:
                state["copies"] = copies
            else:
                del state["copies"]
        return state

    def _pyramid_state(self, state, where: str):
        try:
            scus = {}
            for uid, scu in state["scus"].items():
                if scu is not None:
                    scu = self._provenance(scu, "scus")
                    scu["contributors"] = [
                        self._contributor_ids(
                            {
                                **self._provenance(c, "contributors"),
                                "summary": self._new_summary(c["summary"], where),
                                "spans": [
                                    [self._new_summary(s, where), start, end]
                                    for s, start, end in c["spans"]
                                ],
                            }
                        )
                        for c in scu["contributors"]
                    ]
                scus[uid] = scu
            return {**state, "scus": scus}
        except (KeyError, TypeError, AttributeError, ValueError) as problem:
            raise ArchiveError(f"{where}: not a pyramid snapshot ({problem!r})") from None

    def _contributor_ids(self, contributor: dict) -> dict:
        """A snapshot's contributor with its ids and its parts' ids (version 6: undo and redo
        bring them back under them) remapped to the records restored; where one is no longer a
        record, the snapshot keeps none (undo then gives it a new id)."""
        contributor = dict(contributor)
        old, parts = contributor.pop("id", None), contributor.pop("span_ids", None)
        new = self.ids["contributors"].get(old) if _is_id(old) else None
        if new is None:
            return contributor
        contributor["id"] = new
        if isinstance(parts, list) and all(_is_id(p) and p in self.ids["spans"] for p in parts):
            contributor["span_ids"] = [self.ids["spans"][p] for p in parts]
        return contributor

    def _pyramid_change(self, record, row, where):
        record.before = self._pyramid_state(record.before, f"{where}: field 'before'")
        record.after = self._pyramid_state(record.after, f"{where}: field 'after'")

    def _reserve_gone_pses(self) -> None:
        """Ids of PSEs and PSE spans that annotation snapshots hold but are no longer records: undo
        brings them back under their ids, so each gets a fresh id no record will take."""
        pses: set[int] = set()
        spans: set[int] = set()
        for _, row in self._lines("peer_annotation_changes.jsonl"):
            for state in (row.get("before"), row.get("after")):
                if isinstance(state, dict):  # the PSEs a change changed (version 3)
                    absent = state.get("absent")
                    pses.update(
                        i
                        for i in (absent if isinstance(absent, list) else [])
                        if _is_id(i) and i not in self.ids["pses"]
                    )
                    state = state.get("pses")
                for pse in state if isinstance(state, list) else []:
                    if isinstance(pse, dict):
                        pses.update(
                            i for i in [pse.get("id")] if _is_id(i) and i not in self.ids["pses"]
                        )
                        spans.update(
                            i
                            for i in (
                                pse["span_ids"] if isinstance(pse.get("span_ids"), list) else []
                            )
                            if _is_id(i) and i not in self.ids["pse_spans"]
                        )
        gone_pses, gone_spans = sorted(pses), sorted(spans)
        self.pse_ids = {**self.ids["pses"], **dict(zip(gone_pses, _reserve(PSE, len(gone_pses))))}
        self.span_ids = {
            **self.ids["pse_spans"],
            **dict(zip(gone_spans, _reserve(PSESpan, len(gone_spans)))),
        }

    def _peer_state(self, state, where: str):
        try:
            if isinstance(state, dict):  # the PSEs the change changed (version 3)
                return {
                    "pses": self._pses(state["pses"]),
                    "absent": [self.pse_ids[i] for i in state["absent"]],
                }
            return self._pses(state)  # every PSE (versions 1 and 2)
        except (KeyError, TypeError, AttributeError, ValueError) as problem:
            raise ArchiveError(f"{where}: not a peer annotation snapshot ({problem!r})") from None

    def _pses(self, states) -> list[dict]:
        if not isinstance(states, list):
            raise TypeError(f"{type(states).__name__} where PSEs are listed")
        pses = []
        for pse in states:
            pse = self._provenance(pse, "pses")
            if pse.get("id") is not None:
                pse["id"] = self.pse_ids[pse["id"]]
            if pse.get("span_ids") is not None:
                pse["span_ids"] = [None if i is None else self.span_ids[i] for i in pse["span_ids"]]
            pses.append(pse)
        return pses

    def _peer_change(self, record, row, where):
        record.before = self._peer_state(record.before, f"{where}: field 'before'")
        record.after = self._peer_state(record.after, f"{where}: field 'after'")
        choice = record.decision.get("choice") if isinstance(record.decision, dict) else None
        if _is_id(
            choice
        ):  # the annotation whose reading was taken (annotator.adjudication.annotation_consensus)
            record.decision = {
                **record.decision,
                "choice": self.ids["peer_annotations"].get(choice),
            }
