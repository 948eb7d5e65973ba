"""Read-only pages: the collections a user may see, a peer annotation."""

from collections import defaultdict

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import get_object_or_404, render

from scoring.records import score_annotations

from ..access import visible_annotations, visible_collections, visible_pyramids
from ..models import PSE, SCU
from ..textmarks import marked_html, runs


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
    return render(
        request,
        "annotator/home.html",
        {"collections": dict(collections), "all_collections": visible_collections(request.user)},
    )


@login_required
def annotation_detail(request, pk):
    annotations = visible_annotations(request.user)
    annotation = get_object_or_404(annotations.select_related("pyramid__docset__collection", "peer"), pk=pk)
    (row,) = score_annotations(annotations.filter(pk=annotation.pk))
    weights = dict(SCU.objects.filter(pyramid=annotation.pyramid).annotate(w=Count("contributors")).values_list("id", "w"))
    pses = list(PSE.objects.filter(annotation=annotation).select_related("scu").prefetch_related("spans"))
    marks, listed = [], []
    for pse in pses:
        key = pse.scu.uid if pse.scu else 0
        parts = sorted(pse.spans.all(), key=lambda s: s.start)
        marks.extend((s.start, s.end, key) for s in parts)
        listed.append(
            {"scu": pse.scu, "weight": weights.get(pse.scu_id, 0), "key": key,
             "text": "...".join(annotation.peer.text[s.start : s.end] for s in parts), "comment": pse.comment}
        )
    listed.sort(key=lambda p: (-p["weight"], p["scu"].label if p["scu"] else ""))
    return render(
        request,
        "annotator/annotation_detail.html",
        {"annotation": annotation, "html": marked_html(runs(annotation.peer.text, marks), zero_key=0),
         "pses": listed, "scores": row.scores,
         "row": row},
    )
