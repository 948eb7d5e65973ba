"""Leases on background jobs: work that loses its worker is noticed and resumed by itself.

A worker (`manage.py db_worker`, annotator/management/commands/db_worker.py) claims a queued job
(`claim`: one UPDATE from queued to running, so two workers never run one job) and, while it runs
it, a heartbeat thread writes the time into the job every few seconds (`beat`) and into the
worker's own row (WorkerBeat). The same thread looks for jobs whose beat stopped (`recover`): the
worker running them was killed, ran out of memory, or lost its database connection. Such a job is
queued again, and its next run goes on from where the last one stopped (the files stored are
kept; annotator.transfer.jobs saves how far it got); after JOB_MAX_ATTEMPTS interruptions it fails
with a message and keeps its bytes, and a Resume button (or the API) queues it again (`resume`).

The lease lasts JOB_LEASE_SECONDS (60 by default) and the worker beats six times in a lease, so a
job is taken back a minute after its worker died. A worker that lost its connection takes back its
own jobs as soon as the database answers again.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from contextlib import contextmanager
from datetime import datetime

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from annotator.text.plurals import counted

# What counts as alive is a fact of the records (annotator.transfer.models); the worker reads it.
from annotator.transfer.models import ArchiveJob, BackgroundJob, ImportJob, WorkerBeat, lease_start

logger = logging.getLogger(__name__)
Status = BackgroundJob.Status
JOB_MODELS = (ImportJob, ArchiveJob)

_worker_id = f"{socket.gethostname()}:{os.getpid()}"[
    :64
]  # a web process running a job inside its request
_held: set[tuple[type[BackgroundJob], int]] = set()  # the jobs this process runs now
_held_lock = threading.Lock()


def worker_id() -> str:
    return _worker_id


def set_worker_id(value: str) -> None:
    global _worker_id
    _worker_id = value


def claim(queryset, pk: int):
    """The job, now running in this process; None when it is not queued (run already, or taken by
    another worker: a task can be delivered twice)."""
    model = queryset.model
    with _held_lock:
        _held.add((model, pk))  # before the UPDATE: `recover` never sees it running and not held
    claimed = model.objects.filter(pk=pk, status=Status.QUEUED).update(
        status=Status.RUNNING,
        worker_id=worker_id(),
        attempts=F("attempts") + 1,
        heartbeat_at=timezone.now(),
        interrupted=False,
        finished_at=None,
    )
    if not claimed:
        release(model, pk)
        return None
    return queryset.get(pk=pk)


def release(model: type, pk: int) -> None:
    with _held_lock:
        _held.discard((model, pk))


@contextmanager
def held(job: BackgroundJob):
    """While the block runs, the heartbeat says this process runs the job."""
    try:
        yield job
    finally:
        release(type(job), job.pk)


def held_jobs() -> dict[type[BackgroundJob], list[int]]:
    with _held_lock:
        pairs = sorted(_held, key=lambda pair: (pair[0].__name__, pair[1]))
    held_by_model: dict[type[BackgroundJob], list[int]] = {}
    for model, pk in pairs:
        held_by_model.setdefault(model, []).append(pk)
    return held_by_model


def beat(started_at: datetime | None = None) -> None:
    """This worker is alive, and runs the jobs it holds."""
    now = timezone.now()
    running = held_jobs()
    now_said = {
        "seen_at": now,
        "hostname": socket.gethostname()[:255],
        "pid": os.getpid(),
        "running": ", ".join(
            f"{model.__name__} {pk}" for model, pks in running.items() for pk in pks
        )[:100],
    }
    WorkerBeat.objects.update_or_create(
        worker_id=worker_id(),
        defaults=now_said,
        create_defaults={**now_said, "started_at": started_at or now},
    )
    for model, pks in running.items():
        # The abstract model's subclass: its default manager is `objects`.
        model._default_manager.filter(
            pk__in=pks, status=Status.RUNNING, worker_id=worker_id()
        ).update(heartbeat_at=now)


def recover() -> list[str]:
    """Every running job whose worker stopped beating, or that this worker ran before it lost its
    connection (or before it restarted under the same id), queued again or failed; what was done,
    one line a job."""
    done: list[str] = []
    held_now = held_jobs()
    for model in JOB_MODELS:
        mine_not_held = Q(worker_id=worker_id()) & ~Q(pk__in=held_now.get(model, []))
        beat_lost = Q(heartbeat_at__lt=lease_start()) | Q(
            heartbeat_at__isnull=True, created_at__lt=lease_start()
        )
        with transaction.atomic():
            for job in model.objects.select_for_update(skip_locked=True).filter(
                beat_lost | mine_not_held, status=Status.RUNNING
            ):
                # This worker is alive and lost the job with its connection: not the job's fault, so
                # it does not count towards JOB_MAX_ATTEMPTS (a database that flaps for a few
                # seconds must not fail every import); a worker that stopped beating might have been
                # killed by the job itself (out of memory), and that counts.
                done.append(_interrupted(job, counts=job.worker_id != worker_id()))
    return done


def _interrupted(job: BackgroundJob, counts: bool = True) -> str:
    unit = "file" if isinstance(job, ImportJob) else "record"
    where = f"{job.done} of {counted(job.total, unit)}" if job.total else "its start"
    why = (
        "lost its database connection"
        if not counts
        else "stopped: killed, out of memory, or cut off from its database"
    )
    note = (
        f"Interrupted at {where} on {timezone.localtime():%Y-%m-%d %H:%M:%S} (worker "
        f"{job.worker_id or '?'} {why})."
    )
    state = {
        **job.resume_state,
        "interruptions": [*job.resume_state.get("interruptions", []), note],
    }
    if counts and job.attempts >= settings.JOB_MAX_ATTEMPTS:
        job.__class__._default_manager.filter(pk=job.pk).update(
            status=Status.FAILED,
            interrupted=True,
            finished_at=timezone.now(),
            resume_state=state,
            report=[
                *state["interruptions"],
                f"Stopped after {job.attempts} interrupted runs. "
                + (
                    "What was stored is kept; Resume goes on from there."
                    if job.goes_on_where_it_stopped
                    else "Nothing of it was stored; Resume starts it again."
                ),
            ],
        )
        logger.warning(
            "job %s %s failed: interrupted %s times", type(job).__name__, job.pk, job.attempts
        )
        return f"{type(job).__name__} {job.pk}: failed after {job.attempts} interruptions"
    job.__class__._default_manager.filter(pk=job.pk).update(
        status=Status.QUEUED,
        worker_id="",
        resume_state=state,
        queued_at=timezone.now(),
        attempts=F("attempts") - (0 if counts else 1),
    )
    transaction.on_commit(lambda: task_of(job).enqueue(job.pk))
    logger.warning("job %s %s interrupted at %s: queued again", type(job).__name__, job.pk, where)
    return f"{type(job).__name__} {job.pk}: queued again"


def resume(job: BackgroundJob) -> bool:
    """Queue again a job that failed on interruptions (the Resume button); False if it cannot be."""
    resumed = job.__class__._default_manager.filter(
        pk=job.pk, status=Status.FAILED, interrupted=True
    ).update(
        status=Status.QUEUED,
        attempts=0,
        interrupted=False,
        finished_at=None,
        worker_id="",
        report=[],
        queued_at=timezone.now(),
    )
    if resumed:
        transaction.on_commit(lambda: task_of(job).enqueue(job.pk))
    return bool(resumed)


class LeaseLost(Exception):
    """The job was taken back from this worker (its beat was lost for a lease, and another worker
    resumes it): this run stops without writing anything more."""


class Progress:
    """A running job's progress, written at most once a second (and at the end), with what a
    resumed run needs; each write checks that the job is still this worker's (LeaseLost if not)."""

    EVERY_SECONDS = 1.0

    def __init__(self, job: BackgroundJob, *, total: int, done: int = 0):
        self.job, self.last = job, time.monotonic()
        self._write(total=total, done=done)

    def save(self, done: int, state, *, force: bool = False) -> bool:
        """`state(done)`: the resume state after `done` files (only asked for when it is
        written). Whether it was written."""
        now = time.monotonic()
        if force or now - self.last >= self.EVERY_SECONDS:
            self.last = now
            self._write(done=done, resume_state={**self.job.resume_state, **state(done)})
            return True
        return False

    def _write(self, **fields) -> None:
        for name, value in fields.items():
            setattr(self.job, name, value)
        mine = type(self.job)._default_manager.filter(
            pk=self.job.pk, status=Status.RUNNING, worker_id=worker_id()
        )
        if not mine.update(heartbeat_at=timezone.now(), **fields):
            raise LeaseLost(f"{type(self.job).__name__} {self.job.pk}")


def task_of(job: BackgroundJob):
    """The task that runs a job of this kind (imported here: the task modules import this one)."""
    if isinstance(job, ImportJob):
        from annotator.transfer.jobs import run_import_job

        return run_import_job
    from annotator.transfer.archive_jobs import run_archive_job

    return run_archive_job


class Heartbeat(threading.Thread):
    """The worker's beat, on a thread (and a database connection) of its own, so that it goes on
    while a long job holds the main thread; it also takes back the jobs that lost theirs."""

    def __init__(self):
        super().__init__(name="job-heartbeat", daemon=True)
        self.stopping = threading.Event()
        self.started_at = timezone.now()

    def run(self) -> None:
        try:
            while True:
                self.once()
                if self.stopping.wait(settings.JOB_LEASE_SECONDS / 6):
                    return
        finally:
            connection.close()

    def once(self) -> None:
        try:
            beat(self.started_at)
            for line in recover():
                logger.warning("%s", line)
        except DatabaseError as error:
            # The database is away (a restart, a failover): try again at the next beat, on a new
            # connection.
            logger.warning("heartbeat: the database did not answer (%s)", str(error).strip())
            connection.close()

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=10)
