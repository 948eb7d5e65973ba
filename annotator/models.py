"""The records of a Pyramid evaluation, named as in the method (Passonneau 2009 §2).

Collection > Docset > Summary (model or peer).
Pyramid: built from a docset's model summaries; its SCUs group Contributors, whose Spans lie in
the model summaries. PeerAnnotation: a peer summary matched against a pyramid; its PSEs point to
an SCU of that pyramid, or to none (a zero-weight PSE), and have spans in the peer summary.

Offsets are Python code points into Summary.text, 0-based, end exclusive. An SCU's weight is
derived from its contributors (see Collection.weight_convention), never stored.
"""

from datetime import timedelta
from functools import cached_property

from django.conf import settings
from django.db import models
from django.db.models import Case, Count, Exists, F, OuterRef, Q, When
from django.utils import timezone


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
    """Where a pyramid or a peer annotation stands: Pyramid.Status and PeerAnnotation.Status."""

    IN_PROGRESS = "in_progress", "In progress"
    SUBMITTED = "submitted", "Submitted"


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


class Pyramid(models.Model):
    """The SCUs an annotator found in a docset's model summaries."""

    Status = WorkStatus

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
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
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
    version = models.PositiveIntegerField(
        default=1, help_text="Raised by every change (optimistic locking)."
    )
    last_uid = models.PositiveIntegerField(
        "last UID",
        default=0,
        help_text=(
            "The largest SCU uid this pyramid's edits have given: a number is never given twice "
            "(a merged or removed SCU's number would name two SCUs in the history)."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

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
    def model_texts(self) -> list["PyramidModel"]:
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
        return PyramidMerge.objects.filter(merges_of(self.pk)).exists()

    @staticmethod
    def merged_from() -> Exists:
        """`consensus_merged_from`, as an expression to annotate pyramids with (the edit engine
        reads it with the pyramid it locks: no query of its own)."""
        return Exists(PyramidMerge.objects.filter(merges_of(OuterRef("pk"))))

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
    def with_weight(self, convention: str | None = None) -> "SCUQuerySet":
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


class PeerAnnotation(models.Model):
    """A peer summary annotated against a pyramid by one annotator."""

    Status = WorkStatus

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
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.IN_PROGRESS)
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
    version = models.PositiveIntegerField(default=1)
    scus_changed = models.JSONField(
        "SCUs changed",
        default=list,
        blank=True,
        help_text="uids of SCUs changed in the pyramid since this annotation was last reviewed.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

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
    pyramid = models.ForeignKey(Pyramid, on_delete=models.CASCADE, related_name="assignments")
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
        from annotator.transfer.leases import (
            lease_expired,  # the lease's length is a setting, read there
        )

        return self.status == self.Status.RUNNING and lease_expired(
            self.heartbeat_at or self.created_at
        )

    @property
    def workers(self) -> dict[str, int]:
        """How many workers said they are alive within a lease, and how many of them run a job."""
        from django.db.models import Count

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
        from annotator.transfer.leases import lease_start

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


# Coverage judgments (issue 21) live in their own module; imported here so that they are models
# of this app.
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet  # noqa: E402, F401
