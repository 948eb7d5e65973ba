"""Storing DUCView files as records: one transaction per file, nothing stored from a bad file.

Every path (the `import_ducview` command, the browser upload, the API) goes through
DucviewImporter, and the result does not depend on the order of the files:
- a pyramid is stored once per distinct content (ducview.fingerprints): a .pyr, the copies of it
  embedded in its .pan files and an export of the records are one pyramid, even where the copies
  of the model summaries differ by encoding artefacts or spacing (ducview.reconcile maps their
  offsets into the copy stored);
- a peer id is one system however it is written ("06" and "6", ducview.names.system_id).

Real DUCView data breaks rules that the editing pages enforce; what DUCView opens is kept as it
had it, so that the scores reproduce the NIST tables, and reported (warnings here, and the
collection's problems to review, annotator.pyramids.problems):
- an SCU with two contributors from one model; a contributor with parts in two models;
- a part whose end lies before its start: re-anchored by its label near its offsets, or kept as
  an empty part;
- an empty peer summary (a system that produced nothing): stored, scored 0.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from annotator.campaigns.models import Collection, Docset, Summary
from annotator.ducview import DucviewError
from annotator.ducview.anchoring import ANCHOR_MOVED, ANCHOR_UNMATCHED, anchor
from annotator.ducview.fingerprints import annotation_fingerprint, pyramid_fingerprint
from annotator.ducview.layout import Layout, split_models
from annotator.ducview.names import (
    PAN_NAME,
    FileIdentity,
    identity_from_name,
    identity_from_note,
    system_id,
)
from annotator.ducview.reader import (
    NON_MATCHING_UID,
    PeerAnnotationDocument,
    PyramidDocument,
    as_utf8,
    read_any,
)
from annotator.ducview.reconcile import Translation, first_difference, preferred, translation
from annotator.peer_annotation.models import PSE, PeerAnnotation, PeerSCUComment, PSESpan
from annotator.pyramids.models import SCU, Contributor, Pyramid, PyramidModel, Span
from annotator.text.plurals import counted
from annotator.web.database import connection_lost

DUCVIEW_SUFFIXES = (".pyr", ".pan")
DUC_PEER_NAME = re.compile(
    r"^D\d+[A-Za-z]?(?:-[A-Z])?\.[A-Z]\.\d+\.[A-Z]\.\w+$"
)  # D0601.M.250.A.06


# Sent when an import is over, with the collection's id: scoring brings the collection's stored
# scores up to date in the background, so that the first sort by a score after a large import
# does not wait for it (scoring.apps connects it; the annotator app never imports scoring).
collection_imported = Signal()


@dataclass
class ImportReport:
    files: int = 0
    unchanged: int = 0
    pyramids: int = 0
    scus: int = 0
    contributors: int = 0
    peer_annotations: int = 0
    pses: int = 0
    reanchored: int = 0
    empty_parts: int = 0
    empty_peers: int = 0
    warnings: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    ids_normalised: Counter = field(default_factory=Counter)  # ("06", "6") -> files

    def summary_line(self) -> str:
        line = (
            f"{counted(self.files, 'file')}: {counted(self.pyramids, 'pyramid')} "
            f"({counted(self.scus, 'SCU')}, {counted(self.contributors, 'contributor')}), "
            f"{counted(self.peer_annotations, 'peer annotation')} ({counted(self.pses, 'PSE')}); "
            f"{self.unchanged} unchanged, {counted(self.reanchored, 'part')} re-anchored, "
            f"{counted(len(self.warnings), 'warning')}, {len(self.failures)} refused"
        )
        notes = []
        if self.empty_peers:
            notes.append(
                f"{counted(self.empty_peers, 'empty peer summary', 'empty peer summaries')} "
                "(scored 0)"
            )
        if self.empty_parts:
            notes.append(f"{counted(self.empty_parts, 'part')} kept empty")
        if self.ids_normalised:
            pairs = ", ".join(
                f"{written} as {normal}"
                for (written, normal), _ in sorted(self.ids_normalised.items())
            )
            notes.append(f"peer ids read as numbers: {pairs}")
        return line + (f"; {'; '.join(notes)}" if notes else "")

    def state(self) -> dict:
        """The report as JSON, for a resumed import job to go on from (annotator.transfer.jobs)."""
        return {
            **{
                name: getattr(self, name)
                for name in self.__dataclass_fields__
                if name != "ids_normalised"
            },
            "ids_normalised": [
                [written, normal, n] for (written, normal), n in sorted(self.ids_normalised.items())
            ],
        }

    @classmethod
    def from_state(cls, state: dict | None) -> ImportReport:
        if not state:
            return cls()
        ids = Counter(
            {(written, normal): n for written, normal, n in state.get("ids_normalised", [])}
        )
        return cls(
            **{
                **{k: v for k, v in state.items() if k in cls.__dataclass_fields__},
                "ids_normalised": ids,
            }
        )

    def lines(self) -> list[str]:
        """The report as the job page and the API show it: the summary, then every file's
        problem."""
        return [
            self.summary_line(),
            *(f"warning: {w}" for w in self.warnings),
            *(f"refused: {f}" for f in self.failures),
        ]


@dataclass
class _StoredPyramid:
    pyramid: Pyramid
    scu_ids: dict[int, int]  # DUCView uid -> SCU id
    models: list[Summary]


@dataclass
class _DocsetRecords:
    """What one import knows of a docset's records: read once (nothing to read for a docset the
    import made), kept up to date by the files stored in it, forgotten when a file fails (its
    transaction took back what it made or changed)."""

    docset: Docset
    models: dict[str, Summary]  # model summaries by author
    peers: dict[str, Summary]  # peer summaries by author
    pyramids: dict[str, _StoredPyramid]  # by fingerprint (ducview.fingerprints)
    annotated: set[tuple[int, int, str]]  # (pyramid id, peer id, annotator) of its annotations
    # The copies of a known pyramid met in .pan files, by their content (_pyramid_content): its
    # fingerprint, and the warnings and counts placing it gave. Every .pan of a docset embeds its
    # pyramid; placed once, it is not placed again for each of them. Only copies whose models
    # were exactly as stored are kept, and the whole is forgotten when a model's text changes.
    embedded: dict[tuple, tuple[str, list[str], Counter]] = field(default_factory=dict)

    @classmethod
    def new(cls, docset: Docset) -> _DocsetRecords:
        return cls(docset, {}, {}, {}, set())

    @classmethod
    def read(cls, docset: Docset) -> _DocsetRecords:
        """A stored docset's records, in 6 queries: every file of it is then imported against
        them (so pyramids built in the app are recognised too)."""
        records = cls.new(docset)
        for summary in Summary.objects.filter(
            docset=docset, kind__in=(Summary.Kind.MODEL, Summary.Kind.PEER)
        ):
            kind = records.models if summary.kind == Summary.Kind.MODEL else records.peers
            kind[summary.author] = summary
        records.pyramids = stored_pyramids(Pyramid.objects.filter(docset=docset))
        # Annotated by an imported annotator id, or by the user an exported annotation names
        # (export_ducview writes the username): as stored_annotations matches them.
        records.annotated = {
            (pyramid_id, peer_id, code if username is None else username)
            for pyramid_id, peer_id, code, username in PeerAnnotation.objects.filter(
                pyramid__docset=docset
            ).values_list("pyramid_id", "peer_id", "annotator_code", "annotator__username")
        }
        return records


@dataclass
class _Located:
    """A part placed in the records: model (or peer) text offsets; empty when it could not be
    placed."""

    model: int
    start: int
    end: int


def import_order(names):
    """The order files are imported in, by every path: pyramids, then peer annotations, each by
    name. (The records do not depend on it; the report's order does.)"""
    return sorted(names, key=lambda name: (not str(name).endswith(".pyr"), str(name)))


class DucviewImporter:
    """Imports files into one collection, each file in its own transaction."""

    BATCH_SCUS = 1000  # SCUs stored at a time, with their contributors and spans

    def __init__(
        self,
        collection_name: str,
        *,
        model_regex: str | None = None,
        report: ImportReport | None = None,
    ):
        self.collection_name = collection_name
        self.model_regex = model_regex
        self.report = report or ImportReport()
        # What the import knows of the records, read once rather than for every file: the
        # collection, its docsets by name and each docset's records (_DocsetRecords).
        self._collection: Collection | None = None
        self._docsets: dict[str, Docset] | None = None
        self._records: dict[int, _DocsetRecords] = {}
        # The pyramids embedded in the .pan files read so far: a copy met again is not parsed
        # again (annotator.ducview.reader.read_any).
        self._embedded: dict = {}

    # -- one file
    def import_file(
        self, path: Path, overrides: FileIdentity | None = None, max_bytes: int | None = None
    ) -> bool:
        """Import one file; on failure record why (naming the file) and return False. A file over
        `max_bytes` is refused before it is read (as an upload over the limit is)."""
        try:
            size = Path(path).stat().st_size
            if max_bytes is not None and size > max_bytes:
                self.report.files += 1
                self.report.failures.append(
                    f"{path}: {size:,} bytes, more than the {max_bytes:,} allowed per file "
                    "(--max-file-mb raises the limit)"
                )
                return False
            data = Path(path).read_bytes()
        except OSError as exc:
            self.report.files += 1
            self.report.failures.append(f"{path}: {exc}")
            return False
        return self.import_data(str(path), data, overrides)

    def import_data(self, path: str, data: bytes, overrides: FileIdentity | None = None) -> bool:
        """Import one file's content (`path` names it, for its identity and in messages)."""
        self.report.files += 1
        if not path.endswith(DUCVIEW_SUFFIXES):
            self.report.failures.append(f"{path}: not a DUCView file (.pyr or .pan)")
            return False
        warnings: list[str] = []
        counts: Counter = Counter()
        collection_known = self._collection is not None
        stored_some = False  # whether the file got as far as its transaction
        try:
            document, identity = read_with_identity(path, data, overrides, self._embedded)
            stored_some = True
            with transaction.atomic():
                annotation = self._import_document(
                    document, identity, PurePosixPath(path).name, warnings, counts
                )
                if annotation is not None:
                    self._store(annotation)
        except (DucviewError, OSError, DatabaseError) as exc:
            if isinstance(exc, DatabaseError) and connection_lost(exc):
                # not this file's fault: the import is interrupted (annotator.transfer.leases
                # resumes a job)
                raise
            reason = str(exc)
            if isinstance(exc, DatabaseError):
                reason = f"the database refused it: {str(exc).strip()}"
            if stored_some:
                self._forget(keep_collection=collection_known)
            self.report.failures.append(f"{path}: {reason}")
            return False
        for key, value in counts.items():
            if isinstance(key, tuple):
                self.report.ids_normalised[key] += value
            else:
                setattr(self.report, key, getattr(self.report, key) + value)
        self.report.warnings.extend(f"{path}: {w}" for w in warnings)
        return True

    def finish(self) -> None:
        """Once the files are imported (not once a file): tell what keeps figures of the
        collection (scoring's stored scores, scoring.apps) that its records changed."""
        if self._collection is not None and (self.report.pyramids or self.report.peer_annotations):
            collection_imported.send(DucviewImporter, collection_id=self._collection.pk)

    def _forget(self, *, keep_collection: bool) -> None:
        """After a failed file: what its transaction made or changed is gone, so what the import
        knew is read again (the collection too, if that file created it)."""
        if not keep_collection:
            self._collection = None
        self._docsets = None
        self._records.clear()

    def _collection_record(self) -> Collection:
        if self._collection is None:
            self._collection, _ = Collection.objects.get_or_create(name=self.collection_name)
        return self._collection

    def _docset_records(self, name: str) -> _DocsetRecords:
        """The docset's records as this import knows them; a new docset is made (no savepoint:
        the file's transaction is the unit, and a docset made in it goes with it)."""
        if self._docsets is None:
            collection = self._collection_record()
            self._docsets = {docset.name: docset for docset in collection.docsets.all()}
        docset = self._docsets.get(name)
        if docset is None:
            docset = Docset.objects.create(collection=self._collection_record(), name=name)
            self._docsets[name] = docset
            self._records[docset.id] = _DocsetRecords.new(docset)
        elif docset.id not in self._records:
            self._records[docset.id] = _DocsetRecords.read(docset)
        return self._records[docset.id]

    def _import_document(
        self, document, identity: FileIdentity, file_name: str, warnings, counts
    ) -> _NewAnnotation | None:
        """Store the document's records, but for a new peer annotation: returned, to be stored
        last (_store)."""
        assert identity.docset is not None  # read_with_identity refuses a file without one
        records = self._docset_records(identity.docset)
        is_pyr = isinstance(document, PyramidDocument)
        pyramid_document = document if is_pyr else document.pyramid
        fingerprint, stored, created = self._pyramid(
            records, pyramid_document, identity, file_name, is_pyr, warnings, counts
        )
        if is_pyr:
            if not created:
                counts["unchanged"] += 1
            return None
        annotation = self._peer_annotation(
            records, stored, fingerprint, document, identity, file_name, warnings, counts
        )
        if not created and annotation is None:
            counts["unchanged"] += 1
        return annotation

    def _store(self, annotation: _NewAnnotation) -> None:
        """Store a new peer annotation, and know it stored."""
        if connection.vendor == "postgresql":
            store_annotation_at_once(annotation)
        else:
            store_annotation(annotation)
        annotation.records.annotated.add(
            (annotation.pyramid_id, annotation.peer.id, annotation.annotator_code)
        )

    # -- pyramids
    def _pyramid(
        self,
        records: _DocsetRecords,
        document: PyramidDocument,
        identity: FileIdentity,
        file_name,
        is_pyr,
        warnings,
        counts,
    ):
        # A copy read from the same bytes (annotator.ducview.reader.read_any) is known by them;
        # another by its content (issue 33: building that key was a fifth of a small file's
        # import).
        key = None if is_pyr else (document.embedded_key or _pyramid_content(document))
        if key is not None and key in records.embedded:  # a copy met before: the same outcome
            fingerprint, seen_warnings, seen_counts = records.embedded[key]
            warnings.extend(seen_warnings)
            counts.update(seen_counts)
            seen = records.pyramids[fingerprint]
            self._named_after_first_pan(seen, file_name)
            return fingerprint, seen, False
        first_warning, counts_before = len(warnings), counts.copy()
        docset = records.docset
        layout = split_models(document.text, document.start_document_regex, self.model_regex)
        models, translations, as_stored = self._model_summaries(records, layout, warnings)
        placed = [
            [
                [
                    self._place_model_part(
                        document.text, layout, translations, scu.uid, part, warnings, counts
                    )
                    for part in contributor.parts
                ]
                for contributor in scu.contributors
            ]
            for scu in document.scus
        ]
        fingerprint = _placed_fingerprint(models, document, placed)
        stored = records.pyramids.get(fingerprint)
        if stored is not None:
            if not is_pyr:
                self._named_after_first_pan(stored, file_name)
                self._regex_from_pan(stored, document, file_name, warnings)
                if key is not None and as_stored:
                    records.embedded[key] = (
                        fingerprint,
                        warnings[first_warning:],
                        counts - counts_before,
                    )
            elif not stored.pyramid.source_name.endswith(".pyr"):
                self._named_by_its_pyr(stored.pyramid, document, layout, identity, file_name)
            return fingerprint, stored, False
        new_models = [m for m in models if m.pk is None]
        Summary.objects.bulk_create(new_models)
        records.models.update((m.author, m) for m in new_models)
        pyramid = Pyramid.objects.create(
            docset=docset,
            name=Pyramid.free_name(
                docset.id, identity.pyramid or (Path(file_name).stem if is_pyr else docset.name)
            ),
            # An export note says whether it was finished; NIST's files hold finished pyramids.
            status=identity.status
            if is_pyr and identity.status in Pyramid.Status.values
            else Pyramid.Status.SUBMITTED,
            start_document_regex=document.start_document_regex or "",
            trailer=layout.trailer,
            fingerprint=fingerprint,
            source_name=file_name,
        )
        PyramidModel.objects.bulk_create(
            PyramidModel(pyramid=pyramid, summary=summary, position=i, header=segment.header)
            for i, (segment, summary) in enumerate(zip(layout.models, models))
        )
        scu_ids = self._store_scus(pyramid, document, placed, models, layout, warnings, counts)
        counts["pyramids"] += 1
        stored = _StoredPyramid(pyramid, scu_ids, models)
        records.pyramids[fingerprint] = stored
        return fingerprint, stored, True

    @staticmethod
    def _named_by_its_pyr(pyramid, document, layout, identity, file_name) -> None:
        """The same pyramid came first inside a .pan: its own file names it and says how DUCView
        finds its models. (A .pyr without a regex keeps the one its .pans carry: issue 33.)"""
        pyramid.name = Pyramid.free_name(
            pyramid.docset_id, identity.pyramid or Path(file_name).stem, pyramid.id
        )
        pyramid.source_name = file_name
        pyramid.start_document_regex = document.start_document_regex or pyramid.start_document_regex
        pyramid.trailer = layout.trailer
        pyramid.save(update_fields=["name", "source_name", "start_document_regex", "trailer"])
        for link, segment in zip(
            PyramidModel.objects.filter(pyramid=pyramid).order_by("position"), layout.models
        ):
            if link.header != segment.header:
                link.header = segment.header
                link.save(update_fields=["header"])

    def _store_scus(self, pyramid, document, placed, models, layout, warnings, counts):
        """The SCUs with their contributors and spans, in batches: the records a batch makes are
        let go before the next, so a very large pyramid (a 20 MB .pyr has 40,000 SCUs) does not
        hold them all. Returns each SCU's record id by its uid."""
        scu_ids: dict[int, int] = {}
        for first in range(0, len(document.scus), self.BATCH_SCUS):
            batch = slice(first, first + self.BATCH_SCUS)
            scus = document.scus[batch]
            scu_record_ids = insert_rows(
                SCU,
                ("pyramid", "uid", "label", "comment", "position"),
                [
                    (pyramid.id, s.uid, s.label, s.comment or "", first + i)
                    for i, s in enumerate(scus)
                ],
                returning_ids=True,
            )
            contributors, spans = _contributor_rows(
                zip(scu_record_ids, scus, placed[batch]), models, layout, warnings
            )
            contributor_ids = insert_rows(
                Contributor,
                ("scu", "summary", "comment", "position"),
                contributors,
                returning_ids=True,
            )
            insert_rows(
                Span,
                ("contributor", "summary", "start", "end", "position"),
                [(contributor_ids[c], summary, s, e, p) for c, summary, s, e, p in spans],
            )
            scu_ids.update((scu.uid, scu_id) for scu, scu_id in zip(scus, scu_record_ids))
            counts["scus"] += len(scus)
            counts["contributors"] += len(contributors)
        return scu_ids

    @staticmethod
    def _named_after_first_pan(stored: _StoredPyramid, file_name: str) -> None:
        """A pyramid known only from .pans so far is named after the first of them, whatever the
        order."""
        source = stored.pyramid.source_name
        if not source.endswith(".pyr") and file_name < source:
            stored.pyramid.source_name = file_name
            stored.pyramid.save(update_fields=["source_name"])

    @staticmethod
    def _regex_from_pan(stored: _StoredPyramid, document, file_name: str, warnings) -> None:
        """A pyramid stored without a startDocumentRegEx (its .pyr has none, as 8 of NIST's) keeps
        the one a .pan of it carries (issue 33): DUCView 1.4 needs it to count the models when it
        scores an exported file alone."""
        pyramid = stored.pyramid
        if document.start_document_regex and not pyramid.start_document_regex:
            pyramid.start_document_regex = document.start_document_regex
            pyramid.save(update_fields=["start_document_regex"])
            warnings.append(
                f"pyramid {pyramid.name} had no startDocumentRegEx: it keeps the one "
                f"{Path(file_name).name} carries"
            )

    def _model_summaries(
        self, records: _DocsetRecords, layout: Layout, warnings
    ) -> tuple[list[Summary], list[Translation], bool]:
        """The model summaries of the layout as stored (new ones unsaved), each segment's offsets
        translated into its stored copy, and whether every segment was stored exactly as it is."""
        docset, existing = records.docset, records.models
        models, translations = [], []
        as_stored = True
        for segment in layout.models:
            summary = existing.get(segment.author)
            as_stored = as_stored and summary is not None and summary.text == segment.text
            if summary is None:
                summary = Summary(
                    docset=docset,
                    kind=Summary.Kind.MODEL,
                    author=segment.author,
                    name=segment.name,
                    text=segment.text,
                )
                translations.append(Translation.identity(len(segment.text)))
            else:
                mapped = translation(segment.text, summary.text)
                if mapped is None:
                    raise DucviewError(
                        f"model summary {segment.author} of {docset.name} differs from the one "
                        f"already stored ({first_difference(segment.text, summary.text)}); import "
                        "it into another collection, or correct the file"
                    )
                if _keep_preferred_copy(
                    summary, segment.text, f"model summary {segment.author}", warnings
                ):
                    records.embedded.clear()  # placed against the text this file replaced
                translations.append(mapped)
            models.append(summary)
        return models, translations, as_stored

    def _place_model_part(
        self, text, layout: Layout, translations, uid, part, warnings, counts
    ) -> _Located:
        start, end = self._anchored(text, part, f"SCU {uid}", warnings, counts)
        index = layout.model_at(min(start, end), max(start, end))
        if index is None:
            raise DucviewError(
                f"line {part.line}: part {start}-{end} of SCU {uid} crosses two model summaries"
            )
        segment = layout.models[index]
        local_start = min(max(start - segment.offset, 0), len(segment.text))
        local_end = min(max(end - segment.offset, 0), len(segment.text))
        if local_start >= local_end and not (start >= end):
            raise DucviewError(
                f"line {part.line}: part {start}-{end} of SCU {uid} lies outside the model "
                "summaries"
            )
        local_end = max(local_start, local_end)
        return _Located(index, translations[index](local_start), translations[index](local_end))

    @staticmethod
    def _anchored(text: str, part, what: str, warnings, counts) -> tuple[int, int]:
        """The part's offsets, re-anchored by its label where they disagree; an inverted part
        (end before start) that its label cannot place becomes empty, at its start."""
        start, end, how = anchor(text, part.start, part.end, part.label)
        oddity = "holds no word" if part.start == part.end else "ends before it starts"
        if part.inverted and how != ANCHOR_MOVED:
            counts["empty_parts"] += 1
            unplaced = (
                f"its label {part.label!r} is not near"
                if part.label.strip()
                else "it has no label to place it by"
            )
            warnings.append(
                f"line {part.line}: a part of {what} {oddity} ({part.start}-{part.end}) and "
                f"{unplaced}: kept as an empty part, listed among the problems to review"
            )
            return part.start, part.start
        if how == ANCHOR_MOVED:
            counts["reanchored"] += 1
            if part.inverted:
                warnings.append(
                    f"line {part.line}: a part of {what} {oddity} ({part.start}-{part.end}): "
                    f"re-anchored by its label {part.label!r} at {start}-{end}"
                )
        elif how == ANCHOR_UNMATCHED:
            warnings.append(
                f"line {part.line}: part label {part.label!r} does not match the text at "
                f"{start}-{end}"
            )
        return start, end

    # -- peer annotations
    def _peer_annotation(
        self,
        records: _DocsetRecords,
        stored: _StoredPyramid,
        pyramid_fingerprint_: str,
        document: PeerAnnotationDocument,
        identity: FileIdentity,
        file_name,
        warnings,
        counts,
    ) -> _NewAnnotation | None:
        """The annotation to store (by _store, last in the file), or None if it is stored
        already."""
        # DUCView ends every line with "\n"; the last one is an artifact of the format.
        text = document.text[:-1] if document.text.endswith("\n") else document.text
        assert identity.peer is not None  # read_with_identity refuses a .pan without one
        peer_id = system_id(identity.peer)
        if peer_id != identity.peer:
            counts[(identity.peer, peer_id)] += 1
        docset = records.docset
        peer = records.peers.get(peer_id)
        # The summary's name as NIST's files write it (without the annotator's prefix); of several
        # spellings ("…A.06", "…B.6"), the first in order, whatever order the files come in.
        name = peer_name(file_name)
        if peer is None:
            # stored with its annotation, below (its id then)
            peer = Summary(
                docset=docset, kind=Summary.Kind.PEER, author=peer_id, name=name, text=text
            )
            mapped = Translation.identity(len(text))
        else:
            if name < peer.name and DUC_PEER_NAME.match(name) and DUC_PEER_NAME.match(peer.name):
                peer.name = name  # of NIST's spellings, the first (a name given in the app stays)
                peer.save(update_fields=["name"])
            found = translation(text, peer.text)
            if found is None:
                raise DucviewError(
                    f"peer {peer_id} of {docset.name} differs from the peer text already stored "
                    f"({first_difference(text, peer.text)})"
                )
            mapped = found
            _keep_preferred_copy(peer, text, f"peer {peer_id}", warnings)
        if not text.strip():
            counts["empty_peers"] += 1
            warnings.append(
                f"the peer summary of {peer_id} is empty (the system produced nothing): imported, "
                "it scores 0; listed among the problems to review"
            )
        annotator = identity.annotator or ""
        pses = []
        for peer_scu in document.peer_scus:
            for contributor in peer_scu.contributors:
                spans = []
                for part in contributor.parts:
                    start, end = self._anchored(
                        document.text, part, f"a PSE of SCU {peer_scu.uid}", warnings, counts
                    )
                    start, end = min(start, len(text)), min(end, len(text))
                    if start > end or (start == end and not part.inverted):
                        raise DucviewError(
                            f"line {part.line}: part {part.start}-{part.end} lies outside the peer "
                            "text"
                        )
                    spans.append((mapped(start), mapped(end)))
                pses.append((peer_scu.uid, contributor.comment or "", spans))
        comments = [(s.uid, s.comment) for s in document.peer_scus if s.comment]
        fingerprint = annotation_fingerprint(pyramid_fingerprint_, peer.text, pses, comments)

        key = (stored.pyramid.id, peer.id, annotator)
        existing = (
            stored_annotations(stored.pyramid, peer, annotator)
            if key in records.annotated
            else set()
        )  # none for a new peer (its id is None)
        if existing:
            if fingerprint in existing:
                return None
            raise DucviewError(
                f"peer {peer.author} of {docset.name} by annotator {annotator or '(none)'} is "
                "already stored with different PSEs; delete that annotation first to replace it"
            )
        status = (
            identity.status
            if identity.status in PeerAnnotation.Status.values
            else PeerAnnotation.Status.SUBMITTED
        )
        if peer.id is None:
            records.peers[peer_id] = peer  # its id set when it is stored, with the annotation
        counts["peer_annotations"] += 1
        counts["pses"] += len(pses)
        return _NewAnnotation(
            records=records,
            pyramid_id=stored.pyramid.id,
            peer=peer,
            annotator_code=annotator,
            status=status,
            source_name=file_name,
            peer_as_written=identity.peer if identity.peer != peer_id else "",
            fingerprint=fingerprint,
            pses=[
                (None if uid == NON_MATCHING_UID else stored.scu_ids[uid], comment, spans)
                for uid, comment, spans in pses
            ],
            comments=[
                (None if uid == NON_MATCHING_UID else stored.scu_ids[uid], comment)
                for uid, comment in comments
            ],
        )


@dataclass(slots=True)
class _NewAnnotation:
    """A peer annotation to store: what the importer read, with the records' ids."""

    records: _DocsetRecords  # its docset's, as the import knows them
    pyramid_id: int
    peer: Summary  # not stored yet if its id is None: stored with the annotation (its id set)
    annotator_code: str
    status: str
    source_name: str
    peer_as_written: str  # "01" for peer 1, as the file wrote it; "" where the same
    fingerprint: str
    pses: list[tuple[int | None, str, list[tuple[int, int]]]]  # SCU id or None, comment, spans
    comments: list[tuple[int | None, str]]  # SCU id or None, comment

    def row(self) -> list:
        """The PeerAnnotation's values for ANNOTATION_FIELDS, as the database takes them (the peer's
        id None if it is new); the others as a new record has them (its defaults, and created and
        updated now)."""
        given = {  # values as the database takes them already (ids and strings)
            "pyramid": self.pyramid_id,
            "peer": self.peer.id,
            "annotator_code": self.annotator_code,
            "status": str(self.status),
            "source_name": self.source_name,
            "peer_as_written": self.peer_as_written,
            "fingerprint": self.fingerprint,
        }
        now = timezone.now()
        made = {"created_at": now, "updated_at": now}
        row = []
        for name in ANNOTATION_FIELDS:
            if name in given:
                row.append(given[name])
            else:  # prepared for the database as the model's save() prepares it
                field = ANNOTATION_MODEL_FIELDS[name]
                value = made[name] if name in made else field.get_default()
                row.append(field.get_db_prep_save(value, connection))
        return row


def _new_peer_row(peer: Summary) -> tuple:
    return (peer.docset_id, peer.kind, peer.author, peer.name, peer.text)


PEER_FIELDS = ("docset", "kind", "author", "name", "text")


def store_annotation(annotation: _NewAnnotation) -> None:
    """Store a peer annotation (and its peer summary, if new: its id is set): its record, its PSEs
    and their spans, its SCU comments, a statement each. What store_annotation_at_once stores in
    one, on other databases than PostgreSQL (SQLite, the demo's)."""
    peer = annotation.peer
    if peer.id is None:
        (peer.id,) = insert_rows(Summary, PEER_FIELDS, [_new_peer_row(peer)], returning_ids=True)
    row = annotation.row()
    (annotation_id,) = insert_rows(
        PeerAnnotation, ANNOTATION_FIELDS, [tuple(row)], returning_ids=True
    )
    pse_ids = insert_rows(
        PSE,
        ("annotation", "scu", "comment", "position"),
        [
            (annotation_id, scu, comment, position)
            for position, (scu, comment, _) in enumerate(annotation.pses)
        ],
        returning_ids=True,
    )
    insert_rows(
        PSESpan,
        ("pse", "start", "end", "position"),
        [
            (pse_id, start, end, position)
            for pse_id, (_, _, spans) in zip(pse_ids, annotation.pses)
            for position, (start, end) in enumerate(spans)
        ],
    )
    insert_rows(
        PeerSCUComment,
        ("annotation", "scu", "comment"),
        [(annotation_id, scu, comment) for scu, comment in annotation.comments],
    )


def store_annotation_at_once(annotation: _NewAnnotation) -> None:
    """store_annotation in one statement, on PostgreSQL (INSERTs in WITH): on a further .pan of a
    known pyramid, each round trip to the database costs more of the client's CPU than reading
    the file (issue 19). The rows go as JSON, one parameter a table (a parameter for each column
    of each row costs more to pass than to store); they are inserted in the order store_annotation
    inserts them, so their ids come in the same order."""
    peer = annotation.peer
    new_peer = peer.id is None
    row = annotation.row()
    if new_peer:
        row = [*_new_peer_row(peer), *(v for f, v in zip(ANNOTATION_FIELDS, row) if f != "peer")]
    spans = [
        [position, start, end, span_position]
        for position, (_, _, pse_spans) in enumerate(annotation.pses)
        for span_position, (start, end) in enumerate(pse_spans)
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            _annotation_statement(new_peer),
            [
                *row,
                _json([[scu, comment] for scu, comment, _ in annotation.pses]),
                _json(spans),
                _json(annotation.comments),
            ],
        )
        (peer_id,) = cursor.fetchone()
    if new_peer:
        peer.id = peer_id


ANNOTATION_FIELDS = (
    *("pyramid", "peer", "annotator_code", "status", "source_name", "peer_as_written"),
    "fingerprint",
    *("version", "scus_changed", "created_at", "updated_at"),
)
ANNOTATION_MODEL_FIELDS = {field.name: field for field in PeerAnnotation._meta.concrete_fields}


# Rows as JSON, every character as it is (the server reads them into text columns)
_json = json.JSONEncoder(ensure_ascii=False).encode


@functools.cache
def _annotation_statement(new_peer: bool) -> str:
    """The statement of store_annotation_at_once, from the models' tables and columns."""
    _check_fields(Summary, PEER_FIELDS)
    _check_fields(PeerAnnotation, ANNOTATION_FIELDS)
    _check_fields(PSE, ("annotation", "scu", "comment", "position"))
    _check_fields(PSESpan, ("pse", "start", "end", "position"))
    _check_fields(PeerSCUComment, ("annotation", "scu", "comment"))
    quote = connection.ops.quote_name

    def table(model) -> str:
        return quote(model._meta.db_table)

    def columns(model, *names: str) -> str:
        return ", ".join(quote(model._meta.get_field(name).column) for name in names)

    def pk(model) -> str:
        return quote(model._meta.pk.column)

    values = ", ".join(
        "(SELECT id FROM new_peer)" if new_peer and name == "peer" else "%s"
        for name in ANNOTATION_FIELDS
    )
    peer = (
        f"new_peer AS (INSERT INTO {table(Summary)} "
        f"({columns(Summary, *PEER_FIELDS)}) "
        f"VALUES (%s, %s, %s, %s, %s) RETURNING {pk(Summary)} AS id), "
        if new_peer
        else ""
    )
    return (
        f"WITH {peer}"
        f"annotation AS (INSERT INTO {table(PeerAnnotation)} "
        f"({columns(PeerAnnotation, *ANNOTATION_FIELDS)}) "
        f"VALUES ({values}) RETURNING {pk(PeerAnnotation)} AS id, "
        f"{columns(PeerAnnotation, 'peer')} AS peer_id), "
        # the PSEs, [SCU id, comment], numbered from 0 (their position) in the order given
        f"pse AS (INSERT INTO {table(PSE)} "
        f"({columns(PSE, 'annotation', 'scu', 'comment', 'position')}) "
        "SELECT annotation.id, (v.item ->> 0)::bigint, v.item ->> 1, v.n - 1 FROM annotation, "
        "json_array_elements(%s::json) WITH ORDINALITY AS v (item, n) "
        f"ORDER BY v.n RETURNING {pk(PSE)} AS id, {columns(PSE, 'position')} AS position), "
        # the spans, [its PSE's position, start, end, position]
        f"span AS (INSERT INTO {table(PSESpan)} "
        f"({columns(PSESpan, 'pse', 'start', 'end', 'position')}) "
        "SELECT pse.id, (v.item ->> 1)::integer, (v.item ->> 2)::integer, (v.item ->> 3)::integer "
        "FROM json_array_elements(%s::json) WITH ORDINALITY AS v (item, n) "
        "JOIN pse ON pse.position = (v.item ->> 0)::integer ORDER BY v.n), "
        # the SCU comments, [SCU id, comment]
        f"scu_comment AS (INSERT INTO {table(PeerSCUComment)} "
        f"({columns(PeerSCUComment, 'annotation', 'scu', 'comment')}) "
        "SELECT annotation.id, (v.item ->> 0)::bigint, v.item ->> 1 FROM annotation, "
        "json_array_elements(%s::json) WITH ORDINALITY AS v (item, n) ORDER BY v.n) "
        "SELECT peer_id FROM annotation"
    )


@functools.cache
def _check_fields(model, fields: tuple[str, ...]) -> None:
    left_out = [
        field.name
        for field in model._meta.concrete_fields
        if not field.primary_key
        and field.name not in fields
        and (field.has_default() or not field.null or getattr(field, "auto_now_add", False))
    ]
    if left_out:
        raise TypeError(f"insert_rows({model.__name__}) must be given {', '.join(left_out)}")


INSERT_ROWS_BATCH = 1000  # rows a statement: well below the databases' limits on parameters


def insert_rows(model, fields: tuple[str, ...], rows: list[tuple], *, returning_ids=False):
    """INSERT the rows (values of `fields`, in that order, as the database takes them: ids for
    foreign keys) in one statement (one a batch but on PostgreSQL); their ids, in order, if asked.

    For the records an import makes by the hundred (a pyramid's SCUs, contributors and spans; an
    annotation's rows where store_annotation_at_once does not store them): create() and
    bulk_create() build a model instance and prepare each field of each row, which costs several
    times the statement itself and, on files of a few PSEs, more than reading the file (issue 19).
    Only for plain fields: every field left out must be nullable without a default (PSE.source),
    else this refuses (a field added to the model must be named here)."""
    _check_fields(model, fields)
    if not rows:
        return []
    if connection.vendor == "postgresql" and (sql := _json_insert(model, fields, returning_ids)):
        with connection.cursor() as cursor:
            cursor.execute(sql, [_json(rows)])
            return [row[0] for row in cursor.fetchall()] if returning_ids else []
    meta, quote = model._meta, connection.ops.quote_name
    columns = ", ".join(quote(meta.get_field(name).column) for name in fields)
    placeholders = "(" + ", ".join(["%s"] * len(fields)) + ")"
    returning = f" RETURNING {quote(meta.pk.column)}" if returning_ids else ""
    ids: list[int] = []
    with connection.cursor() as cursor:
        for first in range(0, len(rows), INSERT_ROWS_BATCH):
            batch = rows[first : first + INSERT_ROWS_BATCH]
            cursor.execute(
                f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES "
                f"{', '.join([placeholders] * len(batch))}{returning}",
                [value for row in batch for value in row],
            )
            if returning_ids:
                ids.extend(row[0] for row in cursor.fetchall())
    return ids


_TEXT_FIELDS = {"CharField", "TextField"}
_INTEGER_FIELDS = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "IntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
}


