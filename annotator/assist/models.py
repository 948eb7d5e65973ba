"""Proposals to confirm (issue 20): what the ranker proposed for a clause of a peer, and what the
annotator did with it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from annotator.peer_annotation.models import PSE, PeerAnnotation
from annotator.pyramids.models import SCU


class Proposal(models.Model):
    """A match the ranker proposes for words of a peer (annotator.assist): shown as a ghost mark
    until the annotator accepts it, which makes it a PSE, or rejects it (issue 20). A proposal is
    never scored: scores, exports and agreement read PSEs only."""

    class State(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"

    annotation = models.ForeignKey(
        PeerAnnotation, on_delete=models.CASCADE, related_name="proposals"
    )
    scu = models.ForeignKey(SCU, on_delete=models.CASCADE, related_name="+", verbose_name="SCU")
    start = models.PositiveIntegerField(help_text="First character in the peer's text.")
    end = models.PositiveIntegerField(help_text="One past the last character.")
    score = models.FloatField(help_text="The ranker's confidence in the match.")
    ranker = models.CharField(max_length=40)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    pse = models.ForeignKey(
        PSE,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name="PSE",
        help_text="The PSE accepting the proposal made (the annotator may have edited its span).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["annotation_id", "start", "id"]
        indexes = [models.Index(fields=["annotation", "state"], name="proposal_state")]
        constraints = [
            models.CheckConstraint(condition=Q(end__gt=F("start")), name="proposal_span"),
        ]

    def __str__(self):
        return f"proposal {self.pk}: {self.start}-{self.end} -> SCU {self.scu_id} ({self.state})"
