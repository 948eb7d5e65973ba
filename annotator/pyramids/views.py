"""The pyramid page: read it, or build it (htmx posts one editing action at a time)."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, trigger_client_event

from annotator.campaigns.access import (
    can_adjudicate,
    can_edit_pyramid,
    can_read_collection,
    can_reopen,
    visible_pyramids,
)
from annotator.editing import history
from annotator.editing.actions import PYRAMID_ACTIONS, apply_action
from annotator.editing.refusals import refused_answer
from annotator.models import Pyramid, PyramidChange, PyramidMerge, Span
from annotator.pyramids import editing
from annotator.pyramids.problems import pyramid_problems
from annotator.text.textmarks import coverage, marked_html, runs
from annotator.web.bad_input import refuses_nul_itself


def workspace_context(
    pyramid: Pyramid,
    user,
    shade_only: set[int] | None = None,
    scu_uids: set[int] | None = None,
    with_problems: bool = True,
) -> dict:
    """Everything the workspace partial shows: shaded models, SCUs with contributors, problems.

    Loaded as plain values (the page's hot path): the models' texts once, then SCUs,
    contributors and spans as rows that point into them. `shade_only` limits the shaded texts
    built to those summaries, and `scu_uids` the SCUs loaded (an edit's answer sends no others).
    """
    links = list(pyramid.model_links.select_related("summary"))
    texts = {link.summary_id: link.summary.text for link in links}
    authors = {link.summary_id: link.summary.author for link in links}
    scu_rows = pyramid.scus.all() if scu_uids is None else pyramid.scus.filter(uid__in=scu_uids)
    scus = list(scu_rows.annotate(weight=Count("contributors")).order_by("position", "id"))
    # One query of spans with their contributors: those in the summaries to shade, and those of
    # the SCUs listed.
    spans = Span.objects.filter(contributor__scu__pyramid=pyramid)
    if scu_uids is not None:  # with the whole list, every span is needed anyway
        wanted = Q(contributor__scu__uid__in=scu_uids)
        if shade_only:
            wanted |= Q(summary_id__in=shade_only)
        spans = spans.filter(wanted)
    listed = {scu.id for scu in scus}
    marks, contributors, by_contributor, labels = defaultdict(list), defaultdict(list), {}, {}
    for (
        span_id,
        summary_id,
        start,
        end,
        contributor_id,
        scu_id,
        scu_uid,
        scu_label,
        contributor_summary,
        comment,
    ) in spans.order_by("contributor__position", "contributor_id", "start").values_list(
        "id",
        "summary_id",
        "start",
        "end",
        "contributor_id",
        "contributor__scu_id",
        "contributor__scu__uid",
        "contributor__scu__label",
        "contributor__summary_id",
        "contributor__comment",
    ):
        marks[summary_id].append((start, end, scu_uid))
        labels[scu_uid] = scu_label
        if scu_id not in listed:
            continue
        if contributor_id not in by_contributor:
            by_contributor[contributor_id] = {
                "id": contributor_id,
                "model": authors.get(contributor_summary, "?"),
                "comment": comment,
                "parts": [],
            }
            contributors[scu_id].append(by_contributor[contributor_id])
        by_contributor[contributor_id]["parts"].append(
            {"id": span_id, "text": texts.get(summary_id, "")[start:end]}
        )
    for scu in scus:
        scu.contributor_list = contributors[scu.id]
    models = [
        {
            "summary": link.summary,
            "html": marked_html(runs(link.summary.text, marks[link.summary_id]), labels=labels),
            "coverage": coverage(link.summary.text, marks[link.summary_id]),
        }
        for link in links
        if shade_only is None or link.summary_id in shade_only
    ]
    editable = pyramid.status == Pyramid.Status.IN_PROGRESS and can_edit_pyramid(user, pyramid)
    states = history.stack_states(pyramid.changes.all()) if editable else set()
    return {
        "pyramid": pyramid,
        "models": models,
        "scus": scus,
        "problems": pyramid_problems(pyramid) if with_problems else None,
        "scu_count": len(scus) if scu_uids is None else pyramid.scus.count(),
        "editable": editable,
        "can_reopen": pyramid.status == Pyramid.Status.SUBMITTED and can_reopen(user, pyramid),
        "can_undo": PyramidChange.State.APPLIED in states,
        "can_redo": PyramidChange.State.UNDONE in states,
        "last_change": pyramid.changes.order_by("-id").select_related("user").first(),
    }


@login_required
def pyramid_detail(request, pk):
    pyramid = get_object_or_404(
        visible_pyramids(request.user).select_related("docset__collection"), pk=pk
    )
    return render(
        request,
        "annotator/pyramid_detail.html",
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
    pyramid = get_object_or_404(visible_pyramids(request.user), pk=pk)
    try:
        result = apply_action(PYRAMID_ACTIONS, action, pyramid.pk, request.user, request.POST)
    except editing.EditError as refused:
        return refused_answer(
            request,
            refused,
            "annotator/_workspace.html",
            "annotator/workspace/status.html",
            lambda: workspace_context(
                Pyramid.objects.select_related("docset__collection").get(pk=pyramid.pk),
                request.user,
            ),
        )
    message = {"message": result.description, "level": "saved"}
    if action in ("submit", "reopen"):  # the whole page changes its mode
        return render(
            request,
            "annotator/_workspace.html",
            workspace_context(result.pyramid, request.user) | message,
        )
    context = (
        workspace_context(
            result.pyramid,
            request.user,
            shade_only=result.summary_ids,
            scu_uids=set(result.touched_uids),
            with_problems=bool(result.summary_ids),  # problems come from contributors only
        )
        | message
    )
    response = reswap(
        render(request, "annotator/workspace/changes.html", changes_context(context, result)),
        "none",
    )
    if (
        result.added_uids
    ):  # a new SCU (new, split): select it, so that the next contributor goes there
        trigger_client_event(response, "pyramid:select", {"uid": result.added_uids[-1]})
    elif action == "merge_scus":
        trigger_client_event(response, "pyramid:select", {"uid": int(request.POST["target"])})
    return response


@login_required
def pyramid_history(request, pk):
    pyramid = get_object_or_404(
        visible_pyramids(request.user).select_related("docset__collection"), pk=pk
    )
    return render(
        request,
        "annotator/history.html",
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
