"""What the peer annotation page presents: the peer text marked by PSE, the pyramid's SCUs by
tier (each with its weight under the collection's convention, SCUQuerySet.with_weight), the
models, and the score panel, computed by the same function as every score table
(scoring.scores.records.score_loaded).

Next to the services it presents (annotator.peer_annotation.editing changes the annotation,
annotator.peer_annotation.suggestions ranks SCUs for a sentence); the views only render it.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import TypedDict

from django.db.models import F
from django.db.models.functions import Lower, Substr

from annotator.campaigns.access import can_edit_annotation, can_reopen
from annotator.campaigns.models import Assignment
from annotator.editing import history
from annotator.peer_annotation.models import PSE, PeerAnnotation, PSESpan
from annotator.pyramids.models import SCU, Pyramid, Span
from annotator.text.ordering import natural_key
from annotator.text.textmarks import marked_html, runs, uncovered_runs, uncovered_words
from annotator.text.words import carries_content
from scoring.scores.records import score_loaded

MISSED_SHOWN = 5
UNCOVERED_SHOWN = 3  # runs of words in no PSE that "Mark complete" names


class PartEntry(TypedDict):
    """A PSE's part as the page shows it: [start, end) in the peer's text, and its words."""

    id: int
    start: int
    end: int
    text: str


class PSEEntry(TypedDict):
    """A PSE as the page shows it (under its SCU, or under "matches nothing")."""

    id: int
    parts: list[PartEntry]


def annotation_context(
    annotation: PeerAnnotation,
    user,
    with_models: bool = True,
    may_edit: bool | None = None,
    recorded=None,
) -> dict:
    """The three panes (peer text, the pyramid's SCUs by tier, the models) and the score panel.

    `with_models=False` leaves out the models pane (an edit of the annotation never changes it).
    `may_edit`: whether the user may edit it, where the caller knows (an edit of theirs just went
    through: the check it passed is not asked again, issue 32's query per action); `recorded`:
    the change that edit recorded (what Undo and Redo can do after it, without asking again).
    """
    text = annotation.peer.text
    convention = annotation.pyramid.docset.collection.weight_convention
    scus = list(
        SCU.objects.filter(pyramid_id=annotation.pyramid_id)
        .with_weight(convention)
        .order_by("-weight", Lower("label"), "uid")
    )
    uid_of = {scu.id: scu.uid for scu in scus}
    parts: defaultdict[int, list[PartEntry]] = defaultdict(list)  # by PSE id
    for span_id, pse_id, start, end in (
        PSESpan.objects.filter(pse__annotation=annotation)
        .order_by("start")
        .values_list("id", "pse_id", "start", "end")
    ):
        parts[pse_id].append({"id": span_id, "start": start, "end": end, "text": text[start:end]})
    # SCU id (None: matches nothing) -> PSEs
    pses_of: defaultdict[int | None, list[PSEEntry]] = defaultdict(list)
    marks: list[tuple[int, int, int]] = []  # (start, end, SCU uid; 0: matches nothing)
    for pse_id, scu_id in (
        PSE.objects.filter(annotation=annotation)
        .order_by("position", "id")
        .values_list("id", "scu_id")
    ):
        pses_of[scu_id].append({"id": pse_id, "parts": parts[pse_id]})
        marks.extend((p["start"], p["end"], uid_of.get(scu_id, 0)) for p in parts[pse_id])
    for scu in scus:
        scu.peer_pses = pses_of[scu.id]
    tiers = [
        {"weight": weight, "scus": list(group)}
        for weight, group in groupby(scus, key=lambda s: s.weight)
    ]

    if with_models:
        model_links = list(annotation.pyramid.model_links.select_related("summary"))
        model_count = len(model_links)
        models = _models(annotation, model_links, scus)
        searchable = contributor_texts(annotation.pyramid_id)
        for scu in scus:
            scu.contributor_text = searchable.get(scu.id, "")
    else:
        model_count = annotation.pyramid.model_links.count()
        models = []
    # The score panel from the rows just loaded: the same function export_scores ends in.
    row = score_loaded(
        annotation,
        [scu_id for scu_id, pses in pses_of.items() for _ in pses],
        {scu.id: scu.weight for scu in scus},
        model_count,
    )
    editable = (
        annotation.status == PeerAnnotation.Status.IN_PROGRESS
        and annotation.pyramid.status == Pyramid.Status.SUBMITTED
        and (can_edit_annotation(user, annotation) if may_edit is None else may_edit)
    )
    known = history.stack_after(recorded) if recorded is not None else None
    if not editable:
        states: set[str] = set()
    else:
        states = known if known is not None else history.stack_states(annotation.changes.all())
    return {
        "annotation": annotation,
        "peer_html": marked_html(
            runs(text, marks), zero_key=0, labels={scu.uid: scu.label for scu in scus}
        ),
        "tiers": tiers,
        "zero_pses": pses_of[None],
        "models": models,
        "row": row,
        "scores": row.scores,
        "missed": [scu for scu in scus if not scu.peer_pses][:MISSED_SHOWN],
        "editable": editable,
        "can_reopen": annotation.status == PeerAnnotation.Status.SUBMITTED
        and can_reopen(user, annotation),
        "can_undo": history.State.APPLIED in states,
        "can_redo": history.State.UNDONE in states,
        "last_change": annotation.changes.order_by("-id").select_related("user").first()
        if with_models
        else None,
        "pyramid_in_progress": annotation.pyramid.status != Pyramid.Status.SUBMITTED,
        "next_assignment": next_assignment(annotation, user)
        if annotation.status == PeerAnnotation.Status.SUBMITTED
        else None,
        **(_uncovered(text, marks) if editable else {}),
    }


def _uncovered(text: str, marks) -> dict:
    """The peer's content in no PSE (DUC 2005: every word in a PSE or in "matches nothing"), for
    the warning "Mark complete" gives: how many words, and the first runs of them (start, end,
    text). Runs of function words only (a stray "and") are no content: they are counted apart
    (`uncovered_function_words`), and never warned about (issue 32: the advice to match them to
    nothing added zero-weight PSEs, lowering the Original score)."""
    left_out = uncovered_words(text, marks)
    content, function_words, word = [], 0, 0
    for start, end in uncovered_runs(text, left_out):  # runs of the words, in the same order
        first = word
        while word < len(left_out) and left_out[word][1] <= end:
            word += 1
        if carries_content(text[start:end]):
            content.append((start, end, text[start:end], word - first))
        else:
            function_words += word - first
    return {
        "uncovered_count": sum(count for *_, count in content),
        "uncovered_runs": [run[:3] for run in content[:UNCOVERED_SHOWN]],
        "uncovered_more": len(content) > UNCOVERED_SHOWN,
        "uncovered_function_words": function_words,
    }


def contributor_texts(pyramid_id: int) -> dict[int, str]:
    """Each SCU's contributor text in the models, lower-cased, for the SCU filter (one query)."""
    spans = Span.objects.filter(contributor__scu__pyramid_id=pyramid_id)
    # Cut in the database: code point offsets are what SUBSTR counts in PostgreSQL and SQLite.
    spans = spans.annotate(
        words=Lower(Substr("summary__text", F("start") + 1, F("end") - F("start")))
    )
    found = defaultdict(list)
    for scu_id, words in spans.order_by(
        "contributor__scu_id", "contributor__position", "position"
    ).values_list("contributor__scu_id", "words"):
        found[scu_id].append(words)
    return {scu_id: " ".join(parts) for scu_id, parts in found.items()}


def _models(annotation: PeerAnnotation, model_links, scus: list[SCU]) -> list[dict]:
    """The model summaries, shaded by SCU, for reading an SCU's contributors in context."""
    uid_of = {scu.id: scu.uid for scu in scus}
    marks = defaultdict(list)
    for summary_id, start, end, scu_id in Span.objects.filter(
        contributor__scu__pyramid_id=annotation.pyramid_id
    ).values_list("summary_id", "start", "end", "contributor__scu_id"):
        marks[summary_id].append((start, end, uid_of[scu_id]))
    labels = {scu.uid: scu.label for scu in scus}
    return [
        {
            "summary": link.summary,
            "html": marked_html(runs(link.summary.text, marks[link.summary_id]), labels=labels),
        }
        for link in model_links
    ]


def next_assignment(annotation: PeerAnnotation, user):
    """The user's next peer to annotate in the same docset, if any: the next by number after this
    one (peer 2 after peer 1, not peer 10), else the first left."""
    left = sorted(
        Assignment.objects.filter(
            user=user,
            task=Assignment.Task.ANNOTATE_PEER,
            pyramid__docset_id=annotation.pyramid.docset_id,
        )
        .filter(status__in=[Assignment.Status.ASSIGNED, Assignment.Status.IN_PROGRESS])
        .exclude(peer_id=annotation.peer_id)
        .select_related("peer"),
        key=_peer_key,
    )
    this = natural_key(annotation.peer.author)
    return next(
        (assignment for assignment in left if _peer_key(assignment) > this),
        left[0] if left else None,
    )


def _peer_key(assignment: Assignment) -> tuple[tuple[int, int, str], ...]:
    """The natural order key of a peer assignment's peer."""
    # A peer task always names its peer (the constraint assignment_peer_matches_task).
    assert assignment.peer is not None
    return natural_key(assignment.peer.author)
