"""The Django admin for every record, usable by administrators from day one."""

from django.contrib import admin
from django.db.models import Count

from annotator.campaigns.models import (
    Assignment,
    Collection,
    Docset,
    HumanJudgment,
    Membership,
    Summary,
    WeightConvention,
)
from annotator.peer_annotation.models import PSE, PeerAnnotation, PeerSCUComment, PSESpan
from annotator.pyramids.models import SCU, Contributor, Pyramid, PyramidModel, Span
from annotator.pyramids.problems import pyramid_problems
from annotator.transfer.models import ArchiveJob, ImportJob, WorkerBeat


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["name", "weight_convention", "average_rounding", "created_at"]
    search_fields = ["name"]


@admin.register(Docset)
class DocsetAdmin(admin.ModelAdmin):
    list_display = ["name", "title", "collection"]
    list_filter = ["collection"]
    search_fields = ["name", "title"]


@admin.register(Summary)
class SummaryAdmin(admin.ModelAdmin):
    list_display = ["docset", "kind", "author", "name"]
    list_filter = ["kind", "docset__collection"]
    search_fields = ["docset__name", "author", "name", "text"]
    list_select_related = ["docset"]


class PyramidModelInline(admin.TabularInline):
    model = PyramidModel
    extra = 0
    fields = ["position", "summary"]
    raw_id_fields = ["summary"]


