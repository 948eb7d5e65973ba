"""Collection archives in the REST API: the pages' export and restore
(annotator.transfer.views.archives), as background jobs, with the same permissions: readers of a
collection export it, site administrators restore an archive as a new collection. A job is followed
at /api/archive-jobs/{id}/; a finished export's archive is downloaded from its `download`."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from annotator.api.base_serializers import ID, RefusalSerializer
from annotator.campaigns import access
from annotator.campaigns.models import Collection
from annotator.transfer import archive, archive_jobs
from annotator.transfer.api.imports import resumed_job
from annotator.transfer.downloads import archive_response
from annotator.transfer.models import ArchiveJob


class ArchiveJobSerializer(serializers.ModelSerializer):
    created_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    download = serializers.SerializerMethodField(
        help_text="Where the archive is downloaded, once an export is done."
    )

    class Meta:
        model = ArchiveJob
        fields = [
            "id",
            "kind",
            "status",
            "collection",
            "name",
            "file_name",
            "total",
            "done",
            "report",
            "created_by",
            "created_at",
            "queued_at",
            "finished_at",
            "attempts",
            "interrupted",
            "heartbeat_at",
            "download",
        ]

    def get_download(self, job) -> str | None:
        if job.kind == ArchiveJob.Kind.EXPORT and job.status == ArchiveJob.Status.DONE:
            return reverse(
                "api-archivejob-download", args=[job.pk], request=self.context.get("request")
            )
        return None


class ArchiveRestoreSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="A collection archive (.zip), as an export wrote it.")
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text="The new collection's name; empty: the archive's. A name in use is refused.",
    )

    def validate_file(self, file):
        if file.size > settings.MAX_UPLOAD_BYTES:
            raise serializers.ValidationError(
                f"An upload may hold at most {settings.MAX_UPLOAD_BYTES // (1024 * 1024)} MB."
            )
        return file

    def validate_name(self, name):
        name = name.strip()
        if name and Collection.objects.filter(name=name).exists():
            raise serializers.ValidationError(f"A collection named {name} exists already.")
        return name

    def validate(self, data):
        # As the restore page: what a restore would refuse first is said now, not by a failed job.
        try:
            archive.check(data["file"], data.get("name"))
        except archive.ArchiveError as problem:
            raise serializers.ValidationError(
                {"name" if "exists already" in str(problem) else "file": [str(problem)]}
            ) from None
        finally:
            data["file"].seek(0)
        return data


def _job(request, job: ArchiveJob, code=status.HTTP_202_ACCEPTED) -> Response:
    return Response(ArchiveJobSerializer(job, context={"request": request}).data, status=code)


class CollectionArchiveView(APIView):
    @extend_schema(
        request=None,
        responses={202: ArchiveJobSerializer, 403: RefusalSerializer},
        description="Start writing the collection's archive (its readers: administrators, "
        "organizers, adjudicators). Follow the job at /api/archive-jobs/{id}/; download it from "
        "`download`.",
    )
    def post(self, request, pk: int):
        if not 0 <= pk < ID["max_value"]:
            raise NotFound("No such collection.")
        collection = access.visible_collections(request.user).filter(pk=pk).first()
        if collection is None:
            raise NotFound("No such collection.")
        if not access.can_read_collection(request.user, collection):
            raise PermissionDenied(
                "Archives are for the collection's organizers and administrators."
            )
        return _job(request, archive_jobs.export_job(collection, request.user))


class ArchiveJobViewSet(mixins.RetrieveModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Archive jobs: the exports of collections you see, and (site administrators) restores."""

    serializer_class = ArchiveJobSerializer
    filterset_fields = ["kind", "status", "collection"]

    def get_queryset(self):
        user = self.request.user
        # A list holds what the caller may read; a job of a collection they see but may not read is
        # 403.
        collections = (
            access.readable_collections(user)
            if self.action == "list"
            else access.visible_collections(user)
        )
        shown = Q(kind=ArchiveJob.Kind.EXPORT, collection__in=collections)
        if access.is_site_administrator(user):
            shown |= Q(kind=ArchiveJob.Kind.RESTORE)
        return ArchiveJob.objects.filter(shown).select_related("created_by").order_by("-id")

    def get_object(self):
        job = super().get_object()
        if job.kind == ArchiveJob.Kind.EXPORT and not access.can_read_collection(
            self.request.user, job.collection_id
        ):
            raise PermissionDenied(
                "Archives are for the collection's organizers and administrators."
            )
        return job

    def perform_content_negotiation(self, request, force=False):
        return super().perform_content_negotiation(
            request, force=True
        )  # a download answers whatever is accepted

    @extend_schema(
        request={"multipart/form-data": ArchiveRestoreSerializer},
        responses={202: ArchiveJobSerializer, 403: RefusalSerializer},
        description="Restore an archive as a new collection (site administrators), in the "
        "background: the job's report says what was restored, or what is wrong with the archive "
        "(nothing stored).",
    )
    def create(self, request):
        if not access.is_site_administrator(request.user):
            raise PermissionDenied("Only site administrators restore collections.")
        given = ArchiveRestoreSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        file = given.validated_data["file"]
        return _job(
            request,
            archive_jobs.restore_job(
                file.name, file, given.validated_data.get("name", ""), request.user
            ),
        )

    @extend_schema(
        request=None,
        responses={202: ArchiveJobSerializer, 409: RefusalSerializer},
        description="Queue again a job stopped by interruptions (`interrupted`: its worker stopped "
        "too often); it starts again. 409 when the job is not such a job.",
    )
    @action(detail=True, methods=["post"])
    def resume(self, request, pk=None):
        return resumed_job(request, self.get_object(), _job)

    @extend_schema(
        responses={
            (200, "application/zip"): OpenApiResponse(
                OpenApiTypes.BINARY, description="The archive."
            )
        },
        description="The archive an export job wrote, once it is done (404 before).",
    )
    @action(detail=True, methods=["get"])
    def download(self, request, pk=None):
        return archive_response(self.get_object())
