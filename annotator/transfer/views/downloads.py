"""A collection's DUCView files as one zip, for those who read the whole collection (its
administrators, organizers and adjudicators; annotators are refused, 403): the files
`export_ducview` writes (allpyramids/*.pyr, allpans/*.pan), which `import_ducview` and the
browser's import read back. The score tables are the scores page's downloads (scoring.views)."""

from __future__ import annotations

import tempfile

from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404

from annotator.campaigns.guards import collection_for
from annotator.models import Collection
from annotator.transfer.exporting import export_zip

# A zip is built before it is sent (so that a failure is an error page, not a truncated file): in
# memory up to this size, in a temporary file beyond it.
SPOOL_BYTES = 16 * 1024 * 1024


def download_name(collection: Collection, docset: str | None, what: str, extension: str) -> str:
    """A file name for a download, e.g. "Demo_Apollo_11-DEMO01-ducview.zip"."""
    name = f"{collection.name}{'-' + docset if docset else ''}-{what}"
    return f"{name.replace(' ', '_').replace(':', '').replace('/', '-')}.{extension}"


def ducview_zip_response(collection: Collection, docset: str | None = None) -> FileResponse:
    """The zip of the collection's (or one docset's) DUCView files, as an attachment; 404 for a
    docset the collection does not hold."""
    if docset and not collection.docsets.filter(name=docset).exists():
        raise Http404(f"No docset {docset} in {collection.name}.")
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)
    export_zip(collection, spool, docset)
    spool.seek(0)
    return FileResponse(
        spool,
        as_attachment=True,
        filename=download_name(collection, docset, "ducview", "zip"),
        content_type="application/zip",
    )


@login_required
def collection_ducview(request, pk):
    """GET …/ducview.zip[?docset=D0601]."""
    collection = collection_for(request, pk)
    return ducview_zip_response(collection, request.GET.get("docset") or None)
