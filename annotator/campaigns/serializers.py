"""How collections, docsets, summaries, assignments and human judgments look in the REST API
(JSON), and the bodies of assigning work in bulk and of reassigning it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.settings import api_settings

from annotator.api.base_serializers import ID
from annotator.campaigns import assignments, summaries
from annotator.campaigns.models import Assignment, Collection, Docset, HumanJudgment, Summary
from annotator.editing.errors import NotAllowed
from annotator.worktime import queries as worktime


class CollectionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Collection
        fields = [
            "id",
            "name",
            "description",
            "weight_convention",
            "average_rounding",
            "created_at",
        ]


class DocsetSerializer(serializers.ModelSerializer):
    class Meta:
        model = Docset
        fields = ["id", "collection", "name", "title"]


class SummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Summary
        fields = ["id", "docset", "kind", "author", "name", "text"]
        validators: list[Any] = []  # validate() says which summary is already there

    # What is stored, and what is refused, is annotator.campaigns.summaries' (as for the page).
    def validate_text(self, text):
        try:
            return summaries.clean_text(text)
        except summaries.SummaryRefused as refused:
            raise serializers.ValidationError(refused.message) from None

    def validate(self, data):
        data["author"] = summaries.clean_author(data["kind"], data["author"])
        try:
            summaries.check_new(data["docset"], data["kind"], data["author"])
        except summaries.SummaryRefused as refused:
            raise serializers.ValidationError(refused.message) from None
        return data

    def create(self, data):
        try:
            return summaries.create_summary(
                data["docset"],
                self.context["request"].user,
                data["kind"],
                data["author"],
                data["text"],
                data.get("name", ""),
            )
        except NotAllowed as refused:
            raise PermissionDenied(refused.message) from None
        except summaries.SummaryRefused as refused:  # added meanwhile by someone else
            raise serializers.ValidationError(
                {refused.field or api_settings.NON_FIELD_ERRORS_KEY: [refused.message]}
            ) from None


class WholeSecondsField(serializers.IntegerField):
    """A time stored as float seconds, given in whole seconds: a running total of float additions
    carries noise (754.3000000000001) that no one needs to read (annotator.worktime)."""

    def to_representation(self, value):
        return worktime.whole_seconds(value)


class AssignmentSerializer(serializers.ModelSerializer):
    user: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True
    )
    assigned_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    docset = serializers.IntegerField(source="pyramid.docset_id", read_only=True)
    # Annotated by the viewset's queryset (annotator.campaigns.progress.with_active_seconds).
    active_seconds = WholeSecondsField(
        read_only=True,
        allow_null=True,
        help_text="The user's active time on the work, in whole seconds (rounded, as the "
        "progress page's CSV gives it): the time between their edits and selections, each pause "
        "over five minutes left out; null before their first action.",
    )

    class Meta:
        model = Assignment
        fields = [
            "id",
            "user",
            "task",
            "docset",
            "pyramid",
            "peer",
            "status",
            "assigned_by",
            "created_at",
            "updated_at",
            "active_seconds",
        ]


class AssignRequestSerializer(serializers.Serializer):
    """Work for several annotators over several docsets, as the Assign page gives it."""

    task = serializers.ChoiceField(choices=Assignment.Task.choices)
    docsets = serializers.ListField(child=serializers.IntegerField(**ID), min_length=1)
    annotators = serializers.ListField(
        child=serializers.CharField(), min_length=1, help_text="User names."
    )
    mode = serializers.ChoiceField(
        choices=[assignments.EVERY_ANNOTATOR, assignments.ROUND_ROBIN],
        default=assignments.EVERY_ANNOTATOR,
    )
    pyramid = serializers.IntegerField(
        required=False,
        allow_null=True,
        **ID,
        help_text="Peer annotation: the pyramid (else each docset's latest submitted one).",
    )


class AssignReportSerializer(serializers.Serializer):
    created = AssignmentSerializer(many=True)
    already = AssignmentSerializer(many=True)
    skipped = serializers.ListField(child=serializers.CharField())


class ReassignSerializer(serializers.Serializer):
    to = serializers.CharField(help_text="User name of the annotator who takes the work over.")


class JudgmentSerializer(serializers.ModelSerializer):
    collection = serializers.IntegerField(source="summary.docset.collection_id", read_only=True)
    docset = serializers.IntegerField(source="summary.docset_id", read_only=True)
    kind = serializers.ChoiceField(
        source="summary.kind", choices=Summary.Kind.choices, read_only=True
    )
    author = serializers.CharField(
        source="summary.author",
        read_only=True,
        help_text="The summary's author: a peer's system id, a model's letter.",
    )

    class Meta:
        model = HumanJudgment
        fields = [
            "id",
            "collection",
            "docset",
            "summary",
            "kind",
            "author",
            "criterion",
            "judge",
            "value",
        ]
