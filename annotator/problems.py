"""Where a pyramid breaks the method's rules (Passonneau 2009 §2.1), for annotators to fix.

Imported DUCView data is kept as it was (so that scores reproduce the NIST tables); these checks
list what the editing operations would have refused:
- an SCU with more than one contributor from one model summary (guideline 2);
- a contributor whose parts lie in more than one model summary;
- contributors whose spans overlap (the guidelines expect each word in one contributor).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .models import Span

REPEATED_MODEL = "repeated model"
PARTS_IN_TWO_MODELS = "parts in two models"
OVERLAP = "overlapping contributors"


@dataclass(frozen=True)
class Problem:
    kind: str
    scu_uid: int
    message: str


def pyramid_problems(pyramid) -> list[Problem]:
    """Every problem of one pyramid, from one query."""
    spans = list(
        Span.objects.filter(contributor__scu__pyramid=pyramid)
        .select_related("contributor__scu", "contributor__summary", "summary")
        .order_by("contributor__scu__position", "contributor__position", "position")
    )
    problems: list[Problem] = []
    contributor_models: dict[int, dict[int, str]] = defaultdict(dict)  # scu -> contributor -> author
    span_models: dict[int, set[str]] = defaultdict(set)
    scu_of = {}
    for span in spans:
        contributor = span.contributor
        scu_of[contributor.id] = contributor.scu
        contributor_models[contributor.scu_id][contributor.id] = contributor.summary.author
        span_models[contributor.id].add(span.summary.author)
    reported_scus = set()
    for scu_id, by_contributor in contributor_models.items():
        authors = list(by_contributor.values())
        repeated = sorted({a for a in authors if authors.count(a) > 1})
        if repeated and scu_id not in reported_scus:
            scu = scu_of[next(iter(by_contributor))]
            reported_scus.add(scu_id)
            problems.append(
                Problem(REPEATED_MODEL, scu.uid, f"SCU {scu.uid} has {authors.count(repeated[0])} contributors from model {', '.join(repeated)}")
            )
    for contributor_id, authors in span_models.items():
        if len(authors) > 1:
            scu = scu_of[contributor_id]
            problems.append(
                Problem(PARTS_IN_TWO_MODELS, scu.uid, f"SCU {scu.uid} has a contributor with parts in models {' and '.join(sorted(authors))}")
            )
    by_summary = defaultdict(list)
    for span in spans:
        by_summary[span.summary_id].append(span)
    for summary_spans in by_summary.values():
        summary_spans.sort(key=lambda s: (s.start, s.end))
        reach = None
        for span in summary_spans:
            if reach is not None and span.start < reach.end and reach.contributor_id != span.contributor_id:
                problems.append(
                    Problem(
                        OVERLAP, span.contributor.scu.uid,
                        f"SCU {span.contributor.scu.uid} overlaps SCU {reach.contributor.scu.uid} in model {span.summary.author}",
                    )
                )
            if reach is None or span.end > reach.end:
                reach = span
    return problems
