"""How the records look in the REST API (JSON)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.settings import api_settings

from annotator.campaigns import assignments, summaries
from annotator.models import (
    PSE,
    SCU,
    Assignment,
    Collection,
    Contributor,
    Docset,
    HumanJudgment,
    PeerAnnotation,
    PeerAnnotationChange,
    PSESpan,
    Pyramid,
    PyramidChange,
    Span,
    Summary,
)
from annotator.pyramids.editing import NotAllowed

User = get_user_model()
ID = {
    "min_value": 0,
    "max_value": 2**63 - 1,
}  # what a database id can hold: larger numbers are refused (400)


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
        validators = []  # validate() says which summary is already there

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


class PyramidSerializer(serializers.ModelSerializer):
    created_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    models = serializers.PrimaryKeyRelatedField(
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
        validators = []  # validate() names the pyramid already there

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


class TextSpanSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    start = serializers.IntegerField(
        help_text="Offset in the summary's text, in code points, 0-based."
    )
    end = serializers.IntegerField(help_text="End offset, exclusive.")


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
                "help_text": "In a consensus pyramid: the annotator's contributor this one was taken from."
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


class PeerAnnotationSerializer(serializers.ModelSerializer):
    annotator = serializers.SlugRelatedField(
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
        fields = ["id", "annotation", "scu", "scu_uid", "comment", "position", "source", "spans"]
        extra_kwargs = {
            "source": {
                "help_text": "In a consensus annotation: the annotator's PSE this one was taken from."
            }
        }

    @extend_schema_field(serializers.IntegerField())
    def get_scu_uid(self, pse) -> int:
        return pse.scu.uid if pse.scu_id else 0


class PSESpanSerializer(serializers.ModelSerializer):
    class Meta:
        model = PSESpan
        fields = ["id", "pse", "start", "end", "position"]


class AssignmentSerializer(serializers.ModelSerializer):
    user = serializers.SlugRelatedField(slug_field="username", read_only=True)
    assigned_by = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )
    docset = serializers.IntegerField(source="pyramid.docset_id", read_only=True)

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
    label = serializers.CharField(required=False, allow_blank=True)
    comment = serializers.CharField(required=False, allow_blank=True)


class ActionResultSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The new version, to send with the next edit.")
    description = serializers.CharField()


class PeerActionResultSerializer(ActionResultSerializer):
    uncovered_words = serializers.IntegerField(
        help_text="How many words of the peer summary (runs of letters and digits: punctuation is not a word) are in "
        "no PSE after the action. DUC 2005's convention puts every word in a PSE, of an SCU or of \"matches "
        'nothing" (scu 0); "complete" is not refused for them, as the page only warns.'
    )


class RefusalSerializer(serializers.Serializer):
    detail = serializers.CharField()
    current_version = serializers.IntegerField(required=False)


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
        help_text="Two to eight pyramids of the same model summaries, merged at once (A, B, C, ... in this order); "
        "instead of `a` and `b`.",
    )
    another = serializers.BooleanField(
        default=False,
        help_text="Start another consensus although these pyramids have one (refused otherwise, naming it).",
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


CHANGE_FIELDS = ["id", "created_at", "user", "action", "description", "state", "decision"]
SNAPSHOTS = ["before", "after"]


class ChangeSerializer(serializers.ModelSerializer):
    """One change of an editor's history, as the History page lists it."""

    user = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="Who made it (null: an account since deleted).",
    )
    state = serializers.ChoiceField(
        choices=PyramidChange.State.choices,
        read_only=True,
        help_text="applied; undone (redo re-applies it); discarded (undone, then superseded by a new edit).",
    )
    decision = serializers.JSONField(
        read_only=True,
        allow_null=True,
        help_text='In a consensus: the adjudication decision this change made, e.g. {"groups": [...], "choice": "a"}; '
        "null otherwise.",
    )


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


class PeerAnnotationChangeSerializer(ChangeSerializer):
    class Meta:
        model = PeerAnnotationChange
        fields = ["id", "annotation", *CHANGE_FIELDS[1:]]
        read_only_fields = fields


class PeerAnnotationChangeDetailSerializer(PeerAnnotationChangeSerializer):
    """With the snapshots undo and redo restore: all the annotation's PSEs before and after."""

    class Meta(PeerAnnotationChangeSerializer.Meta):
        fields = read_only_fields = [*PeerAnnotationChangeSerializer.Meta.fields, *SNAPSHOTS]


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
