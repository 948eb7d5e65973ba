"""Imports in the REST API: the upload pages' background jobs (annotator.transfer.jobs), with the
same checks (the pages' forms validate the files) and the same permissions (the collection's
administrators): DUCView files, summaries, and unit sets (issue 21: REALSumm's or Lite Pyramid's
files, as `import_units` and the page import them). POST files to /api/import-jobs/, then follow
the job at /api/import-jobs/{id}/ until it is done: its report says what was stored, each file
refused and why, and the warnings."""

from __future__ import annotations

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, PermissionDenied, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from annotator.api.base import AddedViewSet
from annotator.api.base_serializers import RefusalSerializer
from annotator.campaigns import access
from annotator.campaigns.models import Collection
from annotator.coverage.import_form import FORMAT_CHOICES, UnitsImportForm
from annotator.transfer import jobs, leases
from annotator.transfer.forms import DucviewImportForm, SummaryUploadForm
from annotator.transfer.models import ImportJob


class NotResumable(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "not_resumable"


def resumed_job(request, job, answer):
    """The API's Resume: the job queued again (202), or 409 when it was not stopped by
    interruptions."""
    if not leases.resume(job):
        raise NotResumable(
            f"This job is {job.get_status_display().lower()}, not stopped by interruptions: "
            "there is nothing to resume."
        )
    job.refresh_from_db()
    return answer(request, job)


class ImportJobSerializer(serializers.ModelSerializer):
    created_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    stored = serializers.SerializerMethodField(
        help_text="What was stored (or, for a failed job, every problem)."
    )
    refused = serializers.SerializerMethodField(
        help_text='Each file refused, "file: reason"; nothing of it was stored.'
    )
    warnings = serializers.SerializerMethodField(
        help_text="What was kept as the files had it (DUCView's oddities; for unit sets, rows "
        "and answers the files hold oddly), file by file."
    )
    interruptions = serializers.SerializerMethodField(
        help_text="Each time its worker stopped under it, and how it went on "
        "(annotator.transfer.leases)."
    )

    class Meta:
        model = ImportJob
        fields = [
            "id",
            "collection",
            "kind",
            "file_name",
            "status",
            "total",
            "done",
            "stored",
            "refused",
            "warnings",
            "interruptions",
            "options",
            "created_by",
            "created_at",
            "queued_at",
            "finished_at",
            "attempts",
            "interrupted",
            "heartbeat_at",
        ]

    def get_stored(self, job) -> list[str]:
        return job.report_sections["summary"]

    def get_refused(self, job) -> list[str]:
        return job.report_sections["refused"]

    def get_warnings(self, job) -> list[str]:
        return job.report_sections["warnings"]

    def get_interruptions(self, job) -> list[str]:
        return job.report_sections["interruptions"]


class ImportUploadSerializer(serializers.Serializer):
    collection = serializers.PrimaryKeyRelatedField(queryset=Collection.objects.all())
    kind = serializers.ChoiceField(choices=ImportJob.Kind.choices)
    files = serializers.ListField(
        child=serializers.FileField(),
        allow_empty=False,
        help_text="DUCView .pyr/.pan files or one zip of them; or summaries (.txt or a zip); or "
        "unit sets: REALSumm's SCUs_list.csv and crowd batch CSVs, or Lite Pyramid's ids.txt, "
        "SCUs.txt, *.summary and *.label files, or a zip of either.",
    )
    # The unit sets' fields are the upload page's (annotator.coverage.import_form).
    format = serializers.ChoiceField(
        choices=FORMAT_CHOICES,
        required=False,
        help_text="Unit sets (required for them): the files' format, as `import_units --format`.",
    )
    unit_set = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="Unit sets: the name of the unit sets made (default: the format's, as "
        "`import_units`).",
    )
    docset = serializers.CharField(
        required=False, allow_blank=True, help_text="DUCView: docset of every file."
    )
    peer = serializers.CharField(
        required=False, allow_blank=True, help_text="DUCView: peer of every .pan."
    )
    annotator = serializers.CharField(
        required=False, allow_blank=True, help_text="DUCView: annotator of every .pan."
    )


# Each kind's upload form, the page's.
FORMS = {
    ImportJob.Kind.DUCVIEW: DucviewImportForm,
    ImportJob.Kind.SUMMARIES: SummaryUploadForm,
    ImportJob.Kind.UNITS: UnitsImportForm,
}


class ImportJobViewSet(
    AddedViewSet,
):
    """Import jobs of the collections you administer."""

    serializer_class = ImportJobSerializer
    filterset_fields = ["collection", "kind", "status"]
    parser_classes = [MultiPartParser, FormParser]

    def get_queryset(self):
        return (
            ImportJob.objects.filter(
                collection__in=access.administered_collections(self.request.user)
            )
            .select_related("created_by")
            .order_by("-created_at", "-id")
        )

    @extend_schema(
        request={"multipart/form-data": ImportUploadSerializer},
        responses={202: ImportJobSerializer, 403: RefusalSerializer},
        description="Upload files into a collection you administer; they are imported in the "
        "background exactly as the upload pages and the commands import them: `kind` ducview "
        "as `import_ducview`, summaries as the summaries upload, units (unit sets, with their "
        "peers and judgments) as `import_units --format {realsumm,lite-pyramid}`, `format` "
        "required.",
    )
    def create(self, request, *args, **kwargs):
        upload = ImportUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        collection = upload.validated_data["collection"]
        if not access.visible_collections(request.user).filter(pk=collection.pk).exists():
            raise ValidationError(
                {"collection": [f'Invalid pk "{collection.pk}" - object does not exist.']}
            )
        if not access.can_administer(request.user, collection):
            raise PermissionDenied("Only the collection's administrators import into it.")
        kind = upload.validated_data["kind"]
        # The pages' forms: the same checks (names, sizes, one zip or several files) by both paths.
        form = FORMS[kind](request.data, request.FILES)
        if not form.is_valid():
            raise ValidationError(
                {
                    field: [e["message"] for e in errors]
                    for field, errors in form.errors.get_json_data().items()
                }
            )
        # What the job reads besides the files, as the pages store it.
        if isinstance(form, DucviewImportForm):
            options = form.identity_options()
        elif isinstance(form, UnitsImportForm):
            options = form.options()
        else:
            options = {}
        job = jobs.queue_upload(collection, kind, form.cleaned_data["files"], request.user, options)
        return Response(
            ImportJobSerializer(job, context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED,
        )

    @extend_schema(
        request=None,
        responses={202: ImportJobSerializer, 409: RefusalSerializer},
        description="Queue again an import stopped by interruptions (`interrupted`: its worker "
        "stopped too often); it goes on from where it stopped. 409 when the job is not such a "
        "job.",
    )
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return resumed_job(
            request,
            self.get_object(),
            lambda request, job: Response(
                ImportJobSerializer(job, context={"request": request}).data,
                status=status.HTTP_202_ACCEPTED,
            ),
        )
