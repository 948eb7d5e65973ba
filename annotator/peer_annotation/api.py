"""Peer annotations in the REST API: annotations (started as the page's Start button does, edited
through their editing actions, merged into a consensus: annotator.adjudication.api), their PSEs,
and their history (/api/peer-annotation-changes/)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.exceptions import ValidationError

from annotator.adjudication.api import AnnotationConsensusAction
from annotator.api.base import (
    SNAPSHOTS_PARAMETER,
    AddedViewSet,
    ChangeViewSet,
    WritesTakeAnObject,
    action_view,
    deny,
    restrict,
    spans_in_order,
)
from annotator.campaigns import access
from annotator.editing.actions import PEER_ACTIONS
from annotator.editing.errors import EditError, NotAllowed
from annotator.editing.models import PeerAnnotationChange
from annotator.peer_annotation import editing as peer_editing
from annotator.peer_annotation import starting
from annotator.peer_annotation.models import PSE, PSESpan
from annotator.peer_annotation.serializers import (
    PeerActionResultSerializer,
    PeerAnnotationChangeDetailSerializer,
    PeerAnnotationChangeSerializer,
    PeerAnnotationSerializer,
    PSESerializer,
)


class PeerAnnotationViewSet(
    WritesTakeAnObject,
    AnnotationConsensusAction,
    AddedViewSet,
):
    serializer_class = PeerAnnotationSerializer
    filterset_fields = ["pyramid", "peer", "status", "pyramid__docset"]
    ordering_fields = ["updated_at"]

    def get_queryset(self):
        return (
            access.visible_annotations(self.request.user)
            .select_related("annotator", "merge")
            .prefetch_related("merge__sources")
            .order_by("pyramid_id", "peer_id", "id")
        )

    @extend_schema(
        description="Start your own annotation of a peer assigned to you (or, as an administrator, "
        "of any peer of the docset) against a pyramid."
    )
    def create(self, request, *args, **kwargs):
        return super().create(request, *args, **kwargs)

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        restrict(serializer, "pyramid", access.visible_pyramids(self.request.user))
        restrict(
            serializer, "peer", access.visible_summaries(self.request.user).filter(kind="peer")
        )
        return serializer

    def perform_create(self, serializer):
        user, pyramid, peer = (
            self.request.user,
            serializer.validated_data["pyramid"],
            serializer.validated_data["peer"],
        )
        try:  # as the page's Start button: annotator.peer_annotation.starting
            serializer.instance, _ = starting.start_annotation(user, pyramid, peer, existing=False)
        except NotAllowed as refused:
            deny(refused.message)
        except EditError as refused:
            raise ValidationError(
                {getattr(refused, "field", None) or "detail": refused.message}
            ) from None

    # As the page warns before "complete": how many of the peer's words are in no PSE (never
    # refused).
    edit = action_view(
        PEER_ACTIONS,
        "peer annotation",
        lambda result: {"uncovered_words": len(peer_editing.words_in_no_pse(result.annotation))},
        PeerActionResultSerializer,
    )


class PSEViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = PSESerializer
    filterset_fields = ["annotation", "scu"]

    def get_queryset(self):
        return (
            PSE.objects.filter(annotation__in=access.visible_annotations(self.request.user))
            .select_related("scu")
            .prefetch_related(spans_in_order(PSESpan))
            .order_by("annotation_id", "position", "id")
        )


@extend_schema_view(
    list=extend_schema(
        parameters=[SNAPSHOTS_PARAMETER],
        description="The history of the peer annotations you may see (filter by `annotation`): "
        "each change, who made it and when, its state on the undo stack, and in a consensus the "
        "decision it made.",
    ),
    retrieve=extend_schema(
        description="One change of a peer annotation, with the snapshots undo (`before`) and redo "
        "(`after`) restore."
    ),
)
class PeerAnnotationChangeViewSet(ChangeViewSet):
    serializer_class = PeerAnnotationChangeSerializer
    detail_serializer_class = PeerAnnotationChangeDetailSerializer
    filterset_fields = ["annotation", "state", "action", "user__username"]

    def records(self):
        return PeerAnnotationChange.objects.filter(
            annotation__in=access.visible_annotations(self.request.user)
        )
