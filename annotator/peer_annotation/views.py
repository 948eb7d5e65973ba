"""The peer annotation page: match a peer summary's text to the pyramid's SCUs, with live scores."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from annotator.campaigns.access import can_read_collection, visible_annotations
from annotator.editing.actions import PEER_ACTIONS, apply_action
from annotator.editing.refusals import refused_answer
from annotator.models import Assignment, PeerAnnotation
from annotator.peer_annotation.starting import start_annotation
from annotator.peer_annotation.suggestions import suggest
from annotator.peer_annotation.workspace import annotation_context
from annotator.pyramids.editing import EditError
from annotator.web.bad_input import refuses_nul_itself

# Actions after which the page changes its mode (read-only, review notice): answered whole.
WHOLE_PAGE_ACTIONS = {"complete", "reopen", "mark_reviewed"}


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
    """SCUs the selected words may express (the sentence around the caret when nothing is
    selected), best first."""
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
    try:  # as POST /api/peer-annotations/: annotator.peer_annotation.starting
        annotation, _ = start_annotation(request.user, assignment.pyramid, assignment.peer)
    except EditError as refused:
        messages.error(request, refused.message)
        return redirect("home")
    return redirect("annotation-detail", pk=annotation.pk)
