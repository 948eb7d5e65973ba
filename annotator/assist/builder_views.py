"""The pyramid builder's help (annotator.assist.builder_help): for the selected SCU, the phrases of
each model with no contributor in it, best first. Adding one is an ordinary edit of the pyramid
(the builder's add_contributor, annotator.pyramids.editing): this view only reads."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from annotator.assist.builder_help import pyramid_help
from annotator.campaigns.access import can_edit_pyramid, visible_pyramids
from annotator.pyramids.models import Pyramid
from annotator.pyramids.parts import PyramidRows

KEYS = 9  # phrases numbered 1 to 9: their digit adds them


@require_GET
@login_required
def builder_help(request, pk):
    """The help for SCU `?scu=<uid>`: only for who may edit the pyramid now (it is for adding)."""
    pyramid = get_object_or_404(
        visible_pyramids(request.user).select_related("docset__collection"), pk=pk
    )
    if pyramid.status != Pyramid.Status.IN_PROGRESS or not can_edit_pyramid(request.user, pyramid):
        raise PermissionDenied("Only who may edit this pyramid gets help building it.")
    try:
        uid = int(request.GET["scu"])
        context = help_context(pyramid, uid)
    except (KeyError, ValueError):
        raise Http404("no such SCU in this pyramid") from None
    return render(request, "pyramids/workspace/builder_help_list.html", context)


def help_context(pyramid: Pyramid, uid: int, rows: PyramidRows | None = None) -> dict:
    """What the help list shows for SCU `uid` (ValueError if the pyramid has no such SCU): each
    model with no contributor in it, its phrases best first, the first nine with their digit.
    Also answered with each edit of the builder (annotator.pyramids.views.pyramid_edit), so that
    the page needs no second request after an action, with the pyramid's `rows` its workspace
    read: annotator.pyramids.parts)."""
    numbered, key = [], 0
    for model in pyramid_help(pyramid, uid, rows=rows):
        phrases = []
        for phrase in model.phrases:
            key += 1
            phrases.append({"phrase": phrase, "key": key if key <= KEYS else None})
        numbered.append({"model": model, "phrases": phrases})
    return {"pyramid": pyramid, "uid": uid, "models": numbered}
