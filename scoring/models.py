"""Reports computed in the background and kept until the records they come from change."""

from django.conf import settings
from django.db import models
from django.db.models import F
from django.db.models.lookups import IsNull

SCORE_COLUMNS = ("modified", "original", "coverage", "comprehensive")  # undefined where no SCU
COUNT_COLUMNS = ("unique_scus", "repetitions", "non_matching")


def score_sort_indexes() -> list[models.Index]:
    """The indexes a score table sorted by a stored column reads in order, one collection at a
    time, so that a page is the first rows of an index scan rather than a sort of the whole
    collection (scoring.scores.score_table.ordered_annotations orders by exactly these expressions).
    Undefined scores come last in either direction: sorted by "is it undefined" first, which needs
    no NULLS LAST (SQLite has none in an index), and an index per direction."""
    indexes = []
    for column in SCORE_COLUMNS:
        undefined = IsNull(F(column), True)
        indexes += [
            models.Index(F("collection"), undefined, F(column), name=f"stored_{column}_asc"),
            models.Index(
                F("collection"), undefined, F(column).desc(), name=f"stored_{column}_desc"
            ),
        ]
    # Counts are never undefined: one index, read backwards for the descending order.
    indexes += [
        models.Index(fields=["collection", column], name=f"stored_{column}")
        for column in COUNT_COLUMNS
    ]
    return indexes


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


class StoredScore(models.Model):
    """A peer annotation's scores as last computed, so that a score table can be sorted and cut
    into pages in the database (issue 19: sorting 23,000 annotations by a score in Python took
    seconds a page).

    Only for ordering: the rows a page shows are scored afresh from the records. A stored score is
    current while the annotation's and its pyramid's `updated_at` (every edit raises them, as the
    reports' fingerprints rely on) and the collection's conventions are those it was computed
    under; scoring.stored_scores recomputes the others before a sort."""

    annotation = models.OneToOneField(
        "annotator.PeerAnnotation",
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="stored_score",
    )
    # The annotation's collection (it never changes), so that a sort reads one collection's index.
    collection = models.ForeignKey(
        "annotator.Collection", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    annotation_updated_at = models.DateTimeField()
    pyramid_updated_at = models.DateTimeField()
    weight_convention = models.CharField(max_length=20)
    average_rounding = models.CharField(max_length=20)
    modified = models.FloatField(null=True)
    original = models.FloatField(null=True)
    coverage = models.FloatField(null=True)
    comprehensive = models.FloatField(null=True)
    unique_scus = models.PositiveIntegerField("unique SCUs")
    repetitions = models.PositiveIntegerField()
    non_matching = models.PositiveIntegerField()

    class Meta:
        indexes = score_sort_indexes()

    def __str__(self):
        return f"scores of annotation {self.annotation_id}"


class StoredPyramidAgreement(models.Model):
    """A docset's pyramid agreement (Passonneau 2009 §4.1.4: its units and alphas) as last computed
    for one set of its pyramids, so that `agreement --kind pyramids` and the agreement report
    compute again only the docsets whose pyramids or models changed (issue 32: at 50 DUC years,
    every run took seconds for a thousand docsets).

    Current while its `fingerprint` (scoring.agreement.records: the pyramids' ids and versions,
    which every edit raises, and their models' ids and texts) is the group's as it now is."""

    docset = models.ForeignKey("annotator.Docset", on_delete=models.CASCADE, related_name="+")
    pyramids = models.TextField(help_text="The pyramids' ids, in order: 12,15")
    fingerprint = models.CharField(max_length=64)
    same_words = models.BooleanField(help_text="Whether the pyramids' models have the same words.")
    units = models.PositiveIntegerField(default=0)
    alphas = models.JSONField(default=dict, help_text="Alpha by distance; null where undefined.")
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["docset", "pyramids"], name="one_agreement_per_group")
        ]

    def __str__(self):
        return f"pyramid agreement of docset {self.docset_id} (pyramids {self.pyramids})"


class StoredSystemMeans(models.Model):
    """A collection's per-system mean scores (the scores page's systems view: scoring.scores.tables.
    system_means) as last computed for one choice of what counts, so that the view reads one row
    rather than averaging every annotation of the collection again (issue 32: at 50 DUC years the
    database's averaging alone took 80 ms a view, and grew with the collection).

    Current while its `fingerprint` (scoring.scores.system_means: the collection's annotations and
    pyramids, counted, with their versions, statuses and latest change, and its conventions) is
    the collection's as it now is."""

    collection = models.ForeignKey(
        "annotator.Collection", on_delete=models.CASCADE, related_name="+"
    )
    adjudicated = models.BooleanField()
    include_in_progress = models.BooleanField()
    fingerprint = models.CharField(max_length=64)
    means = models.JSONField(
        help_text="Each system's means, best first (scoring.scores.tables.SystemMean)."
    )
    by_status = models.JSONField(help_text="The counted annotations by status.")
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["collection", "adjudicated", "include_in_progress"],
                name="one_system_means_per_choice",
            )
        ]

    def __str__(self):
        return f"system means of collection {self.collection_id}"
