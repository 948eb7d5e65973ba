"""Uploading summaries and DUCView files into a collection, and following the import's progress."""

from __future__ import annotations

import io
import zipfile

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render

from .. import jobs
from ..forms import DucviewImportForm, SummaryUploadForm
from ..models import ImportJob
from ..uploads import SUMMARY_NAMING
from .guards import ADMINISTER, collection_for


def _one_blob(files) -> tuple[str, bytes]:
    """One zip, or the several .txt files chosen packed into one (a job keeps one blob)."""
    if len(files) == 1:
        return files[0].name, files[0].read()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            archive.writestr(file.name, file.read())
    return f"{len(files)} files.zip", buffer.getvalue()


def _start(request, collection, kind, name, content, options=None):
    job = ImportJob.objects.create(
        collection=collection, kind=kind, file_name=name, content=content, options=options or {},
        created_by=request.user,
    )
    jobs.start(job)
    return redirect("job-detail", pk=job.pk)


@login_required
def summaries_upload(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = SummaryUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        name, content = _one_blob(form.cleaned_data["files"])
        return _start(request, collection, ImportJob.Kind.SUMMARIES, name, content)
    return render(request, "manage/upload_summaries.html", {
        "collection": collection, "form": form, "naming": SUMMARY_NAMING,
    })


@login_required
def ducview_import(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = DucviewImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        file = form.cleaned_data["file"]
        options = {key: form.cleaned_data[key].strip() for key in ("docset", "peer", "annotator") if form.cleaned_data[key].strip()}
        return _start(request, collection, ImportJob.Kind.DUCVIEW, file.name, file.read(), options)
    return render(request, "manage/import_ducview.html", {"collection": collection, "form": form})


@login_required
def job_detail(request, pk):
    """The job's progress; while it runs, htmx asks again every second for the progress part."""
    job = get_object_or_404(ImportJob.objects.select_related("collection", "created_by").defer("content"), pk=pk)
    collection_for(request, job.collection_id, ADMINISTER)
    template = "manage/job_progress.html" if request.htmx else "manage/job_detail.html"
    return render(request, template, {"job": job, "collection": job.collection})
