"""Campaigns in the REST API: collections (and their DUCView files as a zip), docsets, summaries,
assignments (given out in bulk, withdrawn, reassigned, as the Assign page does) and the human
judgments of the summaries, with the pages' permissions (annotator.campaigns.access)."""

from __future__ import annotations

import django_filters
from django.contrib.auth import get_user_model
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from annotator.api.base import (
    AddedViewSet,
    EditableViewSet,
    WritesTakeAnObject,
    WrittenIntoDocset,
    administers,
    deny,
    restrict,
)
from annotator.api.base_serializers import RefusalSerializer
from annotator.api.params import DOCSET_PARAMETER, docset_param
from annotator.campaigns import access, assignments
from annotator.campaigns.models import Assignment, Collection, Docset, HumanJudgment, Summary
from annotator.campaigns.progress import with_active_seconds
from annotator.campaigns.serializers import (
    AssignmentSerializer,
    AssignReportSerializer,
    AssignRequestSerializer,
    CollectionSerializer,
    DocsetSerializer,
    JudgmentSerializer,
    ReassignSerializer,
    SummarySerializer,
)
from annotator.editing.actions import status_for
from annotator.editing.errors import EditError, NotAllowed
from annotator.pyramids.models import Pyramid
from annotator.transfer.downloads import ducview_zip_response

User = get_user_model()


class ZipRenderer(BaseRenderer):
    """Lets a client ask for a zip (Accept: application/zip); the view answers with the file itself,
    and a refusal is still JSON."""

    media_type = "application/zip"
    format = "zip"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return JSONRenderer().render(data)


@extend_schema_view(
    list=extend_schema(description="The collections you may see."),
    create=extend_schema(description="Site administrators only."),
)
class CollectionViewSet(
    WritesTakeAnObject,
    EditableViewSet,
):
    serializer_class = CollectionSerializer
    filterset_fields = ["name", "weight_convention"]
    ordering_fields = ["name", "created_at"]

    def get_queryset(self):
        return access.visible_collections(self.request.user).order_by("name")

    def perform_create(self, serializer):
        if not access.is_site_administrator(self.request.user):
            deny("Only site administrators create collections.")
        serializer.save()

    def perform_update(self, serializer):
        administers(self.request.user, serializer.instance.pk)
        serializer.save()

    @extend_schema(
        parameters=[OpenApiParameter("docset", str, description=DOCSET_PARAMETER)],
        responses={
            (200, "application/zip"): OpenApiTypes.BINARY
        },  # refusals: JSON (annotator.api.schema)
        description="The collection's DUCView files as a zip, as `export_ducview` writes them: "
        "allpyramids/*.pyr (each pyramid) and allpans/*.pan (each peer annotation), which "
        "`import_ducview` and the import page read back. For the collection's administrators, "
        "organizers and adjudicators.",
    )
    @action(
        detail=True,
        methods=["get"],
        renderer_classes=[JSONRenderer, ZipRenderer],
        filter_backends=[],
        pagination_class=None,
    )
    def ducview(self, request, pk=None):
        collection = self.get_object()  # 404 unless visible
        if not access.can_read_collection(request.user, collection):
            deny(
                "The DUCView files are for the collection's administrators, organizers and "
                "adjudicators."
            )
        docset = docset_param(collection, request.query_params.get("docset"))
        return ducview_zip_response(collection, docset.name if docset else None)


class DocsetViewSet(
    WritesTakeAnObject,
    EditableViewSet,
):
    serializer_class = DocsetSerializer
    filterset_fields = ["collection", "name"]
    ordering_fields = ["name"]

    def get_queryset(self):
        return access.visible_docsets(self.request.user).order_by("collection_id", "name")

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        restrict(serializer, "collection", access.visible_collections(self.request.user))
        return serializer

    def perform_create(self, serializer):
        administers(self.request.user, serializer.validated_data["collection"].pk)
        serializer.save()

    def perform_update(self, serializer):
        administers(self.request.user, serializer.instance.collection_id)
        administers(
            self.request.user,
            serializer.validated_data.get("collection", serializer.instance.collection).pk,
        )
        serializer.save()


class SummaryViewSet(
    WritesTakeAnObject,
    WrittenIntoDocset,
    AddedViewSet,
):
    """Summaries are added, never changed: pyramids and annotations point into their text."""

    serializer_class = SummarySerializer
    filterset_fields = ["docset", "kind", "author"]
    ordering_fields = ["author"]

    def get_queryset(self):
        return access.visible_summaries(self.request.user).order_by("docset_id", "kind", "author")


