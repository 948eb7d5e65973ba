"""The records of a pyramid: built from a docset's model summaries, its SCUs group Contributors,
whose Spans lie in the model summaries. An SCU's weight is derived from its contributors
(`scu_weight`, under the collection's convention), never stored."""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Case, Count, Exists, F, OuterRef, Q, When

from annotator.campaigns.models import Docset, Summary, WeightConvention, WorkRecord


class Pyramid(WorkRecord):
    """The SCUs an annotator found in a docset's model summaries."""

    docset = models.ForeignKey(Docset, on_delete=models.CASCADE, related_name="pyramids")
    name = models.CharField(max_length=200, help_text='e.g. "D0703-ACDJ"')
    models_used = models.ManyToManyField(
        Summary, through="PyramidModel", related_name="pyramids", verbose_name="model summaries"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="pyramids",
    )
    creator_code = models.CharField(
        max_length=100, blank=True, help_text="Creator id from imported data."
    )
    start_document_regex = models.TextField(
        blank=True, help_text="DUCView's startDocumentRegEx, if any."
    )
    trailer = models.TextField(
        blank=True, help_text="Text after the last model in the DUCView file."
    )
    fingerprint = models.CharField(
        max_length=64, blank=True, help_text="Hash of the imported content."
    )
    source_name = models.CharField(max_length=300, blank=True)
    last_uid = models.PositiveIntegerField(
        "last UID",
        default=0,
        help_text=(
            "The largest SCU uid this pyramid's edits have given: a number is never given twice "
            "(a merged or removed SCU's number would name two SCUs in the history)."
        ),
    )

    class Meta:
        ordering = ["docset_id", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["docset", "fingerprint"],
                condition=~Q(fingerprint=""),
                name="pyramid_unique_content",
            ),
            # Commands and reports name pyramids: one name, one pyramid of a docset.
            models.UniqueConstraint(fields=["docset", "name"], name="pyramid_unique_name"),
        ]

    def __str__(self):
        return self.name

    @cached_property
    def model_texts(self) -> list[PyramidModel]:
        """Its model links with their summaries, in the pyramid's order: read once per instance
        (a builder edit, its rules and its answer ask for them several times; the models of a
        pyramid do not change under an edit)."""
        return list(self.model_links.select_related("summary").order_by("position"))

    @cached_property
    def consensus_merged_from(self) -> bool:
        """Whether a consensus pyramid was merged from this one (issue 8): only then may its SCUs
        and contributors have copies whose provenance points here. Asked once per instance (an
        edit's snapshots ask it before and after), or read with it (`merged_from`, annotated as
        `merged_from_read`)."""
        read = getattr(self, "merged_from_read", None)
        if read is not None:
            return read
        return _merges_from(self.pk).exists()

    @staticmethod
    def merged_from() -> Exists:
        """`consensus_merged_from`, as an expression to annotate pyramids with (the edit engine
        reads it with the pyramid it locks: no query of its own)."""
        return Exists(_merges_from(OuterRef("pk")))

    @classmethod
    def free_name(cls, docset_id: int, wanted: str, own_id: int | None = None) -> str:
        """`wanted`, or `wanted (2)`, `(3)`… if another pyramid of the docset has that name."""
        taken = set(
            cls.objects.filter(docset_id=docset_id, name__startswith=wanted)
            .exclude(pk=own_id)
            .values_list("name", flat=True)
        )
        name, n = wanted, 1
        while name in taken:
            n += 1
            name = f"{wanted} ({n})"
        return name


class PyramidModel(models.Model):
    """A model summary a pyramid is built from, in the pyramid's order."""

    pyramid = models.ForeignKey(Pyramid, on_delete=models.CASCADE, related_name="model_links")
    summary = models.ForeignKey(Summary, on_delete=models.PROTECT, related_name="pyramid_links")
    position = models.PositiveIntegerField()
    header = models.TextField(
        blank=True, help_text="DUCView text before this model (blank lines, name)."
    )

    class Meta:
        ordering = ["pyramid_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["pyramid", "summary"], name="pyramidmodel_unique_summary"
            ),
            models.UniqueConstraint(
                fields=["pyramid", "position"], name="pyramidmodel_unique_position"
            ),
        ]

    def __str__(self):
        return f"{self.pyramid} / {self.summary.author}"


