"""Imports from the browser, run in the background through Django's Tasks API.

The upload page stores the bytes in an ImportJob and enqueues `run_import_job`; a worker
(`python manage.py db_worker`) runs it, writing its progress to the job as it goes, and the job page
shows it. An unsafe or oversized zip is refused whole; otherwise:
- summaries (a .txt file or a zip, named as annotator.transfer.uploads says): all checked, then
  stored in one transaction (every problem reported at once; nothing stored if there is one);
- DUCView files (.pyr, .pan or a zip of them): imported exactly as `import_ducview` imports them
  (annotator.transfer.importing): one transaction per file, a refused file listed with its reason
  while the others are stored; a file already imported is reported unchanged;
- unit sets (REALSumm's or Lite Pyramid's files, or a zip of them): imported as `import_units`
  imports them (annotator.coverage.importing), in one transaction.
"""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import PurePosixPath

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from annotator.campaigns.models import Collection, Docset, Summary
from annotator.ducview.names import FileIdentity
from annotator.transfer import job_bytes, leases
from annotator.transfer.batches import FileBatches
from annotator.transfer.importing import (
    DUCVIEW_SUFFIXES,
    DucviewImporter,
    ImportReport,
    counted,
    import_order,
)
from annotator.transfer.models import ImportJob
from annotator.transfer.uploads import (
    DUCVIEW_MAX_BYTES,
    SUMMARY_MAX_BYTES,
    Upload,
    UploadRefused,
    decode_text,
    is_zip,
    read_upload,
    summary_name,
)
from annotator.web.database import connection_lost

logger = logging.getLogger(__name__)


def start(job: ImportJob) -> ImportJob:
    """Queue the job: after the transaction that made it commits, so the worker finds it."""
    transaction.on_commit(lambda: run_import_job.enqueue(job.pk))
    return job


def queue_upload(
    collection: Collection, kind: str, files, user, options: dict | None = None
) -> ImportJob:
    """An import job for files uploaded (from a page or the API), its bytes stored a piece at a time
    (annotator.transfer.job_bytes), queued."""
    with transaction.atomic():
        job = ImportJob.objects.create(
            collection=collection,
            kind=kind,
            file_name=job_bytes.upload_name(files),
            options=options or {},
            created_by=user,
        )
        job_bytes.store_uploads(job, files)
        return start(job)


@task()
def run_import_job(job_id: int) -> None:
    job = leases.claim(ImportJob.objects.select_related("collection"), job_id)
    if job is None:
        return  # already run, or running elsewhere (a task can be delivered twice)
    with leases.held(job):
        try:
            runner = {
                ImportJob.Kind.SUMMARIES: import_summaries,
                ImportJob.Kind.DUCVIEW: import_ducview,
                ImportJob.Kind.UNITS: import_units,
            }[job.kind]
            with job_bytes.spooled(job) as upload:
                report = runner(job, upload)
        except leases.LeaseLost:
            logger.warning("import job %s was taken back from this worker: it stops here", job.pk)
            return
        except UploadRefused as refused:
            _finish(job, ImportJob.Status.FAILED, refused.problems)
        except Exception as error:
            if connection_lost(error):
                raise  # the worker reconnects, and the job is resumed (annotator.transfer.leases)
            logger.exception("import job %s failed", job.pk)
            _finish(
                job,
                ImportJob.Status.FAILED,
                [
                    "The import stopped on an unexpected error, which has been logged; "
                    + (
                        "nothing more was stored."
                        if job.kind == ImportJob.Kind.DUCVIEW
                        else "nothing was stored."
                    )
                ],
            )
            raise
        else:
            _finish(job, ImportJob.Status.DONE, report, done=job.total)


def _finish(job: ImportJob, status: str, report: list[str], **fields) -> None:
    """The job's outcome; its bytes served their purpose either way (the report says what became of
    them), and a resumed run's interruptions head the report."""
    notes = job.resume_state.get("interruptions", [])
    _update(
        job,
        status=status,
        report=[*notes, *report],
        finished_at=timezone.now(),
        resume_state={},
        **fields,
    )
    job_bytes.free(job)


def _update(job: ImportJob, **fields) -> None:
    for name, value in fields.items():
        setattr(job, name, value)
    ImportJob.objects.filter(pk=job.pk).update(**fields)


# -- summaries -------------------------------------------------------------------------------------


def plan_summaries(collection: Collection, files: list[Upload]) -> tuple[list[tuple], list[str]]:
    """What the upload would store, as (docset, kind, author, file name, text) rows, and what is
    already there; UploadRefused with every problem if anything is wrong."""
    problems: list[str] = []
    rows: list[tuple] = []
    seen: dict[tuple, str] = {}
    for file in files:
        name = summary_name(file.name)
        if name is None:
            problems.append(
                f"{file.name}: the name says neither docset, kind nor author (expected e.g. "
                "D0601.model.A.txt, D0601.peer.10.txt or DUC's D0601.M.250.A.H)"
            )
            continue
        key = (name.docset, name.kind, name.author)
        if key in seen:
            problems.append(
                f"{file.name}: {name.docset} {name.kind} {name.author} is also in {seen[key]}"
            )
            continue
        seen[key] = file.name
        try:
            text = decode_text(file)
        except UploadRefused as refused:
            problems.extend(refused.problems)
            continue
        rows.append((*key, PurePosixPath(file.name).name, text))
    existing = {
        (docset, kind, author): text
        for docset, kind, author, text in Summary.objects.filter(
            docset__collection=collection, docset__name__in={row[0] for row in rows}
        ).values_list("docset__name", "kind", "author", "text")
    }
    new_rows, unchanged = [], []
    for row in rows:
        stored = existing.get(row[:3])
        if stored is None:
            new_rows.append(row)
        elif stored == row[4] or stored.strip() == row[4]:  # stored before texts were trimmed
            unchanged.append(f"{row[3]}: already stored, unchanged")
        else:
            problems.append(
                f"{row[3]}: {row[0]} {row[1]} {row[2]} is already stored with a different text (a "
                "summary's text never changes once stored: pyramids and annotations point into "
                "it)"
            )
    if problems:
        raise UploadRefused(problems)
    return new_rows, unchanged


