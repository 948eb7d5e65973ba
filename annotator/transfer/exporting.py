"""Records back to DUCView files (.pyr per pyramid, .pan per peer annotation), in bulk queries."""

from __future__ import annotations

import zipfile
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from annotator.campaigns.models import Collection, WeightConvention
from annotator.ducview.layout import author_of, regex_for_models
from annotator.ducview.names import export_note
from annotator.ducview.reader import (
    NON_MATCHING_UID,
    Contributor,
    Part,
    PeerAnnotationDocument,
    PyramidDocument,
    Scu,
)
from annotator.ducview.writer import write_peer_annotation, write_pyramid
from annotator.peer_annotation.models import PSE, PeerAnnotation, PeerSCUComment, PSESpan
from annotator.pyramids.models import SCU, Pyramid, PyramidModel, Span
from annotator.pyramids.models import Contributor as ContributorRecord


def grouped(queryset, key: str) -> dict[int, list]:
    """Records of one query grouped by a foreign key, each group in the query's order."""
    groups = defaultdict(list)
    for record in queryset:
        groups[getattr(record, key)].append(record)
    return groups


# What DUCView's startDocumentRegEx is for pyramids made in the app: it matches the headers below,
# so that DUCView 1.4 counts their models (X_a) as it does for NIST's files.
GENERATED_HEADER_REGEX = r"-{15,}\n[^\n]+\n-{15,}\n"


def header_name(summary, docset_name: str) -> str:
    """The name a generated header gives a model: its own if an import reads its author back from
    it (annotator.ducview.layout), else the app's D0601.model.A form."""
    for name in (summary.name, f"{docset_name}.model.{summary.author}"):
        if name and "\n" not in name and author_of(name, 0) == summary.author:
            return name
    return summary.author


def generated_header(position: int, count: int, name: str) -> str:
    """A DUC-style header for pyramids made in the app (imported ones keep their own)."""
    rule = "-" * max(15, len(name))
    lead = f"#{count}\n\n\n" if position == 0 else "\n"
    return f"{lead}{rule}\n{name}\n{rule}\n\n"


@dataclass
class ExportedPyramid:
    document: PyramidDocument
    uid_of_scu: dict[int, int]  # SCU id -> uid
    ducview_weights: dict[int, int]  # uid -> number of contributors


def pyramid_documents(pyramids) -> dict[int, ExportedPyramid]:
    """Build the DUCView document of each pyramid, in six queries for all of them."""
    pyramids = list(
        pyramids.select_related("docset") if hasattr(pyramids, "select_related") else pyramids
    )
    ids = [p.id for p in pyramids]
    links = grouped(
        PyramidModel.objects.filter(pyramid_id__in=ids)
        .select_related("summary")
        .order_by("pyramid_id", "position"),
        "pyramid_id",
    )
    scus = grouped(
        SCU.objects.filter(pyramid_id__in=ids)
        .with_weight(WeightConvention.CONTRIBUTORS)  # DUCView's weight, whatever the convention
        .order_by("pyramid_id", "position", "id"),
        "pyramid_id",
    )
    contributors = grouped(
        ContributorRecord.objects.filter(scu__pyramid_id__in=ids).order_by(
            "scu_id", "position", "id"
        ),
        "scu_id",
    )
    spans = grouped(
        Span.objects.filter(contributor__scu__pyramid_id__in=ids).order_by(
            "contributor_id", "position", "id"
        ),
        "contributor_id",
    )

    result = {}
    for pyramid in pyramids:
        pieces, offsets, headers = [], {}, []
        position = 0
        regex = pyramid.start_document_regex
        for i, link in enumerate(links[pyramid.id]):
            header = link.header
            if not header:
                header = generated_header(
                    i, len(links[pyramid.id]), header_name(link.summary, pyramid.docset.name)
                )
                regex = regex or GENERATED_HEADER_REGEX
            headers.append((position, position + len(header)))
            position += len(header)
            offsets[link.summary_id] = position
            pieces.append(header + link.summary.text)
            position += len(link.summary.text)
        trailer = pyramid.trailer or "\n"
        text = "".join(pieces) + trailer
        if not text.endswith("\n"):
            text += "\n"
        if not regex and headers:  # DUCView 1.4 needs one to count the models (X_a): issue 33
            regex = regex_for_models(text, headers)
        document_scus = []
        for scu in scus[pyramid.id]:
            document_contributors = []
            for contributor in contributors[scu.id]:
                parts = []
                for span in spans[contributor.id]:
                    if span.summary_id not in offsets:
                        raise ValueError(
                            f"span {span.id} lies in a summary that is not a model of pyramid "
                            f"{pyramid}"
                        )
                    start = offsets[span.summary_id] + span.start
                    parts.append(Part(start=start, end=start + span.end - span.start, label=""))
                document_contributors.append(
                    Contributor(label="", comment=contributor.comment or None, parts=parts)
                )
            document_scus.append(
                Scu(
                    uid=scu.uid,
                    label=scu.label,
                    comment=scu.comment or None,
                    contributors=document_contributors,
                )
            )
        result[pyramid.id] = ExportedPyramid(
            document=PyramidDocument(
                text=text, start_document_regex=regex or None, scus=document_scus
            ),
            uid_of_scu={scu.id: scu.uid for scu in scus[pyramid.id]},
            ducview_weights={scu.uid: scu.weight for scu in scus[pyramid.id]},
        )
    return result


