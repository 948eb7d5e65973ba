"""How pyramids, their SCUs, contributors and contributor spans, and a pyramid's history look in
the REST API (JSON)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotator.api.base_serializers import (
    CHANGE_FIELDS,
    SNAPSHOTS,
    ChangeSerializer,
    TextSpanSerializer,
)
from annotator.campaigns import assignments
from annotator.campaigns.models import Summary
from annotator.editing.models import PyramidChange
from annotator.pyramids.models import SCU, Contributor, Pyramid, Span


class PyramidSerializer(serializers.ModelSerializer):
    created_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    models: serializers.PrimaryKeyRelatedField[Summary] = serializers.PrimaryKeyRelatedField(
        source="models_used",
        many=True,
        read_only=True,
        help_text="The model summaries, in the pyramid's order.",
    )

    merged_from = serializers.SerializerMethodField(
        help_text="For a consensus pyramid: the two pyramids (A, B) it merges; empty otherwise."
    )

    class Meta:
        model = Pyramid
        fields = [
            "id",
            "docset",
            "name",
            "status",
            "version",
            "models",
            "created_by",
            "creator_code",
            "merged_from",
            "source_name",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["status", "version", "creator_code", "source_name"]
        validators: list[Any] = []  # validate() names the pyramid already there

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_merged_from(self, pyramid) -> list[int]:
        merge = getattr(pyramid, "merge", None)  # select_related by the view: no query
        return [source for _, source in merge.side_ids()] if merge else []

    def validate(self, data):
        docset = data.get("docset") or getattr(self.instance, "docset", None)
        name = data.get("name")
        if (
            docset
            and name
            and Pyramid.objects.filter(docset=docset, name=name)
            .exclude(pk=getattr(self.instance, "pk", None))
            .exists()
        ):
            raise serializers.ValidationError(
                {"name": f"Docset {docset.name} already has a pyramid named {name}."}
            )
        return data

    def create(self, data):
        """A new pyramid over all of the docset's model summaries, built by the caller."""
        return assignments.new_pyramid(data["docset"], self.context["request"].user, data["name"])


class SpanSerializer(serializers.ModelSerializer):
    text = serializers.CharField(read_only=True, help_text="The words the span covers.")

    class Meta:
        model = Span
        fields = ["id", "contributor", "summary", "start", "end", "position", "text"]


class ContributorSerializer(serializers.ModelSerializer):
    spans = TextSpanSerializer(many=True, read_only=True)

    class Meta:
        model = Contributor
        fields = ["id", "scu", "summary", "comment", "position", "source", "spans"]
        extra_kwargs = {
            "source": {
                "help_text": "In a consensus pyramid: the annotator's contributor this one was "
                "taken from."
            }
        }


class SCUSerializer(serializers.ModelSerializer):
    weight = serializers.IntegerField(
        read_only=True, help_text="Under the collection's weight convention."
    )
    contributors = ContributorSerializer(many=True, read_only=True)

    class Meta:
        model = SCU
        fields = [
            "id",
            "pyramid",
            "uid",
            "label",
            "comment",
            "position",
            "source",
            "weight",
            "contributors",
        ]
        extra_kwargs = {
            "source": {
                "help_text": "In a consensus pyramid: the annotator's SCU this one was taken from."
            }
        }


class PyramidChangeSerializer(ChangeSerializer):
    class Meta:
        model = PyramidChange
        fields = ["id", "pyramid", *CHANGE_FIELDS[1:]]
        read_only_fields = fields


class PyramidChangeDetailSerializer(PyramidChangeSerializer):
    """With the snapshots undo and redo restore: the SCUs the change touched (by uid; null for an
    SCU that did not exist) and the order of all SCUs."""

    class Meta(PyramidChangeSerializer.Meta):
        fields = read_only_fields = [*PyramidChangeSerializer.Meta.fields, *SNAPSHOTS]
