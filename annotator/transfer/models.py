"""The records of background work: import and archive jobs with the bytes they need kept in the
database, and the workers' heartbeats. What counts as alive (a lease) is read here; the worker's
own logic is annotator.transfer.leases."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Count, Q
from django.utils import timezone

from annotator.campaigns.models import Collection


def lease() -> timedelta:
    """How long a job or a worker is taken for alive without a beat (JOB_LEASE_SECONDS)."""
    return timedelta(seconds=settings.JOB_LEASE_SECONDS)


def lease_start() -> datetime:
    """A beat older than this is a lost one."""
    return timezone.now() - lease()


def lease_expired(when: datetime) -> bool:
    return when < lease_start()


# How annotator.transfer.leases begins the report lines about interruptions (put apart from what
# was stored).
INTERRUPTION_PREFIXES = ("Interrupted at ", "Stopped after ")


class BackgroundJob(models.Model):
    """Work a worker does in the background, with the bytes it needs kept in the database (web
    processes keep nothing on their own disk), its progress and its outcome."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    file_name = models.CharField(max_length=300)
    # The bytes (an upload until it is stored, an export's archive until the job is deleted) are in
    # its chunks (ImportJobChunk, ArchiveJobChunk; annotator.transfer.job_bytes): written and read a
    # piece at a time, never held whole in memory.
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    report = models.JSONField(
        default=list, blank=True, help_text="What was done, or every problem found."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(
        default=timezone.now, help_text="When it was queued last (made, taken back, resumed)."
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    # The lease (annotator.transfer.leases): the worker running the job beats while it runs; a job
    # whose beat stopped (a worker killed, its database connection lost) is resumed by another
    # worker.
    worker_id = models.CharField(
        max_length=64, blank=True, help_text="The worker running it, or that ran it last."
    )
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="How many times a worker has started it."
    )
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="When its worker last said it is running it."
    )
    resume_state = models.JSONField(
        default=dict,
        blank=True,
        help_text="What a resumed run goes on from (the files done, the report so far).",
    )
    interrupted = models.BooleanField(
        default=False,
        help_text=(
            "Failed because it was interrupted too often: its bytes are kept, "
            "and it can be resumed."
        ),
    )

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.get_kind_display()} {self.file_name} ({self.get_status_display().lower()})"

    # A worker polls for tasks every second or so: a job still queued after this long has most
    # likely no worker to take it (issue 16), and the page says so rather than "Queued" forever.
    WORKER_PATIENCE = timedelta(seconds=30)

    @property
    def waiting_long(self) -> bool:
        """Queued for longer than a free worker would leave it."""
        return (
            self.status == self.Status.QUEUED
            and timezone.now() - self.queued_at > self.WORKER_PATIENCE
        )

    @property
    def lease_seconds(self) -> int:
        return round(settings.JOB_LEASE_SECONDS)

    @property
    def goes_on_where_it_stopped(self) -> bool:
        """A DUCView import goes on after the files it had done; other jobs are one transaction (or
        one snapshot) and start again."""
        return getattr(self, "kind", None) == "ducview"

    @property
    def beat_lost(self) -> bool:
        """Running, but its worker has not said so for longer than a lease: it was interrupted, and
        a worker will resume it (annotator.transfer.leases)."""
        return self.status == self.Status.RUNNING and lease_expired(
            self.heartbeat_at or self.created_at
        )

    @property
    def workers(self) -> dict[str, int]:
        """How many workers said they are alive within a lease, and how many of them run a job."""

        # (Aliases other than the field's name `running`, which the filter reads.)
        counts = WorkerBeat.objects.alive().aggregate(
            alive=Count("pk"), with_job=Count("pk", filter=~Q(running=""))
        )
        return {"running": counts["alive"], "busy": counts["with_job"]}

    @property
    def workers_running(self) -> int:
        return self.workers["running"]


class ImportJob(BackgroundJob):
    """An upload to a collection, stored whole so that any worker can process it
    (annotator.transfer.jobs)."""

    class Kind(models.TextChoices):
        SUMMARIES = "summaries", "Summaries (.txt files or a zip)"
        DUCVIEW = "ducview", "DUCView files (.pyr, .pan or a zip of them)"
        UNITS = "units", "Unit sets (REALSumm or Lite Pyramid files)"

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="import_jobs")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    options = models.JSONField(default=dict, blank=True)

    class Meta(BackgroundJob.Meta):
        pass

    @property
    def refused_count(self) -> int:
        return len(self.report_sections["refused"])

    @property
    def report_sections(self) -> dict[str, list[str]]:
        """The report's lines by kind: what was stored, the files refused, the warnings
        (annotator.transfer.importing.ImportReport.lines writes them "refused: …" and
        "warning: …")."""
        sections: dict[str, list[str]] = {
            "summary": [],
            "refused": [],
            "warnings": [],
            "interruptions": [],
        }
        for line in self.report:
            if line.startswith(INTERRUPTION_PREFIXES):
                sections["interruptions"].append(line)
            elif line.startswith("refused: "):
                sections["refused"].append(line.removeprefix("refused: "))
            elif line.startswith("warning: "):
                sections["warnings"].append(line.removeprefix("warning: "))
            else:
                sections["summary"].append(line)
        return sections


class ArchiveJob(BackgroundJob):
    """A collection archive written (export) or read into a new collection (restore) in the
    background (annotator.transfer.archive, annotator.transfer.archive_jobs). The bytes are kept in
    the row, so that any worker and any web process can reach them: the upload of a restore until
    it is stored, the archive an export wrote until the job is deleted."""

    class Kind(models.TextChoices):
        EXPORT = "export", "Export"
        RESTORE = "restore", "Restore"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    collection = models.ForeignKey(
        Collection,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="archive_jobs",
        help_text="Export: the collection written. Restore: the collection made, once it is.",
    )
    name = models.CharField(
        max_length=200, blank=True, help_text="Restore: the name asked for (blank: the archive's)."
    )

    class Meta(BackgroundJob.Meta):
        pass


class JobChunk(models.Model):
    """A piece of a job's bytes (at most annotator.transfer.job_bytes.CHUNK_BYTES), in order."""

    index = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        abstract = True
        ordering = ["job", "index"]
        constraints = [models.UniqueConstraint(fields=["job", "index"], name="%(class)s_once")]


class ImportJobChunk(JobChunk):
    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="chunks")


class ArchiveJobChunk(JobChunk):
    job = models.ForeignKey(ArchiveJob, on_delete=models.CASCADE, related_name="chunks")


class WorkerBeatQuerySet(models.QuerySet):
    def alive(self):
        return self.filter(seen_at__gte=lease_start())


class WorkerBeat(models.Model):
    """A background worker (`manage.py db_worker`) saying it is alive, every few seconds: the job
    pages tell "no worker is running" from "the workers are busy", and a container's health check
    asks whether its worker still beats (`manage.py worker_alive`)."""

    worker_id = models.CharField(max_length=64, unique=True)
    hostname = models.CharField(max_length=255, blank=True)
    pid = models.PositiveIntegerField("PID", default=0)
    started_at = models.DateTimeField()
    seen_at = models.DateTimeField()
    running = models.CharField(
        max_length=100, blank=True, help_text="The job it is running, e.g. 'import 12'."
    )

    objects = WorkerBeatQuerySet.as_manager()

    def __str__(self):
        return f"worker {self.worker_id} on {self.hostname}"