@functools.cache
def _json_insert(model, fields: tuple[str, ...], returning_ids: bool) -> str | None:
    """insert_rows' statement on PostgreSQL: the rows as one JSON parameter, a statement of the
    same text for any number of rows. With a parameter for each value, psycopg parses every
    statement anew (a statement of many rows is too long to be kept), which cost more than
    building the rows (issue 19). None if a field is neither text nor an integer (or a key to
    one): JSON carries only those as they are."""
    quote = connection.ops.quote_name
    values = []
    for i, name in enumerate(fields):
        field = model._meta.get_field(name)
        kind = (field.target_field if field.is_relation else field).get_internal_type()
        if kind in _TEXT_FIELDS:
            # text, not cast: too long a value for the column is refused (a cast would cut it)
            values.append(f"v.item ->> {i}")
        elif kind in _INTEGER_FIELDS:
            values.append(f"(v.item ->> {i})::{field.db_type(connection)}")
        else:
            return None
    columns = ", ".join(quote(model._meta.get_field(name).column) for name in fields)
    returning = f" RETURNING {quote(model._meta.pk.column)}" if returning_ids else ""
    return (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) SELECT {', '.join(values)} "
        "FROM json_array_elements(%s::json) WITH ORDINALITY AS v (item, n) "
        f"ORDER BY v.n{returning}"
    )


