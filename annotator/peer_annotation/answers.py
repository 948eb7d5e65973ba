"""What the peer annotation's edit views answer (annotator.peer_annotation.views, and the
proposals' annotator.assist.views): the annotation a request may see, a refused edit's answer, and
what an edit changed. Not a page module: pages import it."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render

from annotator.assist import proposals
from annotator.campaigns.access import visible_annotations
from annotator.editing.errors import EditError
from annotator.editing.refusals import refused_answer
from annotator.peer_annotation.editing import PeerEditResult
from annotator.peer_annotation.models import PeerAnnotation
from annotator.peer_annotation.workspace import annotation_context


def visible_annotation(request, pk) -> PeerAnnotation:
    return get_object_or_404(
        visible_annotations(request.user).select_related(
            "pyramid__docset__collection", "peer", "annotator"
        ),
        pk=pk,
    )


def refused_edit(request, pk, refused: EditError):
    """The answer to a refused edit of annotation `pk` (annotator.editing.refusals), with the
    workspace as it now is: the edit views here and the proposals' (annotator.assist.views)."""
    return refused_answer(
        request,
        refused,
        "peer_annotation/_annotation_workspace.html",
        "peer_annotation/annotation/status.html",
        lambda: annotation_context(visible_annotation(request, pk), request.user),
    )


def edit_changes(request, result: PeerEditResult, note: str = "") -> HttpResponse:
    """What an edit (`result`, annotator.editing) changed, rendered: the status line (the edit's
    description, then `note`), the SCUs whose matches changed and the list of proposals to
    confirm, where the page shows one (the caller swaps it in out of band). The edited annotation
    comes with its pyramid, docset, collection, peer and annotator (the editor reads them with it:
    annotator.peer_annotation.editing.EDITOR)."""
    edited = result.annotation
    # The edit passed the check of who may edit it: not asked again.
    context = annotation_context(
        edited, request.user, with_models=False, may_edit=True, recorded=result.change
    )
    message = f"{result.description}. {note}" if note else result.description
    context |= {"message": message, "level": "saved"}
    # Undo, redo and removing a PSE open accepted proposals again, or accept them again
    # (annotator.peer_annotation.editing._proposals_follow): the list as it now is, for the page
    # that shows it (its annotator's, peer_annotation/annotation/proposals.html) once there are
    # some.
    if context["editable"] and edited.annotator_id == request.user.pk and edited.proposals.exists():
        context |= {"proposal_list": True} | proposals.list_context(edited, request.user)
    changed = result.changed_uids
    changed_scus = [scu for tier in context["tiers"] for scu in tier["scus"] if scu.uid in changed]
    context |= {"changed_scus": changed_scus, "zero_changed": 0 in changed}
    return render(request, "peer_annotation/annotation/changes.html", context)
