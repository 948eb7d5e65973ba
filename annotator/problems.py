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
    """Every problem of one pyramid, from one query of plain rows."""
    rows = list(
        Span.objects.filter(contributor__scu__pyramid=pyramid)
        .order_by("contributor__scu__position", "contributor__position", "position")
        .values_list("contributor_id", "contributor__scu__uid", "contributor__summary__author", "summary__author",
                     "summary_id", "start", "end")
    )
    problems: list[Problem] = []
    contributor_model: dict[int, tuple[int, str]] = {}
    span_models: dict[int, set[str]] = defaultdict(set)
    for contributor_id, uid, contributor_author, span_author, *_ in rows:
        contributor_model[contributor_id] = (uid, contributor_author)
        span_models[contributor_id].add(span_author)
    models_of_scu: dict[int, list[str]] = defaultdict(list)
    for uid, author in contributor_model.values():
        models_of_scu[uid].append(author)
    for uid, authors in models_of_scu.items():
        repeated = sorted({a for a in authors if authors.count(a) > 1})
        if repeated:
            problems.append(
                Problem(REPEATED_MODEL, uid, f"SCU {uid} has {authors.count(repeated[0])} contributors from model {', '.join(repeated)}")
            )
    for contributor_id, authors in span_models.items():
        if len(authors) > 1:
            uid = contributor_model[contributor_id][0]
            problems.append(
                Problem(PARTS_IN_TWO_MODELS, uid, f"SCU {uid} has a contributor with parts in models {' and '.join(sorted(authors))}")
            )
    by_summary = defaultdict(list)
    for contributor_id, uid, _, span_author, summary_id, start, end in rows:
        by_summary[summary_id].append((start, end, contributor_id, uid, span_author))
    for spans in by_summary.values():
        spans.sort()
        reach = None  # the span reaching furthest right so far
        for span in spans:
            start, _, contributor_id, uid, author = span
            if reach is not None and start < reach[1] and reach[2] != contributor_id:
                problems.append(Problem(OVERLAP, uid, f"SCU {uid} overlaps SCU {reach[3]} in model {author}"))
            if reach is None or span[1] > reach[1]:
                reach = span
    return problems
