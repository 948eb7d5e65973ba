"""The report "Agreement on peer annotations": Krippendorff's alpha over the peers annotated twice,
Pearson's r of the annotators' scores and the ANOVA by annotator (Passonneau 2009 §4.1, §5.1)."""

from __future__ import annotations

import math

from annotator.campaigns.models import Collection
from annotator.text.plurals import counted
from scoring.agreement.records import (
    peer_agreement,
    score_agreement,
)
from scoring.judgments.correlation import MIN_PAIRS_FOR_P
from scoring.reports.results import NOT_TWICE, joined_sentences, result_table
from scoring.scores.records import (
    collection_annotations,
    work_counts,
)


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
            result_table(
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
                joined_sentences(
                    "Units: the SCUs at least one annotator matched; values: the PSEs each found "
                    "for it (Passonneau 2009 §4.1.3)."
                    if peers
                    else "",
                    work,
                ),
                empty=NOT_TWICE,
            ),
            result_table(
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
            result_table(
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
            result_table(
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
            result_table(
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
