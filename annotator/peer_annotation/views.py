"""The peer annotation page: match a peer summary's text to the pyramid's SCUs, with live scores."""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.db.models.functions import Lower, Substr
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from annotator.campaigns.access import (
    can_edit_annotation,
    can_read_collection,
    can_reopen,
    visible_annotations,
)
from annotator.editing import history
from annotator.editing.actions import PEER_ACTIONS, apply_action
from annotator.editing.refusals import refused_answer
from annotator.models import PSE, SCU, Assignment, PeerAnnotation, PSESpan, Pyramid, Span
from annotator.peer_annotation.suggestions import suggest
from annotator.pyramids.editing import EditError
from annotator.text.ordering import natural_key
from annotator.text.textmarks import marked_html, runs, uncovered_runs, uncovered_words
from annotator.web.bad_input import refuses_nul_itself
from scoring.records import score_loaded, scu_weight

MISSED_SHOWN = 5
UNCOVERED_SHOWN = 3  # runs of words in no PSE that "Mark complete" names
# Actions after which the page changes its mode (read-only, review notice): answered whole.
WHOLE_PAGE_ACTIONS = {"complete", "reopen", "mark_reviewed"}


def annotation_context(annotation: PeerAnnotation, user, with_models: bool = True) -> dict:
    """The three panes (peer text, the pyramid's SCUs by tier, the models) and the score panel.

    `with_models=False` leaves out the models pane (an edit of the annotation never changes it).
    """
    text = annotation.peer.text
    convention = annotation.pyramid.docset.collection.weight_convention
    scus = list(
        SCU.objects.filter(pyramid_id=annotation.pyramid_id)
        .annotate(weight=scu_weight(convention))
        .order_by("-weight", Lower("label"), "uid")
    )
    uid_of = {scu.id: scu.uid for scu in scus}
    parts = defaultdict(list)
    for span_id, pse_id, start, end in (
        PSESpan.objects.filter(pse__annotation=annotation)
        .order_by("start")
        .values_list("id", "pse_id", "start", "end")
    ):
        parts[pse_id].append({"id": span_id, "start": start, "end": end, "text": text[start:end]})
    pses_of = defaultdict(list)  # SCU id (None: matches nothing) -> PSEs
    marks = []
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
        and can_edit_annotation(user, annotation)
    )
    states = history.stack_states(annotation.changes.all()) if editable else set()
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
    """The peer's words in no PSE (DUC 2005: every word in a PSE or in "matches nothing"), for the
    warning "Mark complete" gives: how many, and the first runs of them (start, end, text)."""
    left_out = uncovered_words(text, marks)
    shown = [
        (start, end, text[start:end])
        for start, end in uncovered_runs(text, left_out)[: UNCOVERED_SHOWN + 1]
    ]
    return {
        "uncovered_count": len(left_out),
        "uncovered_runs": shown[:UNCOVERED_SHOWN],
        "uncovered_more": len(shown) > UNCOVERED_SHOWN,
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


def _annotation(request, pk) -> PeerAnnotation:
    return get_object_or_404(
        visible_annotations(request.user).select_related(
            "pyramid__docset__collection", "peer", "annotator"
        ),
        pk=pk,
    )


@login_required
def annotation_detail(request, pk):
    annotation = _annotation(request, pk)
    return render(
        request,
        "annotator/annotation_detail.html",
        annotation_context(annotation, request.user)
        | {"reader": can_read_collection(request.user, annotation.pyramid.docset.collection_id)},
    )


@refuses_nul_itself  # through annotator.editing.actions: a NUL is a broken rule, in the status line
@require_POST
@login_required
def annotation_edit(request, pk, action):
    """Apply one action; answer with the workspace as it now is (scores included)."""
    if action not in PEER_ACTIONS:
        raise Http404("no such action")
    annotation = _annotation(request, pk)
    try:
        result = apply_action(PEER_ACTIONS, action, annotation.pk, request.user, request.POST)
    except EditError as refused:
        return refused_answer(
            request,
            refused,
            "annotator/_annotation_workspace.html",
            "annotator/annotation/status.html",
            lambda: annotation_context(_annotation(request, pk), request.user),
        )
    message = {"message": result.description, "level": "saved"}
    if action in WHOLE_PAGE_ACTIONS:
        annotation = _annotation(request, pk)
        return render(
            request,
            "annotator/_annotation_workspace.html",
            annotation_context(annotation, request.user) | message,
        )
    # The edit changed the annotation's own fields only: its pyramid, docset and collection, loaded
    # with it above, still hold (a peer edit never changes them).
    edited = result.annotation
    edited.pyramid, edited.peer, edited.annotator = (
        annotation.pyramid,
        annotation.peer,
        annotation.annotator,
    )
    context = annotation_context(edited, request.user, with_models=False) | message
    changed = result.changed_uids
    changed_scus = [scu for tier in context["tiers"] for scu in tier["scus"] if scu.uid in changed]
    context |= {"changed_scus": changed_scus, "zero_changed": 0 in changed}
    return reswap(render(request, "annotator/annotation/changes.html", context), "none")


@require_GET
@login_required
def annotation_suggestions(request, pk):
    """SCUs the peer sentence around a selection may express, best first."""
    annotation = _annotation(request, pk)
    try:
        start, end = int(request.GET["start"]), int(request.GET["end"])
    except (KeyError, ValueError):
        raise Http404("give start and end") from None
    return render(
        request,
        "annotator/annotation/suggestions.html",
        {"suggestions": suggest(annotation, start, end)},
    )


@login_required
def annotation_history(request, pk):
    annotation = _annotation(request, pk)
    docset = annotation.pyramid.docset
    return render(
        request,
        "annotator/history.html",
        {
            "subject": f"peer {annotation.peer.author} against {annotation.pyramid.name}",
            "back_url": reverse("annotation-detail", args=[annotation.pk]),
            "collection": docset.collection,
            "docset": docset,
            "source_name": annotation.source_name,
            "reader": can_read_collection(request.user, docset.collection_id),
            "changes": annotation.changes.select_related("user").order_by("-id"),
        },
    )


@require_POST
@login_required
def assignment_start(request, pk):
    """Open the peer annotation an assignment asks for, creating it the first time."""
    assignment = get_object_or_404(
        Assignment.objects.select_related("pyramid", "peer"),
        pk=pk,
        user=request.user,
        task=Assignment.Task.ANNOTATE_PEER,
        status__in=Assignment.ACTIVE,
    )
    if assignment.pyramid.status != Pyramid.Status.SUBMITTED:
        messages.error(
            request,
            f"Pyramid {assignment.pyramid.name} is still being edited: annotate once it is submitted.",
        )
        return redirect("home")
    annotation, _ = PeerAnnotation.objects.get_or_create(
        pyramid=assignment.pyramid, peer=assignment.peer, annotator=request.user
    )
    if assignment.status == Assignment.Status.ASSIGNED:
        assignment.status = Assignment.Status.IN_PROGRESS
        assignment.save(update_fields=["status"])
    return redirect("annotation-detail", pk=annotation.pk)


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
        key=lambda assignment: natural_key(assignment.peer.author),
    )
    this = natural_key(annotation.peer.author)
    return next(
        (assignment for assignment in left if natural_key(assignment.peer.author) > this),
        left[0] if left else None,
    )