def _pyramid_content(document: PyramidDocument) -> tuple:
    """All that placing a pyramid's parts and its fingerprint depend on, lines included (the
    warnings name them): two copies with equal contents have one outcome."""
    return (
        document.text,
        document.start_document_regex,
        tuple(
            (
                scu.uid,
                scu.label,
                scu.comment,
                scu.line,
                tuple(
                    (
                        c.label,
                        c.comment,
                        c.line,
                        tuple((p.start, p.end, p.label, p.line, p.inverted) for p in c.parts),
                    )
                    for c in scu.contributors
                ),
            )
            for scu in document.scus
        ),
    )


def peer_name(file_name: str) -> str:
    """100.D0601.M.250.A.10.pan -> D0601.M.250.A.10 (the peer summary's own name)."""
    stem = file_name.removesuffix(".pan")
    match = PAN_NAME.match(file_name)
    return (
        stem.split(".", 1)[1]
        if match and match["annotator"] and stem.startswith(match["annotator"] + ".")
        else stem
    )


def _keep_preferred_copy(summary: Summary, incoming: str, what: str, warnings) -> bool:
    """Two copies of one text that differ only by lost characters: keep the better one
    (reconcile.preferred), so that the order of the files does not decide the text stored.
    Whether the stored text changed."""
    if incoming == summary.text:
        return False
    if incoming.strip() != summary.text.strip():  # blank space around a summary is no difference
        warnings.append(
            f"{what}: this file's copy differs from the one stored by encoding artefacts or "
            "spacing; its offsets were mapped into the stored copy"
        )
    if len(incoming) == len(summary.text) and preferred(incoming, summary.text) == incoming:
        summary.text = incoming  # same length: every stored offset stays valid
        summary.save(update_fields=["text"])
        return True
    return False


