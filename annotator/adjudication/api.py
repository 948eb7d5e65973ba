"""Consensus in the REST API: POST /api/pyramids/consensus/ and /api/peer-annotations/consensus/
start a consensus pyramid or peer annotation, as the merge pages do (adjudicators and
administrators). Each is an action of the records' viewset (annotator.pyramids.api,
annotator.peer_annotation.api), which mixes these classes in; the consensus is then decided with the
record's editing actions."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from annotator.adjudication import annotation_consensus, pyramid_consensus
from annotator.adjudication.aligned_pyramids import NotComparable
from annotator.adjudication.queue import consensuses_of
from annotator.adjudication.serializers import (
    AnnotationConsensusRequestSerializer,
    PyramidConsensusRequestSerializer,
)
from annotator.api.base import deny
from annotator.api.base_serializers import RefusalSerializer
from annotator.campaigns import access
from annotator.editing.errors import EditError, NotAllowed
from annotator.peer_annotation.serializers import PeerAnnotationSerializer
from annotator.pyramids.serializers import PyramidSerializer


class PyramidConsensusAction:
    """The `consensus` action of the pyramids' viewset, over its queryset (the pyramids the caller
    may see)."""

    @extend_schema(
        request=PyramidConsensusRequestSerializer,
        responses={201: PyramidSerializer, 404: RefusalSerializer},  # a pyramid you may not see
        description="Start a consensus pyramid of two or more pyramids of the same model summaries "
        "(adjudicators and administrators); decide its aligned groups with the actions "
        "choose_version (side a, b, c, ...) and keep_group.",
    )
    @action(detail=False, methods=["post"], url_path="consensus")
    def consensus(self, request):
        body = PyramidConsensusRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        wanted = body.validated_data["pyramids"]
        visible = {
            p.pk: p for p in self.get_queryset().select_related("docset").filter(pk__in=wanted)
        }
        if len(visible) != len(wanted):
            raise NotFound("No such pyramid.")
        pyramids = [visible[pk] for pk in wanted]
        if not access.can_adjudicate(request.user, pyramids[0].docset.collection_id):
            deny(
                "Merging annotators' pyramids is for the collection's adjudicators and "
                "administrators."
            )
        existing = consensuses_of(pyramids)
        if existing and not body.validated_data["another"]:
            names = ", ".join(p.name for p in pyramids[:-1]) + f" and {pyramids[-1].name}"
            raise ValidationError(
                {
                    "detail": f"{names} have a consensus already: {existing[-1].name} "
                    f"(id {existing[-1].pk}, {existing[-1].get_status_display().lower()}); "
                    "send another=true to start one more."
                }
            )
        try:
            consensus = pyramid_consensus.start_many(pyramids, request.user)
        except NotAllowed as refused:
            deny(refused.message)
        except (NotComparable, EditError) as problem:
            raise ValidationError(
                {"detail": getattr(problem, "message", None) or str(problem)}
            ) from None
        return Response(
            PyramidSerializer(self.get_queryset().get(pk=consensus.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class AnnotationConsensusAction:
    """The `consensus` action of the peer annotations' viewset, over its queryset (the annotations
    the caller may see)."""

    @extend_schema(
        request=AnnotationConsensusRequestSerializer,
        responses={
            201: PeerAnnotationSerializer,
            404: RefusalSerializer,
        },  # an annotation you may not see
        description="Start (or get) the consensus annotation of two or more annotations of one "
        "peer against one pyramid (adjudicators and administrators); decide each SCU with the "
        "actions take_reading and keep_reading.",
    )
    @action(detail=False, methods=["post"], url_path="consensus")
    def consensus(self, request):
        body = AnnotationConsensusRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        wanted = set(body.validated_data["annotations"])
        sources = list(self.get_queryset().filter(pk__in=wanted).select_related("pyramid__docset"))
        if len(sources) != len(wanted):
            raise NotFound("No such peer annotation.")
        try:
            consensus = annotation_consensus.start(sources, request.user)
        except NotAllowed as refused:
            deny(refused.message)
        except EditError as problem:
            raise ValidationError({"detail": problem.message}) from None
        return Response(
            PeerAnnotationSerializer(self.get_queryset().get(pk=consensus.pk)).data,
            status=status.HTTP_201_CREATED,
        )
