"""Score tables for organizers and administrators: per peer annotation or per system, sorted by any
column, for the collection or one docset; downloadable as CSV, JSON or NIST's layout."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from annotator.models import PeerAnnotation
from annotator.views.guards import collection_for

from .formats import FORMATS, systems_to_csv, systems_to_json
from .records import consensus_work_left_out, score_collection
from .tables import SORTABLE, system_means, sorted_rows

CONTENT_TYPES = {"csv": "text/csv", "json": "application/json", "duc": "text/tab-separated-values"}
EXTENSIONS = {"csv": "csv", "json": "json", "duc": "txt"}


def _download(content: str, fmt: str, name: str) -> HttpResponse:
    response = HttpResponse(content, content_type=f"{CONTENT_TYPES[fmt]}; charset=utf-8")
    filename = f"{name}.{EXTENSIONS[fmt]}".replace(" ", "_").replace(":", "")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def collection_scores(request, pk):
    collection = collection_for(request, pk)
    docset = request.GET.get("docset") or None
    docset_record = collection.docsets.filter(name=docset).first() if docset else None
    if docset and docset_record is None:
        return render(request, "400.html", {"message": f"The collection {collection.name} has no docset {docset}."},
                      status=400)
    adjudicated = request.GET.get("adjudicated") == "1"
    rows = score_collection(collection, docset, adjudicated=adjudicated)
    annotations = PeerAnnotation.objects.filter(pyramid__docset__collection=collection)
    if docset:
        annotations = annotations.filter(pyramid__docset__name=docset)
    by_system = request.GET.get("view") == "systems"
    export = request.GET.get("format")
    name = f"{collection.name}{'-' + docset if docset else ''}-{'system-' if by_system else ''}scores"
    if by_system:
        means = system_means(rows)
        if export == "csv":
            return _download(systems_to_csv(means, rows), "csv", name)
        if export == "json":
            return _download(systems_to_json(means, rows), "json", name)
    elif export in FORMATS:
        return _download(FORMATS[export](rows), export, name)
    sort = request.GET.get("sort", "")
    descending = sort.startswith("-")
    column = sort.lstrip("-")
    if column in SORTABLE and not by_system:
        rows = sorted_rows(rows, column, descending)
    return render(request, "scoring/collection_scores.html", {
        "collection": collection, "rows": rows, "by_system": by_system, "means": system_means(rows) if by_system else [],
        "adjudicated": adjudicated, "left_out": consensus_work_left_out(annotations, adjudicated), "docset": docset or "",
        "docset_record": docset_record, "docset_names": collection.docsets.order_by("name").values_list("name", flat=True),
        "sort": sort, "columns": [
            ("docset", "Docset"), ("peer", "Peer"), ("annotator", "Annotator"), ("pyramid", "Pyramid"),
            ("modified", "Modified"), ("original", "Original"), ("coverage", "Coverage"),
            ("comprehensive", "Comprehensive"), ("unique_scus", "SCUs"), ("repetitions", "Repetitions"),
            ("non_matching", "Non-matching"),
        ],
    })
