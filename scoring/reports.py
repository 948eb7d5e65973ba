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
from statistics import fmean, median, quantiles, stdev

from django.db.models import Count, Max, Q, Sum
from django.utils import timezone
from django_tasks import task

from annotator.models import (
    PSE,
    SCU,
    Collection,
    Contributor,
    HumanJudgment,
    Judgment,
    PeerAnnotation,
    Pyramid,
    WeightConvention,
    WorkTime,
)
from annotator.text.plurals import counted
from annotator.worktime import queries as worktime
from scoring.agreement_records import (
    peer_agreement,
    pyramid_agreement,
    pyramids_left_in_progress,
    score_agreement,
)
from scoring.correlation import EXACT_SPEARMAN_UP_TO, MIN_PAIRS_FOR_P
from scoring.coverage_analysis import analyses, system_means_by_set
from scoring.coverage_records import (
    COVERAGE_SCORES,
    collection_tasks,
    counted_tasks,
    load_tasks,
    score_coverage,
    system_mean,
)
from scoring.judgment_records import judgment_correlations
from scoring.models import Report
from scoring.numbers import p_stored
from scoring.ranking import observations, rank_systems, what_is_observed
from scoring.records import (
    collection_annotations,
    counted_annotations,
    score_collection,
    work_counts,
)
from scoring.stability_records import pyramid_stability
from scoring.tables import PER_ANNOTATION, PER_DOCSET, natural_peer_key
from scoring.variants import RECALL_REFERENCES, TAC2008_RECALLS

logger = logging.getLogger(__name__)

KINDS = {
    "peer-agreement": "Agreement on peer annotations",
    "pyramid-agreement": "Agreement on pyramids",
    "ranking": "Systems compared",
    "correlation": "Scores against human judgments",
    "stability": "Pyramid size and stability",
    "pyramids": "Pyramid shapes",
    "suggestions-taken": "Suggestions taken",
    "work-time": "Time on task",
    "proposals": "Proposals confirmed",
    "coverage": "Coverage judgments: agreement and variation",
}


# Raised when what a result holds changes (2: p-values kept to significant digits, "p_columns";
# 3: "empty", notes only of what is shown, work in progress said; 4: Time on task leaves out the
# pyramids in progress too, and says what it left out; 5: coverage judgments count in the state),
# so that reports computed before are computed again rather than shown the old way.
RESULT_FORMAT = 5


def fingerprint(collection: Collection, parameters: dict, kind: str = "") -> str:
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
    coverage = Judgment.objects.filter(task__unit_set__docset__collection=collection).aggregate(
        n=Count("id"), last=Max("updated_at"), tasks_last=Max("task__updated_at")
    )
    state = [
        collection.weight_convention,
        collection.average_rounding,
        pyramids,
        annotations,
        judgments,
        coverage,
        parameters,
        RESULT_FORMAT,
    ]
    if kind == "work-time":
        # Selections add active time without changing a record: the time report follows them
        # (the others do not, so that a selection does not make them computed again).
        state.append(
            WorkTime.objects.filter(
                Q(pyramid__docset__collection=collection)
                | Q(annotation__pyramid__docset__collection=collection)
            ).aggregate(n=Count("id"), last=Max("last_action_at"))
        )
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
    per = parameters.get("per", PER_DOCSET)
    if score in COVERAGE_SCORES:  # the coverage judgments' (issue 21), their means as published
        rows: list = score_coverage(collection)
        per = PER_ANNOTATION  # each judged row an observation
        ranking = rank_systems(
            rows, score, bool(parameters.get("docset_factor")), mean=system_mean, per=per
        )
    else:
        rows = score_collection(collection, adjudicated=bool(parameters.get("adjudicated")))
        ranking = rank_systems(rows, score, bool(parameters.get("docset_factor")), per=per)
    values = defaultdict(list)
    for system, _, value in observations(rows, score, per):
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
                _sentence(what_is_observed(per, score in COVERAGE_SCORES)),
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
                    f"{per}s needed (power 0.99, level 0.01)",
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


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + "."


