"""Scores from the stored records: loads a whole collection in a fixed number of queries.

Four queries whatever the number of peers: the peer annotations, the SCU weights of their
pyramids, the pyramids' model counts, and every PSE's SCU.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass

from django.db.models import Count

from annotator.models import (PSE, SCU, AnnotationMerge, Collection, PeerAnnotation, Pyramid, PyramidModel,
                              WeightConvention)

from .pyramid import PeerScores, score_peer


@dataclass(frozen=True)
class PeerScoreRow:
    annotation_id: int
    collection: str
    docset: str
    peer: str
    annotator: str
    pyramid: str
    pyramid_id: int
    weight_convention: str
    average_rounding: str
    scores: PeerScores

    def as_dict(self) -> dict:
        row = {k: v for k, v in asdict(self).items() if k != "scores"}
        row.update(asdict(self.scores))
        return row


def scu_weight(convention: str) -> Count:
    """An SCU's weight under a weight convention, as an expression to annotate SCUs with.

    CONTRIBUTORS: the number of contributors (DUCView; what the NIST tables count).
    MODELS: the number of distinct model summaries contributing (the papers' definition).
    """
    if convention == WeightConvention.CONTRIBUTORS:
        return Count("contributors")
    return Count("contributors__summary", distinct=True)


def scu_weights(pyramid_ids, convention: str) -> dict[int, dict[int, int]]:
    """{pyramid id: {SCU id: weight}} under a weight convention, in one query."""
    weights: dict[int, dict[int, int]] = defaultdict(dict)
    for scu_id, pyramid_id, value in (
        SCU.objects.filter(pyramid_id__in=pyramid_ids).order_by()
        .annotate(weight=scu_weight(convention)).values_list("id", "pyramid_id", "weight")
    ):
        weights[pyramid_id][scu_id] = value
    return weights


def model_counts(pyramid_ids) -> dict[int, int]:
    return dict(
        PyramidModel.objects.filter(pyramid_id__in=pyramid_ids).order_by()
        .values("pyramid_id")
        .annotate(n=Count("id"))
        .values_list("pyramid_id", "n")
    )


def score_annotations(annotations) -> list[PeerScoreRow]:
    """Score every peer annotation of a queryset (of one collection or several)."""
    annotations = list(
        annotations.select_related("pyramid__docset__collection", "peer", "annotator").order_by(
            "pyramid__docset__collection__name", "pyramid__docset__name", "peer__author", "annotator_code", "id"
        )
    )
    if not annotations:
        return []
    pyramid_ids = {a.pyramid_id for a in annotations}
    conventions = {a.pyramid.docset.collection.weight_convention for a in annotations}
    weights = {c: scu_weights(pyramid_ids, c) for c in conventions}
    models = model_counts(pyramid_ids)
    pses: dict[int, list[int | None]] = defaultdict(list)
    for annotation_id, scu_id in PSE.objects.filter(annotation_id__in=[a.id for a in annotations]).order_by().values_list(
        "annotation_id", "scu_id"
    ):
        pses[annotation_id].append(scu_id)

    return [
        score_loaded(
            annotation,
            pses[annotation.id],
            weights[annotation.pyramid.docset.collection.weight_convention].get(annotation.pyramid_id, {}),
            models.get(annotation.pyramid_id, 0),
        )
        for annotation in annotations
    ]


def score_loaded(
    annotation: PeerAnnotation, pse_scu_ids: list[int | None], weights: dict[int, int], model_count: int
) -> PeerScoreRow:
    """One annotation's row from records already loaded (no query if its pyramid's docset,
    collection, peer and annotator are): its PSEs' SCU ids, its pyramid's SCU weights under the
    collection's convention (`scu_weight`) and its number of models."""
    collection: Collection = annotation.pyramid.docset.collection
    return PeerScoreRow(
        annotation_id=annotation.id,
        collection=collection.name,
        docset=annotation.pyramid.docset.name,
        peer=annotation.peer.author,
        annotator=annotation.annotator_code or (annotation.annotator.username if annotation.annotator else ""),
        pyramid=annotation.pyramid.name,
        pyramid_id=annotation.pyramid_id,
        weight_convention=collection.weight_convention,
        average_rounding=collection.average_rounding,
        scores=score_peer(pse_scu_ids, weights, model_count, collection.average_rounding),
    )


def adjudicated_only(annotations):
    """Where adjudicated work exists, only it (issue 8): in a docset whose peers are annotated
    against a submitted consensus pyramid, only those annotations; and of a peer with a complete
    consensus annotation, that one rather than the annotations it was merged from."""
    submitted = Pyramid.Status.SUBMITTED
    adjudicated_docsets = PeerAnnotation.objects.filter(
        pyramid__merge__isnull=False, pyramid__status=submitted).values("pyramid__docset_id")
    merged = AnnotationMerge.sources.through.objects.filter(
        annotationmerge__consensus__status=PeerAnnotation.Status.SUBMITTED).values("peerannotation_id")
    return (annotations.exclude(pyramid__docset_id__in=adjudicated_docsets, pyramid__merge__isnull=True)
            .exclude(pk__in=merged))


def score_collection(collection: Collection, docset: str | None = None, adjudicated: bool = False) -> list[PeerScoreRow]:
    """Every annotation's scores; with `adjudicated`, the adjudicated work where there is some."""
    annotations = PeerAnnotation.objects.filter(pyramid__docset__collection=collection)
    if docset:
        annotations = annotations.filter(pyramid__docset__name=docset)
    if adjudicated:
        annotations = adjudicated_only(annotations)
    return score_annotations(annotations)