def scu_weight(convention: str | None = None) -> Count | Case:
    """An SCU's weight, as an expression to annotate SCUs with (SCUQuerySet.with_weight).

    WeightConvention.CONTRIBUTORS: the number of its contributors (DUCView; what the NIST tables
    count). WeightConvention.MODELS: the number of distinct model summaries contributing (the
    papers' definition). None: each SCU under its own collection's convention (read in the same
    query, through the SCU's pyramid and docset: SCUs of several collections at once).
    """
    by_contributors = Count("contributors", distinct=True)
    by_models = Count("contributors__summary", distinct=True)
    if convention is None:
        return Case(
            When(
                pyramid__docset__collection__weight_convention=WeightConvention.MODELS,
                then=by_models,
            ),
            default=by_contributors,
        )
    if convention == WeightConvention.CONTRIBUTORS:
        return by_contributors
    if convention == WeightConvention.MODELS:
        return by_models
    raise ValueError(f"no weight convention {convention!r}")


class SCUQuerySet(models.QuerySet):
    def with_weight(self, convention: str | None = None) -> SCUQuerySet:
        """The SCUs, each with `weight`: under `convention` (a WeightConvention), or, with None,
        under its own collection's convention. The one definition of an SCU's weight (it is never
        stored): pages, scores, reports, exports and the API all annotate it here."""
        return self.annotate(weight=scu_weight(convention))


class SCU(models.Model):
    """A Summary Content Unit: contributors from different models that express the same content."""

    pyramid = models.ForeignKey(Pyramid, on_delete=models.CASCADE, related_name="scus")
    uid = models.PositiveIntegerField(
        "UID", help_text="DUCView's uid; 0 is reserved for non-matching content."
    )
    label = models.TextField()
    comment = models.TextField(blank=True)
    position = models.PositiveIntegerField(default=0, help_text="Display order.")
    source = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="In a consensus pyramid: the annotator's SCU this one was taken from.",
    )

    objects = SCUQuerySet.as_manager()

    class Meta:
        ordering = ["pyramid_id", "position", "id"]
        verbose_name = "SCU"
        constraints = [
            models.UniqueConstraint(fields=["pyramid", "uid"], name="scu_unique_uid"),
            models.CheckConstraint(condition=Q(uid__gt=0), name="scu_uid_positive"),
            models.CheckConstraint(condition=~Q(label=""), name="scu_label_not_empty"),
        ]

    def __str__(self):
        return f"SCU {self.uid}: {self.label}"


class Contributor(models.Model):
    """The words of one model summary that express an SCU; several spans if discontinuous."""

    scu = models.ForeignKey(
        SCU, on_delete=models.CASCADE, related_name="contributors", verbose_name="SCU"
    )
    summary = models.ForeignKey(Summary, on_delete=models.PROTECT, related_name="contributors")
    comment = models.TextField(blank=True)
    position = models.PositiveIntegerField(default=0)
    source = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="In a consensus pyramid: the annotator's contributor this one was taken from.",
    )

    class Meta:
        ordering = ["scu_id", "position", "id"]

    def __str__(self):
        return f"contributor {self.pk} of {self.scu}"


class TextSpan(models.Model):
    """A part of a contributor or PSE: [start, end) in code points of its summary's text."""

    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    position = models.PositiveIntegerField(
        default=0, help_text="Insertion order, kept for DUCView files."
    )

    class Meta:
        abstract = True
        ordering = ["position"]

    @staticmethod
    def bounds_constraint(name: str) -> models.CheckConstraint:
        # end <= len(text) needs the summary's text: a trigger checks it (see the migrations).
        # start == end is an empty part: only imported, where DUCView's offsets placed no word
        # (annotator.transfer.importing); the editing operations refuse empty selections.
        return models.CheckConstraint(condition=Q(start__gte=0) & Q(start__lte=F("end")), name=name)


class Span(TextSpan):
    """A part of a contributor; it lies in one model summary."""

    contributor = models.ForeignKey(Contributor, on_delete=models.CASCADE, related_name="spans")
    summary = models.ForeignKey(Summary, on_delete=models.PROTECT, related_name="spans")

    class Meta(TextSpan.Meta):
        constraints = [TextSpan.bounds_constraint("span_start_before_end")]

    def __str__(self):
        return f"{self.start}-{self.end}"


def _merges_from(pyramid):
    """The consensus merges made from `pyramid` (an id, or an OuterRef to one): adjudication's
    model, looked up by name, as pyramids depend on nothing above them."""
    from django.apps import apps

    return apps.get_model("annotator", "PyramidMerge").made_from(pyramid)
