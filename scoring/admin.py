from django.contrib import admin

from scoring.models import Report


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    """Read-only: reports are computed by tasks; deleting one makes the next view compute it
    again."""

    list_display = ["kind", "collection", "status", "created_at", "finished_at", "requested_by"]
    list_filter = ["kind", "status", "collection"]
    readonly_fields = [
        "collection",
        "kind",
        "parameters",
        "fingerprint",
        "status",
        "result",
        "error",
        "requested_by",
        "created_at",
        "finished_at",
    ]

    def has_add_permission(self, request):
        return False