@extend_schema_view(
    create=extend_schema(
        request=AssignRequestSerializer,
        responses={201: AssignReportSerializer},
        description="Assign work in bulk, as the Assign page does.",
    )
)
class AssignmentViewSet(
    WritesTakeAnObject,
    AddedViewSet,
):
    serializer_class = AssignmentSerializer
    filterset_fields = ["task", "status", "pyramid", "peer", "user__username", "pyramid__docset"]
    ordering_fields = ["created_at", "updated_at", "active_seconds"]

    def get_queryset(self):
        return with_active_seconds(
            access.visible_assignments(self.request.user)
            .select_related("user", "assigned_by", "pyramid")
            .order_by("pyramid__docset_id", "user_id", "id")
        )

    def create(self, request, *args, **kwargs):
        given = AssignRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        docsets = list(
            Docset.objects.filter(
                pk__in=data["docsets"], collection__in=access.visible_collections(request.user)
            )
        )
        if len(docsets) != len(set(data["docsets"])):
            raise ValidationError({"docsets": ["No such docset."]})
        for collection_id in {d.collection_id for d in docsets}:
            administers(request.user, collection_id)
        order = {
            name: i for i, name in enumerate(data["annotators"])
        }  # round robin goes in the order given
        users = sorted(
            User.objects.filter(username__in=data["annotators"], is_active=True),
            key=lambda u: order[u.username],
        )
        if len(users) != len(set(data["annotators"])):
            unknown = ", ".join(sorted(set(data["annotators"]) - {u.username for u in users}))
            raise ValidationError({"annotators": [f"No such active user: {unknown}"]})
        pyramid = None
        if data["task"] == Assignment.Task.ANNOTATE_PEER and data.get("pyramid"):
            pyramid = (
                Pyramid.objects.filter(pk=data["pyramid"], docset__in=docsets)
                .select_related("docset")
                .first()
            )
            if pyramid is None:
                raise ValidationError({"pyramid": ["No such pyramid among these docsets."]})
        try:  # as the Assign page: annotator.campaigns.assignments.assign
            report = assignments.assign(
                data["task"], docsets, users, request.user, data["mode"], pyramid
            )
        except NotAllowed as refused:
            deny(refused.message)
        except EditError as refused:
            raise ValidationError({"detail": refused.message}) from None
        body = AssignReportSerializer(
            {"created": report.created, "already": report.already, "skipped": report.skipped}
        ).data
        return Response(body, status=status.HTTP_201_CREATED)

    def _administered(self) -> Assignment:
        assignment = self.get_object()
        administers(self.request.user, assignment.pyramid.docset.collection_id)
        return assignment

    @extend_schema(
        request=None,
        responses={200: AssignmentSerializer, 403: RefusalSerializer, 422: RefusalSerializer},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        assignment = self._administered()
        try:
            assignments.withdraw(assignment, request.user)
        except EditError as refused:
            return Response({"detail": refused.message}, status=status_for(refused))
        return Response(AssignmentSerializer(assignment).data)

    @extend_schema(
        request=ReassignSerializer,
        responses={200: AssignmentSerializer, 403: RefusalSerializer, 422: RefusalSerializer},
    )
    @action(detail=True, methods=["post"])
    def reassign(self, request, pk=None):
        assignment = self._administered()
        given = ReassignSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        to = User.objects.filter(username=given.validated_data["to"], is_active=True).first()
        if to is None:
            raise ValidationError({"to": ["No such active user."]})
        try:
            moved = assignments.reassign(assignment, to, request.user)
        except EditError as refused:
            return Response({"detail": refused.message}, status=status_for(refused))
        # Read again with its active time (the new user's on the work, if any).
        return Response(AssignmentSerializer(self.get_queryset().get(pk=moved.pk)).data)


class JudgmentFilter(django_filters.FilterSet):
    collection = django_filters.ModelChoiceFilter(
        field_name="summary__docset__collection", queryset=Collection.objects.all()
    )
    docset = django_filters.ModelChoiceFilter(
        field_name="summary__docset", queryset=Docset.objects.all()
    )
    kind = django_filters.ChoiceFilter(field_name="summary__kind", choices=Summary.Kind.choices)

    class Meta:
        model = HumanJudgment
        fields = ["collection", "docset", "summary", "kind", "criterion", "judge"]


@extend_schema_view(
    list=extend_schema(
        description="Human judgments (content responsiveness, linguistic quality, ...) "
        "of the summaries you may see."
    )
)
class JudgmentViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = JudgmentSerializer
    filterset_class = JudgmentFilter
    ordering_fields = ["value", "criterion"]

    def get_queryset(self):
        return (
            HumanJudgment.objects.filter(summary__in=access.visible_summaries(self.request.user))
            .select_related("summary__docset")
            .order_by("summary__docset_id", "summary_id", "criterion", "judge", "id")
        )
