"""The history of every edit of a pyramid or a peer annotation: what undo and redo replay and the
audit shows."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid


class ChangeRecord(models.Model):
    """One editing action: who, when, what; with the state before and after it.

    `before` and `after` are JSON snapshots that undo restores (`before`) and redo (`after`); see
    annotator.editing.history for the undo stack they form.
    """

    class State(models.TextChoices):
        APPLIED = "applied", "Applied"
        UNDONE = "undone", "Undone"
        DISCARDED = "discarded", "Discarded (undone, then superseded)"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=40)
    description = models.TextField()
    before = models.JSONField()
    after = models.JSONField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.APPLIED)
    decision = models.JSONField(
        null=True,
        blank=True,
        help_text=(
            "In a consensus: the adjudication decision this change made, "
            '{"groups": [...], "choice": ...}.'
        ),
    )

    class Meta:
        abstract = True


class PyramidChange(ChangeRecord):
    """An edit of a pyramid. Snapshots hold the SCUs it touched (keyed by uid; null for an SCU that
    did not exist) and the order of all SCUs (annotator.pyramids.editing)."""

    pyramid = models.ForeignKey(Pyramid, on_delete=models.CASCADE, related_name="changes")

    class Meta:
        ordering = ["pyramid_id", "id"]
        indexes = [models.Index(fields=["pyramid", "state", "id"], name="pyramidchange_stack")]

    def __str__(self):
        return f"{self.pyramid} #{self.pk}: {self.description}"


class PeerAnnotationChange(ChangeRecord):
    """An edit of a peer annotation. Snapshots hold the PSEs it changed (rows written before
    issue 19: all its PSEs; annotator.peer_annotation.editing)."""

    annotation = models.ForeignKey(PeerAnnotation, on_delete=models.CASCADE, related_name="changes")

    class Meta:
        ordering = ["annotation_id", "id"]
        indexes = [models.Index(fields=["annotation", "state", "id"], name="peerchange_stack")]

    def __str__(self):
        return f"{self.annotation} #{self.pk}: {self.description}"
