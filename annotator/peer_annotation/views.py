"""The peer annotation page: match a peer summary's text to the pyramid's SCUs, with live scores."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from annotator.campaigns.access import can_read_collection
from annotator.campaigns.models import Assignment
from annotator.editing.actions import PEER_ACTIONS, apply_action
from annotator.editing.errors import EditError
from annotator.peer_annotation.answers import edit_changes, refused_edit, visible_annotation
from annotator.peer_annotation.starting import start_annotation
from annotator.peer_annotation.suggestions import selects_words, suggest
from annotator.peer_annotation.workspace import annotation_context
from annotator.web.bad_input import refuses_nul_itself
from annotator.worktime.held import record_held_activity

# Actions after which the page changes its mode (read-only, review notice): answered whole.
WHOLE_PAGE_ACTIONS = {"complete", "reopen", "mark_reviewed"}


@login_required
def annotation_detail(request, pk):
    annotation = visible_annotation(request, pk)
    return render(
        request,
        "peer_annotation/annotation_detail.html",
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
    # No separate read of the annotation for who may see it: the edit reads it (locked) and checks
    # who may edit it, and those who may edit an annotation may see it (issue 32: queries per
    # action). A refusal asks, so that an annotation the user may not see stays a 404.
    record_held_activity(request, "annotation", pk)
    try:
        result = apply_action(PEER_ACTIONS, action, pk, request.user, request.POST)
    except EditError as refused:
        visible_annotation(request, pk)
        return refused_edit(request, pk, refused)
    if action in WHOLE_PAGE_ACTIONS:
        annotation = visible_annotation(request, pk)
        return render(
            request,
            "peer_annotation/_annotation_workspace.html",
            annotation_context(annotation, request.user)
            | {"message": result.description, "level": "saved"},
        )
    return reswap(edit_changes(request, result), "none")


@require_GET
@login_required
def annotation_suggestions(request, pk):
    """SCUs the selected words may express (the sentence around the caret when nothing is
    selected), best first."""
    annotation = visible_annotation(request, pk)
    try:
        start, end = int(request.GET["start"]), int(request.GET["end"])
    except (KeyError, ValueError):
        raise Http404("give start and end") from None
    return render(
        request,
        "peer_annotation/annotation/suggestions.html",
        {
            "suggestions": suggest(annotation, start, end),
            "for_words": selects_words(annotation, start, end),
        },
    )


@login_required
def annotation_history(request, pk):
    annotation = visible_annotation(request, pk)
    docset = annotation.pyramid.docset
    return render(
        request,
        "editing/history.html",
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
    try:  # as POST /api/peer-annotations/: annotator.peer_annotation.starting
        annotation, _ = start_annotation(request.user, assignment.pyramid, assignment.peer)
    except EditError as refused:
        messages.error(request, refused.message)
        return redirect("home")
    return redirect("annotation-detail", pk=annotation.pk)
