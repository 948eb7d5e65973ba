"""How peer annotations, their PSEs and PSE spans, and an annotation's history look in the REST API
(JSON), and the answer of a peer annotation's editing action."""

from __future__ import annotations

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotator.api.base_serializers import (
    CHANGE_FIELDS,
    SNAPSHOTS,
    ActionResultSerializer,
    ChangeSerializer,
    TextSpanSerializer,
)
from annotator.editing.models import PeerAnnotationChange
from annotator.peer_annotation.models import PSE, PeerAnnotation, PSESpan


class PeerAnnotationSerializer(serializers.ModelSerializer):
    annotator: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="The user who annotates; null for imported annotations (see annotator_code).",
    )
    needs_review = serializers.BooleanField(read_only=True)
    merged_from = serializers.SerializerMethodField(
        help_text="For a consensus annotation: the annotations it merges; empty otherwise."
    )

    class Meta:
        model = PeerAnnotation
        fields = [
            "id",
            "pyramid",
            "peer",
            "annotator",
            "annotator_code",
            "status",
            "version",
            "scus_changed",
            "needs_review",
            "merged_from",
            "source_name",
            "created_at",
            "updated_at",
        ]
        # A new annotation starts in progress at version 1 (annotator.peer_annotation.starting);
        # its editing actions change the rest.
        read_only_fields = ["annotator_code", "status", "version", "scus_changed", "source_name"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_merged_from(self, annotation) -> list[int]:
        merge = getattr(annotation, "merge", None)  # prefetched by the view
        return sorted(source.pk for source in merge.sources.all()) if merge else []


class PSESerializer(serializers.ModelSerializer):
    scu_uid = serializers.SerializerMethodField(
        help_text="The SCU's uid; 0 for content matching nothing."
    )
    spans = TextSpanSerializer(many=True, read_only=True)

    class Meta:
        model = PSE
        fields = [
            "id",
            "annotation",
            "scu",
            "scu_uid",
            "comment",
            "position",
            "source",
            "suggestion_rank",
            "spans",
        ]
        # the rank is set by the assign action (its suggestion_rank), never written here
        read_only_fields = ["suggestion_rank"]
        extra_kwargs = {
            "source": {
                "help_text": "In a consensus annotation: the annotator's PSE this one was taken "
                "from."
            }
        }

    @extend_schema_field(serializers.IntegerField())
    def get_scu_uid(self, pse) -> int:
        return pse.scu.uid if pse.scu_id else 0


class PSESpanSerializer(serializers.ModelSerializer):
    class Meta:
        model = PSESpan
        fields = ["id", "pse", "start", "end", "position"]


class PeerActionResultSerializer(ActionResultSerializer):
    uncovered_words = serializers.IntegerField(
        help_text="How many words of the peer summary (runs of letters and digits: punctuation is "
        "not a word) are in no PSE after the action. DUC 2005's convention puts every word in a "
        'PSE, of an SCU or of "matches nothing" (scu 0); "complete" is not refused for them, as '
        "the page only warns."
    )


class PeerAnnotationChangeSerializer(ChangeSerializer):
    class Meta:
        model = PeerAnnotationChange
        fields = ["id", "annotation", *CHANGE_FIELDS[1:]]
        read_only_fields = fields


class PeerAnnotationChangeDetailSerializer(PeerAnnotationChangeSerializer):
    """With the snapshots undo and redo restore: the PSEs the change changed, before and after
    it, as {"pses": [...], "absent": [ids]} (older changes list every PSE of the annotation)."""

    class Meta(PeerAnnotationChangeSerializer.Meta):
        fields = read_only_fields = [*PeerAnnotationChangeSerializer.Meta.fields, *SNAPSHOTS]