def stored_pyramids(pyramids) -> dict[str, _StoredPyramid]:
    """Pyramids by the fingerprint of their records' content (ducview.fingerprints), in 4
    queries."""
    pyramids = {p.id: p for p in pyramids}
    ids = list(pyramids)
    links = defaultdict(list)
    for link in (
        PyramidModel.objects.filter(pyramid_id__in=ids)
        .select_related("summary")
        .order_by("position")
    ):
        links[link.pyramid_id].append(link.summary)
    scus = defaultdict(list)
    for scu in SCU.objects.filter(pyramid_id__in=ids).order_by("position", "id"):
        scus[scu.pyramid_id].append(scu)
    contributors = defaultdict(list)
    for contributor in Contributor.objects.filter(scu__pyramid_id__in=ids).order_by(
        "position", "id"
    ):
        contributors[contributor.scu_id].append(contributor)
    spans = defaultdict(list)
    for span in Span.objects.filter(contributor__scu__pyramid_id__in=ids).order_by(
        "position", "id"
    ):
        spans[span.contributor_id].append(span)
    result: dict[str, _StoredPyramid] = {}  # by fingerprint
    for pyramid_id, pyramid in pyramids.items():
        models = links[pyramid_id]
        index = {summary.id: i for i, summary in enumerate(models)}
        if any(
            span.summary_id not in index
            for scu in scus[pyramid_id]
            for c in contributors[scu.id]
            for span in spans[c.id]
        ):
            continue  # a span outside the pyramid's models: no DUCView file holds such a pyramid
        fingerprint = pyramid_fingerprint(
            [(m.author, m.text) for m in models],
            [
                (
                    scu.uid,
                    scu.label,
                    scu.comment,
                    [
                        (c.comment, [(index[s.summary_id], s.start, s.end) for s in spans[c.id]])
                        for c in contributors[scu.id]
                    ],
                )
                for scu in scus[pyramid_id]
            ],
        )
        result.setdefault(
            fingerprint,
            _StoredPyramid(pyramid, {scu.uid: scu.id for scu in scus[pyramid_id]}, models),
        )
    return result


