"""`manage.py db_worker` runs unattended (issue 16): it goes on after its database connection is
cut, and a job whose worker was killed is resumed by another, storing each file once.

The workers here are real processes (the production settings: PostgreSQL is the queue), with a
short lease. To stop an import at a known point, the test holds a lock on the peer annotations'
table: the worker stores the pyramids, then waits on the lock in the first .pan file's transaction.
"""

import io
import os
import signal
import subprocess
import sys
import time
import zipfile

import psycopg
import pytest
from django.db import connection
from django.test import override_settings

from annotator.models import ImportJob, PeerAnnotation, Pyramid, WorkerBeat
from annotator.transfer import jobs
from tests.conftest import ROOT
from tests.helpers import stored_job

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.shared_data]
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
LEASE = 2  # seconds: a lost beat is noticed quickly


@pytest.fixture
def worker_database(postgresql_only):
    settings = connection.settings_dict
    host = settings["HOST"] or "127.0.0.1"
    port = settings["PORT"] or 5432
    return f"postgres://{settings['USER']}@{host}:{port}/{settings['NAME']}"


@pytest.fixture
def start_worker(worker_database):
    started = []

    def start(worker_id):
        env = {
            **os.environ,
            "DATABASE_URL": worker_database,
            "SECRET_KEY": "worker-test",
            "DEBUG": "",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "TASKS_BACKEND": "database",
            "JOB_LEASE_SECONDS": str(LEASE),
            "LOG_LEVEL": "INFO",
        }
        process = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "db_worker",
                "--worker-id",
                worker_id,
                "--no-startup-delay",
                "--interval",
                "0.2",
                "--no-reload",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        started.append(process)
        wait_for(
            lambda: WorkerBeat.objects.filter(worker_id=worker_id).exists(),
            f"worker {worker_id} beats",
            process=process,
        )
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def wait_for(condition, what, timeout=60, process=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        if process is not None and process.poll() is not None:
            raise AssertionError(
                f"the worker exited ({process.returncode}) before: {what}\n{process.stdout.read()}"
            )
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


def duc_upload(shared_data) -> bytes:
    folder = shared_data / "duc2006-nist"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in (
            sorted((folder / "allpyramids").glob("*.pyr"))
            + sorted((folder / "allpans").glob("*.pan"))[:12]
        ):
            archive.writestr(f"{path.parent.name}/{path.name}", path.read_bytes())
    return buffer.getvalue()


def queue_import(demo, shared_data) -> ImportJob:
    with override_settings(TASKS=DATABASE_QUEUE):
        return jobs.start(
            stored_job(
                ImportJob,
                content=duc_upload(shared_data),
                collection=demo["collection"],
                kind="ducview",
                file_name="duc.zip",
                created_by=demo["admin"],
            )
        )


class TableLock:
    """A lock on the peer annotations' table, held from another connection: an import waits on
    it."""

    def __init__(self, database):
        self.connection = psycopg.connect(database.replace("postgres://", "postgresql://"))
        self.connection.execute(f"LOCK TABLE {PeerAnnotation._meta.db_table} IN EXCLUSIVE MODE")

    def waiting(self) -> list[int]:
        """The backends waiting on a lock (the worker's, once it reaches the first .pan)."""
        return [
            pid
            for (pid,) in self.connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND "
                "wait_event_type = 'Lock'"
            )
        ]

    def release(self):
        self.connection.commit()
        self.connection.close()


def stored() -> tuple[int, int]:
    """The pyramids and peer annotations the upload stored (beside the demo's)."""
    return (
        Pyramid.objects.filter(docset__name__startswith="D06").count(),
        PeerAnnotation.objects.filter(pyramid__docset__name__startswith="D06").count(),
    )


def job_state(job):
    job.refresh_from_db()
    return job


