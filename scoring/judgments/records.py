"""Scores against human judgments, from the stored records (a fixed number of queries).

For every peer summary with a judgment on the criterion: its scores (the mean over its
annotations where it was annotated more than once), including the variants of
scoring.scores.variants.
Summary level: one point per summary. System level: one point per system, its mean score against
its mean judgment over the summaries that have both (the level at which DUC ranks systems).
A summary with no PSE scores 0 on every score, the undefined ones too (its original score is
0 / Max(0)): it expresses nothing, and NIST scores such a peer 0.
The TAC 2008 F-measure's recall is the one named by `tac_recall`
(scoring.scores.variants.TAC2008_RECALLS).

The coverage judgments' scores (issue 21: presence, presence_weighted, see_coverage) are added to
a judged peer's scores where it was judged for coverage (submitted tasks): the peer's mean over the
unit sets it was judged on; a peer judged for coverage and not annotated is a point of those
scores alone. Their system means are coverage_records.system_mean's, over the docsets as loaded.
`system_correlation`: two scores' system means against each other (a coverage score against a
pyramid score, say).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from statistics import fmean

from django.db.models import Avg

from annotator.campaigns.models import Collection, HumanJudgment, Summary
from annotator.peer_annotation.models import PSE, PeerAnnotation
from annotator.pyramids.models import Contributor
from scoring.coverage.records import COVERAGE_SCORES, score_coverage, system_mean
from scoring.coverage.tables import coverage_system_means, peer_coverage
from scoring.judgments.correlation import METHODS, correlations
from scoring.scores.records import (
    score_collection,
    scu_weights,
)
from scoring.scores.system_means import kept_system_means
from scoring.scores.tables import MEAN_SCORES
from scoring.scores.variants import RECALL_REFERENCES, nws_length, power_mean_score, tac2008_score

STANDARD = ["modified", "original", "coverage", "comprehensive"]


@dataclass(frozen=True)
class JudgmentCorrelation:
    score: str
    level: str  # "summary" or "system"
    n: int
    # method -> (coefficient, p) or None; p None with too few pairs (scoring.judgments.correlation)
    results: dict


@dataclass(frozen=True)
class VariantInputs:
    """What the score variants need of one annotation."""

    expressed: list[int]  # the weights of the distinct SCUs it expresses
    pyramid: list[int]  # every SCU weight of its pyramid
    reference_weight: int  # sum over the models of the weights of the SCUs each holds (eq. 4)
    length: int  # non-whitespace characters of the peer summary (eq. 3)


def variant_inputs(collection: Collection) -> dict[int, VariantInputs]:
    """{annotation id: VariantInputs} for every annotation of the collection (four queries)."""
    annotations = list(
        PeerAnnotation.objects.filter(pyramid__docset__collection=collection).values_list(
            "pk", "pyramid_id", "peer__text"
        )
    )
    pyramid_ids = {p for _, p, _ in annotations}
    weights = scu_weights(pyramid_ids, collection.weight_convention)
    expressed = defaultdict(set)
    for annotation_id, scu_id in PSE.objects.filter(
        annotation__pyramid__docset__collection=collection, scu__isnull=False
    ).values_list("annotation_id", "scu_id"):
        expressed[annotation_id].add(scu_id)
    reference: defaultdict[int, int] = defaultdict(int)  # pyramid id -> the weight of its models
    for pyramid_id, scu_id, _ in (
        Contributor.objects.filter(scu__pyramid_id__in=pyramid_ids)
        .values_list("scu__pyramid_id", "scu_id", "summary_id")
        .distinct()
        .order_by()
    ):
        reference[pyramid_id] += weights[pyramid_id].get(scu_id, 0)
    return {
        annotation_id: VariantInputs(
            [weights[pyramid_id][scu] for scu in expressed[annotation_id]],
            list(weights[pyramid_id].values()),
            reference[pyramid_id],
            nws_length(text),
        )
        for annotation_id, pyramid_id, text in annotations
    }


def variant_scores(
    inputs: dict[int, VariantInputs], alpha: float, tac_recall: str = RECALL_REFERENCES
) -> dict[int, dict[str, float]]:
    """{annotation id: {"power_mean": ..., "tac2008": ...}}, the F-measure with the recall named."""
    return {
        annotation_id: {
            "power_mean": power_mean_score(alpha, given.expressed, given.pyramid),
            "tac2008": tac2008_score(
                given.expressed, given.pyramid, [given.reference_weight], given.length, tac_recall
            ),
        }
        for annotation_id, given in inputs.items()
    }


@dataclass
class JudgedSummary:
    docset: str
    system: str
    judgment: float  # the mean over its judges
    scores: dict[str, float]  # each standard score, the mean over its annotations
    annotations: list[int]


def judged_summaries(
    collection: Collection, criterion: str, adjudicated: bool = False
) -> list[JudgedSummary]:
    """Every peer summary with both scores and a judgment on `criterion` (four queries and the
    scores' four)."""
    peer_of = dict(
        PeerAnnotation.objects.filter(pyramid__docset__collection=collection).values_list(
            "pk", "peer_id"
        )
    )
    judged = dict(
        HumanJudgment.objects.filter(summary__docset__collection=collection, criterion=criterion)
        .values("summary_id")
        .annotate(mean=Avg("value"))
        .values_list("summary_id", "mean")
    )
    found: dict[int, JudgedSummary] = {}
    values: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in score_collection(
        collection, adjudicated=adjudicated
    ):  # the one rule on consensus work
        summary = peer_of[row.annotation_id]
        if summary not in judged:
            continue
        found.setdefault(summary, JudgedSummary(row.docset, row.peer, judged[summary], {}, []))
        found[summary].annotations.append(row.annotation_id)
        for name in STANDARD:
            value = getattr(row.scores, name)
            if value is None and row.scores.pse_count == 0:
                value = 0.0  # a summary expressing nothing
            if value is not None:
                values[summary][name].append(value)
    for summary, item in found.items():
        item.scores = {name: fmean(v) for name, v in values[summary].items()}
    return list(found.values())


def _with_variants(
    summaries: list[JudgedSummary], variants: dict[int, dict[str, float]]
) -> list[dict[str, float]]:
    return [
        s.scores
        | {
            name: fmean(variants[a][name] for a in s.annotations)
            for name in ("power_mean", "tac2008")
        }
        for s in summaries
    ]


def _with_coverage(
    collection: Collection,
    criterion: str,
    summaries: list[JudgedSummary],
    values: list[dict[str, float]],
) -> tuple[list[JudgedSummary], list[dict[str, float]], dict[str, int]]:
    """The summaries and their scores with the coverage scores added (see the module's
    docstring), and the docsets' load order ({name: place}) their system means follow (five
    queries)."""
    rows = score_coverage(collection)
    if not rows:
        return summaries, values, {}
    order: dict[str, int] = {}
    for row in rows:  # in the docsets' load order
        order.setdefault(row.docset, len(order))
    coverage = peer_coverage(rows)
    summaries, values = list(summaries), [dict(v) for v in values]
    for summary, scores in zip(summaries, values):
        scores.update(coverage.pop((summary.docset, summary.system), {}))
    judged = (
        HumanJudgment.objects.filter(
            summary__docset__collection=collection,
            summary__kind=Summary.Kind.PEER,
            criterion=criterion,
        )
        .values("summary__docset__name", "summary__author")
        .annotate(mean=Avg("value"))
        .order_by("summary__docset_id", "summary__author")
        .values_list("summary__docset__name", "summary__author", "mean")
    )
    for docset, peer, judgment in judged:
        if (docset, peer) in coverage:  # judged for coverage, and never annotated
            summaries.append(JudgedSummary(docset, peer, judgment, {}, []))
            values.append(coverage[(docset, peer)])
    return summaries, values, order


def _correlate(
    summaries: list[JudgedSummary],
    values: list[dict[str, float]],
    name: str,
    docset_order: dict[str, int] | None = None,
) -> list[JudgmentCorrelation]:
    points = [(v[name], s.judgment, s.system) for s, v in zip(summaries, values) if name in v]
    mean: Callable[[list[float]], float] = fmean
    if name in COVERAGE_SCORES:  # system means over the docsets in their load order
        order = docset_order or {}
        ranked = sorted(
            (order.get(s.docset, len(order)), i)
            for i, (s, v) in enumerate(zip(summaries, values))
            if name in v
        )
        points = [(values[i][name], summaries[i].judgment, summaries[i].system) for _, i in ranked]
        mean = system_mean
    results = [
        JudgmentCorrelation(
            name,
            "summary",
            len(points),
            correlations([p[0] for p in points], [p[1] for p in points]),
        )
    ]
    systems = defaultdict(list)
    for score, judgment, system in points:
        systems[system].append((score, judgment))
    means = [(mean([s for s, _ in v]), fmean(j for _, j in v)) for v in systems.values()]
    results.append(
        JudgmentCorrelation(
            name, "system", len(means), correlations([m[0] for m in means], [m[1] for m in means])
        )
    )
    return results


def judgment_correlations(
    collection: Collection,
    criterion: str,
    alpha: float = 1.0,
    tac_recall: str = RECALL_REFERENCES,
    adjudicated: bool = False,
) -> list[JudgmentCorrelation]:
    summaries = judged_summaries(collection, criterion, adjudicated)
    values = _with_variants(
        summaries, variant_scores(variant_inputs(collection), alpha, tac_recall)
    )
    summaries, values, order = _with_coverage(collection, criterion, summaries, values)
    # The coverage scores where any judged summary has them (a collection without coverage
    # judgments reads as it did).
    coverage = [name for name in COVERAGE_SCORES if any(name in v for v in values)]
    return [
        result
        for name in [*STANDARD, "power_mean", "tac2008", *coverage]
        for result in _correlate(summaries, values, name, order)
    ]


def _system_means_of(collection: Collection, score: str, adjudicated: bool) -> dict[str, float]:
    """{system: its mean `score` over the docsets}, as the scores page's systems view gives them
    (scoring.scores.tables.system_means; scoring.coverage.tables.coverage_system_means), where
    defined."""
    if score in COVERAGE_SCORES:
        means: list = coverage_system_means(score_coverage(collection))
    elif score in MEAN_SCORES:
        means = kept_system_means(collection, adjudicated)[0]
    else:
        raise ValueError(f"no system means of {score!r}")
    return {m.peer: value for m in means if (value := getattr(m, score)) is not None}


def system_correlation(
    collection: Collection, score: str, against: str, adjudicated: bool = False
) -> JudgmentCorrelation:
    """`score`'s system means against `against`'s (a coverage score against a pyramid score, say),
    over the systems that have both: Pearson, Spearman and Kendall
    (scoring.judgments.correlation)."""
    first = _system_means_of(collection, score, adjudicated)
    second = _system_means_of(collection, against, adjudicated)
    systems = [system for system in first if system in second]
    return JudgmentCorrelation(
        score,
        "system",
        len(systems),
        correlations([first[s] for s in systems], [second[s] for s in systems]),
    )


ALPHA_GRID = [round(-3 + 0.01 * i, 2) for i in range(601)]  # -3 .. 3 by 0.01


@dataclass(frozen=True)
class AlphaTuning:
    tune_docsets: list[str]
    test_docsets: list[str]
    method: str
    alpha: float  # the best on the tune split
    # (coefficient, p) of the power-mean score on the tune split; p None with too few pairs
    tune: tuple[float, float | None]
    test: tuple[float, float | None] | None  # the same alpha on the held-out split
    test_baselines: (
        dict  # score -> (coefficient, p) on the held-out split: original, modified, tac2008
    )
    tac2008_recall: str  # the F-measure's recall (scoring.scores.variants.TAC2008_RECALLS)


def _baseline(
    summaries: list[JudgedSummary], values: list[dict[str, float]], name: str, method: str
):
    """The correlation of a score with the judgment over the summaries where it is defined."""
    points = [(v[name], s.judgment) for s, v in zip(summaries, values) if name in v]
    return correlations([p[0] for p in points], [p[1] for p in points])[method]


def tune_alpha(
    collection: Collection,
    criterion: str,
    seed: int = 0,
    grid=ALPHA_GRID,
    tac_recall: str = RECALL_REFERENCES,
    adjudicated: bool = False,
) -> list[AlphaTuning]:
    """Maskey & Rosenberg §5: split the docsets at random in two halves, search alpha on the tune
    half for the best correlation of the power-mean score with the judgment (by each method, at the
    summary level), and report that alpha's correlation on the held-out half, beside the original
    and modified scores' and TAC 2008's there."""
    summaries = judged_summaries(collection, criterion, adjudicated)
    docsets = sorted({s.docset for s in summaries})
    if len(docsets) < 2:
        raise ValueError(
            "tuning alpha needs judged summaries of at least two docsets (a tune and a test split)"
        )
    random.Random(seed).shuffle(docsets)
    tune_names, test_names = (
        sorted(docsets[: len(docsets) // 2]),
        sorted(docsets[len(docsets) // 2 :]),
    )
    inputs = variant_inputs(collection)
    tune = [s for s in summaries if s.docset in tune_names]
    test = [s for s in summaries if s.docset in test_names]
    by_alpha = {alpha: variant_scores(inputs, alpha, tac_recall) for alpha in grid}
    baselines = _with_variants(test, by_alpha[grid[0]])
    results = []
    for method in METHODS:
        scored = []
        for alpha in grid:
            found = correlations(
                [v["power_mean"] for v in _with_variants(tune, by_alpha[alpha])],
                [s.judgment for s in tune],
            )[method]
            if found is not None and not math.isnan(found[0]):
                scored.append((found[0], alpha, found))
        if not scored:
            continue
        _, alpha, on_tune = max(scored)
        on_test = correlations(
            [v["power_mean"] for v in _with_variants(test, by_alpha[alpha])],
            [s.judgment for s in test],
        )[method]
        results.append(
            AlphaTuning(
                tune_names,
                test_names,
                method,
                alpha,
                on_tune,
                on_test,
                {
                    name: _baseline(test, baselines, name, method)
                    for name in ("original", "modified", "tac2008")
                },
                tac_recall,
            )
        )
    return results
