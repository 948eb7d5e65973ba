"""Where a pyramid breaks the method's rules (Passonneau 2009 §2.1), for annotators to fix, and
what an import kept that someone should review (`collection_problems`).

Imported DUCView data is kept as it was (so that scores reproduce the NIST tables); these checks
list what the editing operations would have refused:
- an SCU with more than one contributor from one model summary (guideline 2);
- a contributor whose parts lie in more than one model summary;
- contributors whose spans overlap (the guidelines expect each word in one contributor);
- a part that holds no word (imported: its DUCView offsets placed none).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import F
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from annotator.campaigns.models import Summary
from annotator.peer_annotation.models import PSESpan
from annotator.pyramids.models import Span
from annotator.pyramids.parts import Part, pyramid_parts

REPEATED_MODEL = "repeated model"
PARTS_IN_TWO_MODELS = "parts in two models"
OVERLAP = "overlapping contributors"
EMPTY_PART = "empty part"


@dataclass(frozen=True)
class Problem:
    kind: str
    scu_uid: int
    message: str


def problem_links(problems: list[Problem]) -> SafeString:
    """The problems as the builder lists them, each a link to its SCU: built here rather than in
    a template loop, which took a millisecond of each edit's answer for a DUC pyramid's ~75
    problems (issue 32; format_html_join took half of that). The message is escaped; the uid is
    an int."""
    return mark_safe(  # noqa: S308 - every value is escaped or an int
        "".join(
            f'<li><a href="#scu-{int(problem.scu_uid)}" data-goto="{int(problem.scu_uid)}">'
            f"{escape(problem.message)}</a></li>"
            for problem in problems
        )
    )


def pyramid_problems(pyramid, parts: list[Part] | None = None) -> list[Problem]:
    """Every problem of one pyramid, each said once; from its `parts` (annotator.pyramids.parts)
    where the caller has read them."""
    return list(dict.fromkeys(_pyramid_problems(pyramid, parts)))


def _pyramid_problems(pyramid, parts: list[Part] | None) -> list[Problem]:
    """Every problem of one pyramid (some found twice), from its parts, SCU by SCU."""
    in_order = sorted(
        pyramid_parts(pyramid.pk) if parts is None else parts,
        key=lambda p: (
            p.scu_position,
            p.scu_id,
            p.contributor_position,
            p.contributor_id,
            p.position,
        ),
    )
    rows = [
        (p.contributor_id, p.scu_uid, p.contributor_author, p.author, p.summary_id, p.start, p.end)
        for p in in_order
    ]
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
                Problem(
                    REPEATED_MODEL,
                    uid,
                    f"SCU {uid} has {authors.count(repeated[0])} contributors from model "
                    f"{', '.join(repeated)}",
                )
            )
    for contributor_id, part_authors in span_models.items():
        if len(part_authors) > 1:
            uid = contributor_model[contributor_id][0]
            problems.append(
                Problem(
                    PARTS_IN_TWO_MODELS,
                    uid,
                    f"SCU {uid} has a contributor with parts in models "
                    f"{' and '.join(sorted(part_authors))}",
                )
            )
    for _, uid, _, span_author, _, start, end in rows:
        if start == end:
            problems.append(
                Problem(
                    EMPTY_PART,
                    uid,
                    f"SCU {uid} has a part in model {span_author} that holds no word "
                    "(its offsets in the DUCView file placed none)",
                )
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
                problems.append(
                    Problem(OVERLAP, uid, f"SCU {uid} overlaps SCU {reach[3]} in model {author}")
                )
            if reach is None or span[1] > reach[1]:
                reach = span
    return problems


@dataclass(frozen=True)
class ReviewItem:
    """Something imported as DUCView had it that a person should look at: what, and where."""

    kind: str
    message: str
    url: str  # the pyramid or the peer annotation to open ("" if there is none)


EMPTY_PEER = "empty peer summary"


def collection_problems(collection) -> list[ReviewItem]:
    """Empty peer summaries (scored 0, as NIST scored them) and parts that hold no word (their
    offsets in the DUCView file placed none), in three queries."""
    items: list[ReviewItem] = []
    empty_peers = (
        Summary.objects.filter(docset__collection=collection, kind=Summary.Kind.PEER, text="")
        .prefetch_related("peer_annotations")
        .select_related("docset")
        .order_by("docset__name", "author")
    )
    for peer in empty_peers:
        annotations = list(peer.peer_annotations.all())
        items.append(
            ReviewItem(
                EMPTY_PEER,
                f"{peer.docset.name}: peer {peer.author} is empty (the system produced nothing); "
                "it scores 0",
                reverse("annotation-detail", args=[annotations[0].pk]) if annotations else "",
            )
        )
    spans = (
        Span.objects.filter(summary__docset__collection=collection, start=F("end"))
        .select_related("contributor__scu__pyramid__docset", "summary")
        .order_by("contributor__scu__pyramid_id", "id")
    )
    for span in spans:
        scu = span.contributor.scu
        items.append(
            ReviewItem(
                EMPTY_PART,
                f"{scu.pyramid.docset.name}: pyramid {scu.pyramid.name}, SCU {scu.uid}: "
                f"a part in model {span.summary.author} holds no word "
                "(its offsets in the DUCView file placed none); the contributor still counts",
                reverse("pyramid-detail", args=[scu.pyramid_id]),
            )
        )
    pse_spans = (
        PSESpan.objects.filter(pse__annotation__peer__docset__collection=collection, start=F("end"))
        .select_related("pse__annotation__peer__docset", "pse__scu")
        .order_by("pse__annotation_id", "id")
    )
    for pse_span in pse_spans:
        annotation = pse_span.pse.annotation
        pse_scu = f"SCU {pse_span.pse.scu.uid}" if pse_span.pse.scu else "no SCU"
        annotator_code = annotation.annotator_code or "app"
        items.append(
            ReviewItem(
                EMPTY_PART,
                f"{annotation.peer.docset.name}: peer {annotation.peer.author} ({annotator_code}): "
                f"a PSE of {pse_scu} has a part that holds no word; the PSE still counts",
                reverse("annotation-detail", args=[annotation.pk]),
            )
        )
    return items