def test_a_worker_whose_connection_is_terminated_goes_on(
    demo, shared_data, start_worker, worker_database
):
    worker = start_worker("survivor")
    # Cut every connection the worker holds while it waits for work (a PostgreSQL restart does the
    # same).
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    time.sleep(0.5)
    assert worker.poll() is None, "the worker exited when its connection was cut"
    # ... and again in the middle of a job: the job is taken back by the same worker and finished.
    lock = TableLock(worker_database)
    job = queue_import(demo, shared_data)
    try:
        wait_for(lambda: lock.waiting(), "the import waits on the lock", process=worker)
        waiting = lock.waiting()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [waiting]
            )
    finally:
        lock.release()
    wait_for(lambda: job_state(job).status == "done", "the job is done", process=worker)
    assert worker.poll() is None
    # Losing its connection is not the job's fault: it does not count towards JOB_MAX_ATTEMPTS.
    assert job.worker_id == "survivor", "\n".join(job.report)
    assert job.attempts == 1, "\n".join(job.report)
    assert job.report[0].startswith("Interrupted at ")
    assert "(worker survivor lost its database connection)" in job.report[0]
    # The resumed run went on from its last progress write: every file counted once, none refused.
    assert job.report[1].startswith("15 files: ")
    assert "12 peer annotations" in job.report[1]
    assert job.report[1].endswith("0 refused") or "0 refused;" in job.report[1]
    assert stored() == (3, 12)  # each file stored once
    assert not job.chunks.exists()  # the bytes are freed once the job ends


def test_a_job_whose_worker_is_killed_is_resumed_by_another_and_stores_each_file_once(
    demo, shared_data, start_worker, worker_database
):
    lock = TableLock(worker_database)
    first = start_worker("first")
    job = queue_import(demo, shared_data)
    try:
        wait_for(lambda: lock.waiting(), "the import waits on the lock", process=first)
        assert job_state(job).status == "running"
        assert job.worker_id == "first"
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        lock.release()
    # Files are committed about a second's worth at a time, with the progress that counts them
    # (annotator.transfer.batches): the pyramids if a batch ended after them, else nothing yet;
    # never anything of the .pan waiting on the lock.
    assert stored() in ((0, 0), (3, 0))
    second = start_worker("second")
    wait_for(lambda: job_state(job).status == "done", "the job is done", process=second)
    assert job.worker_id == "second"
    assert job.attempts == 2
    assert job.report[0].startswith("Interrupted at ")
    assert "(worker first stopped" in job.report[0]
    assert job.report[1].startswith("15 files: ")
    assert "12 peer annotations" in job.report[1]
    assert stored() == (3, 12)
    assert job.done == job.total == 15


def test_a_worker_waits_for_the_migrations_instead_of_exiting(worker_database, postgresql_only):
    """A worker started beside the container that migrates (docker-compose) waits, then runs."""
    empty = f"pyramid_unmigrated_{os.getpid()}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {empty}")
    try:
        env = {
            **os.environ,
            "DATABASE_URL": worker_database.rsplit("/", 1)[0] + f"/{empty}",
            "SECRET_KEY": "x",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "TASKS_BACKEND": "database",
            "LOG_LEVEL": "INFO",
        }
        process = subprocess.Popen(
            [sys.executable, "manage.py", "db_worker", "--no-reload", "--no-startup-delay"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        time.sleep(4)
        assert process.poll() is None, process.stdout.read()
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
        wait = psycopg.connect(
            env["DATABASE_URL"].replace("postgres://", "postgresql://"), autocommit=True
        )
        deadline = time.monotonic() + 30
        while not wait.execute("SELECT count(*) FROM annotator_workerbeat").fetchone()[0]:
            assert time.monotonic() < deadline, "the worker never started after the migrations"
            time.sleep(0.2)
        wait.close()
        process.terminate()
        output = process.communicate(timeout=15)[0]
        assert "The database is not migrated yet" in output
        assert "The database is migrated: starting." in output
    finally:
        if process.poll() is None:
            process.kill()
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {empty} WITH (FORCE)")


def test_where_work_runs_inside_the_request_the_worker_says_so_and_exits_cleanly(tmp_path):
    """SQLite's default (TASKS_BACKEND=immediate): nothing for a worker to do; the README's
    `python manage.py db_worker`, typed against the demo database, explains that instead of
    failing."""
    environment = {
        key: value for key, value in os.environ.items() if key not in ("TASKS_BACKEND", "DEBUG")
    }
    environment |= {"DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}", "SECRET_KEY": "x"}
    result = subprocess.run(
        [sys.executable, "manage.py", "db_worker"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "nothing for a worker to do" in result.stdout
    assert "TASKS_BACKEND=immediate" in result.stdout
    assert "Traceback" not in result.stderr
