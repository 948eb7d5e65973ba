"""Storing DUCView files as records: one transaction per file, nothing stored from a bad file.

Real DUCView data breaks two rules of the method (an SCU with two contributors from one model;
a contributor with parts in two models). Such records are kept exactly as DUCView had them, so
that the scores reproduce the NIST tables, and reported as warnings (see annotator.problems).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from django.db import DatabaseError, transaction

from .ducview import DucviewError
from .ducview.anchoring import ANCHOR_MOVED, ANCHOR_UNMATCHED, anchor
from .ducview.layout import Layout, split_models
from .ducview.names import FileIdentity, identity_from_name, identity_from_note
from .ducview.reader import (
    NON_MATCHING_UID,
    PeerAnnotationDocument,
    PyramidDocument,
    Scu,
    read_any,
)
from .models import (
    PSE,
    SCU,
    Collection,
    Contributor,
    Docset,
    PeerAnnotation,
    PeerSCUComment,
    PSESpan,
    Pyramid,
    PyramidModel,
    Span,
    Summary,
)


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
    warnings: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def summary_line(self) -> str:
        return (
            f"{self.files} files: {self.pyramids} pyramids ({self.scus} SCUs, {self.contributors} "
            f"contributors), {self.peer_annotations} peer annotations ({self.pses} PSEs); "
            f"{self.unchanged} unchanged, {self.reanchored} parts re-anchored, "
            f"{len(self.warnings)} warnings, {len(self.failures)} failed"
        )


@dataclass
class _StoredPyramid:
    pyramid: Pyramid
    scu_ids: dict[int, int]  # DUCView uid -> SCU id


def _fingerprint(*content) -> str:
    return hashlib.sha256(json.dumps(content, ensure_ascii=False).encode("utf-8")).hexdigest()


def _scu_content(scus: list[Scu]) -> list:
    return [
        [s.uid, s.label, s.comment, [[c.comment, [[p.start, p.end] for p in c.parts]] for c in s.contributors]]
        for s in scus
    ]


class DucviewImporter:
    """Imports files into one collection; keeps pyramids it has stored for the later files."""

    def __init__(self, collection_name: str, *, model_regex: str | None = None, report: ImportReport | None = None):
        self.collection_name = collection_name
        self.model_regex = model_regex
        self.report = report or ImportReport()
        self._pyramids: dict[tuple[str, str], _StoredPyramid] = {}

    # -- one file
    def import_file(self, path: Path, overrides: FileIdentity | None = None) -> bool:
        """Import one file; on failure record why (naming the file) and return False."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            self.report.files += 1
            self.report.failures.append(f"{path}: {exc}")
            return False
        return self.import_data(str(path), data, overrides)

    def import_data(self, path: str, data: bytes, overrides: FileIdentity | None = None) -> bool:
        """Import one file's content (`path` names it, for its identity and in messages)."""
        self.report.files += 1
        try:
            document, identity = read_with_identity(path, data, overrides)
            warnings: list[str] = []
            counts = Counter()
            with transaction.atomic():
                stored = self._import_document(document, identity, PurePosixPath(path).name, warnings, counts)
        except (DucviewError, OSError) as exc:
            self.report.failures.append(f"{path}: {exc}")
            return False
        except DatabaseError as exc:
            self.report.failures.append(f"{path}: the database refused it: {str(exc).strip()}")
            return False
        if stored is not None:
            self._pyramids[(stored.pyramid.docset.name, stored.pyramid.fingerprint)] = stored
        for key, value in counts.items():
            setattr(self.report, key, getattr(self.report, key) + value)
        self.report.warnings.extend(f"{path}: {w}" for w in warnings)
        return True

    def _import_document(self, document, identity: FileIdentity, file_name: str, warnings, counts):
        collection, _ = Collection.objects.get_or_create(name=self.collection_name)
        docset, _ = Docset.objects.get_or_create(collection=collection, name=identity.docset)
        pyramid_document = document if isinstance(document, PyramidDocument) else document.pyramid
        layout = split_models(pyramid_document.text, pyramid_document.start_document_regex, self.model_regex)
        is_pyr = isinstance(document, PyramidDocument)
        stored, created = self._pyramid(docset, pyramid_document, layout, file_name, is_pyr, warnings, counts)
        if is_pyr:
            if not created:
                counts["unchanged"] += 1
            return stored
        annotation_created = self._peer_annotation(
            docset, stored, document, identity, file_name, warnings, counts
        )
        if not created and not annotation_created:
            counts["unchanged"] += 1
        return stored

    # -- pyramids
    def _pyramid(self, docset, document: PyramidDocument, layout: Layout, file_name, is_pyr, warnings, counts):
        fingerprint = _fingerprint(document.text, document.start_document_regex or "", _scu_content(document.scus))
        stored = self._pyramids.get((docset.name, fingerprint))
        if stored is None or stored.pyramid.docset_id != docset.id:
            existing = Pyramid.objects.filter(docset=docset, fingerprint=fingerprint).first()
            if existing is not None:
                scu_ids = dict(SCU.objects.filter(pyramid=existing).order_by().values_list("uid", "id"))
                stored = _StoredPyramid(existing, scu_ids)
            else:
                stored = None
        if stored is not None:
            pyramid = stored.pyramid
            if is_pyr and not pyramid.source_name.endswith(".pyr"):
                # The same pyramid came first inside a .pan: name it after its own file now.
                pyramid.name, pyramid.source_name = Path(file_name).stem, file_name
                pyramid.save(update_fields=["name", "source_name"])
            return stored, False

        models = self._model_summaries(docset, layout)
        pyramid = Pyramid.objects.create(
            docset=docset,
            name=Path(file_name).stem if is_pyr else docset.name,
            status=Pyramid.Status.SUBMITTED,
            start_document_regex=document.start_document_regex or "",
            trailer=layout.trailer,
            fingerprint=fingerprint,
            source_name=file_name,
        )
        PyramidModel.objects.bulk_create(
            PyramidModel(pyramid=pyramid, summary=summary, position=i, header=segment.header)
            for i, (segment, summary) in enumerate(zip(layout.models, models))
        )
        scus = SCU.objects.bulk_create(
            SCU(pyramid=pyramid, uid=s.uid, label=s.label, comment=s.comment or "", position=i)
            for i, s in enumerate(document.scus)
        )
        contributors, spans = [], []
        for scu_record, scu in zip(scus, document.scus):
            models_of_scu = []
            for c_position, contributor in enumerate(scu.contributors):
                located = []
                for p_position, part in enumerate(contributor.parts):
                    start, end, how = anchor(document.text, part.start, part.end, part.label)
                    if how == ANCHOR_MOVED:
                        counts["reanchored"] += 1
                    elif how == ANCHOR_UNMATCHED:
                        warnings.append(f"line {part.line}: part label {part.label!r} does not match the text at {start}-{end}")
                    index = layout.model_at(start, end)
                    if index is None:
                        raise DucviewError(
                            f"line {part.line}: part {start}-{end} of SCU {scu.uid} crosses two model summaries"
                        )
                    segment = layout.models[index]
                    local_start = min(max(start - segment.offset, 0), len(segment.text))
                    local_end = min(max(end - segment.offset, 0), len(segment.text))
                    if local_start >= local_end:
                        raise DucviewError(
                            f"line {part.line}: part {start}-{end} of SCU {scu.uid} lies outside the model summaries"
                        )
                    located.append((index, local_start, local_end, p_position))
                first_model = min(located, key=lambda item: (item[0], item[1]))[0]
                record = Contributor(
                    scu=scu_record, summary=models[first_model], comment=contributor.comment or "", position=c_position
                )
                contributors.append(record)
                spans.extend((record, models[i], s, e, p) for i, s, e, p in located)
                part_models = sorted({layout.models[i].author for i, *_ in located})
                if len(part_models) > 1:
                    warnings.append(
                        f"line {contributor.line}: SCU {scu.uid} has a contributor with parts in models "
                        f"{' and '.join(part_models)}"
                    )
                models_of_scu.append(layout.models[first_model].author)
            repeated = sorted(a for a, n in Counter(models_of_scu).items() if n > 1)
            if repeated:
                warnings.append(
                    f"line {scu.line}: SCU {scu.uid} has more than one contributor from model {', '.join(repeated)}"
                )
        Contributor.objects.bulk_create(contributors)
        Span.objects.bulk_create(
            Span(contributor=c, summary=summary, start=s, end=e, position=p) for c, summary, s, e, p in spans
        )
        counts["pyramids"] += 1
        counts["scus"] += len(scus)
        counts["contributors"] += len(contributors)
        return _StoredPyramid(pyramid, {s.uid: s.id for s in scus}), True

    def _model_summaries(self, docset: Docset, layout: Layout) -> list[Summary]:
        existing = {s.author: s for s in Summary.objects.filter(docset=docset, kind=Summary.Kind.MODEL)}
        result, new = [], []
        for segment in layout.models:
            summary = existing.get(segment.author)
            if summary is None:
                summary = Summary(
                    docset=docset, kind=Summary.Kind.MODEL, author=segment.author, name=segment.name, text=segment.text
                )
                new.append(summary)
            elif summary.text != segment.text:
                raise DucviewError(
                    f"model summary {segment.author} of {docset.name} differs from the one already stored"
                )
            result.append(summary)
        Summary.objects.bulk_create(new)
        return result

    # -- peer annotations
    def _peer_annotation(
        self, docset, stored: _StoredPyramid, document: PeerAnnotationDocument, identity, file_name, warnings, counts
    ) -> bool:
        # DUCView ends every line with "\n"; the last one is an artifact of the format.
        text = document.text[:-1] if document.text.endswith("\n") else document.text
        if not text.strip():
            raise DucviewError("the peer summary is empty")
        peer, _ = Summary.objects.get_or_create(
            docset=docset, kind=Summary.Kind.PEER, author=identity.peer,
            defaults={"text": text, "name": file_name.removesuffix(".pan")},
        )
        if peer.text != text:
            raise DucviewError(f"peer {identity.peer} of {docset.name} differs from the peer text already stored")
        annotator = identity.annotator or ""
        fingerprint = _fingerprint(stored.pyramid.fingerprint, text, _scu_content(document.peer_scus))
        existing = PeerAnnotation.objects.filter(
            pyramid=stored.pyramid, peer=peer, annotator__isnull=True, annotator_code=annotator
        ).first()
        if existing is not None:
            if existing.fingerprint == fingerprint:
                return False
            raise DucviewError(
                f"peer {peer.author} of {docset.name} by annotator {annotator or '(none)'} is already stored "
                "with different PSEs; delete that annotation first to replace it"
            )
        annotation = PeerAnnotation.objects.create(
            pyramid=stored.pyramid, peer=peer, annotator_code=annotator, status=PeerAnnotation.Status.SUBMITTED,
            source_name=file_name, fingerprint=fingerprint,
        )
        pses, spans, comments = [], [], []
        for peer_scu in document.peer_scus:
            scu_id = None if peer_scu.uid == NON_MATCHING_UID else stored.scu_ids[peer_scu.uid]
            if peer_scu.comment:
                comments.append(PeerSCUComment(annotation=annotation, scu_id=scu_id, comment=peer_scu.comment))
            for contributor in peer_scu.contributors:
                pse = PSE(annotation=annotation, scu_id=scu_id, comment=contributor.comment or "", position=len(pses))
                pses.append(pse)
                for p_position, part in enumerate(contributor.parts):
                    start, end, how = anchor(document.text, part.start, part.end, part.label)
                    if how == ANCHOR_MOVED:
                        counts["reanchored"] += 1
                    elif how == ANCHOR_UNMATCHED:
                        warnings.append(f"line {part.line}: part label {part.label!r} does not match the peer text")
                    end = min(end, len(text))
                    if start >= end:
                        raise DucviewError(f"line {part.line}: part {start}-{end} lies outside the peer text")
                    spans.append(PSESpan(pse=pse, start=start, end=end, position=p_position))
        PSE.objects.bulk_create(pses)
        PSESpan.objects.bulk_create(spans)
        PeerSCUComment.objects.bulk_create(comments)
        counts["peer_annotations"] += 1
        counts["pses"] += len(pses)
        return True


def read_with_identity(path: str, data: bytes, overrides: FileIdentity | None = None):
    """A DUCView file parsed, and what it is about: its name, then its export note, then the
    overrides given (DucviewError if it cannot be read, or its docset cannot be told)."""
    identity = identity_from_name(PurePosixPath(path)).overridden_by(identity_from_note(data))
    identity = identity.overridden_by(overrides or FileIdentity())
    document = read_any(data)
    if not identity.docset:
        raise DucviewError("cannot tell the docset from the file name; give it (--docset, or the Docset field of the import page)")
    if isinstance(document, PeerAnnotationDocument) and not identity.peer:
        raise DucviewError("cannot tell the peer from the file name; give it (--peer, or the Peer field of the import page)")
    return document, identity


def ducview_files(paths: list[Path]) -> list[Path]:
    """The .pyr and .pan files named, or found (recursively) in the folders named, sorted."""
    found: list[Path] = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix in (".pyr", ".pan") and p.is_file()))
        else:
            found.append(path)
    return found
