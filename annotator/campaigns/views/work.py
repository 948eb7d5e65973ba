"""Giving out work and following it: assign (one or in bulk), withdraw, reassign, progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from annotator.campaigns import assignments
from annotator.campaigns.access import can_administer, visible_assignments
from annotator.campaigns.forms import AssignForm, ReassignForm
from annotator.campaigns.guards import ADMINISTER, collection_for
from annotator.campaigns.progress import SORTS, totals, work_rows
from annotator.models import Assignment
from annotator.pyramids.editing import EditError


@login_required
def assign(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = AssignForm(
        request.POST or None,
        collection=collection,
        initial={"docsets": request.GET.getlist("docset")},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            report = assignments.assign(
                data["task"],
                data["docsets"],
                data["annotators"],
                request.user,
                data["mode"],
                data["pyramid"],
            )
        except EditError as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, f"{report.summary}.")
            for reason in report.skipped:
                messages.warning(request, reason)
            return redirect("collection-progress", pk=collection.pk)
    return render(request, "manage/assign.html", {"collection": collection, "form": form})


def _assignment(request, pk) -> Assignment:
    # An assignment the user may not see is 404, as in the API (visible_assignments: another
    # annotator's, to an annotator); one they see but may not change is 403 (their own, to an
    # annotator).
    assignment = get_object_or_404(
        visible_assignments(request.user).select_related("pyramid__docset", "peer", "user"), pk=pk
    )
    collection_for(request, assignment.pyramid.docset.collection_id, ADMINISTER)
    return assignment


@require_POST
@login_required
def assignment_withdraw(request, pk):
    assignment = _assignment(request, pk)
    try:
        assignments.withdraw(assignment, request.user)
    except EditError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            f"Withdrew {assignment.user.username}'s assignment; the work done so far is kept.",
        )
    return redirect("collection-progress", pk=assignment.pyramid.docset.collection_id)


@require_POST
@login_required
def assignment_reassign(request, pk):
    assignment = _assignment(request, pk)
    form = ReassignForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            "Choose who the work goes to: "
            + "; ".join(e for errors in form.errors.values() for e in errors),
        )
    else:
        try:
            moved = assignments.reassign(assignment, form.cleaned_data["to"], request.user)
        except EditError as refused:
            messages.error(request, refused.message)
        else:
            messages.success(
                request,
                f"Reassigned to {moved.user.username}, who goes on from where the work stands.",
            )
    return redirect("collection-progress", pk=assignment.pyramid.docset.collection_id)


FILTERS = ["docset", "annotator", "task", "status"]


@login_required
def collection_progress(request, pk):
    collection = collection_for(request, pk)
    work = Assignment.objects.filter(pyramid__docset__collection=collection)
    chosen = {name: request.GET.get(name, "") for name in FILTERS}
    if chosen["docset"]:
        work = work.filter(pyramid__docset__name=chosen["docset"])
    if chosen["annotator"]:
        work = work.filter(user__username=chosen["annotator"])
    if chosen["task"]:
        work = work.filter(task=chosen["task"])
    if chosen["status"]:
        work = work.filter(status=chosen["status"])
    sort = request.GET.get("sort", "docset")
    rows = work_rows(work, sort)
    context = {
        "collection": collection,
        "rows": rows,
        "totals": totals(rows),
        "chosen": chosen,
        "sort": sort,
        "sorts": list(SORTS),
        "can_administer": can_administer(request.user, collection),
        "docset_names": collection.docsets.order_by("name").values_list("name", flat=True),
        "annotator_names": Assignment.objects.filter(pyramid__docset__collection=collection)
        .order_by("user__username")
        .values_list("user__username", flat=True)
        .distinct(),
        "tasks": Assignment.Task.choices,
        "statuses": Assignment.Status.choices,
        "reassign_form": ReassignForm(),
    }
    template = "manage/progress_table.html" if request.htmx else "manage/progress.html"
    return render(request, template, context)
