"""The records of a campaign: collections and their conventions, members and roles, docsets,
summaries (model or peer), the work given out (Assignment), human judgments; and what every
piece of work shares (WorkRecord, WorkStatus)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class WeightConvention(models.TextChoices):
    CONTRIBUTORS = "contributors", "Number of contributors (DUCView, the NIST tables)"
    MODELS = "models", "Number of distinct model summaries (the papers, SacreROUGE)"


class AverageRounding(models.TextChoices):
    """How X_a, the average number of SCUs per model (Passonneau 2009 eq. 2), is made whole."""

    HALF_UP = "half_up", "Half up (DUCView 1.4, the NIST tables)"
    FLOOR = "floor", "Floor (DUCView 1.5)"
    CEIL = "ceil", "Ceiling (SacreROUGE)"
    FRACTIONAL = "fractional", "Not rounded (PyrEval v2)"


class WorkStatus(models.TextChoices):
    """Where a piece of work stands: Pyramid.Status, PeerAnnotation.Status, JudgmentTask.Status."""

    IN_PROGRESS = "in_progress", "In progress"
    SUBMITTED = "submitted", "Submitted"


class WorkRecord(models.Model):
    """What every piece of work one person does and submits shares (Pyramid, PeerAnnotation,
    JudgmentTask): where it stands, its version — raised by every change, so that a stale view is
    refused (optimistic locking, annotator.editing) — and when it was made and last changed. Who
    does it is each model's own, named as the method names them (a pyramid's creator, a peer's
    annotator, a task's judge)."""

    Status = WorkStatus

    status = models.CharField(
        max_length=20, choices=WorkStatus.choices, default=WorkStatus.IN_PROGRESS
    )
    version = models.PositiveIntegerField(
        default=1, help_text="Raised by every change (optimistic locking)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True


class Collection(models.Model):
    """An evaluation campaign, e.g. "DUC 2006"."""

    name = models.CharField(max_length=200, unique=True)
    description = models.TextField(blank=True)
    weight_convention = models.CharField(
        max_length=20, choices=WeightConvention.choices, default=WeightConvention.CONTRIBUTORS
    )
    average_rounding = models.CharField(
        "rounding of X_a",
        max_length=20,
        choices=AverageRounding.choices,
        default=AverageRounding.HALF_UP,
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        # Site-wide roles, given through the groups "Administrators" and "Organizers"
        # (annotator.apps.ROLE_GROUPS); a collection's own roles are its Memberships.
        permissions = [
            ("administer_all_collections", "Can administer every collection"),
            ("read_all_collections", "Can read and export every collection"),
        ]

    def __str__(self):
        return self.name


class Role(models.TextChoices):
    """What a member may do in a collection (annotator.campaigns.access says what each role
    allows)."""

    ANNOTATOR = "annotator", "Annotator"  # sees and works on what is assigned to them
    ORGANIZER = "organizer", "Organizer"  # reads everything, exports scores, edits nothing
    ADMINISTRATOR = "administrator", "Administrator"  # manages docsets, summaries, members, work
    ADJUDICATOR = (
        "adjudicator",
        "Adjudicator",
    )  # reads everything, compares annotators' work (issue 8)


class Membership(models.Model):
    """A user's role in a collection. A user may hold several roles in one collection."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=Role.choices)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["collection_id", "role", "user_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "user", "role"], name="membership_unique_role"
            )
        ]

    def __str__(self):
        return f"{self.user} {self.get_role_display().lower()} of {self.collection}"


class Docset(models.Model):
    """A topic (document set) of a collection, e.g. D0601."""

    collection = models.ForeignKey(Collection, on_delete=models.CASCADE, related_name="docsets")
    name = models.CharField(max_length=100)
    title = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["collection_id", "name"]
        constraints = [
            models.UniqueConstraint(fields=["collection", "name"], name="docset_unique_name")
        ]

    def __str__(self):
        return self.name


class Summary(models.Model):
    """A model (human) or peer (system or human) summary of a docset, with its exact text."""

    class Kind(models.TextChoices):
        MODEL = "model", "Model"
        PEER = "peer", "Peer"

    docset = models.ForeignKey(Docset, on_delete=models.CASCADE, related_name="summaries")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    author = models.CharField(max_length=100, help_text='Author or system id, e.g. "A" or "10".')
    name = models.CharField(
        max_length=200, blank=True, help_text='File or header name, e.g. "D0601.M.250.A.A".'
    )
    text = models.TextField()

    class Meta:
        ordering = ["docset_id", "kind", "author"]
        verbose_name_plural = "summaries"
        constraints = [
            models.UniqueConstraint(
                fields=["docset", "kind", "author"], name="summary_unique_author"
            ),
            # A system that produced nothing has an empty peer summary (NIST scores it 0); a model
            # summary is never empty.
            models.CheckConstraint(
                condition=~Q(text="") | Q(kind="peer"), name="summary_text_not_empty"
            ),
        ]

    def __str__(self):
        return f"{self.docset.name} {self.get_kind_display().lower()} {self.author}"


class Assignment(models.Model):
    """Work given to an annotator: build a pyramid, or annotate a peer against a pyramid."""

    class Task(models.TextChoices):
        BUILD_PYRAMID = "pyramid", "Build the pyramid"
        ANNOTATE_PEER = "peer", "Annotate a peer summary"

    class Status(models.TextChoices):
        ASSIGNED = "assigned", "Assigned"
        IN_PROGRESS = "in_progress", "In progress"
        DONE = "done", "Done"
        WITHDRAWN = "withdrawn", "Withdrawn"  # the work done stays; the user no longer sees it

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments"
    )
    task = models.CharField(max_length=10, choices=Task.choices)
    pyramid = models.ForeignKey(
        "annotator.Pyramid", on_delete=models.CASCADE, related_name="assignments"
    )
    peer = models.ForeignKey(
        Summary, null=True, blank=True, on_delete=models.CASCADE, related_name="assignments"
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ASSIGNED)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    ACTIVE = [Status.ASSIGNED, Status.IN_PROGRESS, Status.DONE]

    class Meta:
        ordering = ["user_id", "pyramid_id", "peer_id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(task="pyramid") & Q(peer__isnull=True))
                | (Q(task="peer") & Q(peer__isnull=False)),
                name="assignment_peer_matches_task",
            ),
            models.UniqueConstraint(
                fields=["user", "task", "pyramid", "peer"],
                name="assignment_unique",
                nulls_distinct=False,
            ),
        ]

    def __str__(self):
        target = f"peer {self.peer.author}" if self.peer_id else "pyramid"
        return f"{self.user} {self.get_task_display().lower()}: {self.pyramid} {target}"


class HumanJudgment(models.Model):
    """A human judgment of a summary, e.g. content responsiveness, for correlation studies."""

    summary = models.ForeignKey(Summary, on_delete=models.CASCADE, related_name="judgments")
    criterion = models.CharField(max_length=100, help_text='e.g. "content responsiveness"')
    judge = models.CharField(max_length=100, blank=True)
    value = models.FloatField()

    class Meta:
        ordering = ["summary_id", "criterion", "judge"]
        constraints = [
            models.UniqueConstraint(
                fields=["summary", "criterion", "judge"], name="judgment_unique"
            ),
        ]

    def __str__(self):
        return f"{self.summary} {self.criterion} = {self.value}"
