"""A collection's DUCView files as one zip, for those who read the whole collection (its
administrators, organizers and adjudicators; annotators are refused, 403): the files
`export_ducview` writes (allpyramids/*.pyr, allpans/*.pan), which `import_ducview` and the
browser's import read back. The score tables are the scores page's downloads (scoring.views)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required

from annotator.campaigns.guards import collection_for
from annotator.transfer.downloads import ducview_zip_response


@login_required
def collection_ducview(request, pk):
    """GET …/ducview.zip[?docset=D0601]."""
    collection = collection_for(request, pk)
    return ducview_zip_response(collection, request.GET.get("docset") or None)
