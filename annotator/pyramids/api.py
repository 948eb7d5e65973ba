"""Pyramids in the REST API: pyramids (created, read, edited through their editing actions, merged
into a consensus: annotator.adjudication.api), their SCUs, contributors and contributor spans, and
their history (/api/pyramid-changes/)."""

from __future__ import annotations

from django.db.models import F, Prefetch
from django.db.models.functions import Substr
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.exceptions import ValidationError

from annotator.adjudication.api import PyramidConsensusAction
from annotator.api.base import (
    SNAPSHOTS_PARAMETER,
    AddedViewSet,
    ChangeViewSet,
    WritesTakeAnObject,
    WrittenIntoDocset,
    action_view,
    spans_in_order,
)
from annotator.campaigns import access
from annotator.editing.actions import PYRAMID_ACTIONS
from annotator.editing.errors import EditError
from annotator.editing.models import PyramidChange
from annotator.pyramids.models import SCU, Contributor, Span
from annotator.pyramids.serializers import (
    ContributorSerializer,
    PyramidChangeDetailSerializer,
    PyramidChangeSerializer,
    PyramidSerializer,
    SCUSerializer,
    SpanSerializer,
)


class PyramidViewSet(
    WritesTakeAnObject,
    WrittenIntoDocset,
    PyramidConsensusAction,
    AddedViewSet,
):
    serializer_class = PyramidSerializer
    filterset_fields = ["docset", "status", "name"]
    ordering_fields = ["name", "updated_at"]

    def get_queryset(self):
        return (
            access.visible_pyramids(self.request.user)
            .select_related("created_by", "merge")
            .prefetch_related("models_used", "merge__further_sources")
            .order_by("docset_id", "name", "id")
        )

    def perform_create(self, serializer):
        try:
            super().perform_create(serializer)
        except EditError as refused:  # e.g. a docset with fewer than two models
            raise ValidationError({"docset": [refused.message]}) from None

    edit = action_view(PYRAMID_ACTIONS, "pyramid")


class SCUViewSet(viewsets.ReadOnlyModelViewSet):
    # One line in the docstring: it is the schema's description of the endpoint.
    """SCUs with their contributors and spans, and their weight under the collection's \
convention."""

    serializer_class = SCUSerializer
    filterset_fields = ["pyramid", "uid"]
    ordering_fields = ["position", "uid"]

    def get_queryset(self):
        return (
            SCU.objects.filter(pyramid__in=access.visible_pyramids(self.request.user))
            .with_weight()  # each SCU under its own collection's convention
            .prefetch_related(
                Prefetch(
                    "contributors",
                    queryset=Contributor.objects.order_by("position", "id").prefetch_related(
                        spans_in_order(Span)
                    ),
                )
            )
            .order_by("pyramid_id", "position", "id")
        )


class ContributorViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = ContributorSerializer
    filterset_fields = ["scu", "summary", "scu__pyramid"]

    def get_queryset(self):
        return (
            Contributor.objects.filter(scu__pyramid__in=access.visible_pyramids(self.request.user))
            .prefetch_related(spans_in_order(Span))
            .order_by("scu_id", "position", "id")
        )


def _with_text(spans):
    # Cut in the database: code point offsets are what SUBSTR counts.
    return spans.annotate(text=Substr("summary__text", F("start") + 1, F("end") - F("start")))


class SpanViewSet(viewsets.ReadOnlyModelViewSet):
    """Contributor spans, with the words they cover."""

    serializer_class = SpanSerializer
    filterset_fields = ["contributor", "summary", "contributor__scu", "contributor__scu__pyramid"]

    def get_queryset(self):
        return _with_text(
            Span.objects.filter(
                contributor__scu__pyramid__in=access.visible_pyramids(self.request.user)
            ).order_by("contributor_id", "position", "id")
        )


@extend_schema_view(
    list=extend_schema(
        parameters=[SNAPSHOTS_PARAMETER],
        description="The history of the pyramids you may see (filter by `pyramid`): each change, "
        "who made it and when, its state on the undo stack, and in a consensus the decision it "
        "made.",
    ),
    retrieve=extend_schema(
        description="One change of a pyramid, with the snapshots undo (`before`) and redo "
        "(`after`) restore."
    ),
)
class PyramidChangeViewSet(ChangeViewSet):
    serializer_class = PyramidChangeSerializer
    detail_serializer_class = PyramidChangeDetailSerializer
    filterset_fields = ["pyramid", "state", "action", "user__username"]

    def records(self):
        return PyramidChange.objects.filter(pyramid__in=access.visible_pyramids(self.request.user))
