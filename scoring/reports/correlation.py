"""The report "Scores against human judgments": Pearson, Spearman and Kendall of every score
against a criterion, power-mean scores and the TAC 2008 F-measure (Maskey & Rosenberg)."""

from __future__ import annotations

from annotator.campaigns.models import Collection
from scoring.judgments.correlation import EXACT_SPEARMAN_UP_TO, MIN_PAIRS_FOR_P
from scoring.judgments.records import judgment_correlations
from scoring.reports.results import result_table
from scoring.scores.variants import RECALL_REFERENCES, TAC2008_RECALLS


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
            result_table(
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
