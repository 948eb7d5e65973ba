"""The peer page's proposals to confirm (annotator.assist.proposals): list, propose, accept, reject,
reopen (a rejection undone).

Accepting is an edit of the annotation (annotator.peer_annotation.editing.accept_proposal): it
answers as the page's other edits do (only what changed, out of band; a conflict or a refusal of
the user with the whole workspace as it now is), with the list of proposals as it now is.
"""

from __future__ import annotations

import functools

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

from annotator.assist import proposals
from annotator.assist.models import Proposal
from annotator.editing.actions import parse_arguments, parse_version
from annotator.editing.errors import EditError
from annotator.peer_annotation import editing
from annotator.peer_annotation.answers import edit_changes, refused_edit, visible_annotation
from annotator.web.bad_input import refuses_nul_itself

LIST = "peer_annotation/annotation/proposal_list.html"


def _edits(view):
    """A view that edits annotation `pk` (posted): it gets the annotation, read as its user may;
    a refused edit answers as the page's other edits do, with the workspace as it now is."""

    @refuses_nul_itself
    @require_POST
    @login_required
    @functools.wraps(view)
    def edit(request, pk, **kwargs):
        annotation = visible_annotation(request, pk)
        try:
            return view(request, annotation, **kwargs)
        except EditError as refused:
            return refused_edit(request, pk, refused)

    return edit


def _with_list(request, annotation, message: str):
    """The list of proposals and the status line, both out of band."""
    pieces = render_to_string(
        LIST, proposals.list_context(annotation, request.user) | {"oob": True}, request=request
    ) + render_to_string(
        "peer_annotation/annotation/status.html",
        {"message": message, "level": "saved", "oob": True},
        request=request,
    )
    return reswap(HttpResponse(pieces), "none")


@require_GET
@login_required
def proposal_list(request, pk):
    annotation = visible_annotation(request, pk)
    return render(request, LIST, proposals.list_context(annotation, request.user))


@_edits
def propose(request, annotation):
    made = proposals.propose(annotation.pk, request.user)
    # Asked again (m) with proposals still open: say they are there and how to decide them, not
    # only that nothing new was found (found by a tester: it read as if nothing happened).
    still_open = annotation.proposals.filter(state=Proposal.State.OPEN).count()
    if made:
        message = (
            f"Proposed {len(made)} match{'es' if len(made) != 1 else ''}: Enter accepts, "
            "Backspace rejects"
        )
    elif still_open:
        message = (
            f"No confident match left to propose beyond the {still_open} shown: in their list, "
            "Enter accepts, Backspace rejects, ↑ ↓ move"
        )
    else:
        message = "No confident match left to propose: match the rest by hand"
    return _with_list(request, annotation, message)


@_edits
def accept(request, annotation, proposal):
    (ranges,) = parse_arguments(request.POST, ["ranges?"])
    result = editing.accept_proposal(
        annotation.pk,
        request.user,
        parse_version(request.POST.get("version")),
        proposal,
        ranges,
    )
    # As annotator.peer_annotation.views.annotation_edit answers an edit: what changed, the list of
    # proposals as it now is among it; and, the last one decided, that none is left.
    response = edit_changes(request, result, note=proposals.none_left(annotation))
    return reswap(response, "none")


@_edits
def reject(request, annotation, proposal):
    rejected = proposals.reject(annotation.pk, request.user, proposal)
    message = f"Rejected the proposal of SCU {rejected.scu.uid} (Ctrl+Z reopens it)"
    note = proposals.none_left(annotation)  # the last one decided: none is left
    return _with_list(request, annotation, f"{message}. {note}" if note else message)


@_edits
def reopen(request, annotation, proposal):
    """A rejection undone: the page's Ctrl+Z right after it, or the list's Reopen button."""
    reopened = proposals.reopen(annotation.pk, request.user, proposal)
    return _with_list(
        request,
        annotation,
        f"Reopened the proposal of SCU {reopened.scu.uid}: Enter accepts, Backspace rejects",
    )
