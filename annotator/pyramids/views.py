"""The pyramid page: read it, or build it (htmx posts one editing action at a time)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, trigger_client_event

from annotator.adjudication.models import PyramidMerge
from annotator.assist.builder_views import help_context
from annotator.campaigns.access import (
    can_adjudicate,
    can_read_collection,
    visible_pyramids,
)
from annotator.editing.actions import PYRAMID_ACTIONS, apply_action
from annotator.editing.errors import EditError
from annotator.editing.refusals import refused_answer
from annotator.pyramids import editing
from annotator.pyramids.models import Pyramid
from annotator.pyramids.parts import PyramidRows
from annotator.pyramids.workspace import retitled_models, workspace_context
from annotator.web.bad_input import refuses_nul_itself
from annotator.worktime.held import record_held_activity


@login_required
def pyramid_detail(request, pk):
    pyramid = get_object_or_404(
        visible_pyramids(request.user).select_related("docset__collection"), pk=pk
    )
    return render(
        request,
        "pyramids/pyramid_detail.html",
        workspace_context(pyramid, request.user)
        | {
            "reader": can_read_collection(request.user, pyramid.docset.collection_id),
            # A consensus pyramid's builder leads back to its merge page (issue 8).
            "merge_page": PyramidMerge.objects.filter(consensus=pyramid).exists()
            and can_adjudicate(request.user, pyramid.docset.collection_id),
        },
    )


def changes_context(context: dict, result: editing.EditResult) -> dict:
    """Which pieces of the workspace an edit changed (the rest stays as the page has it)."""
    by_uid = {scu.uid: scu for scu in context["scus"]}
    added = set(result.added_uids)
    return context | {
        "changed_models": context["models"],  # only those were shaded
        # A new order (a move, Order, a split, an undo) is sent as the SCUs' uids, not as the list:
        # the page moves the rows it has (a 128-SCU list is ~100 KB of HTML, its order ~500 bytes).
        "order": None
        if result.appended_only
        else " ".join(str(uid) for uid in result.change.after["order"]),
        "problems_changed": context["problems"] is not None,
        "changed_scus": [
            by_uid[uid] for uid in result.touched_uids if uid in by_uid and uid not in added
        ],
        "appended_scus": [scu for scu in context["scus"] if scu.uid in added],
        "removed_uids": result.removed_uids,
    }


@refuses_nul_itself  # through annotator.editing.actions: a NUL is a broken rule, in the status line
@require_POST
@login_required
def pyramid_edit(request, pk, action):
    """Apply one editing action. A success is answered with the pieces it changed (htmx swaps
    them out of band); a refusal or a stale view with the whole workspace as it now is."""
    if action not in PYRAMID_ACTIONS:
        raise Http404("no such action")
    # No separate read of the pyramid for who may see it: the edit reads it (locked) and checks who
    # may edit it, and those who may edit a pyramid may see it (issue 32: queries per action). A
    # refusal asks, so that a pyramid the user may not see stays a 404.
    record_held_activity(request, "pyramid", pk)
    try:
        result = apply_action(PYRAMID_ACTIONS, action, pk, request.user, request.POST)
    except EditError as refused:
        pyramid = get_object_or_404(
            visible_pyramids(request.user).select_related("docset__collection"), pk=pk
        )
        return refused_answer(
            request,
            refused,
            "pyramids/_workspace.html",
            "pyramids/workspace/status.html",
            lambda: workspace_context(pyramid, request.user),
        )
    message = {"message": result.description, "level": "saved"}
    if action in ("submit", "reopen"):  # the whole page changes its mode
        return render(
            request,
            "pyramids/_workspace.html",
            workspace_context(result.pyramid, request.user) | message,
        )
    # The pyramid's parts and labels, read once for the shading, the SCUs, the problems and the
    # help.
    rows = PyramidRows(result.pyramid.pk)
    context = (
        workspace_context(
            result.pyramid,
            request.user,
            shade_only=result.summary_ids,
            # the SCUs still there of those it touched (none to read where it removed them all)
            scu_uids=set(result.touched_uids) - set(result.removed_uids),
            with_problems=bool(result.summary_ids),  # problems come from contributors only
            may_edit=True,  # the edit passed the check of who may edit it
            recorded=result.change,
            rows=rows,
        )
        | message
    )
    # a new SCU (new, split): select it, so that the next contributor goes there
    selected = (
        result.added_uids[-1]
        if result.added_uids
        else int(request.POST["target"])
        if action == "merge_scus"
        else None
    )
    changes = changes_context(context, result) | builder_help_after(
        result.pyramid, selected, request.POST.get("help_for"), rows
    )
    response = reswap(render(request, "pyramids/workspace/changes.html", changes), "none")
    if selected is not None:
        trigger_client_event(response, "pyramid:select", {"uid": selected})
    titles = retitled_models(result.pyramid, rows, result.relabelled, result.summary_ids)
    if titles:  # the models' tooltips that name a relabelled SCU
        trigger_client_event(response, "pyramid:titles", {"models": titles})
    return response


def builder_help_after(
    pyramid: Pyramid, selected: int | None, help_for: str | None, rows: PyramidRows
) -> dict:
    """The builder's help for the SCU selected once the edit is in (the one the edit selects, else
    the one the page had selected: `help_for`), sent with the edit's answer: one request per
    action (issue 32: the page asked for it in a second request, after the first). Nothing when
    the page asks for none; where the SCU is gone, the panel's "select an SCU"."""
    uid = selected
    if uid is None and help_for and help_for.isdigit():
        uid = int(help_for)
    if uid is None:
        return {}
    try:
        return {"builder_help": help_context(pyramid, uid, rows)}
    except (KeyError, ValueError):  # the SCU is gone (removed, undone): the panel says to select
        return {"builder_help": {"pyramid": pyramid, "uid": None, "models": []}}


@login_required
def pyramid_history(request, pk):
    pyramid = get_object_or_404(
        visible_pyramids(request.user).select_related("docset__collection"), pk=pk
    )
    return render(
        request,
        "editing/history.html",
        {
            "subject": f"pyramid {pyramid.name}",
            "back_url": reverse("pyramid-detail", args=[pyramid.pk]),
            "collection": pyramid.docset.collection,
            "docset": pyramid.docset,
            "source_name": pyramid.source_name,
            "reader": can_read_collection(request.user, pyramid.docset.collection_id),
            "changes": pyramid.changes.select_related("user").order_by("-id"),
        },
    )