@transaction.atomic
def store_summaries(collection: Collection, rows: list[tuple]) -> list[str]:
    """Create the docsets named that are new, and the summaries (one transaction, bulk queries)."""
    docsets = {d.name: d for d in collection.docsets.filter(name__in={row[0] for row in rows})}
    new_names = sorted({row[0] for row in rows} - docsets.keys())
    for docset in Docset.objects.bulk_create(
        Docset(collection=collection, name=name) for name in new_names
    ):
        docsets[docset.name] = docset
    Summary.objects.bulk_create(
        Summary(docset=docsets[docset], kind=kind, author=author, name=file_name, text=text)
        for docset, kind, author, file_name, text in rows
    )
    counts = Counter(kind for _, kind, _, _, _ in rows)
    lines = [
        f"Stored {counted(counts['model'], 'model summary', 'model summaries')} and "
        f"{counted(counts['peer'], 'peer summary', 'peer summaries')} in "
        f"{counted(len(docsets), 'docset')}."
    ]
    if new_names:
        lines.append(f"New docsets: {', '.join(new_names)}.")
    return lines


def import_summaries(job: ImportJob, upload) -> list[str]:
    files = read_upload(job.file_name, upload, SUMMARY_MAX_BYTES, settings.MAX_UPLOAD_BYTES)
    _update(job, total=len(files))  # one transaction below: a resumed run starts again
    rows, unchanged = plan_summaries(job.collection, files)
    if not rows:
        return ["Nothing new: every summary was already stored.", *unchanged]
    return store_summaries(job.collection, rows) + unchanged


# -- unit sets (issue 21) -------------------------------------------------------------------------


def import_units(job: ImportJob, upload) -> list[str]:
    """REALSumm's or Lite Pyramid's files imported as `import_units` imports them: one
    transaction (a resumed run starts again; an import already stored is found unchanged)."""
    from annotator.coverage.importing import import_upload

    files = read_upload(job.file_name, upload, DUCVIEW_MAX_BYTES, settings.MAX_UPLOAD_BYTES)
    _update(job, total=len(files))
    return import_upload(job.collection, job.options, files)


# -- DUCView files ---------------------------------------------------------------------------------


def import_ducview(job: ImportJob, upload) -> list[str]:
    """The files of the upload imported as `import_ducview` imports them: the same importer, the
    same order, each file in a savepoint of its own within a transaction of about a second's files
    (annotator.transfer.batches); a refused file is listed and the others go on.

    A resumed run (annotator.transfer.leases) goes on after the files its last progress write
    counted, with the report as it was then: a file stored after that write is found unchanged."""
    chosen_alone = not is_zip(job.file_name, upload.read(4))
    upload.seek(0)
    files = read_upload(job.file_name, upload, DUCVIEW_MAX_BYTES, settings.MAX_UPLOAD_BYTES)
    overrides = FileIdentity(
        **{k: v for k, v in job.options.items() if k in ("docset", "peer", "annotator") and v}
    )
    # As the command reads a folder: its .pyr and .pan files (NIST's packages hold READMEs and
    # score tables beside them). A file chosen on its own is imported whatever its name.
    by_name = {
        file.name: file for file in files if chosen_alone or file.name.endswith(DUCVIEW_SUFFIXES)
    }
    others = sorted(file.name for file in files if file.name not in by_name)
    if not by_name:
        raise UploadRefused([f"{job.file_name}: holds no DUCView file (.pyr or .pan)"])
    names = import_order(by_name)
    start = min(job.resume_state.get("done", 0), len(names))
    importer = DucviewImporter(
        job.collection.name, report=ImportReport.from_state(job.resume_state.get("report"))
    )
    progress = leases.Progress(job, total=len(names), done=start)

    def resume_point(done: int) -> dict:
        return {"done": done, "report": importer.report.state()}

    with FileBatches() as batches:  # about a second of files a transaction, a savepoint each
        for done, name in enumerate(names[start:], start=start + 1):
            importer.import_data(name, by_name[name].data, overrides)
            if progress.save(done, resume_point):
                batches.commit()  # the files with the progress that counts them
        progress.save(len(names), resume_point, force=True)
    importer.finish()
    report = importer.report
    if report.failures and len(report.failures) == report.files:
        raise UploadRefused(report.failures)  # nothing stored: the job failed
    lines = report.lines()
    if others:
        shown = ", ".join(others[:10]) + (
            f" and {len(others) - 10} more" if len(others) > 10 else ""
        )
        lines.insert(1, f"Not DUCView files, left aside: {shown}.")
    return lines
