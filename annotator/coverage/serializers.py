"""How the coverage records look in the REST API (issue 21): unit sets, units, judgment tasks and
their judgments, each field named as the model's; and the bodies of a judge's answer and
submission, as the judging page sends them (annotator.coverage.views.judging)."""

from __future__ import annotations

from django.contrib.auth.models import User
from rest_framework import serializers

from annotator.api.base_serializers import ID
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet


class UnitSetSerializer(serializers.ModelSerializer):
    collection = serializers.IntegerField(source="docset.collection_id", read_only=True)
    answers = serializers.ListField(
        child=serializers.FloatField(),
        read_only=True,
        help_text="The answers the scale takes, as a judge gives them: 1, 0 (present, absent); "
        "4 to 0; 100 to 0 (percent).",
    )

    class Meta:
        model = UnitSet
        fields = [
            "id",
            "collection",
            "docset",
            "name",
            "method",
            "scale",
            "answers",
            "source",
            "pyramid",
            "source_name",
            "version",
            "created_at",
        ]


class UnitSerializer(serializers.ModelSerializer):
    class Meta:
        model = Unit
        fields = [
            "id",
            "unit_set",
            "position",
            "text",
            "model",
            "start",
            "end",
            "scu",
            "weight",
            "external_id",
        ]


class JudgmentTaskSerializer(serializers.ModelSerializer):
    collection = serializers.IntegerField(source="unit_set.docset.collection_id", read_only=True)
    docset = serializers.IntegerField(source="unit_set.docset_id", read_only=True)
    judge: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="The judge's username (null: an imported judge, named by `judge_code`).",
    )
    assigned_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    units_version = serializers.IntegerField(
        source="unit_set.version",
        read_only=True,
        help_text="The unit set's version: an answer sends it with the task's `version`.",
    )
    # Annotated by the viewset's queryset (one subquery each, not a query a row).
    answered = serializers.IntegerField(read_only=True, help_text="Units answered so far.")
    total = serializers.IntegerField(read_only=True, help_text="Units of the unit set.")

    class Meta:
        model = JudgmentTask
        fields = [
            "id",
            "collection",
            "docset",
            "unit_set",
            "peer",
            "judge",
            "judge_code",
            "status",
            "withdrawn",
            "assigned_by",
            "version",
            "units_version",
            "answered",
            "total",
            "created_at",
            "updated_at",
        ]


class CoverageJudgmentSerializer(serializers.ModelSerializer):
    """A judge's answer for one unit in one peer ("judgments" are the human judgments)."""

    unit_set = serializers.IntegerField(source="task.unit_set_id", read_only=True)
    sentences = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        read_only=True,
        help_text="SEE: [[start, end], ...] of the peer sentences that express the unit "
        "(code points, end exclusive); none for presence, and none with a 0.",
    )

    class Meta:
        model = Judgment
        fields = ["id", "task", "unit_set", "unit", "value", "sentences", "seconds", "updated_at"]


class JudgingAnswerSerializer(serializers.Serializer):
    """One answer, as the judging page sends it."""

    version = serializers.IntegerField(
        help_text="The task's version the answer is based on (409 if it is not the current one)."
    )
    units_version = serializers.IntegerField(
        help_text="The unit set's version, as the units were read (409 if an administrator has "
        "changed them since)."
    )
    unit = serializers.IntegerField(**ID, help_text="The unit answered: one of the unit set's.")
    value = serializers.FloatField(
        allow_null=True,
        help_text="On the unit set's scale (its `answers`); null takes the answer back, leaving "
        "the unit unanswered.",
    )
    sentences = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(**ID), min_length=2, max_length=2
        ),
        required=False,
        default=list,
        help_text="SEE only: [[start, end], ...], peer sentences that express the unit, as "
        "/api/coverage-judgments/ gives them. Sent with a 0 (none), they are not stored.",
    )
    seconds = serializers.FloatField(
        required=False,
        allow_null=True,
        help_text="The time the answer took; added to the unit's time (capped at five minutes).",
    )


class JudgingSubmitSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        help_text="The task's version (409 if it is not the current one)."
    )


class AnsweredSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The task's new version, to send next.")
    answered = serializers.IntegerField()
    total = serializers.IntegerField()
    status = serializers.ChoiceField(choices=JudgmentTask.Status.choices)
    sentences_cleared = serializers.BooleanField(
        help_text="A SEE 0 (none) was sent with sentences: stored without them."
    )


class JudgingConflictSerializer(serializers.Serializer):
    """A stale answer or submission (409): the versions as they now are."""

    detail = serializers.CharField()
    current_version = serializers.IntegerField(help_text="The task's version.")
    current_units_version = serializers.IntegerField(help_text="The unit set's version.")
