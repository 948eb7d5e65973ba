"""The report "Pyramid size and stability" (Nenkova & Passonneau 2004 §3.3)."""

from __future__ import annotations

from annotator.campaigns.models import Collection
from annotator.pyramids.models import Pyramid
from annotator.text.plurals import counted
from scoring.reports.results import joined_sentences, result_table, rounded
from scoring.stability.records import pyramid_stability


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
            result_table(
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
                joined_sentences(
                    in_progress,
                    f"X_a = {result.average_scu_count:g}; the pyramid predicts "
                    f"{optimal} of that size.",
                ),
                empty="No submitted peer annotation against this pyramid: no scores to compare.",
            ),
            result_table(
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
                    "mean Spearman": [rounded(o.spearman) for o in result.orders],
                    "p (error)": [
                        rounded(errors[o.order].p) if o.order in errors else None
                        for o in result.orders
                    ],
                },
            }
        ],
    }
