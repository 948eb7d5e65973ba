"""The report "Agreement on pyramids": alpha over the pyramids built twice (MASI, Jaccard,
nominal)."""

from __future__ import annotations

from annotator.campaigns.models import Collection
from annotator.text.plurals import counted
from scoring.agreement.records import (
    pyramid_agreement,
    pyramids_left_in_progress,
)
from scoring.reports.results import joined_sentences, result_table


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
            result_table(
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
                joined_sentences(
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
