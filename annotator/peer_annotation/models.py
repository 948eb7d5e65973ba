"""The records of a peer annotation: a peer summary matched against a pyramid; its PSEs point to an
SCU of that pyramid, or to none (a zero-weight PSE), and have spans in the peer summary."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from annotator.campaigns.models import Summary, WorkRecord
from annotator.pyramids.models import SCU, Pyramid, TextSpan


class PeerAnnotation(WorkRecord):
    """A peer summary annotated against a pyramid by one annotator."""

    pyramid = models.ForeignKey(Pyramid, on_delete=models.PROTECT, related_name="peer_annotations")
    peer = models.ForeignKey(Summary, on_delete=models.PROTECT, related_name="peer_annotations")
    annotator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="peer_annotations",
    )
    annotator_code = models.CharField(
        max_length=100,
        blank=True,
        help_text='Annotator id as in the score tables, e.g. "100" or "H".',
    )
    source_name = models.CharField(max_length=300, blank=True)
    peer_as_written = models.CharField(
        max_length=100,
        blank=True,
        help_text="The peer's id as the imported file wrote it, where it differs from the "
        "peer's (\"01\" for system 1 in DUC 2006's D0647): NIST's table writes it so.",
    )
    fingerprint = models.CharField(
        max_length=64, blank=True, help_text="Hash of the imported content."
    )
    scus_changed = models.JSONField(
        "SCUs changed",
        default=list,
        blank=True,
        help_text="uids of SCUs changed in the pyramid since this annotation was last reviewed.",
    )

    @property
    def needs_review(self) -> bool:
        return bool(self.scus_changed)

    @property
    def annotator_name(self) -> str:
        """Who annotated, as score tables and exports name them: the imported annotator id, else
        the user's username; "" if neither (a user since deleted). Load `annotator` along."""
        return self.annotator_code or (self.annotator.username if self.annotator else "")

    @property
    def annotator_label(self) -> str:
        """Who annotated, where a page or a report must tell annotations apart: `annotator_name`,
        else "#" and the annotation's id."""
        return self.annotator_name or f"#{self.pk}"

    class Meta:
        ordering = ["pyramid_id", "peer_id", "annotator_code"]
        constraints = [
            # One annotation of a peer per annotator: a user of this app, or an imported annotator
            # id.
            models.UniqueConstraint(
                fields=["pyramid", "peer", "annotator"],
                condition=Q(annotator__isnull=False),
                name="peerannotation_unique_user",
            ),
            models.UniqueConstraint(
                fields=["pyramid", "peer", "annotator_code"],
                condition=Q(annotator__isnull=True),
                name="peerannotation_unique_annotator_code",
            ),
        ]

    def __str__(self):
        return f"{self.pyramid} peer {self.peer.author} by {self.annotator_name or '?'}"


class PSE(models.Model):
    """A Peer SCU Expression: peer words that express an SCU, or no SCU (weight zero)."""

    annotation = models.ForeignKey(PeerAnnotation, on_delete=models.CASCADE, related_name="pses")
    scu = models.ForeignKey(
        SCU,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="pses",
        verbose_name="SCU",
        help_text="Empty for content that matches no SCU (a zero-weight PSE).",
    )
    comment = models.TextField(blank=True)
    position = models.PositiveIntegerField(default=0)
    source = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="In a consensus annotation: the annotator's PSE this one was taken from.",
    )
    suggestion_rank = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=(
            "The rank (1: the first) of the suggestion the annotator matched this PSE from; "
            "empty if it was matched otherwise (issue 20)."
        ),
    )

    class Meta:
        ordering = ["annotation_id", "position", "id"]
        verbose_name = "PSE"

    def __str__(self):
        return f"PSE {self.pk} -> {self.scu_id or 'no SCU'}"


class PSESpan(TextSpan):
    """A part of a PSE, in the annotation's peer summary."""

    pse = models.ForeignKey(PSE, on_delete=models.CASCADE, related_name="spans", verbose_name="PSE")

    class Meta(TextSpan.Meta):
        verbose_name = "PSE span"
        constraints = [TextSpan.bounds_constraint("psespan_start_before_end")]

    def __str__(self):
        return f"{self.start}-{self.end}"


class PeerSCUComment(models.Model):
    """A comment DUCView kept on an SCU within one peer annotation (<peerscu comment=...>)."""

    annotation = models.ForeignKey(
        PeerAnnotation, on_delete=models.CASCADE, related_name="scu_comments"
    )
    scu = models.ForeignKey(
        SCU, null=True, blank=True, on_delete=models.CASCADE, verbose_name="SCU"
    )
    comment = models.TextField()

    class Meta:
        verbose_name = "peer SCU comment"
        constraints = [
            models.UniqueConstraint(fields=["annotation", "scu"], name="peerscucomment_unique"),
        ]
