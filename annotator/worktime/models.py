"""Active time on task (issue 20): one running total per user and piece of work."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q

from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid


class WorkTime(models.Model):
    """A user's active time on a pyramid or a peer annotation (issue 20): the time between their
    successive actions on it (edits and selections), each pause longer than ACTIVE_GAP left out,
    so that time away from the page does not count. Kept as a running total: one row a user and
    piece of work, updated at each action (annotator.worktime)."""

    ACTIVE_GAP = timedelta(minutes=5)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="work_times"
    )
    pyramid = models.ForeignKey(
        Pyramid, null=True, blank=True, on_delete=models.CASCADE, related_name="work_times"
    )
    annotation = models.ForeignKey(
        PeerAnnotation,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="work_times",
    )
    active_seconds = models.FloatField(default=0)
    actions = models.PositiveIntegerField(default=0)
    first_action_at = models.DateTimeField()
    last_action_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(pyramid__isnull=False) & Q(annotation__isnull=True))
                | (Q(pyramid__isnull=True) & Q(annotation__isnull=False)),
                name="worktime_one_piece_of_work",
            ),
            models.UniqueConstraint(
                fields=["user", "pyramid"],
                condition=Q(pyramid__isnull=False),
                name="worktime_unique_pyramid",
            ),
            models.UniqueConstraint(
                fields=["user", "annotation"],
                condition=Q(annotation__isnull=False),
                name="worktime_unique_annotation",
            ),
        ]

    def __str__(self):
        work = (
            f"pyramid {self.pyramid_id}" if self.pyramid_id else f"annotation {self.annotation_id}"
        )
        return f"{self.user} on {work}: {self.active_seconds:.0f} s"
