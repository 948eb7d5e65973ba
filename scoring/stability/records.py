"""Pyramid size and stability for one stored pyramid: loads its contributions (SCU -> the models
contributing, through each contributor's summary) and its peer annotations in three queries, and
hands them to scoring.stability.analysis."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from annotator.peer_annotation.models import PSE, PeerAnnotation
from annotator.pyramids.models import Contributor, Pyramid
from scoring.scores.pyramid import average_scu_count, plain_number
from scoring.scores.records import counted_annotations
from scoring.stability.analysis import (
    ErrorProbabilities,
    OrderSummary,
    error_probabilities,
    jackknife_model,
    jackknife_peer,
    optimal_summaries,
    order_summaries,
    scores_by_order,
)


@dataclass
class PyramidStability:
    pyramid: str
    models: list[str]
    orders: list[OrderSummary]
    errors: list[ErrorProbabilities]
    jackknifed_peers: dict[str, float | None]
    jackknifed_models: dict[str, float | None]
    average_scu_count: int | float  # X_a: fractional under the FRACTIONAL convention
    optimal_summaries: int  # of X_a SCUs (N&P 2004 Fig. 2)


def pyramid_stability(
    pyramid: Pyramid, score: str = "modified", adjudicated: bool = False
) -> PyramidStability:
    rounding = pyramid.docset.collection.average_rounding
    links = list(pyramid.model_links.select_related("summary").order_by("position"))
    author = {link.summary_id: link.summary.author for link in links}
    models = [link.summary_id for link in links]
    holders = defaultdict(set)
    for scu_id, summary_id in Contributor.objects.filter(scu__pyramid=pyramid).values_list(
        "scu_id", "summary_id"
    ):
        holders[scu_id].add(summary_id)
    contributions = {scu: frozenset(models_) for scu, models_ in holders.items()}
    annotations = list(
        counted_annotations(
            PeerAnnotation.objects.filter(pyramid=pyramid), adjudicated, scored=False
        ).select_related("peer", "annotator")
    )
    several = Counter(a.peer_id for a in annotations)
    label = {
        a.pk: a.peer.author + (f" ({a.annotator_label})" if several[a.peer_id] > 1 else "")
        for a in annotations
    }
    peers = defaultdict(list)
    for annotation_id, scu_id in PSE.objects.filter(annotation_id__in=list(label)).values_list(
        "annotation_id", "scu_id"
    ):
        peers[label[annotation_id]].append(scu_id if scu_id in contributions else None)
    for annotation in annotations:  # an annotation with no PSE yet is a peer that scores 0
        peers.setdefault(label[annotation.pk], [])
    by_order = scores_by_order(contributions, peers, models, score, rounding)
    weights = Counter(len(h) for h in contributions.values())
    x_a = (
        average_scu_count(sum(len(h) for h in contributions.values()), len(models), rounding)
        if models
        else 0
    )
    return PyramidStability(
        pyramid=pyramid.name,
        models=[author[m] for m in models],
        orders=order_summaries(by_order) if peers else [],
        errors=error_probabilities(by_order) if len(peers) > 1 else [],
        jackknifed_peers={
            p: jackknife_peer(pses, contributions, models, score, rounding)
            for p, pses in peers.items()
        },
        jackknifed_models={
            author[m]: jackknife_model(m, contributions, models, score, rounding) for m in models
        },
        average_scu_count=plain_number(x_a),
        optimal_summaries=optimal_summaries(weights, x_a),
    )
