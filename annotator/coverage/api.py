"""Coverage judgments in the REST API (issue 21): unit sets, units, judgment tasks and their
judgments, read-only, and a judge's answers and submission through the judging page's service
(annotator.coverage.judging), with the same rules and versions.

Who reads what is the judging page's: the readers of a collection (administrators, organizers,
adjudicators) everything in it; a judge their own tasks (until withdrawn), with the unit sets and
units those are judged against (the page shows them); anyone else nothing (404). Only the judge
answers: a reader who is not is refused (403).
"""

from __future__ import annotations

import dataclasses

import django_filters
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from annotator.api.base import WritesTakeAnObject
from annotator.api.base_serializers import RefusalSerializer
from annotator.campaigns.access import readable_collections
from annotator.campaigns.models import Collection, Docset
from annotator.coverage import judging
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
from annotator.coverage.serializers import (
    AnsweredSerializer,
    CoverageJudgmentSerializer,
    JudgingAnswerSerializer,
    JudgingConflictSerializer,
    JudgingSubmitSerializer,
    JudgmentTaskSerializer,
    UnitSerializer,
    UnitSetSerializer,
)
from annotator.editing.actions import status_for
from annotator.editing.errors import EditError, StaleVersion


def visible_unit_sets(user) -> QuerySet[UnitSet]:
    """The unit sets of the collections the user reads, and those of their own tasks."""
    if not (user and user.is_authenticated and user.is_active):
        return UnitSet.objects.none()
    own = JudgmentTask.objects.filter(judge=user, withdrawn=False)
    return UnitSet.objects.filter(
        Q(docset__collection__in=readable_collections(user)) | Q(pk__in=own.values("unit_set_id"))
    )


def _count(rows: QuerySet, by: str) -> Coalesce:
    """How many `rows` (filtered on OuterRef(`by`)), as a subquery: the page's rows are counted
    in its one query, not a query each."""
    counted = rows.order_by().values(by).annotate(n=Count("pk")).values("n")[:1]
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


class UnitSetFilter(django_filters.FilterSet):
    collection = django_filters.ModelChoiceFilter(
        field_name="docset__collection", queryset=Collection.objects.all()
    )

    class Meta:
        model = UnitSet
        fields = ["collection", "docset", "method"]


@extend_schema_view(
    list=extend_schema(
        description="The unit sets you may see: those of the collections you read, and those "
        "your judgment tasks are judged against."
    )
)
class UnitSetViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = UnitSetSerializer
    filterset_class = UnitSetFilter
    ordering_fields = ["name", "created_at"]

    def get_queryset(self):
        return (
            visible_unit_sets(self.request.user)
            .select_related("docset")
            .order_by("docset_id", "name", "id")
        )


@extend_schema_view(
    list=extend_schema(description="The units of the unit sets you may see, in their order.")
)
class UnitViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = UnitSerializer
    filterset_fields = ["unit_set"]

    def get_queryset(self):
        return Unit.objects.filter(unit_set__in=visible_unit_sets(self.request.user)).order_by(
            "unit_set_id", "position", "id"
        )


class JudgmentTaskFilter(django_filters.FilterSet):
    collection = django_filters.ModelChoiceFilter(
        field_name="unit_set__docset__collection", queryset=Collection.objects.all()
    )
    docset = django_filters.ModelChoiceFilter(
        field_name="unit_set__docset", queryset=Docset.objects.all()
    )

    class Meta:
        model = JudgmentTask
        fields = ["collection", "docset", "unit_set", "peer", "judge__username", "status"]


def _answer_refused(pk: int, refused: EditError) -> Response:
    """A refused answer or submission: 403 (not the judge's, or submitted), 422 (a broken rule),
    409 with the versions as they now are (the task's, the units')."""
    body: dict = {"detail": refused.message}
    if isinstance(refused, StaleVersion):
        body["current_version"], body["current_units_version"] = JudgmentTask.objects.values_list(
            "version", "unit_set__version"
        ).get(pk=pk)
    return Response(body, status=status_for(refused))


