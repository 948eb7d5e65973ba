"""The organizers' reports of a collection: each one tables (and the data of its plots), computed
from the records by the functions of this package, in the background, and kept until the records
change (`fingerprint`).

A report's result is JSON: {"tables": [{"title", "columns", "rows", "note"?}], "plots": [...]}.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections import Counter, defaultdict
from statistics import fmean, quantiles, stdev

from django.db.models import Count, Max, Sum
from django.utils import timezone
from django_tasks import task

from annotator.models import (
    SCU,
    Collection,
    Contributor,
    HumanJudgment,
    PeerAnnotation,
    Pyramid,
    WeightConvention,
)
from annotator.text.plurals import counted
from scoring.agreement_records import (
    peer_agreement,
    pyramid_agreement,
    pyramids_left_in_progress,
    score_agreement,
)
from scoring.correlation import EXACT_SPEARMAN_UP_TO, MIN_PAIRS_FOR_P
from scoring.judgment_records import judgment_correlations
from scoring.models import Report
from scoring.numbers import p_stored
from scoring.ranking import observations, rank_systems
from scoring.records import collection_annotations, score_collection, work_counts
from scoring.stability_records import pyramid_stability
from scoring.variants import RECALL_REFERENCES, TAC2008_RECALLS

logger = logging.getLogger(__name__)

KINDS = {
    "peer-agreement": "Agreement on peer annotations",
    "pyramid-agreement": "Agreement on pyramids",
    "ranking": "Systems compared",
    "correlation": "Scores against human judgments",
    "stability": "Pyramid size and stability",
    "pyramids": "Pyramid shapes",
}


# Raised when what a result holds changes (2: p-values kept to significant digits, "p_columns";
# 3: "empty", notes only of what is shown, work in progress said), so that reports computed before
# are computed again rather than shown the old way.
RESULT_FORMAT = 3


def fingerprint(collection: Collection, parameters: dict) -> str:
    """Which state of the records a report comes from: the collection's conventions, how many
    pyramids, annotations and judgments there are and when any was last changed (every edit
    raises its record's `updated_at`), and the report's parameters."""
    pyramids = Pyramid.objects.filter(docset__collection=collection).aggregate(
        n=Count("id"), last=Max("updated_at")
    )
    annotations = PeerAnnotation.objects.filter(pyramid__docset__collection=collection).aggregate(
        n=Count("id"), last=Max("updated_at")
    )
    judgments = HumanJudgment.objects.filter(summary__docset__collection=collection).aggregate(
        n=Count("id"), total=Sum("value")
    )
    state = [
        collection.weight_convention,
        collection.average_rounding,
        pyramids,
        annotations,
        judgments,
        parameters,
        RESULT_FORMAT,
    ]
    return hashlib.sha256(json.dumps(state, default=str, sort_keys=True).encode()).hexdigest()


def _n(value, digits: int = 4):
    """Numbers for JSON: rounded, and None where undefined."""
    if value is None or (isinstance(value, float) and (math.isnan(value) or math.isinf(value))):
        return None
    return round(value, digits) if isinstance(value, float) else value


def _table(
    title: str,
    columns: list[str],
    rows: list[list],
    note: str = "",
    p_columns: tuple[int, ...] = (),
    empty: str = "",
) -> dict:
    """A table of a result; `p_columns`: the columns (by index) holding p-values, kept to four
    significant digits rather than four decimals (a p of 0.00002 is not 0.0) and shown as
    scoring.numbers.p_value prints them; `empty`: why the table has no rows, where the reason is
    not that the collection has no such data yet (the page's default)."""
    return {
        "title": title,
        "columns": columns,
        "note": note,
        "p_columns": list(p_columns),
        "empty": empty,
        "rows": [
            [p_stored(v) if i in p_columns else _n(v) for i, v in enumerate(row)] for row in rows
        ],
    }


def _sentences(*parts: str) -> str:
    return " ".join(part for part in parts if part)


# -- the reports -----------------------------------------------------------------------------------

NOT_TWICE = "No peer is annotated twice against the same pyramid: nothing to compare."


def peer_agreement_report(collection: Collection, parameters: dict) -> dict:
    adjudicated, include = (
        bool(parameters.get("adjudicated")),
        bool(parameters.get("include_in_progress")),
    )
    peers, pooled = peer_agreement(collection, adjudicated=adjudicated, include_in_progress=include)
    correlations, anovas = score_agreement(
        collection, adjudicated=adjudicated, include_in_progress=include
    )
    work_count = work_counts(collection_annotations(collection), adjudicated, include, scored=False)
    work = (
        "Work in progress counted too: "
        f"{counted(work_count.in_progress, 'peer annotation')} in progress."
        if include
        else f"{counted(work_count.in_progress_left_out, 'peer annotation')} in progress left out "
        "(count work in progress to compare them)."
        if work_count.in_progress_left_out
        else ""
    )
    worst_first = sorted(
        peers, key=lambda p: math.inf if math.isnan(p.alpha["dice"]) else p.alpha["dice"]
    )
    disagreements = [
        [
            p.docset,
            p.peer,
            uid,
            label,
            " / ".join(f"{a}: {n}" for a, n in zip(p.annotators, counts)),
        ]
        for p in worst_first
        for uid, label, counts in p.disagreements
    ]
    few = any(c.p is None for c in correlations)
    return {
        "tables": [
            _table(
                "Per peer, worst agreement first (alpha with 1 - Dice)",
                [
                    "docset",
                    "peer",
                    "annotators",
                    "SCUs",
                    "alpha dice",
                    "alpha binary",
                    "alpha binary'",
                    "matched SCUs (Jaccard)",
                ],
                [
                    [
                        p.docset,
                        p.peer,
                        ", ".join(p.annotators),
                        p.units,
                        p.alpha["dice"],
                        p.alpha["binary"],
                        p.alpha["binary_reduced"],
                        p.matched_jaccard,
                    ]
                    for p in worst_first
                ],
                _sentences(
                    "Units: the SCUs at least one annotator matched; values: the PSEs each found "
                    "for it (Passonneau 2009 §4.1.3)."
                    if peers
                    else "",
                    work,
                ),
                empty=NOT_TWICE,
            ),
            _table(
                "Disagreements, worst-agreeing peers first",
                ["docset", "peer", "SCU", "label", "PSEs found by each annotator"],
                disagreements,
                "Each SCU the annotators of a peer did not match the same number of times."
                if disagreements
                else "",
                empty=NOT_TWICE
                if not peers
                else "None: the annotators of each peer matched every SCU the same number of "
                "times.",
            ),
            _table(
                "Pooled",
                ["scope", "peers", "SCUs", "alpha dice", "alpha binary", "alpha binary'"],
                [
                    [
                        p.scope,
                        p.peers,
                        p.units,
                        p.alpha["dice"],
                        p.alpha["binary"],
                        p.alpha["binary_reduced"],
                    ]
                    for p in pooled
                ],
                empty=NOT_TWICE,
            ),
            _table(
                "Scores of the same peers by two annotators (Pearson)",
                ["annotators", "score", "peer", "n", "r", "p", "95% low", "95% high"],
                [
                    [" vs ".join(c.annotators), c.score, c.scope, c.n, c.r, c.p, c.low, c.high]
                    for c in correlations
                ],
                f"With fewer than {MIN_PAIRS_FOR_P} peers, r alone: too few for a p-value or an "
                "interval."
                if few
                else "",
                p_columns=(5,),
                empty=NOT_TWICE
                if not peers
                else "No two annotators scored three or more of the same peers: too few for a "
                "correlation.",
            ),
            _table(
                "ANOVA with annotator as factor (acceptance test)",
                ["score", "F", "p", "annotations per annotator"],
                [
                    [a.score, a.f, a.p, ", ".join(f"{k}: {v}" for k, v in a.groups.items())]
                    for a in anovas
                ],
                "A p above 0.05 means the annotators' score means do not differ significantly "
                "(§5.1)."
                if anovas
                else "",
                p_columns=(2,),
                empty=NOT_TWICE
                if not peers
                else "The annotators' scores allow no test (no variance "
                "within the annotators, or too few scores).",
            ),
        ],
        "plots": [],
    }


def pyramid_agreement_report(collection: Collection, parameters: dict) -> dict:
    adjudicated, include = (
        bool(parameters.get("adjudicated")),
        bool(parameters.get("include_in_progress")),
    )
    results, skipped = pyramid_agreement(
        collection, adjudicated=adjudicated, include_in_progress=include
    )
    left_out = pyramids_left_in_progress(
        collection, adjudicated=adjudicated, include_in_progress=include
    )
    counted_in_progress = sum(len(r.in_progress) for r in results)

    def names(r):
        return ", ".join(
            f"{name} (in progress)" if name in r.in_progress else name for name in r.pyramids
        )

    return {
        "tables": [
            _table(
                "Per docset",
                [
                    "docset",
                    "pyramids",
                    "annotators",
                    "words",
                    "alpha MASI (2009)",
                    "alpha MASI (NLTK)",
                    "alpha Jaccard",
                    "alpha nominal",
                ],
                [
                    [
                        r.docset,
                        names(r),
                        ", ".join(r.annotators),
                        r.units,
                        r.alpha["masi"],
                        r.alpha["masi_nltk"],
                        r.alpha["jaccard"],
                        r.alpha["nominal"],
                    ]
                    for r in results
                ],
                _sentences(
                    "Units: each word of the models put in an SCU by someone; values: the other "
                    "words of its SCU (§4.1.4)."
                    if results
                    else "",
                    "Left out: " + "; ".join(skipped) + "." if skipped else "",
                    "Work in progress counted too: "
                    f"{counted(counted_in_progress, 'pyramid')} in progress, marked."
                    if include
                    else "",
                    f"{counted(left_out, 'pyramid')} in progress left out "
                    "(count work in progress to compare " + ("it)." if left_out == 1 else "them).")
                    if left_out
                    else "",
                ),
                empty=(
                    "No docset has two or more "
                    + ("" if include else "submitted ")
                    + "pyramids of the same model summaries: nothing to compare."
                ),
            )
        ],
        "plots": [],
    }


def ranking_report(collection: Collection, parameters: dict) -> dict:
    from scipy import stats  # here: the site imports this module, and must start without SciPy

    score = parameters.get("score", "modified")
    rows = score_collection(collection, adjudicated=bool(parameters.get("adjudicated")))
    ranking = rank_systems(rows, score, bool(parameters.get("docset_factor")))
    values = defaultdict(list)
    for system, _, value in observations(rows, score):
        values[system].append(value)

    def interval(system):
        v = values[system]
        if len(v) < 2:
            return None, None
        half = stats.t.ppf(0.975, len(v) - 1) * stdev(v) / math.sqrt(len(v))
        return fmean(v) - half, fmean(v) + half

    means = [[s, n, m, *interval(s)] for s, n, m in ranking.means]
    a = ranking.anova
    return {
        "tables": [
            _table(
                f"Mean {score} score per system",
                ["system", "observations", "mean", "95% low", "95% high"],
                means,
            ),
            _table(
                "ANOVA, system as factor"
                + (" (and docset)" if parameters.get("docset_factor") else ""),
                [
                    "F",
                    "df",
                    "df residual",
                    "p",
                    "Tukey's HSD (0.05)",
                    "docsets needed (power 0.99, level 0.01)",
                ],
                [[a.f, a.df_factor, a.df_residual, a.p, ranking.hsd, ranking.docsets_needed]],
                ""
                if a.df_residual > 0
                else "One score per system (one docset each): nothing is left to estimate the "
                "error with, so there is no F, p or HSD; the means are still worth reading.",
                p_columns=(3,),
            ),
            _table(
                "Significantly distinct groups (Tukey's HSD)",
                ["peers", "mean", "better than", "mean"],
                [
                    [", ".join(g.better), g.better_mean, ", ".join(g.worse), g.worse_mean]
                    for g in ranking.groups
                ],
                empty="No groups: Tukey's HSD is undefined here, with no residual degrees of "
                "freedom (one score per system) to estimate the error with."
                if a.df_residual <= 0
                else "No two systems differ by more than Tukey's HSD: no significantly distinct "
                "groups.",
            ),
        ],
        "plots": [
            {
                "type": "intervals",
                "title": f"Mean {score} score with its 95% interval",
                "labels": [m[0] for m in means],
                "values": [_n(m[2]) for m in means],
                "low": [_n(m[3]) for m in means],
                "high": [_n(m[4]) for m in means],
            },
            {
                "type": "boxes",
                "title": f"Distribution of {score} scores per system",
                "labels": [m[0] for m in means],
                "boxes": [_five_numbers(values[m[0]]) for m in means],
            },
        ],
    }


def _five_numbers(values: list[float]) -> list[float]:
    ordered = sorted(values)
    q1, median, q3 = quantiles(ordered, n=4) if len(ordered) > 1 else (ordered[0],) * 3
    return [_n(ordered[0]), _n(q1), _n(median), _n(q3), _n(ordered[-1])]


def correlation_report(collection: Collection, parameters: dict) -> dict:
    criterion = parameters.get("criterion") or "content responsiveness"
    alpha = float(parameters.get("alpha", 1.0))
    recall = parameters.get("tac_recall") or RECALL_REFERENCES
    results = judgment_correlations(
        collection, criterion, alpha, recall, bool(parameters.get("adjudicated"))
    )

    def cell(found, i):
        return None if found is None else found[i]

    # Each row says how its score was computed, so that the table's CSV says it too.
    convention = {"power_mean": f"alpha = {alpha:g}", "tac2008": f"recall: {recall}"}
    standard = f"SCU weight: {collection.weight_convention}; X_a: {collection.average_rounding}"
    return {
        "tables": [
            _table(
                f"Scores against {criterion}",
                [
                    "score",
                    "level",
                    "n",
                    "Pearson",
                    "p",
                    "Spearman",
                    "p",
                    "Kendall",
                    "p",
                    "convention",
                ],
                [
                    [
                        r.score,
                        r.level,
                        r.n,
                        *(
                            cell(r.results[m], i)
                            for m in ("pearson", "spearman", "kendall")
                            for i in (0, 1)
                        ),
                        convention.get(r.score, standard),
                    ]
                    for r in results
                ],
                f"power_mean: Maskey & Rosenberg's score at alpha = {alpha:g}; tac2008: the TAC "
                f"2008 F-measure, recall {recall}: {TAC2008_RECALLS[recall]}. With fewer than "
                f"{MIN_PAIRS_FOR_P} summaries or systems, the coefficients alone: too few for a "
                "p-value. Spearman's p is exact (every ordering counted) up to "
                f"{EXACT_SPEARMAN_UP_TO}.",
                p_columns=(4, 6, 8),
            )
        ],
        "plots": [],
    }


def stability_report(collection: Collection, parameters: dict) -> dict:
    pyramid_id: int | str | None = parameters.get("pyramid")
    pyramid = (
        None
        if pyramid_id is None
        else Pyramid.objects.filter(docset__collection=collection, pk=pyramid_id)
        .select_related("docset__collection")
        .first()
    )
    if pyramid is None:
        raise ValueError("choose a pyramid of the collection")
    result = pyramid_stability(
        pyramid, parameters.get("score", "modified"), bool(parameters.get("adjudicated"))
    )
    errors = {e.order: e for e in result.errors}
    optimal = counted(result.optimal_summaries, "optimal summary", "optimal summaries")
    in_progress = (
        f"The pyramid {pyramid.name} is still in progress: its SCUs may change, and what it "
        "predicts with them."
        if pyramid.status == Pyramid.Status.IN_PROGRESS
        else ""
    )
    return {
        "tables": [
            _table(
                f"{pyramid.docset.name}, pyramid {pyramid.name}: by order",
                [
                    "order",
                    "pyramids",
                    "mean Spearman with the full pyramid",
                    "p1",
                    "p2",
                    "p3",
                    "p",
                    "data points",
                ],
                [
                    [
                        o.order,
                        o.pyramids,
                        o.spearman,
                        *(
                            (
                                errors[o.order].p1,
                                errors[o.order].p2,
                                errors[o.order].p3,
                                errors[o.order].p,
                                errors[o.order].data_points,
                            )
                            if o.order in errors
                            else [None] * 5
                        ),
                    ]
                    for o in result.orders
                ],
                _sentences(
                    in_progress,
                    f"X_a = {result.average_scu_count:g}; the pyramid predicts "
                    f"{optimal} of that size.",
                ),
                empty="No submitted peer annotation against this pyramid: no scores to compare.",
            ),
            _table(
                "Jackknifed scores (TAC): peers over the leave-one-model-out pyramids; models "
                "against the others",
                ["summary", "kind", "score"],
                [
                    [p, "peer", v]
                    for p, v in sorted(result.jackknifed_peers.items(), key=lambda i: -(i[1] or 0))
                ]
                + [[m, "model", v] for m, v in result.jackknifed_models.items()],
            ),
        ],
        "plots": [
            {
                "type": "lines",
                "title": "Ranking stability by pyramid order",
                "labels": [o.order for o in result.orders],
                "series": {
                    "mean Spearman": [_n(o.spearman) for o in result.orders],
                    "p (error)": [
                        _n(errors[o.order].p) if o.order in errors else None for o in result.orders
                    ],
                },
            }
        ],
    }


def pyramids_report(collection: Collection, parameters: dict) -> dict:
    weights: Counter[int] = Counter()  # SCUs by weight, all pyramids
    per_pyramid: defaultdict[int, Counter[int]] = defaultdict(Counter)  # by pyramid id
    names = dict(Pyramid.objects.filter(docset__collection=collection).values_list("pk", "name"))
    for pyramid_id, weight in (
        SCU.objects.filter(pyramid__docset__collection=collection)
        .with_weight(WeightConvention.CONTRIBUTORS)
        .values_list("pyramid_id", "weight")
    ):
        per_pyramid[pyramid_id][weight] += 1
        weights[weight] += 1
    contributors = Contributor.objects.filter(scu__pyramid__docset__collection=collection).count()
    tiers = sorted(weights)
    return {
        "tables": [
            _table(
                "SCUs per tier (weight)",
                ["pyramid", *[f"weight {w}" for w in tiers], "SCUs"],
                [
                    [names[p], *(c.get(w, 0) for w in tiers), sum(c.values())]
                    for p, c in sorted(per_pyramid.items(), key=lambda i: names[i[0]])
                ]
                + [["all", *(weights[w] for w in tiers), sum(weights.values())]],
                f"{counted(contributors, 'contributor')}. Fewer SCUs in the upper tiers: the "
                "Zipfian shape of N&P 2004 Table 1.",
            )
        ],
        "plots": [
            {
                "type": "bars",
                "title": "SCUs per tier, all pyramids",
                "labels": [str(w) for w in tiers],
                "values": [weights[w] for w in tiers],
            }
        ],
    }


COMPUTE = {
    "peer-agreement": peer_agreement_report,
    "pyramid-agreement": pyramid_agreement_report,
    "ranking": ranking_report,
    "correlation": correlation_report,
    "stability": stability_report,
    "pyramids": pyramids_report,
}


@task()
def compute_report(report_id: int) -> None:
    report = Report.objects.select_related("collection").get(pk=report_id)
    if report.status != Report.Status.QUEUED:
        return
    Report.objects.filter(pk=report.pk).update(status=Report.Status.RUNNING)
    try:
        result = COMPUTE[report.kind](report.collection, report.parameters)
    except (
        ValueError
    ) as problem:  # the data do not allow it (e.g. one system only): said on the page
        Report.objects.filter(pk=report.pk).update(
            status=Report.Status.FAILED, error=str(problem), finished_at=timezone.now()
        )
    except Exception:
        logger.exception("report %s failed", report.pk)
        Report.objects.filter(pk=report.pk).update(
            status=Report.Status.FAILED,
            finished_at=timezone.now(),
            error="The computation stopped on an unexpected error, which has been logged.",
        )
        raise
    else:
        Report.objects.filter(pk=report.pk).update(
            status=Report.Status.DONE, result=result, finished_at=timezone.now()
        )
