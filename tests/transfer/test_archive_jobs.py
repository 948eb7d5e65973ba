"""annotator.transfer.archive_jobs: archives written and restored in the background, with their
progress."""

import io
import zipfile

import pytest
from django.core.management import call_command
from django.test import override_settings

from annotator.models import Collection
from annotator.transfer import archive_jobs
from tests.archives import assert_same_records, written
from tests.helpers import job_content, record_counts

pytestmark = pytest.mark.django_db
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def run(job):
    archive_jobs.run_archive_job.call(job.pk)
    job.refresh_from_db()
    return job


def test_an_export_keeps_the_archive_in_the_job_and_reports_what_it_holds(demo):
    job = run(archive_jobs.export_job(demo["collection"], demo["organizer"]))
    assert job.status == "done"
    assert job.done == job.total > 50
    assert job.file_name == "demo-apollo-11-archive.zip"
    assert job.report[0].startswith("Wrote Demo: Apollo 11: 1 docset, 7 summaries, 1 pyramid")
    assert "archive.json" in zipfile.ZipFile(io.BytesIO(job_content(job))).namelist()


def test_a_restore_makes_the_collection_and_lets_the_upload_go(demo):
    job = run(
        archive_jobs.restore_job(
            "demo.zip", written(demo["collection"]), " Demo again ", demo["admin"]
        )
    )
    assert job.status == "done"
    assert job.collection.name == "Demo again"
    assert job_content(job) == b""
    assert job.done == job.total > 50
    assert job.report[0].startswith("Restored Demo again: 1 docset,")
    assert_same_records(demo["collection"], job.collection)


def test_a_refused_restore_reports_why_and_stores_nothing(demo):
    before = record_counts()
    job = run(archive_jobs.restore_job("demo.zip", written(demo["collection"]), "", demo["admin"]))
    assert job.status == "failed"
    assert job.collection is None
    assert job.report == [
        "A collection named 'Demo: Apollo 11' exists already: restore this archive under another "
        "name."
    ]
    assert record_counts() == before


def test_a_job_runs_once_even_if_delivered_twice(demo):
    job = run(archive_jobs.export_job(demo["collection"], demo["admin"]))
    finished = job.finished_at
    assert run(job).finished_at == finished


@pytest.mark.django_db(
    transaction=True
)  # the worker's own transactions, and the progress written beside them
@override_settings(TASKS=DATABASE_QUEUE)
def test_a_worker_takes_both_from_the_database_queue(demo):
    export = archive_jobs.export_job(demo["collection"], demo["admin"])
    export.refresh_from_db()
    assert export.status == "queued"  # the request does not do the work
    call_command("db_worker", batch=True, no_startup_delay=True, verbosity=0)
    export.refresh_from_db()
    assert export.status == "done"
    assert export.done == export.total > 50
    restore = archive_jobs.restore_job(
        "a.zip", io.BytesIO(job_content(export)), "From the queue", demo["admin"]
    )
    call_command("db_worker", batch=True, no_startup_delay=True, verbosity=0)
    restore.refresh_from_db()
    assert restore.status == "done"
    assert restore.done == restore.total == export.total
    assert_same_records(demo["collection"], Collection.objects.get(name="From the queue"))


def test_progress_is_written_as_the_work_goes(demo, monkeypatch):
    seen, write = [], archive_jobs._Progress.__call__

    def recorded(progress, done, total):
        seen.append((done, total))
        write(progress, done, total)

    monkeypatch.setattr(archive_jobs.archive, "BATCH", 20)  # a small collection in several batches
    monkeypatch.setattr(archive_jobs._Progress, "__call__", recorded)
    job = run(archive_jobs.export_job(demo["collection"], demo["admin"]))
    assert len(seen) > 3
    assert seen == sorted(seen)
    assert seen[-1] == (job.total, job.total)
    assert job.total > 50