REFUSED = {
    200: AnsweredSerializer,
    403: OpenApiResponse(
        RefusalSerializer, description="Not yours to answer (a reader's), or submitted."
    ),
    409: OpenApiResponse(
        JudgingConflictSerializer,
        description="Stale: the task or its units changed since you read them; nothing stored.",
    ),
    422: OpenApiResponse(RefusalSerializer, description="A broken rule; nothing stored."),
}


@extend_schema_view(
    list=extend_schema(
        description="Judgment tasks: your own (until withdrawn), and every task of the "
        "collections you read. `judge__username` names the judge."
    )
)
class JudgmentTaskViewSet(WritesTakeAnObject, viewsets.ReadOnlyModelViewSet):
    serializer_class = JudgmentTaskSerializer
    filterset_class = JudgmentTaskFilter
    ordering_fields = ["created_at", "updated_at"]

    def get_queryset(self):
        return (
            judging.visible_tasks(self.request.user)
            .select_related("unit_set__docset", "judge", "assigned_by")
            .annotate(
                answered=_count(Judgment.objects.filter(task_id=OuterRef("pk")), "task_id"),
                total=_count(
                    Unit.objects.filter(unit_set_id=OuterRef("unit_set_id")), "unit_set_id"
                ),
            )
            .order_by("unit_set__docset_id", "unit_set_id", "peer_id", "judge_code", "judge_id")
        )

    @extend_schema(
        request=JudgingAnswerSerializer,
        responses=REFUSED,
        description="Answer one unit of your task, as the judging page does (each answer saved at "
        "once). Send the task's `version` and the unit set's (`units_version`) as you read them; "
        "the answer carries the new version. 409 if either is stale (another tab, or an "
        "administrator changed the units), 422 for an answer the scale or the unit set does not "
        "take, 403 unless the task is yours and open.",
    )
    @action(detail=True, methods=["post"])
    def answer(self, request, pk=None):
        task = self.get_object()  # 404 unless visible
        given = JudgingAnswerSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        try:
            done = judging.answer(
                task.pk,
                request.user,
                data["version"],
                data["unit"],
                data["value"],
                [(start, end) for start, end in data["sentences"]],
                data.get("seconds"),
                units_version=data["units_version"],
            )
        except JudgmentTask.DoesNotExist:  # deleted since
            raise NotFound("No such judgment task.") from None
        except EditError as refused:
            return _answer_refused(task.pk, refused)
        return Response(dataclasses.asdict(done))

    @extend_schema(
        request=JudgingSubmitSerializer,
        responses=REFUSED,
        description="Submit your judgments of the peer, as the judging page does: every unit "
        "answered (else 422); read-only after (an administrator may reopen them).",
    )
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        task = self.get_object()  # 404 unless visible
        given = JudgingSubmitSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        try:
            done = judging.submit(task.pk, request.user, given.validated_data["version"])
        except JudgmentTask.DoesNotExist:
            raise NotFound("No such judgment task.") from None
        except EditError as refused:
            return _answer_refused(task.pk, refused)
        return Response(dataclasses.asdict(done))


class CoverageJudgmentFilter(django_filters.FilterSet):
    unit_set = django_filters.ModelChoiceFilter(
        field_name="task__unit_set", queryset=UnitSet.objects.all()
    )
    collection = django_filters.ModelChoiceFilter(
        field_name="task__unit_set__docset__collection", queryset=Collection.objects.all()
    )

    class Meta:
        model = Judgment
        fields = ["task", "unit_set", "collection"]


@extend_schema_view(
    list=extend_schema(
        description="The answers of the judgment tasks you may see, one per unit judged (the "
        "human judgments of whole summaries are /api/judgments/)."
    )
)
class CoverageJudgmentViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = CoverageJudgmentSerializer
    filterset_class = CoverageJudgmentFilter
    ordering_fields = ["updated_at", "value"]

    def get_queryset(self):
        return (
            Judgment.objects.filter(task__in=judging.visible_tasks(self.request.user))
            .select_related("task")
            .order_by("task_id", "unit__position", "id")
        )

    def get_view_name(self):
        # The model's name, "Judgments", is the human judgments' (/api/judgments/).
        names = {"List": "Coverage judgments", "Instance": "Coverage judgment"}
        return names.get(self.suffix or "", super().get_view_name())
