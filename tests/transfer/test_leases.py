"""annotator.transfer.leases: a job is run by one worker at a time, a job whose worker stopped is
taken back and goes on from where it stopped, and one interrupted too often fails and can be
resumed."""

from datetime import timedelta

import pytest
from django.db import IntegrityError, InterfaceError, OperationalError
from django.test import override_settings
from django.utils import timezone

from annotator.models import ArchiveJob, ImportJob, PeerAnnotation, Pyramid, WorkerBeat
from annotator.transfer import jobs, leases
from annotator.transfer.importing import DucviewImporter, ImportReport
from annotator.transfer.models import lease_expired
from annotator.web.database import connection_lost
from tests.conftest import FIXTURES
from tests.helpers import job_content
from tests.transfer.test_jobs import make_job, zipped

pytestmark = pytest.mark.django_db


def upload():
    return zipped({path.name: path.read_bytes() for path in sorted(FIXTURES.glob("*.p[ay][nr]"))})


def lost(job, **fields):
    """The job as a killed worker leaves it: running, its beat older than a lease."""
    ImportJob.objects.filter(pk=job.pk).update(
        status="running",
        worker_id="dead:1",
        heartbeat_at=timezone.now() - timedelta(minutes=5),
        **fields,
    )


def test_a_job_is_claimed_by_one_worker_only(demo):
    job = make_job(demo, "summaries", "DEMO01.peer.9.txt", b"Peer nine.")
    assert leases.claim(ImportJob.objects.all(), job.pk).status == "running"
    assert (
        leases.claim(ImportJob.objects.all(), job.pk) is None
    )  # a second delivery, another worker
    job.refresh_from_db()
    assert job.attempts == 1
    assert job.worker_id == leases.worker_id()
    assert job.heartbeat_at is not None
    leases.release(ImportJob, job.pk)