def stored_annotations(pyramid: Pyramid, peer: Summary, annotator: str) -> set[str]:
    """The fingerprints of the annotations of the peer against the pyramid by this annotator: an
    imported annotator id, or the user an exported annotation names (export_ducview writes the
    username), computed from the records."""
    annotations = list(
        PeerAnnotation.objects.filter(pyramid=pyramid, peer=peer).filter(
            Q(annotator__isnull=True, annotator_code=annotator) | Q(annotator__username=annotator)
        )
    )
    if not annotations:
        return set()
    stored = stored_pyramids([pyramid])
    pyramid_print = next(iter(stored), "")
    uids: dict[int | None, int] = dict(SCU.objects.filter(pyramid=pyramid).values_list("id", "uid"))
    pses = defaultdict(list)
    for pse in (
        PSE.objects.filter(annotation__in=[a.id for a in annotations])
        .prefetch_related("spans")
        .order_by("position", "id")
    ):
        spans = [
            (s.start, s.end) for s in sorted(pse.spans.all(), key=lambda s: (s.position, s.id))
        ]
        pses[pse.annotation_id].append((uids.get(pse.scu_id, NON_MATCHING_UID), pse.comment, spans))
    comments = defaultdict(list)
    for comment in PeerSCUComment.objects.filter(annotation__in=[a.id for a in annotations]):
        comments[comment.annotation_id].append(
            (uids.get(comment.scu_id, NON_MATCHING_UID), comment.comment)
        )
    return {
        annotation_fingerprint(pyramid_print, peer.text, pses[a.id], comments[a.id])
        for a in annotations
    }


