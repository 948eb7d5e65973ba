"""The records of coverage judgments (issue 21)."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from annotator.campaigns.models import Docset, Summary, WorkRecord
from annotator.pyramids.models import SCU


class UnitSet(models.Model):
    """The units a docset's peers are judged against, and how they are judged."""

    class Method(models.TextChoices):
        SEE = "see", "SEE coverage (Harman & Over 2004)"
        PRESENCE = "presence", "Unit presence (Lite Pyramid, REALSumm)"

    class Scale(models.TextChoices):
        """The answers a judge gives; each stored as its value, read as a fraction by `fraction`."""

        PRESENT_ABSENT = "present_absent", "Present (p) or absent (n)"
        FIVE_POINT = "five_point", "All, most, some, hardly any, none (4 to 0; DUC 2001, 2003)"
        PERCENT = "percent", "0, 20, 40, 60, 80, 100 % (DUC 2002)"

    class Source(models.TextChoices):
        MODELS = "models", "Cut from the model summaries"
        PYRAMID = "pyramid", "The labels of a pyramid's SCUs"
        HAND = "hand", "Written by hand"
        IMPORTED = "imported", "Imported"

    docset = models.ForeignKey(Docset, on_delete=models.CASCADE, related_name="unit_sets")
    name = models.CharField(max_length=200, help_text='e.g. "SEE model A" or "Lite Pyramid"')
    method = models.CharField(max_length=20, choices=Method.choices)
    scale = models.CharField(max_length=20, choices=Scale.choices)
    source = models.CharField(max_length=20, choices=Source.choices)
    pyramid = models.ForeignKey(
        "annotator.Pyramid",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="unit_sets",
        help_text="The pyramid whose SCU labels the units are (source: pyramid).",
    )
    source_name = models.CharField(max_length=300, blank=True)
    version = models.PositiveIntegerField(
        default=1, help_text="Raised by each change to the units: two editors never overwrite."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # Each scale's answers, in the order the judging page offers them, and its largest value.
    ANSWERS = {
        Scale.PRESENT_ABSENT: (1.0, 0.0),
        Scale.FIVE_POINT: (4.0, 3.0, 2.0, 1.0, 0.0),
        Scale.PERCENT: (100.0, 80.0, 60.0, 40.0, 20.0, 0.0),
    }

    class Meta:
        ordering = ["docset_id", "name"]
        constraints = [
            models.UniqueConstraint(fields=["docset", "name"], name="unitset_unique_name"),
            # Presence is judged present or absent; SEE on one of its two scales.
            models.CheckConstraint(
                condition=(Q(method="presence") & Q(scale="present_absent"))
                | (Q(method="see") & Q(scale__in=["five_point", "percent"])),
                name="unitset_scale_fits_method",
            ),
        ]

    def __str__(self):
        return f"{self.docset.name} {self.name}"

    @property
    def answers(self) -> tuple[float, ...]:
        return self.ANSWERS[self.Scale(self.scale)]

    def fraction(self, value: float) -> float:
        """An answer as a fraction of full coverage: p 1, n 0; 4 of 4; 60 of 100."""
        return value / self.answers[0]


class Unit(models.Model):
    """One piece of content to look for in a peer: a clause of a model (SEE), an SCU's label or a
    short sentence (presence)."""

    unit_set = models.ForeignKey(UnitSet, on_delete=models.CASCADE, related_name="units")
    position = models.PositiveIntegerField(help_text="Order in which judges see the units.")
    text = models.TextField()
    model = models.ForeignKey(
        Summary,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="units",
        help_text="The model summary the unit was cut from (SEE), or written from.",
    )
    start = models.PositiveIntegerField(
        null=True, blank=True, help_text="Where the unit lies in its model's text (code points)."
    )
    end = models.PositiveIntegerField(null=True, blank=True)
    scu = models.ForeignKey(
        SCU,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="units",
        verbose_name="SCU",
    )
    weight = models.PositiveIntegerField(
        default=1, help_text="The SCU's weight, for the weighted presence score; 1 otherwise."
    )
    external_id = models.CharField(
        max_length=100, blank=True, help_text="The unit's id in an imported file (REALSumm)."
    )

    class Meta:
        ordering = ["unit_set_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["unit_set", "position"], name="unit_unique_position"),
            models.CheckConstraint(condition=~Q(text=""), name="unit_text_not_empty"),
            models.CheckConstraint(
                condition=(Q(start__isnull=True) & Q(end__isnull=True))
                | (Q(start__isnull=False) & Q(end__gt=models.F("start"))),
                name="unit_span_ordered",
            ),
        ]

    def __str__(self):
        return f"unit {self.position} of {self.unit_set}: {self.text}"


class JudgmentTask(WorkRecord):
    """One judge's judgments of one peer against a unit set: the work assigned, and its answers."""

    unit_set = models.ForeignKey(UnitSet, on_delete=models.CASCADE, related_name="tasks")
    peer = models.ForeignKey(Summary, on_delete=models.PROTECT, related_name="judgment_tasks")
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="judgment_tasks",
    )
    judge_code = models.CharField(
        max_length=100,
        blank=True,
        help_text='The judge as an imported file names them, e.g. "crowd 1".',
    )
    withdrawn = models.BooleanField(
        default=False, help_text="Taken back from the judge; the answers given stay."
    )
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["unit_set_id", "peer_id", "judge_code", "judge_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["unit_set", "peer", "judge"],
                condition=Q(judge__isnull=False),
                name="judgmenttask_unique_user",
            ),
            models.UniqueConstraint(
                fields=["unit_set", "peer", "judge_code"],
                condition=Q(judge__isnull=True),
                name="judgmenttask_unique_judge_code",
            ),
        ]

    @property
    def judge_name(self) -> str:
        """The judge as reports name them: the imported code, else the username."""
        return self.judge_code or (self.judge.username if self.judge else f"#{self.pk}")

    def __str__(self):
        return f"{self.unit_set} peer {self.peer.author} by {self.judge_name}"


class Judgment(models.Model):
    """A judge's answer for one unit in one peer."""

    task = models.ForeignKey(JudgmentTask, on_delete=models.CASCADE, related_name="judgments")
    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="judgments")
    value = models.FloatField(help_text="On the unit set's scale: 1/0; 4 to 0; 100 to 0.")
    sentences = models.JSONField(
        default=list,
        blank=True,
        help_text="SEE: the [start, end) spans of the peer sentences that express the unit.",
    )
    seconds = models.FloatField(
        null=True, blank=True, help_text="Time the judge took for this answer (none if imported)."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["task_id", "unit_id"]
        constraints = [
            models.UniqueConstraint(fields=["task", "unit"], name="judgment_unique_unit"),
        ]

    def __str__(self):
        return f"{self.task}: unit {self.unit.position} = {self.value:g}"
