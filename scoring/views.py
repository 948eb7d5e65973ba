"""Score tables for organizers and administrators: on a page, or downloaded as CSV, JSON or
NIST's layout."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render

from annotator.views.guards import collection_for

from .formats import FORMATS
from .records import score_collection

CONTENT_TYPES = {"csv": "text/csv", "json": "application/json", "duc": "text/tab-separated-values"}
EXTENSIONS = {"csv": "csv", "json": "json", "duc": "txt"}


@login_required
def collection_scores(request, pk):
    collection = collection_for(request, pk)
    rows = score_collection(collection, request.GET.get("docset") or None)
    export = request.GET.get("format")
    if export in FORMATS:
        response = HttpResponse(FORMATS[export](rows), content_type=f"{CONTENT_TYPES[export]}; charset=utf-8")
        filename = f"{collection.name}-scores.{EXTENSIONS[export]}".replace(" ", "_").replace(":", "")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    return render(request, "scoring/collection_scores.html", {"collection": collection, "rows": rows})