def read_with_identity(
    path: str, data: bytes, overrides: FileIdentity | None = None, embedded=None
):
    """A DUCView file parsed, and what it is about: its name, then its export note, then the
    overrides given (DucviewError if it cannot be read, or its docset cannot be told).
    `embedded`: the pyramids embedded in the files read before (annotator.ducview.reader.read_any).
    """
    data = as_utf8(data)
    identity = identity_from_name(PurePosixPath(path)).overridden_by(identity_from_note(data))
    identity = identity.overridden_by(overrides or FileIdentity())
    document = read_any(data, embedded)
    if not identity.docset:
        raise DucviewError(
            "cannot tell the docset from the file name; give it (--docset, or the Docset field of "
            "the import page)"
        )
    if isinstance(document, PeerAnnotationDocument) and not identity.peer:
        raise DucviewError(
            "cannot tell the peer from the file name; give it (--peer, or the Peer field of the "
            "import page)"
        )
    return document, identity


def ducview_files(paths: list[Path]) -> list[Path]:
    """The .pyr and .pan files named, or found (recursively) in the folders named, in import
    order."""
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found.extend(p for p in path.rglob("*") if p.suffix in DUCVIEW_SUFFIXES and p.is_file())
        else:
            found.append(path)
    return import_order(found)


def _placed_fingerprint(models, document: PyramidDocument, placed) -> str:
    """The pyramid's fingerprint from its models' texts and its SCUs as placed in them."""
    return pyramid_fingerprint(
        [(m.author, m.text) for m in models],
        (
            (
                scu.uid,
                scu.label,
                scu.comment or "",
                [
                    (c.comment or "", [(p.model, p.start, p.end) for p in parts])
                    for c, parts in zip(scu.contributors, spans)
                ],
            )
            for scu, spans in zip(document.scus, placed)
        ),
    )


