"""A collection's DUCView files as one zip, for those who read the whole collection (its
administrators, organizers and adjudicators; annotators are refused, 403): the files
`export_ducview` writes (allpyramids/*.pyr, allpans/*.pan), which `import_ducview` and the
browser's import read back; and its unit sets in REALSumm's or Lite Pyramid's files. The score
tables are the scores page's downloads (scoring.scores.views)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest

from annotator.campaigns.guards import collection_for
from annotator.coverage.importing import FORMATS, UnitExportError, export_units
from annotator.transfer.downloads import download_name, ducview_zip_response


@login_required
def collection_ducview(request, pk):
    """GET …/ducview.zip[?docset=D0601]."""
    collection = collection_for(request, pk)
    return ducview_zip_response(collection, request.GET.get("docset") or None)


@login_required
def collection_units(request, pk):
    """GET …/units.zip?format=realsumm|lite-pyramid[&unit_set=NAME][&docset=D]: the collection's
    presence unit sets (that docset's only, if named) in that format, as `export_units` writes
    them (issue 21)."""
    collection = collection_for(request, pk)
    format_name = request.GET.get("format", "")
    if format_name not in FORMATS:
        return HttpResponseBadRequest(f"format: one of {', '.join(FORMATS)}")
    try:
        export = export_units(
            collection,
            format_name,
            request.GET.get("unit_set") or None,
            request.GET.get("docset") or None,
        )
    except UnitExportError as error:
        raise Http404(str(error)) from None
    response = HttpResponse(export.zip_bytes(), content_type="application/zip")
    name = download_name(collection, None, f"units-{format_name}", "zip")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
