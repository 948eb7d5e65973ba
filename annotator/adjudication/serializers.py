"""The bodies that start a consensus pyramid or a consensus peer annotation in the REST API."""

from __future__ import annotations

from rest_framework import serializers

from annotator.api.base_serializers import ID


class PyramidConsensusRequestSerializer(serializers.Serializer):
    a = serializers.IntegerField(**ID, required=False, help_text="Pyramid A (or give `pyramids`).")
    b = serializers.IntegerField(
        **ID, required=False, help_text="Pyramid B, of the same model summaries."
    )
    pyramids = serializers.ListField(
        child=serializers.IntegerField(**ID),
        required=False,
        min_length=2,
        max_length=8,
        help_text="Two to eight pyramids of the same model summaries, merged at once (A, B, C, ... "
        "in this order); instead of `a` and `b`.",
    )
    another = serializers.BooleanField(
        default=False,
        help_text="Start another consensus although these pyramids have one (refused otherwise, "
        "naming it).",
    )

    def validate(self, data):
        given = data.get("pyramids") or [data[k] for k in ("a", "b") if k in data]
        if ("pyramids" in data) == ("a" in data or "b" in data) or len(given) < 2:
            raise serializers.ValidationError(
                "Give `a` and `b`, or `pyramids` (two or more), not both."
            )
        if len(set(given)) != len(given):
            raise serializers.ValidationError({"pyramids": "Each pyramid once."})
        return data | {"pyramids": given}


class AnnotationConsensusRequestSerializer(serializers.Serializer):
    annotations = serializers.ListField(
        child=serializers.IntegerField(**ID),
        min_length=2,
        help_text="Two or more annotations of one peer against one pyramid.",
    )
