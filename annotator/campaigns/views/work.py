"""Giving out work and following it: assign (one or in bulk), withdraw, reassign, progress."""

from __future__ import annotations

import csv
import itertools

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef
from django.http import QueryDict, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from annotator.campaigns import assignments, work_actions
from annotator.campaigns.access import can_administer, visible_assignments
from annotator.campaigns.forms import AssignForm, ReassignForm
from annotator.campaigns.guards import ADMINISTER, collection_for
from annotator.campaigns.models import Assignment
from annotator.campaigns.progress import (
    CSV_COLUMNS,
    SORTS,
    csv_rows,
    judging_csv_rows,
    page_keys,
    totals,
    work_rows,
)
from annotator.coverage import judging_progress
from annotator.coverage.models import JudgmentTask
from annotator.editing.errors import EditError
from annotator.web.paging import page_asked
from annotator.worktime import queries as worktime


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
    return render(request, "campaigns/assign.html", {"collection": collection, "form": form})


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
    work_actions.act(
        request,
        lambda: assignments.withdraw(assignment, request.user),
        lambda _: (
            f"Withdrew {assignment.user.username}'s assignment; the work done so far is kept."
        ),
    )
    return redirect("collection-progress", pk=assignment.pyramid.docset.collection_id)


@require_POST
@login_required
def assignment_reassign(request, pk):
    assignment = _assignment(request, pk)
    work_actions.reassign_to_chosen(
        request,
        lambda to: assignments.reassign(assignment, to, request.user),
        lambda moved: (
            f"Reassigned to {moved.user.username}, who goes on from where the work stands."
        ),
    )
    return redirect("collection-progress", pk=assignment.pyramid.docset.collection_id)


FILTERS = ["docset", "annotator", "task", "status"]
PAGE_SIZE = 100  # rows of the progress page: what a person reads, whatever the collection holds


class _Echo:
    def write(self, value):
        return value


def _progress_csv(collection, work, sort, judging) -> StreamingHttpResponse:
    """Every row of the progress page (its filters and sort, all pages) as CSV: who did what, how
    far, and the active time on it, which a campaign's budget sums (issue 20); the judgment tasks
    (issue 21) after the assignments, as the page lists them."""
    writer = csv.writer(_Echo())
    body = itertools.chain(
        [writer.writerow(CSV_COLUMNS)],
        (writer.writerow(row) for row in csv_rows(work, sort)),
        (writer.writerow(row) for row in judging_csv_rows(judging)),
    )
    response = StreamingHttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="progress-{collection.pk}.csv"'
    return response


@login_required
def collection_progress(request, pk):
    collection = collection_for(request, pk)
    work = Assignment.objects.filter(pyramid__docset__collection=collection)
    chosen = {name: request.GET.get(name, "") for name in FILTERS}
    if chosen["docset"]:
        work = work.filter(pyramid__docset__name=chosen["docset"])
    if chosen["annotator"]:
        work = work.filter(user__username=chosen["annotator"])
    if chosen["task"] == judging_progress.JUDGE:
        work = work.none()  # judgment tasks only: listed below the assignments
    elif chosen["task"]:
        work = work.filter(task=chosen["task"])
    if chosen["status"]:
        work = work.filter(status=chosen["status"])
    sort = request.GET.get("sort", "docset")
    if sort not in SORTS:
        sort = "docset"
    if request.GET.get("format") == "csv":
        judged = (
            judging_progress.judging_rows(
                judging_progress.collection_tasks(collection, chosen), chosen["status"]
            )
            if chosen["task"] in ("", judging_progress.JUDGE)
            else []
        )
        return _progress_csv(collection, work, sort, judged)
    # The database sorts and counts every row; only the rows of the page shown are loaded, with
    # their figures, and built.
    figures = totals(work)
    paginator = Paginator(page_keys(work, sort), PAGE_SIZE)
    paginator.count = figures["rows"]  # counted with the totals: no query of its own
    page = page_asked(paginator, request.GET.get("page"))
    shown = Assignment.objects.filter(pk__in=list(page.object_list))
    # Judgment tasks (issue 21), looked for only where a docset has some: the docset names the
    # filter lists come with that answer, so a collection without them pays no query more.
    docsets = list(
        collection.docsets.order_by("name")
        .annotate(judged=Exists(JudgmentTask.objects.filter(unit_set__docset=OuterRef("pk"))))
        .values_list("name", "judged")
    )
    judging = (
        judging_progress.judging_rows(
            judging_progress.collection_tasks(collection, chosen), chosen["status"]
        )
        if any(judged for _, judged in docsets) and chosen["task"] in ("", judging_progress.JUDGE)
        else []
    )
    # Every link of the page keeps the filters and the sort: the query without `page`.
    query = QueryDict(mutable=True)
    query.update({name: value for name, value in chosen.items() if value})
    query["sort"] = sort
    context = {
        "collection": collection,
        "rows": work_rows(shown, sort),
        "page": page,
        "query": query.urlencode(),
        "totals": figures,
        "active_time": worktime.shown(figures["active_seconds"]),
        "chosen": chosen,
        "sort": sort,
        "sorts": list(SORTS),
        "can_administer": can_administer(request.user, collection),
        "docset_names": [name for name, _ in docsets],
        "judging_rows": judging[: judging_progress.SHOWN],
        "judging_count": len(judging),
        "judging_totals": judging_progress.totals(judging),
        # Who has work here: a probe per user, not a scan of every assignment.
        "annotator_names": get_user_model()
        .objects.filter(
            Exists(
                Assignment.objects.filter(
                    user=OuterRef("pk"), pyramid__docset__collection=collection
                )
            )
            | Exists(
                JudgmentTask.objects.filter(
                    judge=OuterRef("pk"), unit_set__docset__collection=collection
                )
            )
        )
        .order_by("username")
        .values_list("username", flat=True),
        "tasks": [*Assignment.Task.choices, (judging_progress.JUDGE, judging_progress.TASK_LABEL)],
        "statuses": Assignment.Status.choices,
        "reassign_form": ReassignForm(),
    }
    template = "campaigns/progress_table.html" if request.htmx else "campaigns/progress.html"
    return render(request, template, context)
