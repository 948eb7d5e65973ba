"""Scores against human judgments, from the stored records (a fixed number of queries).

For every peer summary with a judgment on the criterion: its scores (the mean over its
annotations where it was annotated more than once), including the variants of scoring.variants.
Summary level: one point per summary. System level: one point per system, its mean score against
its mean judgment over the summaries that have both (the level at which DUC ranks systems).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean

from django.db.models import Avg

from annotator.models import PSE, Collection, Contributor, HumanJudgment, PeerAnnotation

from .correlation import correlations
from .records import score_collection, scu_weights
from .variants import nws_length, power_mean_score, tac2008_f_measure, tac2008_precision, tac2008_recall

STANDARD = ["modified", "original", "coverage", "comprehensive"]


@dataclass(frozen=True)
class JudgmentCorrelation:
    score: str
    level: str  # "summary" or "system"
    n: int
    results: dict  # method -> (coefficient, p) or None


def variant_scores(collection: Collection, alpha: float) -> dict[int, dict[str, float]]:
    """{annotation id: {"power_mean": ..., "tac2008": ...}} for every annotation of the collection."""
    annotations = list(PeerAnnotation.objects.filter(pyramid__docset__collection=collection)
                       .values_list("pk", "pyramid_id", "peer__text"))
    pyramid_ids = {p for _, p, _ in annotations}
    weights = scu_weights(pyramid_ids, collection.weight_convention)
    expressed = defaultdict(set)
    for annotation_id, scu_id in PSE.objects.filter(annotation__pyramid__docset__collection=collection,
                                                     scu__isnull=False).values_list("annotation_id", "scu_id"):
        expressed[annotation_id].add(scu_id)
    reference = defaultdict(int)  # sum over the models of the weights of the SCUs each holds (eq. 4)
    for pyramid_id, scu_id, _ in Contributor.objects.filter(scu__pyramid_id__in=pyramid_ids).values_list(
            "scu__pyramid_id", "scu_id", "summary_id").distinct().order_by():
        reference[pyramid_id] += weights[pyramid_id].get(scu_id, 0)
    result = {}
    for annotation_id, pyramid_id, text in annotations:
        mine = [weights[pyramid_id][scu] for scu in expressed[annotation_id]]
        pyramid = list(weights[pyramid_id].values())
        precision = tac2008_precision(nws_length(text), len(mine))
        result[annotation_id] = {
            "power_mean": power_mean_score(alpha, mine, pyramid),
            "tac2008": tac2008_f_measure(tac2008_recall(mine, [reference[pyramid_id]]), precision),
        }
    return result


def judgment_correlations(collection: Collection, criterion: str, alpha: float = 1.0) -> list[JudgmentCorrelation]:
    rows = score_collection(collection)
    peer_of = dict(PeerAnnotation.objects.filter(pyramid__docset__collection=collection).values_list("pk", "peer_id"))
    judged = dict(HumanJudgment.objects.filter(summary__docset__collection=collection, criterion=criterion)
                  .values("summary_id").annotate(mean=Avg("value")).values_list("summary_id", "mean"))
    variants = variant_scores(collection, alpha)
    per_summary: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    system_of = {}
    for row in rows:
        summary = peer_of[row.annotation_id]
        if summary not in judged:
            continue
        system_of[summary] = row.peer
        values = {name: getattr(row.scores, name) for name in STANDARD} | variants[row.annotation_id]
        for name, value in values.items():
            if value is not None:
                per_summary[summary][name].append(value)
    results = []
    for name in [*STANDARD, "power_mean", "tac2008"]:
        points = [(fmean(scores[name]), judged[s], system_of[s]) for s, scores in per_summary.items() if scores.get(name)]
        results.append(JudgmentCorrelation(name, "summary", len(points),
                                           correlations([p[0] for p in points], [p[1] for p in points])))
        systems = defaultdict(list)
        for score, judgment, system in points:
            systems[system].append((score, judgment))
        means = [(fmean(s for s, _ in v), fmean(j for _, j in v)) for v in systems.values()]
        results.append(JudgmentCorrelation(name, "system", len(means),
                                           correlations([m[0] for m in means], [m[1] for m in means])))
    return results