def _five_numbers(values: list[float]) -> list[float]:
    ordered = sorted(values)
    # "inclusive": the quartiles of the values themselves, never outside them (the default
    # "exclusive" put system 6's first quartile at -0.11 with two observations)
    q1, median, q3 = (
        quantiles(ordered, n=4, method="inclusive") if len(ordered) > 1 else (ordered[0],) * 3
    )
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


def _minutes(seconds: list[float]) -> list:
    """Median, mean and total of active times: minutes, minutes, hours."""
    return [median(seconds) / 60, fmean(seconds) / 60, sum(seconds) / 3600]


def _work_in_progress(include: bool, in_progress: int, work: str) -> str:
    """What a table of time says of the timed work in progress, in the agreement reports' words:
    how much it counts, or how much it left out."""
    if include:
        return f"Work in progress counted too: {counted(in_progress, work)} in progress."
    if in_progress:
        them = "it" if in_progress == 1 else "them"
        return (
            f"{counted(in_progress, work)} in progress left out "
            f"(count work in progress to include {them})."
        )
    return ""


def work_time_report(collection: Collection, parameters: dict) -> dict:
    """Active time on task (issue 20): per annotator, on the peer annotations and the pyramids they
    worked on in the tool; and against agreement: the annotators' mean time on the peers that two
    or more annotated, beside those peers' alpha, to see whether a fast annotator agrees less.

    Submitted work only, as every report counts it, unless `include_in_progress`: the time of work
    still going on is on the progress page; the tables say how much timed work in progress they
    leave out (found by a tester: it was left out silently, and pyramids in progress counted)."""
    include = bool(parameters.get("include_in_progress"))

    def counted_work(in_progress: bool):
        return counted_annotations(
            PeerAnnotation.objects.filter(pyramid__docset__collection=collection),
            scored=False,
            include_in_progress=in_progress,
        )

    annotations, every = counted_work(include), counted_work(True)
    times = worktime.annotation_times(annotations)
    # Those with time only: an annotation in progress never worked on would add no row.
    annotations_in_progress = len(
        worktime.annotation_times(every.exclude(status=PeerAnnotation.Status.SUBMITTED))
    )
    per_annotator: defaultdict[str, list[float]] = defaultdict(list)
    for *_, annotator, seconds in times:
        per_annotator[annotator].append(seconds)
    pyramids = Pyramid.objects.filter(docset__collection=collection)
    building: defaultdict[str, list[float]] = defaultdict(list)
    for _, builder, seconds in worktime.pyramid_times(
        pyramids if include else pyramids.filter(status=Pyramid.Status.SUBMITTED)
    ):
        building[builder].append(seconds)
    pyramids_in_progress = len(
        {pk for pk, *_ in worktime.pyramid_times(pyramids.exclude(status=Pyramid.Status.SUBMITTED))}
    )
    # Time against agreement: each annotator's peers compared with another annotator's.
    peers, _ = peer_agreement(collection, include_in_progress=include)
    time_of = {(d, p, y, a): seconds for d, p, y, a, seconds in times}
    compared: defaultdict[str, list[tuple[float | None, float]]] = defaultdict(list)
    for p in peers:
        for annotator in p.annotators:
            compared[annotator].append(
                (time_of.get((p.docset, p.peer, p.pyramid, annotator)), p.alpha["dice"])
            )
    against = []
    for annotator, pairs in sorted(compared.items()):
        timed = [s for s, _ in pairs if s is not None]
        alphas = [a for _, a in pairs if not math.isnan(a)]
        against.append(
            [
                annotator,
                len(pairs),
                len(timed),
                fmean(timed) / 60 if timed else None,
                fmean(alphas) if alphas else None,
            ]
        )
    untimed = annotations.count() - len(times)
    gap = int(WorkTime.ACTIVE_GAP.total_seconds() // 60)
    rule = (
        f"Active time: the time between an annotator's actions on the work (edits, selections), "
        f"each pause over {gap} minutes left out."
    )
    return {
        "tables": [
            _table(
                "Active time per peer annotation, by annotator",
                ["annotator", "annotations", "median (min)", "mean (min)", "total (h)"],
                [[a, len(s), *_minutes(s)] for a, s in sorted(per_annotator.items())],
                _sentences(
                    rule,
                    f"{counted(untimed, 'peer annotation')} with no time recorded (imported, or "
                    "not worked on in the tool) left out."
                    if untimed
                    else "",
                    _work_in_progress(include, annotations_in_progress, "peer annotation"),
                ),
            ),
            _table(
                "Active time per pyramid built, by annotator",
                ["annotator", "pyramids", "median (min)", "mean (min)", "total (h)"],
                [[a, len(s), *_minutes(s)] for a, s in sorted(building.items())],
                _sentences(
                    rule if building else "",
                    _work_in_progress(include, pyramids_in_progress, "pyramid"),
                ),
            ),
            _table(
                "Active time against agreement, by annotator",
                [
                    "annotator",
                    "peers compared",
                    "of them timed",
                    "mean time on them (min)",
                    "mean alpha dice of them",
                ],
                against,
                "The peers two or more annotators annotated (as in the agreement report): each "
                "annotator's mean active time on them, and the mean Krippendorff's alpha (with "
                "1 - Dice) of those peers among all their annotators."
                if against
                else "",
                empty=NOT_TWICE,
            ),
        ],
        "plots": [],
    }


# The ranks a suggestion taken is counted in (1: the first shown), as the report groups them.
RANK_GROUPS = (("rank 1", 1, 1), ("rank 2–3", 2, 3), ("rank 4+", 4, math.inf))
RANK_BARS = 10  # the plot's bars: ranks 1 to 9 each, and one for 10 and later


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def suggestions_taken_report(collection: Collection, parameters: dict) -> dict:
    """How often annotators took a suggestion of the peer page, and which (issue 20): per
    annotator and for the collection, the share of their PSEs of an SCU matched from a suggestion
    (PSE.suggestion_rank) and, of those, the share taken at rank 1, 2–3 and 4 or later."""
    # The annotators' own work on the page, in progress too (the ranks are recorded as they work);
    # consensus annotations copy PSEs and imported ones were never matched here: left out.
    annotations = counted_annotations(
        PeerAnnotation.objects.filter(
            pyramid__docset__collection=collection, annotator__isnull=False
        ),
        scored=False,
        include_in_progress=True,
    )
    pses: Counter[str] = Counter()  # PSEs of an SCU, by annotator
    annotated: defaultdict[str, set[int]] = defaultdict(set)  # their annotations with one
    ranks: defaultdict[str, Counter[int]] = defaultdict(Counter)  # suggestions taken, by rank
    for username, annotation_id, rank in (
        PSE.objects.filter(annotation__in=annotations, scu__isnull=False)
        .order_by()
        .values_list("annotation__annotator__username", "annotation_id", "suggestion_rank")
    ):
        pses[username] += 1
        annotated[username].add(annotation_id)
        if rank is not None:
            ranks[username][rank] += 1

    def row(name: str, annotations: int, matched: int, taken: Counter[int]) -> list:
        total = sum(taken.values())
        return [
            name,
            annotations,
            matched,
            total,
            _share(total, matched),
            *(
                _share(sum(n for r, n in taken.items() if low <= r <= high), total)
                for _, low, high in RANK_GROUPS
            ),
        ]

    everyone: Counter[int] = Counter()
    for taken in ranks.values():
        everyone.update(taken)
    rows = [row(name, len(annotated[name]), pses[name], ranks[name]) for name in sorted(pses)]
    if rows:
        rows.append(row("all", sum(len(a) for a in annotated.values()), pses.total(), everyone))
    bars = Counter({r: 0 for r in range(1, RANK_BARS + 1)})
    for r, n in everyone.items():
        bars[min(r, RANK_BARS)] += n
    return {
        "tables": [
            _table(
                "Suggestions taken, by annotator",
                [
                    "annotator",
                    "peer annotations",
                    "PSEs of an SCU",
                    "from a suggestion",
                    "share from a suggestion",
                    *(f"share at {name}" for name, _, _ in RANK_GROUPS),
                ],
                rows,
                "The PSEs of an SCU the annotators matched on the peer page (work in progress "
                "too; consensus and imported annotations left out), and those matched from a "
                "suggestion: one of the SCUs the page suggested for the selection, taken at the "
                "rank it had there (1: the first). The shares by rank are of the PSEs from a "
                "suggestion. A PSE matched otherwise (an SCU clicked or typed, a proposal "
                "accepted, a PSE moved), or before ranks were recorded, is not from a suggestion."
                if rows
                else "",
            )
        ],
        "plots": [
            {
                "type": "bars",
                "title": "Suggestions taken, by rank",
                "labels": [str(r) for r in range(1, RANK_BARS)] + [f"{RANK_BARS}+"],
                "values": [bars[r] for r in range(1, RANK_BARS + 1)],
            }
        ]
        if everyone
        else [],
    }


def proposals_report(collection: Collection, parameters: dict) -> dict:
    """How often the proposals to confirm (annotator.assist.proposals) were right: precision as
    accepted / decided, per annotator and for the collection, with how many accepted ones the
    annotator edited first (their PSE's words differ from the proposal's). Open proposals are
    counted apart: never decided, they say nothing of precision (issue 20)."""
    from annotator.models import Proposal, PSESpan

    rows = Proposal.objects.filter(annotation__pyramid__docset__collection=collection)
    tally: defaultdict[str, Counter[str]] = defaultdict(Counter)
    accepted: dict[int, tuple[str, int, int]] = {}  # PSE id -> (annotator, start, end)
    for name, state, pse_id, start, end in rows.values_list(
        "annotation__annotator__username", "state", "pse_id", "start", "end"
    ).order_by():
        who = name or "(none)"
        tally[who][state] += 1
        if state == Proposal.State.ACCEPTED and pse_id is not None:
            accepted[pse_id] = (who, start, end)
    parts: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
    for pse_id, start, end in PSESpan.objects.filter(pse_id__in=list(accepted)).values_list(
        "pse_id", "start", "end"
    ):
        parts[pse_id].append((start, end))
    for pse_id, (who, start, end) in accepted.items():
        if sorted(parts[pse_id]) != [(start, end)]:
            tally[who]["edited"] += 1

    def row(who: str, counts: Counter[str]) -> list:
        decided = counts[Proposal.State.ACCEPTED] + counts[Proposal.State.REJECTED]
        return [
            who,
            counts[Proposal.State.ACCEPTED],
            counts[Proposal.State.REJECTED],
            counts["edited"],
            counts[Proposal.State.OPEN],
            counts[Proposal.State.ACCEPTED] / decided if decided else None,
        ]

    total: Counter[str] = Counter()
    for counts in tally.values():
        total.update(counts)
    table_rows = [row(who, tally[who]) for who in sorted(tally)]
    if tally:
        table_rows.append(row("all", total))
    return {
        "tables": [
            _table(
                "Precision of proposals",
                ["annotator", "accepted", "rejected", "accepted, span edited", "open", "precision"],
                table_rows,
                "Per the annotation's annotator. Precision: accepted / (accepted + rejected); "
                "open proposals (not decided yet) do not count, and are never scored.",
                empty="No proposal was made in this collection yet (“Propose matches” on the "
                "peer page).",
            )
        ],
        "plots": [],
    }


def coverage_report(collection: Collection, parameters: dict) -> dict:
    """Coverage judgments (issue 21): alpha over the judges, and Harman & Over 2004's analyses of
    SEE coverage: the average absolute coverage difference per docset between models and between
    judges (Figs. 3, 6, 9), Pearson's r of system means between judgment sets (Figs. 5, 7, 10),
    and the ANOVA with judge, system and docset (Table 1)."""
    include = bool(parameters.get("include_in_progress"))
    tasks = counted_tasks(collection_tasks(collection), include)
    unsubmitted = collection_tasks(collection).exclude(status="submitted").count()
    found = analyses(tasks)
    loaded = load_tasks(tasks)
    if not unsubmitted:
        in_progress = ""
    elif include:
        in_progress = f"Work in progress counted too: {counted(unsubmitted, 'judgment task')}."
    else:
        in_progress = (
            f"{counted(unsubmitted, 'judgment task')} in progress left out (count work in "
            "progress to include it)."
        )
    difference_rows = [
        [between, docset, d.peers, d.average, d.relative]
        for between in ("models", "judges")
        for docset, d in sorted(found[f"differences_between_{between}"].items())
    ]
    correlation_rows = [
        [grouping, c.first, c.second, c.systems, c.r, c.p]
        for grouping, key in (("unit set", "models"), ("judge", "judges"))
        for c in found[f"correlations_between_{key}"]
    ]
    by_judge = system_means_by_set(loaded, "judge")
    systems = sorted({s for means in by_judge.values() for s in means}, key=natural_peer_key)
    return {
        "tables": [
            _table(
                "Agreement between judges (Krippendorff's alpha)",
                ["method", "metric", "alpha", "items (unit × peer) judged twice or more", "judges"],
                [[a.method, a.metric, a.alpha, a.items, a.judges] for a in found["agreement"]],
                _sentences(
                    "Presence: nominal (present or absent); SEE: interval, on the answers as a "
                    "fraction of the scale; judges: those with an answer in an item judged "
                    "twice or more.",
                    in_progress,
                ),
            ),
            _table(
                "Average absolute coverage difference per docset (Harman & Over 2004 Figs. 3, "
                "6, 9)",
                ["between", "docset", "peers", "average difference", "share of the highest"],
                difference_rows,
                "Per peer, its highest minus its lowest SEE coverage against the docset's models "
                "(each the mean over its judges), or by its judges against one model; averaged "
                "over the peers.",
                empty="No peer has two SEE coverages to compare (another model or another judge).",
            ),
            _table(
                "Pearson's r of system means between judgment sets (Figs. 5, 7, 10)",
                ["sets", "first", "second", "systems", "r", "p"],
                correlation_rows,
                "A judgment set: the unit sets of one name across docsets, or one judge's "
                "judgments; systems judged in both. Pearson's p needs at least "
                f"{MIN_PAIRS_FOR_P} systems judged in both sets; with fewer, r alone (p “—”).",
                p_columns=(5,),
                empty="Fewer than two judgment sets of SEE coverage.",
            ),
            _table(
                "ANOVA: coverage = judge + system + docset + two-way interactions (Table 1)",
                ["source", "df", "SS", "MS", "F", "p"],
                [[r.source, r.df, r.ss, r.ms, r.f, r.p] for r in found["anova"]],
                "Sequential (type I) sums of squares; one observation per judge's coverage of a "
                "peer against a unit set.",
                p_columns=(5,),
                empty="Too few SEE judgments to leave a residual to test against.",
            ),
        ],
        "plots": [
            *(
                [
                    {
                        "type": "bars",
                        "title": "Average absolute coverage difference per docset",
                        "labels": [f"{row[1]} ({row[0]})" for row in difference_rows],
                        "values": [_n(row[3]) for row in difference_rows],
                    }
                ]
                if difference_rows
                else []
            ),
            *(
                [
                    {
                        "type": "lines",
                        "title": "Mean SEE coverage per system, by judge",
                        "labels": systems,
                        "series": {
                            judge: [_n(means.get(system)) for system in systems]
                            for judge, means in by_judge.items()
                        },
                    }
                ]
                if by_judge
                else []
            ),
        ],
    }


COMPUTE = {
    "peer-agreement": peer_agreement_report,
    "pyramid-agreement": pyramid_agreement_report,
    "ranking": ranking_report,
    "correlation": correlation_report,
    "stability": stability_report,
    "pyramids": pyramids_report,
    "suggestions-taken": suggestions_taken_report,
    "work-time": work_time_report,
    "proposals": proposals_report,
    "coverage": coverage_report,
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
