"""The home page: the user's own work in order (their dashboard), the collections they read, and
for adjudicators and administrators the adjudication queue (issue 15)."""

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import render

from annotator.adjudication import queue as adjudication_queue
from annotator.campaigns.access import adjudicated_collections, readable_collections
from annotator.campaigns.models import Assignment
from annotator.campaigns.progress import totals, work_rows
from annotator.coverage.judging_progress import judging_rows
from annotator.coverage.models import JudgmentTask
from annotator.pyramids.models import Pyramid
from annotator.worktime import queries as worktime


@login_required
def home(request):
    work = Assignment.objects.filter(user=request.user).exclude(status=Assignment.Status.WITHDRAWN)
    rows = work_rows(work, sort="status")
    figures = totals(work)
    collections = (
        readable_collections(request.user).annotate(docset_count=Count("docsets")).order_by("name")
    )
    adjudicated = adjudicated_collections(request.user)
    queue = (
        adjudication_queue.queue(Pyramid.objects.filter(docset__collection__in=adjudicated))
        if adjudicated.exists()
        else None
    )
    return render(
        request,
        "campaigns/home.html",
        {
            "rows": rows,
            # The user's judgment tasks (issue 21): one query.
            "judging_rows": judging_rows(
                JudgmentTask.objects.filter(judge=request.user, withdrawn=False)
            ),
            "totals": figures,
            "active_time": worktime.shown(figures["active_seconds"]),
            "collections": collections,
            "queue": queue,
            "queue_counts": adjudication_queue.counts(queue) if queue is not None else None,
        },
    )
