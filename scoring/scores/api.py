"""Scores in the REST API: the rows `export_scores` writes, for organizers and administrators, a
page at a time as every list of the API (issue 16: the whole list was 226 KB and 109 ms of CPU
for 462 rows). The page is cut in the database, and only its annotations are scored."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.generics import ListAPIView
from rest_framework.pagination import PageNumberPagination

from annotator.api.params import DOCSET_PARAMETER, docset_param
from annotator.campaigns.access import can_read_collection, visible_collections
from annotator.campaigns.models import Collection
from annotator.peer_annotation.models import PeerAnnotation
from scoring.scores.records import (
    IN_PROGRESS_VALUE,
    INCLUDE_PARAMETER,
    collection_annotations,
    counted_annotations,
    score_loaded_annotations,
)
from scoring.scores.score_table import ordered_annotations


@extend_schema_field(OpenApiTypes.NUMBER)
class CountField(serializers.Field):
    """A number of SCUs or a weight: an integer, or a fraction (as a float) where X_a is left
    fractional (the "fractional" convention, PyrEval v2)."""

    def to_representation(self, value):
        return value


class ScoreRowSerializer(serializers.Serializer):
    annotation_id = serializers.IntegerField()
    collection = serializers.CharField()
    docset = serializers.CharField()
    peer = serializers.CharField()
    annotator = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(
        choices=PeerAnnotation.Status.choices,
        help_text=(
            "submitted, or in_progress: work in progress is listed only with `include=in-progress`."
        ),
    )
    pyramid = serializers.CharField()
    pyramid_id = serializers.IntegerField()
    weight_convention = serializers.CharField()
    average_rounding = serializers.CharField(
        help_text="half_up, floor, ceil, or fractional (X_a not rounded)."
    )
    unique_scus = serializers.IntegerField(help_text="Distinct SCUs expressed (NIST numSCUs).")
    repetitions = serializers.IntegerField()
    non_matching = serializers.IntegerField(help_text="Zero-weight PSEs.")
    pse_count = serializers.IntegerField(help_text="X of Passonneau 2009 eq. (1).")
    raw_score = serializers.IntegerField(help_text="D: the weight of the distinct SCUs expressed.")
    model_count = serializers.IntegerField()
    average_scu_count = CountField(
        allow_null=True,
        help_text="X_a of eq. (2): whole, or fractional under the fractional convention.",
    )
    max_original = serializers.IntegerField()
    max_modified = CountField(
        allow_null=True, help_text="Max(X_a): with a fractional X_a, a share of one more SCU."
    )
    original = serializers.FloatField(allow_null=True)
    modified = serializers.FloatField(allow_null=True)
    quality = serializers.FloatField(allow_null=True)
    coverage = serializers.FloatField(allow_null=True)
    comprehensive = serializers.FloatField(allow_null=True)


class ScorePagination(PageNumberPagination):
    """The API's pages (PAGE_SIZE rows), or ?page_size= rows up to a cap: a client may take a
    whole DUC year (462 annotations) in one page, no more."""

    page_size_query_param = "page_size"
    max_page_size = 1000


class ScoresView(ListAPIView):
    serializer_class = ScoreRowSerializer
    pagination_class = ScorePagination
    filter_backends = []  # the parameters below are read by the view, not by the list filters

    @extend_schema(
        parameters=[
            OpenApiParameter("collection", int, required=True, description="The collection's id."),
            OpenApiParameter("docset", str, description=DOCSET_PARAMETER),
            OpenApiParameter(
                "adjudicated",
                bool,
                description=(
                    "false (the default): consensus work (consensus annotations, annotations "
                    "against a consensus pyramid) is left out; true: submitted consensus work "
                    "replaces its sources."
                ),
            ),
            OpenApiParameter(
                INCLUDE_PARAMETER,
                str,
                enum=[IN_PROGRESS_VALUE],
                description=(
                    "Absent (the default): submitted annotations only. `in-progress`: annotations "
                    "still in progress too, each row saying its `status` (`in_progress`). Any "
                    "other value answers 400."
                ),
            ),
        ],
        description=(
            "Every peer annotation's scores in a collection (or one docset), computed from the "
            "stored records, a page at a time (`page`, and `page_size` up to 1000), in the order "
            "of `export_scores`: collection, docset, peer, annotator. Submitted annotations only, "
            "unless `include=in-progress`; each row says its `status`."
        ),
    )
    def get(self, request, *args, **kwargs):
        annotations = self.paginate_queryset(
            self.get_queryset()
        )  # this page's, cut in the database
        rows = [row.as_dict() for row in score_loaded_annotations(annotations)]
        return self.get_paginated_response(ScoreRowSerializer(rows, many=True).data)

    def get_queryset(self):
        query = self.request.query_params
        collection = readable_collection(self.request)
        docset = docset_param(collection, query.get("docset"))
        adjudicated = query.get("adjudicated", "").lower()
        if adjudicated not in TRUE | FALSE:
            raise ValidationError({"adjudicated": ["true or false."]})
        include = include_param(self.request)
        annotations = collection_annotations(collection)
        if docset:
            annotations = annotations.filter(pyramid__docset=docset)
        # One collection's rows in the order of every score table (the collection's name left
        # out of the sort: PostgreSQL then reads the docsets' index and stops after the page).
        return ordered_annotations(
            counted_annotations(
                annotations,
                adjudicated=adjudicated in TRUE,
                include_in_progress=include == IN_PROGRESS_VALUE,
            ),
            None,
        )


TRUE, FALSE = {"1", "true"}, {"", "0", "false"}


def readable_collection(request) -> Collection:
    """The collection of `?collection=` (its id), if the user may read its scores: 400 without a
    valid id, 404 if the user cannot see it, 403 if they see it only for their own work (an
    annotator)."""
    try:
        collection_id = int(request.query_params["collection"])
        if not 0 <= collection_id < 2**63:
            raise ValueError("out of range")
    except (KeyError, ValueError):
        raise ValidationError({"collection": ["Give the collection's id."]}) from None
    collection = visible_collections(request.user).filter(pk=collection_id).first()
    if collection is None:
        raise NotFound("No such collection.")
    if not can_read_collection(request.user, collection):
        raise PermissionDenied("Scores are for the collection's organizers and administrators.")
    return collection


def include_param(request) -> str:
    """`?include=`: "" (submitted work only) or IN_PROGRESS_VALUE; 400 otherwise."""
    include = request.query_params.get(INCLUDE_PARAMETER, "")
    if include not in {"", IN_PROGRESS_VALUE}:
        raise ValidationError(
            {INCLUDE_PARAMETER: [f"{IN_PROGRESS_VALUE}, or nothing (submitted work only)."]}
        )
    return include
