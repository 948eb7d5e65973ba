"""Reports computed in the background and kept until the records they come from change."""

from django.conf import settings
from django.db import models


class Report(models.Model):
    """One report of a collection (agreement, ranking, correlations, stability, pyramid shapes),
    computed by a task; `fingerprint` says which state of the records it was computed from."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    collection = models.ForeignKey(
        "annotator.Collection", on_delete=models.CASCADE, related_name="reports"
    )
    kind = models.CharField(max_length=40)
    parameters = models.JSONField(default=dict, blank=True)
    fingerprint = models.CharField(max_length=64)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    result = models.JSONField(
        null=True, blank=True, help_text="Tables: [{title, columns, rows, note}], and plot data."
    )
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["collection", "kind", "fingerprint"], name="report_lookup")]

    def __str__(self):
        return f"{self.kind} of {self.collection} ({self.get_status_display().lower()})"