def peer_annotation_documents(
    annotations, pyramids: dict[int, ExportedPyramid]
) -> dict[int, PeerAnnotationDocument]:
    annotations = list(annotations)
    ids = [a.id for a in annotations]
    pses = grouped(
        PSE.objects.filter(annotation_id__in=ids).order_by("annotation_id", "position", "id"),
        "annotation_id",
    )
    spans = grouped(
        PSESpan.objects.filter(pse__annotation_id__in=ids).order_by("pse_id", "position", "id"),
        "pse_id",
    )
    comments = {
        (c.annotation_id, c.scu_id): c.comment
        for c in PeerSCUComment.objects.filter(annotation_id__in=ids)
    }
    result = {}
    for annotation in annotations:
        exported = pyramids[annotation.pyramid_id]
        by_uid: dict[int, list[Contributor]] = defaultdict(list)
        for pse in pses[annotation.id]:
            uid = NON_MATCHING_UID if pse.scu_id is None else exported.uid_of_scu[pse.scu_id]
            parts = [Part(start=s.start, end=s.end, label="") for s in spans[pse.id]]
            by_uid[uid].append(Contributor(label="", comment=pse.comment or None, parts=parts))
        scu_id_of = {uid: scu_id for scu_id, uid in exported.uid_of_scu.items()}
        peer_scus = [
            Scu(
                uid=scu.uid,
                label=scu.label,
                comment=comments.get((annotation.id, scu_id_of[scu.uid])),
                contributors=by_uid[scu.uid],
            )
            # DUCView lists the SCUs by weight, heaviest first, in pyramid order within a weight.
            for scu in sorted(
                exported.document.scus, key=lambda s: -exported.ducview_weights[s.uid]
            )
        ]
        peer_scus.append(
            Scu(
                uid=NON_MATCHING_UID,
                label="",
                comment=comments.get((annotation.id, None)),
                contributors=by_uid[NON_MATCHING_UID],
            )
        )
        result[annotation.id] = PeerAnnotationDocument(
            pyramid=exported.document, text=annotation.peer.text + "\n", peer_scus=peer_scus
        )
    return result


PYRAMID_FOLDER, PAN_FOLDER = (
    "allpyramids",
    "allpans",
)  # NIST's package layout, which import_ducview reads back


@dataclass(frozen=True)
class ExportedFile:
    path: str  # inside the export, e.g. "allpyramids/D0601.pyr"
    data: bytes
    is_pyramid: bool


