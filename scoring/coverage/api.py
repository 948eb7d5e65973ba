"""Coverage judgments' scores in the REST API (issue 21): /api/coverage-scores/, each peer's
presence and SEE coverage against each unit set it was judged on, or each system's means over
docsets (`view=systems`), for the collection's readers as /api/scores/ (scoring.scores.api
.readable_collection), a page at a time. The rows come from a few queries whatever their number
(scoring.coverage.records), so the page is cut from them in Python."""

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.views import APIView

from annotator.api.base_serializers import RefusalSerializer
from annotator.api.params import DOCSET_PARAMETER, docset_param
from annotator.coverage.models import UnitSet
from scoring.coverage.records import score_coverage
from scoring.coverage.tables import coverage_system_means
from scoring.scores.api import ScorePagination, include_param, readable_collection
from scoring.scores.records import IN_PROGRESS_VALUE, INCLUDE_PARAMETER

IN_PROGRESS_HELP = (
    "Judgment tasks still in progress among those counted: 0 unless `include=in-progress`."
)


class CoverageRowSerializer(serializers.Serializer):
    collection = serializers.CharField()
    docset = serializers.CharField()
    unit_set = serializers.CharField(help_text="The unit set's name, unique in its docset.")
    method = serializers.ChoiceField(choices=UnitSet.Method.choices)
    peer = serializers.CharField()
    judges = serializers.IntegerField(help_text="Judges of the peer against the unit set.")
    units = serializers.IntegerField(help_text="Units with at least one answer.")
    in_progress = serializers.IntegerField(help_text=IN_PROGRESS_HELP)
    presence = serializers.FloatField(
        allow_null=True,
        help_text="Presence units: the share of units present by the judges' majority (a tie is "
        "absent); null for SEE.",
    )
    presence_weighted = serializers.FloatField(
        allow_null=True, help_text="The same, each unit weighted by its SCU weight."
    )
    see_coverage = serializers.FloatField(
        allow_null=True,
        help_text="SEE units: the mean over units of the answer as a fraction of the scale's "
        "top, averaged over the judges; null for presence.",
    )


class CoverageSystemSerializer(serializers.Serializer):
    collection = serializers.CharField()
    peer = serializers.CharField(help_text="The system.")
    docsets = serializers.IntegerField(help_text="Docsets where the system was judged.")
    in_progress = serializers.IntegerField(help_text=IN_PROGRESS_HELP)
    presence = serializers.FloatField(allow_null=True)
    presence_weighted = serializers.FloatField(allow_null=True)
    see_coverage = serializers.FloatField(allow_null=True)


class CoverageRowPage(serializers.Serializer):
    """A page of rows, as every list of the API answers (the schema's; the view writes it)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = CoverageRowSerializer(many=True)


class CoverageSystemPage(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = CoverageSystemSerializer(many=True)


PAGES = PolymorphicProxySerializer(
    component_name="CoverageScores",
    serializers=[CoverageRowPage, CoverageSystemPage],
    resource_type_field_name=None,
)


class CoverageScoresView(APIView):
    pagination_class = ScorePagination

    @extend_schema(
        operation_id="coverage_scores_list",
        parameters=[
            OpenApiParameter("collection", int, required=True, description="The collection's id."),
            OpenApiParameter("docset", str, description=DOCSET_PARAMETER),
            OpenApiParameter(
                "view",
                str,
                enum=["systems"],
                description="Absent: a row per peer and unit set. `systems`: each system's means "
                "over the docsets (a docset's unit sets of one score averaged first).",
            ),
            OpenApiParameter(
                INCLUDE_PARAMETER,
                str,
                enum=[IN_PROGRESS_VALUE],
                description="Absent (the default): submitted judgment tasks only. `in-progress`: "
                "tasks still in progress too, counted in each row's `in_progress`. Any other "
                "value answers 400.",
            ),
            OpenApiParameter("page", int, description="A page number."),
            OpenApiParameter("page_size", int, description="Rows a page, up to 1000."),
        ],
        # 400, 401 and 403 are every operation's (annotator.api.schema); 404: a collection the
        # user may not see, or a page past the last.
        responses={200: PAGES, 404: OpenApiResponse(RefusalSerializer)},
        description=(
            "The coverage judgments' scores of a collection (or one docset), as the scores page "
            "and `export_scores --scores coverage-judgments` give them: `presence`, "
            "`presence_weighted` (unit presence, Lite Pyramid and REALSumm) and `see_coverage` "
            "(SEE, Harman & Over 2004), each peer's against each unit set it was judged on, in "
            "the order the docsets were loaded; or with `view=systems` each system's means, best "
            "presence first. For the collection's organizers and administrators, as /api/scores/."
        ),
    )
    def get(self, request):
        collection = readable_collection(request)
        docset = docset_param(collection, request.query_params.get("docset"))
        view = request.query_params.get("view", "")
        if view not in {"", "systems"}:
            raise ValidationError({"view": ["systems, or nothing (a row per peer and unit set)."]})
        include = include_param(request)
        rows = score_coverage(
            collection, docset.name if docset else None, include == IN_PROGRESS_VALUE
        )
        items = coverage_system_means(rows) if view == "systems" else rows
        serializer = CoverageSystemSerializer if view == "systems" else CoverageRowSerializer
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(items, request, view=self)
        data = [{"collection": collection.name, **vars(item)} for item in page or []]
        return paginator.get_paginated_response(serializer(data, many=True).data)
