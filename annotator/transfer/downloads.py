"""Downloads the pages and the API send alike: a collection's DUCView files as one zip, and a
finished archive export. Each answers a ready HTTP response; who may ask is checked by the caller
(annotator.campaigns.guards on a page, the viewset's permissions in the API)."""

from __future__ import annotations

import tempfile

from django.http import FileResponse, Http404, StreamingHttpResponse
from django.utils.http import content_disposition_header

from annotator.campaigns.models import Collection
from annotator.transfer import job_bytes
from annotator.transfer.exporting import export_zip
from annotator.transfer.models import ArchiveJob

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


def archive_response(job: ArchiveJob) -> StreamingHttpResponse:
    """A finished export's archive, as an attachment; 404 for any other job."""
    if job.kind != ArchiveJob.Kind.EXPORT or job.status != ArchiveJob.Status.DONE:
        raise Http404("There is no archive to download (yet).")
    # Streamed a chunk at a time (annotator.transfer.job_bytes): an archive is never held whole in
    # memory.
    response = StreamingHttpResponse(job_bytes.pieces(job), content_type="application/zip")
    response["Content-Length"] = str(job_bytes.size(job))
    response["Content-Disposition"] = content_disposition_header(True, job.file_name)
    return response
