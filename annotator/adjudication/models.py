"""The records of consensus work (issues 8 and 15): a consensus pyramid merged from two or more
pyramids, a consensus annotation from a peer's annotations."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from annotator.peer_annotation.models import PeerAnnotation
from annotator.pyramids.models import Pyramid


def merges_of(pyramid) -> Q:
    """The merges (PyramidMerge) made from `pyramid` (an id, or an OuterRef to one), on any side."""
    return Q(source_a=pyramid) | Q(source_b=pyramid) | Q(further_sources__pyramid=pyramid)


class PyramidMerge(models.Model):
    """A consensus pyramid an adjudicator makes from two annotators' pyramids (issue 8).

    `groups` are the sources' SCUs aligned by their words when the merge began
    (annotator.adjudication.alignment), each {"key", "kind", "a": [uids], "b": [uids]}; the
    adjudicator decides each group, and the decisions are the consensus's PyramidChanges with a
    `decision`."""

    consensus = models.OneToOneField(Pyramid, on_delete=models.CASCADE, related_name="merge")
    source_a = models.ForeignKey(Pyramid, on_delete=models.PROTECT, related_name="+")
    source_b = models.ForeignKey(Pyramid, on_delete=models.PROTECT, related_name="+")
    groups = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.consensus} (consensus of {', '.join(p.name for _, p in self.sides())})"

    @classmethod
    def made_from(cls, pyramid) -> models.QuerySet:
        """The merges made from `pyramid` (an id, or an OuterRef to one), on any side."""
        return cls.objects.filter(merges_of(pyramid))

    def sides(self) -> list[tuple[str, Pyramid]]:
        """The source pyramids by their side's letter: A and B, then C, D, ... where more than two
        were merged at once (PyramidMergeSource)."""
        prefetched = "further_sources" in getattr(self, "_prefetched_objects_cache", {})
        further = (
            self.further_sources.all()
            if prefetched
            else self.further_sources.select_related("pyramid", "pyramid__created_by")
        )
        return [("a", self.source_a), ("b", self.source_b)] + [(f.side, f.pyramid) for f in further]

    def side_ids(self) -> list[tuple[str, int]]:
        """[(side letter, source pyramid id)], without loading the pyramids."""
        return [("a", self.source_a_id), ("b", self.source_b_id)] + [
            (further.side, further.pyramid_id) for further in self.further_sources.all()
        ]  # prefetched where listed


class PyramidMergeSource(models.Model):
    """The third (fourth, ...) pyramid of a consensus merged from more than two at once (issue 15):
    A and B are the merge's source_a and source_b, C, D, ... these."""

    merge = models.ForeignKey(
        PyramidMerge, on_delete=models.CASCADE, related_name="further_sources"
    )
    side = models.CharField(max_length=1)
    pyramid = models.ForeignKey(Pyramid, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["side"]
        constraints = [
            models.UniqueConstraint(fields=["merge", "side"], name="one_pyramid_per_merge_side")
        ]

    def __str__(self):
        return f"{self.merge}: {self.side.upper()} = {self.pyramid}"


class AnnotationMerge(models.Model):
    """A consensus annotation of a peer an adjudicator makes from annotators' annotations of it
    against the same pyramid (issue 8); its groups are the SCUs (0: no SCU) the sources matched."""

    consensus = models.OneToOneField(PeerAnnotation, on_delete=models.CASCADE, related_name="merge")
    sources = models.ManyToManyField(PeerAnnotation, related_name="merged_into")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.consensus} (consensus)"