@dataclass
class ExportReport:
    pyramids: int = 0
    peer_annotations: int = 0
    files: list[Path] = field(default_factory=list)

    def count(self, file: ExportedFile) -> None:
        if file.is_pyramid:
            self.pyramids += 1
        else:
            self.peer_annotations += 1


def _unique_name(name: str, taken: set[str], record_id: int) -> str:
    if name in taken:
        stem, dot, suffix = name.rpartition(".")
        name = f"{stem}-{record_id}.{suffix}"
    taken.add(name)
    return name


def exported_files(collection: Collection, docset: str | None = None) -> Iterator[ExportedFile]:
    """The DUCView files of a collection (or one docset): allpyramids/*.pyr, then allpans/*.pan,
    one at a time; the records are read first, in the same few queries whatever their number."""
    pyramids = Pyramid.objects.filter(docset__collection=collection).select_related("docset")
    annotations = PeerAnnotation.objects.filter(
        pyramid__docset__collection=collection
    ).select_related("peer", "pyramid__docset", "annotator")
    if docset:
        pyramids = pyramids.filter(docset__name=docset)
        annotations = annotations.filter(pyramid__docset__name=docset)
    # The models' orderings: docset, name; pyramid, peer, annotator.
    pyramid_list = list(pyramids)
    annotation_list = list(annotations.order_by("pyramid_id", "peer_id", "annotator_code", "id"))
    exported = pyramid_documents(pyramid_list)
    peer_documents = peer_annotation_documents(annotation_list, exported)

    taken: set[str] = set()
    for pyramid in pyramid_list:
        name = (
            pyramid.source_name if pyramid.source_name.endswith(".pyr") else f"{pyramid.name}.pyr"
        )
        yield ExportedFile(
            f"{PYRAMID_FOLDER}/{_unique_name(name, taken, pyramid.id)}",
            write_pyramid(
                exported[pyramid.id].document,
                export_note(pyramid.docset.name, pyramid=pyramid.name, status=pyramid.status),
            ),
            is_pyramid=True,
        )
    for annotation in annotation_list:
        annotator = annotation.annotator_name
        name = (
            annotation.source_name
            or f"{annotation.pyramid.docset.name}.{annotation.peer.author}.pan"
        )
        note = export_note(
            annotation.pyramid.docset.name,
            annotation.peer_as_written or annotation.peer.author,  # as the source wrote it
            annotator,
            pyramid=annotation.pyramid.name,
            status=annotation.status,
        )
        yield ExportedFile(
            f"{PAN_FOLDER}/{_unique_name(name, taken, annotation.id)}",
            write_peer_annotation(
                peer_documents[annotation.id], exported[annotation.pyramid_id].ducview_weights, note
            ),
            is_pyramid=False,
        )


def export_collection(
    collection: Collection, out_dir: Path, docset: str | None = None
) -> ExportReport:
    """Write allpyramids/*.pyr and allpans/*.pan (NIST's package layout) under out_dir."""
    report = ExportReport()
    for folder in (PYRAMID_FOLDER, PAN_FOLDER):
        (out_dir / folder).mkdir(parents=True, exist_ok=True)
    for file in exported_files(collection, docset):
        path = out_dir / file.path
        path.write_bytes(file.data)
        report.files.append(path)
        report.count(file)
    return report


def export_zip(collection: Collection, out: IO[bytes], docset: str | None = None) -> ExportReport:
    """The same files as export_collection, in a zip written to `out` (the same folders at its
    root: unpacked, it is what export_ducview writes; the browser's import reads it as it is)."""
    report = ExportReport()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for folder in (PYRAMID_FOLDER, PAN_FOLDER):
            archive.writestr(f"{folder}/", b"")
        for file in exported_files(collection, docset):
            archive.writestr(file.path, file.data)
            report.count(file)
    return report
