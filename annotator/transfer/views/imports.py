"""Uploading summaries, DUCView files and unit sets into a collection, and following the
import's progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from annotator.campaigns.guards import ADMINISTER, collection_for
from annotator.coverage.import_form import UnitsImportForm
from annotator.transfer import jobs, leases
from annotator.transfer.forms import DucviewImportForm, SummaryUploadForm
from annotator.transfer.models import ImportJob
from annotator.transfer.uploads import SUMMARY_NAMING


def _follow(job: ImportJob):
    return redirect("job-detail", pk=job.pk)


@login_required
def summaries_upload(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = SummaryUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        return _follow(
            jobs.queue_upload(
                collection, ImportJob.Kind.SUMMARIES, form.cleaned_data["files"], request.user
            )
        )
    return render(
        request,
        "transfer/upload_summaries.html",
        {
            "collection": collection,
            "form": form,
            "naming": SUMMARY_NAMING,
        },
    )


@login_required
def ducview_import(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = DucviewImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        return _follow(
            jobs.queue_upload(
                collection,
                ImportJob.Kind.DUCVIEW,
                form.cleaned_data["files"],
                request.user,
                form.identity_options(),
            )
        )
    return render(request, "transfer/import_ducview.html", {"collection": collection, "form": form})


@login_required
def units_import(request, pk):
    """Unit sets from REALSumm's or Lite Pyramid's files (issue 21), as `import_units` imports
    them, in an import job."""
    collection = collection_for(request, pk, ADMINISTER)
    form = UnitsImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        return _follow(
            jobs.queue_upload(
                collection,
                ImportJob.Kind.UNITS,
                form.cleaned_data["files"],
                request.user,
                form.options(),
            )
        )
    return render(request, "transfer/import_units.html", {"collection": collection, "form": form})


@login_required
def job_detail(request, pk):
    """The job's progress; while it runs, htmx asks again every second for the progress part."""
    job = get_object_or_404(ImportJob.objects.select_related("collection", "created_by"), pk=pk)
    collection_for(request, job.collection_id, ADMINISTER)
    template = "transfer/job_progress.html" if request.htmx else "transfer/job_detail.html"
    return render(request, template, {"job": job, "collection": job.collection})


def resumed(request, job) -> None:
    """Queue again a job stopped by interruptions (annotator.transfer.leases), and say what became
    of it."""
    if leases.resume(job):
        messages.success(request, "Resumed: a worker goes on from where the job stopped.")
    else:
        messages.warning(
            request, f"This job is {job.get_status_display().lower()}: there is nothing to resume."
        )


@require_POST
@login_required
def job_resume(request, pk):
    job = get_object_or_404(ImportJob.objects, pk=pk)
    collection_for(request, job.collection_id, ADMINISTER)
    resumed(request, job)
    return redirect("job-detail", pk=job.pk)
