"""Collection archives written and restored in the background (annotator.transfer.archive), as
imports are (annotator.transfer.jobs): the page or the API stores an ArchiveJob and enqueues
`run_archive_job`; a worker runs it. The job row holds the bytes (the upload to restore until it is
stored, the archive written until the job is deleted), so any worker and any web process reach them.

A restore is one transaction and an export reads one snapshot, so on PostgreSQL their progress is
written through a connection of its own: the job page sees it as it goes.
"""

from __future__ import annotations

import logging
import tempfile
import time

from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone
from django.utils.text import slugify
from django_tasks import task

from annotator.campaigns.models import Collection
from annotator.transfer import archive, job_bytes, leases
from annotator.transfer.models import ArchiveJob
from annotator.web.database import connection_lost

logger = logging.getLogger(__name__)
Status = ArchiveJob.Status


def file_name(collection: Collection) -> str:
    return f"{slugify(collection.name) or 'collection'}-archive.zip"


def start(job: ArchiveJob) -> ArchiveJob:
    """Queue the job once the transaction that made it commits, so that the worker finds it."""
    transaction.on_commit(lambda: run_archive_job.enqueue(job.pk))
    return job


def export_job(collection: Collection, user) -> ArchiveJob:
    return start(
        ArchiveJob.objects.create(
            kind=ArchiveJob.Kind.EXPORT,
            collection=collection,
            file_name=file_name(collection),
            created_by=user,
        )
    )


def restore_job(name: str, upload, new_name: str, user) -> ArchiveJob:
    """A restore of the uploaded archive (a binary file), its bytes stored a piece at a time."""
    with transaction.atomic():
        job = ArchiveJob.objects.create(
            kind=ArchiveJob.Kind.RESTORE, file_name=name, name=new_name.strip(), created_by=user
        )
        job_bytes.store(job, upload)
        return start(job)


class _Progress:
    """Writes the job's progress, at most twice a second, outside the work's own transaction."""

    def __init__(self, job: ArchiveJob):
        self.job, self.last, self.total = job, 0.0, 0
        self.side = (
            connections.create_connection(DEFAULT_DB_ALIAS)
            if connection.vendor == "postgresql"
            else None
        )

    def __call__(self, done: int, total: int) -> None:
        self.total, now = total, time.monotonic()
        if now - self.last < 0.5 and done < total:
            return
        self.last = now
        if self.side is None:
            ArchiveJob.objects.filter(pk=self.job.pk).update(done=done, total=total)
            return
        with self.side.cursor() as cursor:
            cursor.execute(
                f"UPDATE {self.side.ops.quote_name(ArchiveJob._meta.db_table)} SET done = %s, "
                "total = %s WHERE id = %s",
                [done, total, self.job.pk],
            )

    def close(self) -> None:
        if self.side is not None:
            self.side.close()


@task()
def run_archive_job(job_id: int) -> None:
    job = leases.claim(ArchiveJob.objects.select_related("collection"), job_id)
    if job is None:
        return  # already run, or running elsewhere (a task can be delivered twice)
    # A restore is one transaction and an export one snapshot: a resumed run starts again.
    notes = job.resume_state.get("interruptions", [])
    progress = _Progress(job)
    with leases.held(job):
        try:
            outcome = (
                _export(job, progress)
                if job.kind == ArchiveJob.Kind.EXPORT
                else _restore(job, progress)
            )
        except archive.ArchiveError as problem:
            _update(
                job,
                status=Status.FAILED,
                report=[*notes, str(problem)],
                finished_at=timezone.now(),
                resume_state={},
            )
            job_bytes.free(job)
        except Exception as error:
            if connection_lost(error):
                raise  # the worker reconnects, and the job is resumed (annotator.transfer.leases)
            logger.exception("archive job %s failed", job.pk)
            _update(
                job,
                status=Status.FAILED,
                finished_at=timezone.now(),
                resume_state={},
                report=[
                    *notes,
                    "The job stopped on an unexpected error, which has been logged; nothing was "
                    "stored.",
                ],
            )
            job_bytes.free(job)
            raise
        else:
            outcome["report"] = [*notes, *outcome["report"]]
            _update(
                job,
                status=Status.DONE,
                done=progress.total,
                total=progress.total,
                finished_at=timezone.now(),
                resume_state={},
                **outcome,
            )
        finally:
            progress.close()


def _update(job: ArchiveJob, **fields) -> None:
    for name, value in fields.items():
        setattr(job, name, value)
    ArchiveJob.objects.filter(pk=job.pk).update(**fields)


def _export(job: ArchiveJob, progress) -> dict:
    if job.collection is None:
        raise archive.ArchiveError("The collection is no longer there.")
    with tempfile.TemporaryFile() as written:
        counts = archive.export(job.collection, written, progress)
        size = job_bytes.store(job, written)  # kept for the download until the job is deleted
    return {
        "report": [
            f"Wrote {job.collection.name}: {archive.describe(counts)} ({size / 1024:,.0f} kB)."
        ]
    }


def _restore(job: ArchiveJob, progress) -> dict:
    with job_bytes.spooled(job) as upload:
        collection, report = archive.restore(upload, job.name or None, progress)
    job_bytes.free(job)  # stored as records now
    return {"collection": collection, "report": report}
