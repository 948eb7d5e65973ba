"""The report "Coverage judgments: agreement and variation" (issue 21; Harman & Over 2004)."""

from __future__ import annotations

from annotator.campaigns.models import Collection
from annotator.text.plurals import counted
from scoring.coverage.analysis import analyses, system_means_by_set
from scoring.coverage.records import (
    collection_tasks,
    counted_tasks,
    load_tasks,
)
from scoring.judgments.correlation import MIN_PAIRS_FOR_P
from scoring.reports.results import joined_sentences, result_table, rounded
from scoring.scores.tables import natural_peer_key


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
            result_table(
                "Agreement between judges (Krippendorff's alpha)",
                ["method", "metric", "alpha", "items (unit × peer) judged twice or more", "judges"],
                [[a.method, a.metric, a.alpha, a.items, a.judges] for a in found["agreement"]],
                joined_sentences(
                    "Presence: nominal (present or absent); SEE: interval, on the answers as a "
                    "fraction of the scale; judges: those with an answer in an item judged "
                    "twice or more.",
                    in_progress,
                ),
            ),
            result_table(
                "Average absolute coverage difference per docset (Harman & Over 2004 Figs. 3, "
                "6, 9)",
                ["between", "docset", "peers", "average difference", "share of the highest"],
                difference_rows,
                "Per peer, its highest minus its lowest SEE coverage against the docset's models "
                "(each the mean over its judges), or by its judges against one model; averaged "
                "over the peers.",
                empty="No peer has two SEE coverages to compare (another model or another judge).",
            ),
            result_table(
                "Pearson's r of system means between judgment sets (Figs. 5, 7, 10)",
                ["sets", "first", "second", "systems", "r", "p"],
                correlation_rows,
                "A judgment set: the unit sets of one name across docsets, or one judge's "
                "judgments; systems judged in both. Pearson's p needs at least "
                f"{MIN_PAIRS_FOR_P} systems judged in both sets; with fewer, r alone (p “—”).",
                p_columns=(5,),
                empty="Fewer than two judgment sets of SEE coverage.",
            ),
            result_table(
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
                        "values": [rounded(row[3]) for row in difference_rows],
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
                            judge: [rounded(means.get(system)) for system in systems]
                            for judge, means in by_judge.items()
                        },
                    }
                ]
                if by_judge
                else []
            ),
        ],
    }
