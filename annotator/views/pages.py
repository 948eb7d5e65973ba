"""The home page: the collections, pyramids and peer annotations a user may see."""

from collections import defaultdict

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import render

from ..access import is_site_administrator, readable_collections, visible_annotations, visible_collections, visible_pyramids
from ..models import Assignment


@login_required
def home(request):
    pyramids = (
        visible_pyramids(request.user)
        .select_related("docset__collection")
        .annotate(scu_count=Count("scus", distinct=True))
        .order_by("docset__collection__name", "docset__name", "name")
    )
    annotation_counts = dict(
        visible_annotations(request.user).order_by().values("pyramid_id").annotate(n=Count("id")).values_list("pyramid_id", "n")
    )
    collections = defaultdict(list)
    for pyramid in pyramids:
        pyramid.annotation_count = annotation_counts.get(pyramid.id, 0)
        collections[pyramid.docset.collection].append(pyramid)
    assignments = (
        Assignment.objects.filter(user=request.user, status__in=[Assignment.Status.ASSIGNED, Assignment.Status.IN_PROGRESS])
        .select_related("pyramid__docset", "peer").order_by("pyramid__docset__name", "task", "peer__author")
    )
    return render(
        request,
        "annotator/home.html",
        {"collections": dict(collections), "all_collections": visible_collections(request.user),
         "assignments": assignments,
         "readable_ids": set(readable_collections(request.user).values_list("pk", flat=True)),
         "site_administrator": is_site_administrator(request.user)},
    )