def test_a_job_whose_beat_is_lost_is_queued_again_and_finished(
    demo, django_capture_on_commit_callbacks
):
    job = make_job(demo, "ducview", "fixtures.zip", upload())
    lost(job, attempts=1, total=2, done=1)
    fresh = make_job(demo, "summaries", "x.zip", b"")  # running and beating: left alone
    ImportJob.objects.filter(pk=fresh.pk).update(
        status="running", worker_id="alive:1", heartbeat_at=timezone.now()
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert leases.recover() == [f"ImportJob {job.pk}: queued again"]
    job.refresh_from_db()
    assert job.status == "done"
    assert job.attempts == 2
    assert job.report[0].startswith("Interrupted at 1 of 2 files on ")
    assert "(worker dead:1 stopped:" in job.report[0]
    assert job.report[1].startswith("2 files: 1 pyramid")
    assert ImportJob.objects.get(pk=fresh.pk).status == "running"


def test_a_resumed_import_goes_on_after_the_files_already_done(demo):
    """The run that stopped stored the pyramid and wrote its progress: the next one imports the rest
    and reports the whole upload."""
    pyramid_file = next(FIXTURES.glob("*.pyr"))
    first = DucviewImporter(demo["collection"].name)
    first.import_data(pyramid_file.name, pyramid_file.read_bytes())
    job = make_job(demo, "ducview", "fixtures.zip", upload())
    ImportJob.objects.filter(pk=job.pk).update(
        resume_state={"done": 1, "report": first.report.state()}
    )
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == "done"
    assert job.done == job.total == 2
    assert job.resume_state == {}
    assert job.report[0].startswith("2 files: 1 pyramid")
    assert "1 peer annotation" in job.report[0]
    assert "0 unchanged" in job.report[0]  # the pyramid was not imported twice
    assert Pyramid.objects.filter(docset__name="D9901").count() == 1
    assert PeerAnnotation.objects.filter(pyramid__docset__name="D9901").count() == 1


def test_the_report_survives_its_resume_state():
    report = ImportReport(files=3, pyramids=1, warnings=["a: w"], failures=["b: f"])
    report.ids_normalised[("06", "6")] += 2
    assert ImportReport.from_state(report.state()) == report
    assert ImportReport.from_state(None) == ImportReport()


@override_settings(JOB_MAX_ATTEMPTS=3)
def test_a_job_interrupted_too_often_fails_keeps_its_bytes_and_can_be_resumed(
    demo, django_capture_on_commit_callbacks
):
    uploaded = upload()  # once: a zip made again a second later has other times in it
    job = make_job(demo, "ducview", "fixtures.zip", uploaded)
    lost(job, attempts=3, total=2, done=1)
    assert leases.recover() == [f"ImportJob {job.pk}: failed after 3 interruptions"]
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.interrupted
    assert job_content(job) == uploaded
    assert (
        job.report[-1]
        == "Stopped after 3 interrupted runs. What was stored is kept; Resume goes on from there."
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert leases.resume(job)
    job.refresh_from_db()
    assert job.status == "done"
    assert not job.interrupted
    assert job.attempts == 1
    assert not leases.resume(job)  # done: nothing to resume


def test_progress_stops_a_run_whose_job_was_taken_back(demo):
    job = leases.claim(ImportJob.objects.all(), make_job(demo, "ducview", "x.zip", b"x").pk)
    progress = leases.Progress(job, total=3)
    ImportJob.objects.filter(pk=job.pk).update(
        worker_id="another:2"
    )  # recovered and claimed elsewhere
    with pytest.raises(leases.LeaseLost):
        progress.save(1, lambda done: {"done": done}, force=True)
    leases.release(ImportJob, job.pk)


def test_the_beat_says_the_worker_is_alive_and_keeps_its_jobs(demo):
    job = leases.claim(ImportJob.objects.all(), make_job(demo, "ducview", "x.zip", b"x").pk)
    ImportJob.objects.filter(pk=job.pk).update(heartbeat_at=timezone.now() - timedelta(minutes=5))
    leases.beat()
    job.refresh_from_db()
    assert not lease_expired(job.heartbeat_at)
    beat = WorkerBeat.objects.get(worker_id=leases.worker_id())
    assert beat.running == f"ImportJob {job.pk}"
    assert WorkerBeat.objects.alive().count() == 1
    assert leases.recover() == []  # held and beating: not taken back
    leases.release(ImportJob, job.pk)
    assert leases.recover() == [
        f"ImportJob {job.pk}: queued again"
    ]  # this worker's, no longer held


def test_archive_jobs_are_taken_back_too(demo):
    job = ArchiveJob.objects.create(
        kind="export",
        collection=demo["collection"],
        file_name="a.zip",
        status="running",
        worker_id="dead:1",
        attempts=1,
        heartbeat_at=timezone.now() - timedelta(minutes=5),
    )
    assert leases.recover() == [f"ArchiveJob {job.pk}: queued again"]
    job.refresh_from_db()
    assert job.status == "queued"
    assert job.resume_state["interruptions"][0].startswith("Interrupted at its start")


@pytest.mark.parametrize(
    ("error", "lost_connection"),
    [
        (InterfaceError("connection already closed"), True),
        (IntegrityError("duplicate key"), False),
        (
            OperationalError("database is locked"),
            None,
        ),  # no server code: lost on PostgreSQL, a lock on SQLite
    ],
)
def test_a_connection_lost_is_told_from_a_refusal(error, lost_connection):
    from django.db import connection

    expected = (connection.vendor == "postgresql") if lost_connection is None else lost_connection
    assert connection_lost(error) is expected


@override_settings(JOB_MAX_ATTEMPTS=3)
def test_a_job_this_worker_lost_with_its_connection_does_not_count_as_an_attempt(demo):
    """A database that flaps for a few seconds must not fail every running import (an operator cut
    the connections three times in three seconds, and the job failed)."""
    job = make_job(demo, "ducview", "fixtures.zip", upload())
    ImportJob.objects.filter(pk=job.pk).update(
        status="running", worker_id=leases.worker_id(), attempts=3, heartbeat_at=timezone.now()
    )
    assert leases.recover() == [
        f"ImportJob {job.pk}: queued again"
    ]  # not held here: lost with the connection
    job.refresh_from_db()
    assert job.status == "queued"
    assert job.attempts == 2
    assert not lease_expired(job.queued_at)
    assert job.resume_state["interruptions"][0].endswith(
        f"(worker {leases.worker_id()} lost its database connection)."
    )


@override_settings(JOB_MAX_ATTEMPTS=1)
def test_a_stopped_summaries_job_says_resume_starts_it_again(demo):
    job = make_job(demo, "summaries", "x.zip", b"x")
    lost(job, attempts=1)
    leases.recover()
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.report[-1].endswith("Nothing of it was stored; Resume starts it again.")
    assert job.report_sections["interruptions"] == job.report
    assert job.report_sections["summary"] == []