@admin.register(Pyramid)
class PyramidAdmin(admin.ModelAdmin):
    list_display = ["name", "docset", "status", "scu_count", "creator", "updated_at"]
    list_filter = ["status", "docset__collection"]
    search_fields = ["name", "docset__name"]
    list_select_related = ["docset", "created_by"]
    readonly_fields = ["fingerprint", "version", "problems"]
    raw_id_fields = ["created_by", "docset"]
    inlines = [PyramidModelInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(scu_total=Count("scus"))

    @admin.display(description="SCUs", ordering="scu_total")
    def scu_count(self, pyramid):
        return pyramid.scu_total

    @admin.display(description="creator")
    def creator(self, pyramid):
        return pyramid.created_by or pyramid.creator_code

    @admin.display(description="problems to review")
    def problems(self, pyramid):
        return "\n".join(p.message for p in pyramid_problems(pyramid)) or "none"


class ContributorInline(admin.TabularInline):
    model = Contributor
    extra = 0
    fields = ["summary", "comment", "position"]
    raw_id_fields = ["summary"]


@admin.register(SCU)
class SCUAdmin(admin.ModelAdmin):
    list_display = ["uid", "label", "weight", "pyramid"]
    list_filter = ["pyramid__docset__collection"]
    search_fields = ["label", "comment", "pyramid__name"]
    list_select_related = ["pyramid"]
    raw_id_fields = ["pyramid"]
    inlines = [ContributorInline]

    def get_queryset(self, request):
        return super().get_queryset(request).with_weight(WeightConvention.CONTRIBUTORS)

    @admin.display(description="weight (contributors)", ordering="weight")
    def weight(self, scu):
        return scu.weight


class SpanInline(admin.TabularInline):
    model = Span
    extra = 0
    fields = ["summary", "start", "end", "position"]
    raw_id_fields = ["summary"]


@admin.register(Contributor)
class ContributorAdmin(admin.ModelAdmin):
    list_display = ["id", "scu", "summary"]
    list_select_related = ["scu", "summary__docset"]
    raw_id_fields = ["scu", "summary"]
    search_fields = ["scu__label"]
    inlines = [SpanInline]


@admin.register(Span)
class SpanAdmin(admin.ModelAdmin):
    list_display = ["id", "contributor", "summary", "start", "end"]
    list_select_related = ["contributor__scu", "summary__docset"]
    raw_id_fields = ["contributor", "summary"]


class PSEInline(admin.TabularInline):
    model = PSE
    extra = 0
    fields = ["scu", "comment", "position"]
    raw_id_fields = ["scu"]


@admin.register(PeerAnnotation)
class PeerAnnotationAdmin(admin.ModelAdmin):
    list_display = ["pyramid", "peer", "annotator_label", "status", "updated_at"]
    list_filter = ["status", "pyramid__docset__collection"]
    search_fields = ["pyramid__name", "peer__author", "annotator_code", "annotator__username"]
    list_select_related = ["pyramid", "peer__docset", "annotator"]
    raw_id_fields = ["pyramid", "peer", "annotator"]
    readonly_fields = ["fingerprint", "version"]
    inlines = [PSEInline]

    @admin.display(description="annotator")
    def annotator_label(self, annotation):
        return annotation.annotator or annotation.annotator_code


class PSESpanInline(admin.TabularInline):
    model = PSESpan
    extra = 0
    fields = ["start", "end", "position"]


@admin.register(PSE)
class PSEAdmin(admin.ModelAdmin):
    list_display = ["id", "annotation", "scu"]
    list_select_related = ["annotation__pyramid", "annotation__peer__docset", "scu"]
    raw_id_fields = ["annotation", "scu"]
    inlines = [PSESpanInline]


@admin.register(PSESpan)
class PSESpanAdmin(admin.ModelAdmin):
    list_display = ["id", "pse", "start", "end"]
    raw_id_fields = ["pse"]


@admin.register(PeerSCUComment)
class PeerSCUCommentAdmin(admin.ModelAdmin):
    list_display = ["annotation", "scu", "comment"]
    raw_id_fields = ["annotation", "scu"]


@admin.register(PyramidModel)
class PyramidModelAdmin(admin.ModelAdmin):
    list_display = ["pyramid", "position", "summary"]
    list_select_related = ["pyramid", "summary__docset"]
    raw_id_fields = ["pyramid", "summary"]


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ["user", "task", "pyramid", "peer", "status", "created_at"]
    list_filter = ["task", "status"]
    search_fields = ["user__username", "pyramid__name"]
    list_select_related = ["user", "pyramid", "peer__docset"]
    raw_id_fields = ["pyramid", "peer"]

    def save_model(self, request, obj, form, change):
        if not change and obj.assigned_by_id is None:
            obj.assigned_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(HumanJudgment)
class HumanJudgmentAdmin(admin.ModelAdmin):
    list_display = ["summary", "criterion", "judge", "value"]
    list_filter = ["criterion"]
    list_select_related = ["summary__docset"]
    raw_id_fields = ["summary"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["collection", "user", "role", "added_at"]
    list_filter = ["role", "collection"]
    search_fields = ["user__username", "collection__name"]
    list_select_related = ["collection", "user"]


# Who ran a job and how it went (annotator.transfer.leases): shown, never edited by hand.
LEASE_FIELDS = ["worker_id", "attempts", "heartbeat_at", "resume_state", "interrupted"]


@admin.register(WorkerBeat)
class WorkerBeatAdmin(admin.ModelAdmin):
    """The workers that said they are alive, and what they run (read-only)."""

    # The columns are the read-only fields too: a tuple of names, which the stubs accept as both
    # (they type list_display as names or callables, readonly_fields as names).
    list_display: tuple[str, ...] = (
        "worker_id",
        "hostname",
        "pid",
        "started_at",
        "seen_at",
        "running",
    )
    readonly_fields = list_display

    def has_add_permission(self, request):
        return False


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Read-only: jobs are made by the upload pages and run by the worker."""

    list_display = [
        "file_name",
        "kind",
        "collection",
        "status",
        "done",
        "total",
        "created_by",
        "created_at",
    ]
    list_filter = ["kind", "status"]
    readonly_fields = [
        "collection",
        "kind",
        "file_name",
        "options",
        "status",
        "total",
        "done",
        "report",
        "created_by",
        "created_at",
        "finished_at",
        *LEASE_FIELDS,
    ]

    def has_add_permission(self, request):
        return False


@admin.register(ArchiveJob)
class ArchiveJobAdmin(admin.ModelAdmin):
    """Read-only: archive jobs are made by the collection pages and the API, and run by the
    worker."""

    list_display = [
        "file_name",
        "kind",
        "collection",
        "status",
        "done",
        "total",
        "created_by",
        "created_at",
    ]
    list_filter = ["kind", "status"]
    readonly_fields = [
        "kind",
        "collection",
        "name",
        "file_name",
        "status",
        "total",
        "done",
        "report",
        "created_by",
        "created_at",
        "finished_at",
        *LEASE_FIELDS,
    ]

    def has_add_permission(self, request):
        return False
