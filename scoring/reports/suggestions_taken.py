"""The report "Suggestions taken" (issue 20): matches made from a suggestion, and at which rank."""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from annotator.campaigns.models import Collection
from annotator.peer_annotation.models import PSE, PeerAnnotation
from scoring.reports.results import result_table
from scoring.scores.records import (
    counted_annotations,
)

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
            result_table(
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
