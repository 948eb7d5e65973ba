"""Collection archives from the browser (annotator.transfer.archive): readers of a collection export
it, site administrators restore an archive as a new collection; both run as a background job whose
page follows it and, for an export, offers the archive."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from annotator.campaigns.access import is_site_administrator
from annotator.campaigns.guards import collection_for
from annotator.transfer import archive_jobs
from annotator.transfer.downloads import archive_response
from annotator.transfer.forms import ArchiveRestoreForm
from annotator.transfer.models import ArchiveJob
from annotator.transfer.views.imports import resumed


@require_POST
@login_required
def collection_export(request, pk):
    job = archive_jobs.export_job(collection_for(request, pk), request.user)
    return redirect("archive-job", pk=job.pk)


@login_required
def collection_restore(request):
    if not is_site_administrator(request.user):
        raise PermissionDenied("Only site administrators restore collections.")
    form = ArchiveRestoreForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        file = form.cleaned_data["file"]
        job = archive_jobs.restore_job(file.name, file, form.cleaned_data["name"], request.user)
        return redirect("archive-job", pk=job.pk)
    return render(request, "transfer/restore_archive.html", {"form": form})


def job_for(request, pk) -> ArchiveJob:
    """An export job for the readers of its collection (404 for those who do not see it, 403 for
    those who see it but do not read it all); a restore job for site administrators (404)."""
    job = get_object_or_404(ArchiveJob.objects.select_related("collection", "created_by"), pk=pk)
    if job.kind == ArchiveJob.Kind.RESTORE:
        if not is_site_administrator(request.user):
            raise Http404("No such job.")
    elif job.collection_id is None:
        raise Http404("The collection of this archive is no longer there.")
    else:
        collection_for(request, job.collection_id)
    return job


@login_required
def archive_job(request, pk):
    """The job's progress; while it runs, htmx asks again every second for the progress part."""
    job = job_for(request, pk)
    template = (
        "transfer/archive_job_progress.html" if request.htmx else "transfer/archive_job_detail.html"
    )
    return render(
        request,
        template,
        {"job": job, "collection": job.collection if job.kind == "export" else None},
    )


@require_POST
@login_required
def archive_job_resume(request, pk):
    job = job_for(request, pk)  # who sees the job may resume it: they could start it again anyway
    resumed(request, job)
    return redirect("archive-job", pk=job.pk)


@login_required
def archive_download(request, pk):
    return archive_response(job_for(request, pk))
