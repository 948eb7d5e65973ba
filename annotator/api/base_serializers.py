"""Serializers several packages' endpoints share: the bounds of a record id in a body, a refusal's
body, the spans of a contributor or a PSE, an editing action and its answer (pyramids and peer
annotations), and one change of an editor's history."""

from __future__ import annotations

from typing import TypedDict

from django.contrib.auth.models import User
from rest_framework import serializers

from annotator.editing.models import PyramidChange


class IdBounds(TypedDict):
    min_value: int
    max_value: int


# What a database id can hold: larger numbers are refused (400).
ID: IdBounds = {"min_value": 0, "max_value": 2**63 - 1}


class RefusalSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current_version = serializers.IntegerField(required=False)


class TextSpanSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    start = serializers.IntegerField(
        help_text="Offset in the summary's text, in code points, 0-based."
    )
    end = serializers.IntegerField(help_text="End offset, exclusive.")


class ActionRequestSerializer(serializers.Serializer):
    """One editing action; which arguments it takes depends on the action (see the description)."""

    version = serializers.IntegerField(
        help_text="The version the edit is based on (409 if it is not the current one)."
    )
    ranges = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(**ID), min_length=2, max_length=2
        ),
        required=False,
        help_text="[[start, end], ...] in the text, code points.",
    )
    summary = serializers.IntegerField(required=False, **ID)
    scu = serializers.IntegerField(
        required=False, **ID, help_text="An SCU's uid (0: matches nothing, for peers)."
    )
    target = serializers.IntegerField(required=False, **ID)
    contributor = serializers.IntegerField(required=False, **ID)
    span = serializers.IntegerField(required=False, **ID)
    pse = serializers.IntegerField(required=False, **ID)
    position = serializers.IntegerField(required=False, **ID)
    # The actions' argument `label` has the name of Field's own attribute (a field's label): DRF's
    # metaclass takes declared fields out of the class, so at run time nothing is overridden.
    label = serializers.CharField(required=False, allow_blank=True)  # type: ignore[assignment]
    comment = serializers.CharField(required=False, allow_blank=True)


class ActionResultSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The new version, to send with the next edit.")
    description = serializers.CharField()


CHANGE_FIELDS = ["id", "created_at", "user", "action", "description", "state", "decision"]
SNAPSHOTS = ["before", "after"]


class ChangeSerializer(serializers.ModelSerializer):
    """One change of an editor's history, as the History page lists it."""

    user: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="Who made it (null: an account since deleted).",
    )
    state = serializers.ChoiceField(
        choices=PyramidChange.State.choices,
        read_only=True,
        help_text="applied; undone (redo re-applies it); discarded (undone, then superseded by a "
        "new edit).",
    )
    decision = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text="In a consensus: the adjudication decision this change made, e.g. "
        '{"groups": [...], "choice": "a"}; null otherwise.',
    )
