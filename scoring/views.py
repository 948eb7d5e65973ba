"""Score tables for organizers (staff): on a page, or downloaded as CSV, JSON or NIST's layout."""

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render

from annotator.models import Collection

from .formats import FORMATS
from .records import score_collection

CONTENT_TYPES = {"csv": "text/csv", "json": "application/json", "duc": "text/tab-separated-values"}
EXTENSIONS = {"csv": "csv", "json": "json", "duc": "txt"}


@staff_member_required
def collection_scores(request, pk):
    collection = get_object_or_404(Collection, pk=pk)
    rows = score_collection(collection, request.GET.get("docset") or None)
    export = request.GET.get("format")
    if export in FORMATS:
        response = HttpResponse(FORMATS[export](rows), content_type=f"{CONTENT_TYPES[export]}; charset=utf-8")
        filename = f"{collection.name}-scores.{EXTENSIONS[export]}".replace(" ", "_").replace(":", "")
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    return render(request, "scoring/collection_scores.html", {"collection": collection, "rows": rows})