def _contributor_rows(scus_placed, models, layout, warnings):
    """The rows of a batch's contributors, (SCU id, summary id, comment, position), and of their
    spans, (the contributor's index among them, summary id, start, end, position); a warning for
    each contributor with parts in two models and each SCU with two contributors of one model
    (kept as DUCView wrote them, so that the scores reproduce NIST's)."""
    contributors: list[tuple[int, int, str, int]] = []
    spans: list[tuple[int, int, int, int, int]] = []
    for scu_id, scu, scu_parts in scus_placed:
        models_of_scu = []
        for c_position, (contributor, parts) in enumerate(zip(scu.contributors, scu_parts)):
            first_model = min(parts, key=lambda p: (p.model, p.start)).model
            spans.extend(
                (len(contributors), models[p.model].id, p.start, p.end, i)
                for i, p in enumerate(parts)
            )
            contributors.append(
                (scu_id, models[first_model].id, contributor.comment or "", c_position)
            )
            part_models = sorted({layout.models[p.model].author for p in parts})
            if len(part_models) > 1:
                warnings.append(
                    f"line {contributor.line}: SCU {scu.uid} has a contributor with parts "
                    f"in models {' and '.join(part_models)}"
                )
            models_of_scu.append(layout.models[first_model].author)
        repeated = sorted(a for a, n in Counter(models_of_scu).items() if n > 1)
        if repeated:
            warnings.append(
                f"line {scu.line}: SCU {scu.uid} has more than one contributor from model "
                f"{', '.join(repeated)}"
            )
    return contributors, spans
