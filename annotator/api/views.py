"""The REST API over the records, with the pages' permissions and editing services.

What a user may read is what the pages show them (annotator.campaigns.access): anything else is 404. Writes
need the role the pages need (403 otherwise). Pyramids and peer annotations change only through
their editing actions, with the same rules and versions as the pages (409 on a stale version).
"""

from __future__ import annotations

from collections.abc import Mapping

import django_filters
from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch
from django.db.models.functions import Substr
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from annotator.adjudication import annotation_consensus, pyramid_consensus
from annotator.adjudication.aligned_pyramids import NotComparable
from annotator.adjudication.queue import consensuses_of
from annotator.api import serializers as s
from annotator.api.params import DOCSET_PARAMETER, docset_param
from annotator.campaigns import access, assignments
from annotator.editing.actions import PEER_ACTIONS, PYRAMID_ACTIONS, apply_action, status_for
from annotator.models import (
    PSE,
    SCU,
    Assignment,
    Collection,
    Contributor,
    Docset,
    HumanJudgment,
    PeerAnnotationChange,
    PSESpan,
    Pyramid,
    PyramidChange,
    Span,
    Summary,
)
from annotator.peer_annotation import editing as peer_editing
from annotator.peer_annotation import starting
from annotator.pyramids.editing import EditError, NotAllowed, StaleVersion
from annotator.transfer.views.downloads import ducview_zip_response

User = get_user_model()
READ_ONLY = ["get", "head", "options"]


class ZipRenderer(BaseRenderer):
    """Lets a client ask for a zip (Accept: application/zip); the view answers with the file itself,
    and a refusal is still JSON."""

    media_type = "application/zip"
    format = "zip"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return JSONRenderer().render(data)


def _deny(reason: str):
    raise PermissionDenied(reason)


def _what(data) -> str:
    if data is None:
        return "null"
    if isinstance(data, bool):  # before numbers: True is an int to Python
        return "true or false"
    if isinstance(data, (int, float)):
        return "a number"
    return {list: "a list", str: "a string"}.get(type(data), type(data).__name__)


class WritesTakeAnObject:
    """Every write of the API takes a JSON object of fields (or a form): a body of JSON null, a
    list, a string or a number is refused with one message whatever the endpoint (issue 16), and
    a PUT or PATCH must name a field to change (an empty PATCH answered 200, changing nothing).
    Checked once the caller is known and allowed, so that 401 and 403 come first."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if request.method not in ("POST", "PUT", "PATCH"):
            return
        data = request.data  # parsed here: a malformed body is a ParseError (400)
        if not isinstance(data, Mapping):
            raise ValidationError(
                {"detail": f"The body must be a JSON object of fields, not {_what(data)}."}
            )
        if request.method in ("PUT", "PATCH") and not data:
            raise ValidationError(
                {
                    "detail": "The body names no field to change: send a JSON object of the fields "
                    "to change."
                }
            )


def _administers(user, collection_id: int) -> None:
    if not access.can_administer(user, collection_id):
        _deny("Only the collection's administrators do this.")


class WrittenIntoDocset:
    """Records created in a docset (summaries, pyramids): the docset must be one the caller sees
    (else "does not exist", 400) and whose collection they administer (else 403)."""

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        _restrict(serializer, "docset", access.visible_docsets(self.request.user))
        return serializer

    def perform_create(self, serializer):
        _administers(self.request.user, serializer.validated_data["docset"].collection_id)
        serializer.save()


def _restrict(serializer, field: str, queryset) -> None:
    """Only these objects may be named in `field` (others read as "does not exist")."""
    if not isinstance(serializer, serializers.ListSerializer) and field in serializer.fields:
        serializer.fields[field].queryset = queryset


@extend_schema_view(
    list=extend_schema(description="The collections you may see."),
    create=extend_schema(description="Site administrators only."),
)
class CollectionViewSet(
    WritesTakeAnObject,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = s.CollectionSerializer
    filterset_fields = ["name", "weight_convention"]
    ordering_fields = ["name", "created_at"]

    def get_queryset(self):
        return access.visible_collections(self.request.user).order_by("name")

    def perform_create(self, serializer):
        if not access.is_site_administrator(self.request.user):
            _deny("Only site administrators create collections.")
        serializer.save()

    def perform_update(self, serializer):
        _administers(self.request.user, serializer.instance.pk)
        serializer.save()

    @extend_schema(
        parameters=[OpenApiParameter("docset", str, description=DOCSET_PARAMETER)],
        responses={
            (200, "application/zip"): OpenApiTypes.BINARY
        },  # refusals: JSON (annotator.api.schema)
        description="The collection's DUCView files as a zip, as `export_ducview` writes them: allpyramids/*.pyr (each "
        "pyramid) and allpans/*.pan (each peer annotation), which `import_ducview` and the import page read "
        "back. For the collection's administrators, organizers and adjudicators.",
    )
    @action(
        detail=True,
        methods=["get"],
        renderer_classes=[JSONRenderer, ZipRenderer],
        filter_backends=[],
        pagination_class=None,
    )
    def ducview(self, request, pk=None):
        collection = self.get_object()  # 404 unless visible
        if not access.can_read_collection(request.user, collection):
            _deny(
                "The DUCView files are for the collection's administrators, organizers and adjudicators."
            )
        docset = docset_param(collection, request.query_params.get("docset"))
        return ducview_zip_response(collection, docset.name if docset else None)


class DocsetViewSet(
    WritesTakeAnObject,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = s.DocsetSerializer
    filterset_fields = ["collection", "name"]
    ordering_fields = ["name"]

    def get_queryset(self):
        return access.visible_docsets(self.request.user).order_by("collection_id", "name")

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        _restrict(serializer, "collection", access.visible_collections(self.request.user))
        return serializer

    def perform_create(self, serializer):
        _administers(self.request.user, serializer.validated_data["collection"].pk)
        serializer.save()

    def perform_update(self, serializer):
        _administers(self.request.user, serializer.instance.collection_id)
        _administers(
            self.request.user,
            serializer.validated_data.get("collection", serializer.instance.collection).pk,
        )
        serializer.save()


class SummaryViewSet(
    WritesTakeAnObject,
    WrittenIntoDocset,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    """Summaries are added, never changed: pyramids and annotations point into their text."""

    serializer_class = s.SummarySerializer
    filterset_fields = ["docset", "kind", "author"]
    ordering_fields = ["author"]

    def get_queryset(self):
        return access.visible_summaries(self.request.user).order_by("docset_id", "kind", "author")


def _spans(model):
    return Prefetch("spans", queryset=model.objects.order_by("position", "id"))


def _action_view(
    actions: dict, record: str, answer_also=None, answer_serializer=s.ActionResultSerializer
):
    """POST …/{id}/actions/{action}/: one editing action, as the page sends it. `answer_also`
    (the action's result -> dict) adds to the answer what the record's page shows with it."""

    @extend_schema(
        request=s.ActionRequestSerializer,
        responses={
            200: answer_serializer,
            403: s.RefusalSerializer,
            409: s.RefusalSerializer,
            422: s.RefusalSerializer,
        },
        parameters=[
            OpenApiParameter(
                "name",
                str,
                OpenApiParameter.PATH,
                enum=sorted(actions),
                description="The editing action.",
            )
        ],
        description=f"Apply one editing action to the {record}: "
        + ", ".join(f"{name}({', '.join(fields) or '—'})" for name, (_, fields) in actions.items())
        + ". Send the version you saw; the answer carries the new one.",
    )
    @action(detail=True, methods=["post"], url_path=r"actions/(?P<name>[a-z_]+)", url_name="action")
    def edit(self, request, pk=None, name=None):
        record_object = self.get_object()  # 404 unless visible
        if name not in actions:
            raise NotFound(f"No action {name!r}; the actions are: {', '.join(sorted(actions))}.")
        try:
            result = apply_action(actions, name, record_object.pk, request.user, request.data)
        except EditError as refused:
            body = {"detail": refused.message}
            if isinstance(refused, StaleVersion):
                body["current_version"] = refused.current_version
            return Response(body, status=status_for(refused))
        return Response(
            {
                "version": result.version,
                "description": result.description,
                **(answer_also(result) if answer_also else {}),
            }
        )

    return edit


class PyramidViewSet(
    WritesTakeAnObject,
    WrittenIntoDocset,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = s.PyramidSerializer
    filterset_fields = ["docset", "status", "name"]
    ordering_fields = ["name", "updated_at"]

    def get_queryset(self):
        return (
            access.visible_pyramids(self.request.user)
            .select_related("created_by", "merge")
            .prefetch_related("models_used", "merge__further_sources")
            .order_by("docset_id", "name", "id")
        )

    def perform_create(self, serializer):
        try:
            super().perform_create(serializer)
        except EditError as refused:  # e.g. a docset with fewer than two models
            raise ValidationError({"docset": refused.message}) from None

    edit = _action_view(PYRAMID_ACTIONS, "pyramid")

    @extend_schema(
        request=s.PyramidConsensusRequestSerializer,
        responses={201: s.PyramidSerializer, 404: s.RefusalSerializer},  # a pyramid you may not see
        description="Start a consensus pyramid of two or more pyramids of the same model summaries "
        "(adjudicators and administrators); decide its aligned groups with the actions "
        "choose_version (side a, b, c, ...) and keep_group.",
    )
    @action(detail=False, methods=["post"], url_path="consensus")
    def consensus(self, request):
        body = s.PyramidConsensusRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        wanted = body.validated_data["pyramids"]
        visible = {
            p.pk: p for p in self.get_queryset().select_related("docset").filter(pk__in=wanted)
        }
        if len(visible) != len(wanted):
            raise NotFound("No such pyramid.")
        pyramids = [visible[pk] for pk in wanted]
        if not access.can_adjudicate(request.user, pyramids[0].docset.collection_id):
            _deny(
                "Merging annotators' pyramids is for the collection's adjudicators and administrators."
            )
        existing = consensuses_of(pyramids)
        if existing and not body.validated_data["another"]:
            names = ", ".join(p.name for p in pyramids[:-1]) + f" and {pyramids[-1].name}"
            raise ValidationError(
                {
                    "detail": f"{names} have a consensus already: {existing[-1].name} "
                    f"(id {existing[-1].pk}, {existing[-1].get_status_display().lower()}); "
                    "send another=true to start one more."
                }
            )
        try:
            consensus = pyramid_consensus.start_many(pyramids, request.user)
        except NotAllowed as refused:
            _deny(refused.message)
        except (NotComparable, EditError) as problem:
            raise ValidationError(
                {"detail": getattr(problem, "message", None) or str(problem)}
            ) from None
        return Response(
            s.PyramidSerializer(self.get_queryset().get(pk=consensus.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class SCUViewSet(viewsets.ReadOnlyModelViewSet):
    """SCUs with their contributors and spans, and their weight under the collection's convention."""

    serializer_class = s.SCUSerializer
    filterset_fields = ["pyramid", "uid"]
    ordering_fields = ["position", "uid"]

    def get_queryset(self):
        return (
            SCU.objects.filter(pyramid__in=access.visible_pyramids(self.request.user))
            .with_weight()  # each SCU under its own collection's convention
            .prefetch_related(
                Prefetch(
                    "contributors",
                    queryset=Contributor.objects.order_by("position", "id").prefetch_related(
                        _spans(Span)
                    ),
                )
            )
            .order_by("pyramid_id", "position", "id")
        )


class ContributorViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.ContributorSerializer
    filterset_fields = ["scu", "summary", "scu__pyramid"]

    def get_queryset(self):
        return (
            Contributor.objects.filter(scu__pyramid__in=access.visible_pyramids(self.request.user))
            .prefetch_related(_spans(Span))
            .order_by("scu_id", "position", "id")
        )


def _with_text(spans):
    # Cut in the database: code point offsets are what SUBSTR counts.
    return spans.annotate(text=Substr("summary__text", F("start") + 1, F("end") - F("start")))


class SpanViewSet(viewsets.ReadOnlyModelViewSet):
    """Contributor spans, with the words they cover."""

    serializer_class = s.SpanSerializer
    filterset_fields = ["contributor", "summary", "contributor__scu", "contributor__scu__pyramid"]

    def get_queryset(self):
        return _with_text(
            Span.objects.filter(
                contributor__scu__pyramid__in=access.visible_pyramids(self.request.user)
            ).order_by("contributor_id", "position", "id")
        )


class PeerAnnotationViewSet(
    WritesTakeAnObject,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = s.PeerAnnotationSerializer
    filterset_fields = ["pyramid", "peer", "status", "pyramid__docset"]
    ordering_fields = ["updated_at"]

    def get_queryset(self):
        return (
            access.visible_annotations(self.request.user)
            .select_related("annotator", "merge")
            .prefetch_related("merge__sources")
            .order_by("pyramid_id", "peer_id", "id")
        )

    @extend_schema(
        description="Start your own annotation of a peer assigned to you (or, as an administrator, "
        "of any peer of the docset) against a pyramid."
    )
    def create(self, request, *args, **kwargs):
        return super().create(request, *args, **kwargs)

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        _restrict(serializer, "pyramid", access.visible_pyramids(self.request.user))
        _restrict(
            serializer, "peer", access.visible_summaries(self.request.user).filter(kind="peer")
        )
        return serializer

    def perform_create(self, serializer):
        user, pyramid, peer = (
            self.request.user,
            serializer.validated_data["pyramid"],
            serializer.validated_data["peer"],
        )
        try:  # as the page's Start button: annotator.peer_annotation.starting
            serializer.instance, _ = starting.start_annotation(user, pyramid, peer, existing=False)
        except NotAllowed as refused:
            _deny(refused.message)
        except EditError as refused:
            raise ValidationError(
                {getattr(refused, "field", None) or "detail": refused.message}
            ) from None

    # As the page warns before "complete": how many of the peer's words are in no PSE (never refused).
    edit = _action_view(
        PEER_ACTIONS,
        "peer annotation",
        lambda result: {"uncovered_words": len(peer_editing.words_in_no_pse(result.annotation))},
        s.PeerActionResultSerializer,
    )

    @extend_schema(
        request=s.AnnotationConsensusRequestSerializer,
        responses={
            201: s.PeerAnnotationSerializer,
            404: s.RefusalSerializer,
        },  # an annotation you may not see
        description="Start (or get) the consensus annotation of two or more annotations of one peer against one "
        "pyramid (adjudicators and administrators); decide each SCU with the actions take_reading "
        "and keep_reading.",
    )
    @action(detail=False, methods=["post"], url_path="consensus")
    def consensus(self, request):
        body = s.AnnotationConsensusRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        wanted = set(body.validated_data["annotations"])
        sources = list(self.get_queryset().filter(pk__in=wanted).select_related("pyramid__docset"))
        if len(sources) != len(wanted):
            raise NotFound("No such peer annotation.")
        try:
            consensus = annotation_consensus.start(sources, request.user)
        except NotAllowed as refused:
            _deny(refused.message)
        except EditError as problem:
            raise ValidationError({"detail": problem.message}) from None
        return Response(
            s.PeerAnnotationSerializer(self.get_queryset().get(pk=consensus.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class PSEViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.PSESerializer
    filterset_fields = ["annotation", "scu"]

    def get_queryset(self):
        return (
            PSE.objects.filter(annotation__in=access.visible_annotations(self.request.user))
            .select_related("scu")
            .prefetch_related(_spans(PSESpan))
            .order_by("annotation_id", "position", "id")
        )


@extend_schema_view(
    create=extend_schema(
        request=s.AssignRequestSerializer,
        responses={201: s.AssignReportSerializer},
        description="Assign work in bulk, as the Assign page does.",
    )
)
class AssignmentViewSet(
    WritesTakeAnObject,
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = s.AssignmentSerializer
    filterset_fields = ["task", "status", "pyramid", "peer", "user__username", "pyramid__docset"]
    ordering_fields = ["created_at", "updated_at"]

    def get_queryset(self):
        return (
            access.visible_assignments(self.request.user)
            .select_related("user", "assigned_by", "pyramid")
            .order_by("pyramid__docset_id", "user_id", "id")
        )

    def create(self, request, *args, **kwargs):
        given = s.AssignRequestSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        docsets = list(
            Docset.objects.filter(
                pk__in=data["docsets"], collection__in=access.visible_collections(request.user)
            )
        )
        if len(docsets) != len(set(data["docsets"])):
            raise ValidationError({"docsets": "No such docset."})
        for collection_id in {d.collection_id for d in docsets}:
            _administers(request.user, collection_id)
        order = {
            name: i for i, name in enumerate(data["annotators"])
        }  # round robin goes in the order given
        users = sorted(
            User.objects.filter(username__in=data["annotators"], is_active=True),
            key=lambda u: order[u.username],
        )
        if len(users) != len(set(data["annotators"])):
            raise ValidationError(
                {
                    "annotators": "No such active user: "
                    + ", ".join(sorted(set(data["annotators"]) - {u.username for u in users}))
                }
            )
        pyramid = None
        if data["task"] == Assignment.Task.ANNOTATE_PEER and data.get("pyramid"):
            pyramid = (
                Pyramid.objects.filter(pk=data["pyramid"], docset__in=docsets)
                .select_related("docset")
                .first()
            )
            if pyramid is None:
                raise ValidationError({"pyramid": "No such pyramid among these docsets."})
        try:  # as the Assign page: annotator.campaigns.assignments.assign
            report = assignments.assign(
                data["task"], docsets, users, request.user, data["mode"], pyramid
            )
        except NotAllowed as refused:
            _deny(refused.message)
        except EditError as refused:
            raise ValidationError({"detail": refused.message}) from None
        body = s.AssignReportSerializer(
            {"created": report.created, "already": report.already, "skipped": report.skipped}
        ).data
        return Response(body, status=status.HTTP_201_CREATED)

    def _administered(self) -> Assignment:
        assignment = self.get_object()
        _administers(self.request.user, assignment.pyramid.docset.collection_id)
        return assignment

    @extend_schema(
        request=None,
        responses={200: s.AssignmentSerializer, 403: s.RefusalSerializer, 422: s.RefusalSerializer},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        assignment = self._administered()
        try:
            assignments.withdraw(assignment, request.user)
        except EditError as refused:
            return Response({"detail": refused.message}, status=status_for(refused))
        return Response(s.AssignmentSerializer(assignment).data)

    @extend_schema(
        request=s.ReassignSerializer,
        responses={200: s.AssignmentSerializer, 403: s.RefusalSerializer, 422: s.RefusalSerializer},
    )
    @action(detail=True, methods=["post"])
    def reassign(self, request, pk=None):
        assignment = self._administered()
        given = s.ReassignSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        to = User.objects.filter(username=given.validated_data["to"], is_active=True).first()
        if to is None:
            raise ValidationError({"to": "No such active user."})
        try:
            moved = assignments.reassign(assignment, to, request.user)
        except EditError as refused:
            return Response({"detail": refused.message}, status=status_for(refused))
        return Response(s.AssignmentSerializer(moved).data)


def _flag(request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in ("1", "true", "yes")


SNAPSHOTS_PARAMETER = OpenApiParameter(
    "snapshots",
    bool,
    description="Also each change's `before` and `after` snapshots, as the detail gives them "
    "(large: leave them out to page through a history).",
)


class ChangeViewSet(viewsets.ReadOnlyModelViewSet):
    """A history, as the History pages list it: newest first (`?ordering=id` for oldest first)."""

    ordering_fields = ["id", "created_at"]
    ordering = ["-id"]
    detail_serializer_class: type[serializers.Serializer]

    def records(self):
        raise NotImplementedError

    def get_queryset(self):
        changes = self.records().select_related("user").order_by("-id")
        if self.action == "list" and not _flag(self.request, "snapshots"):
            changes = changes.defer("before", "after")
        return changes

    def get_serializer_class(self):
        if self.action == "retrieve" or _flag(self.request, "snapshots"):
            return self.detail_serializer_class
        return self.serializer_class


@extend_schema_view(
    list=extend_schema(
        parameters=[SNAPSHOTS_PARAMETER],
        description="The history of the pyramids you may see (filter by `pyramid`): each change, who made "
        "it and when, its state on the undo stack, and in a consensus the decision it made.",
    ),
    retrieve=extend_schema(
        description="One change of a pyramid, with the snapshots undo (`before`) and redo (`after`) "
        "restore."
    ),
)
class PyramidChangeViewSet(ChangeViewSet):
    serializer_class = s.PyramidChangeSerializer
    detail_serializer_class = s.PyramidChangeDetailSerializer
    filterset_fields = ["pyramid", "state", "action", "user__username"]

    def records(self):
        return PyramidChange.objects.filter(pyramid__in=access.visible_pyramids(self.request.user))


@extend_schema_view(
    list=extend_schema(
        parameters=[SNAPSHOTS_PARAMETER],
        description="The history of the peer annotations you may see (filter by `annotation`): each "
        "change, who made it and when, its state on the undo stack, and in a consensus the "
        "decision it made.",
    ),
    retrieve=extend_schema(
        description="One change of a peer annotation, with the snapshots undo (`before`) and redo "
        "(`after`) restore."
    ),
)
class PeerAnnotationChangeViewSet(ChangeViewSet):
    serializer_class = s.PeerAnnotationChangeSerializer
    detail_serializer_class = s.PeerAnnotationChangeDetailSerializer
    filterset_fields = ["annotation", "state", "action", "user__username"]

    def records(self):
        return PeerAnnotationChange.objects.filter(
            annotation__in=access.visible_annotations(self.request.user)
        )


class JudgmentFilter(django_filters.FilterSet):
    collection = django_filters.ModelChoiceFilter(
        field_name="summary__docset__collection", queryset=Collection.objects.all()
    )
    docset = django_filters.ModelChoiceFilter(
        field_name="summary__docset", queryset=Docset.objects.all()
    )
    kind = django_filters.ChoiceFilter(field_name="summary__kind", choices=Summary.Kind.choices)

    class Meta:
        model = HumanJudgment
        fields = ["collection", "docset", "summary", "kind", "criterion", "judge"]


@extend_schema_view(
    list=extend_schema(
        description="Human judgments (content responsiveness, linguistic quality, ...) "
        "of the summaries you may see."
    )
)
class JudgmentViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = s.JudgmentSerializer
    filterset_class = JudgmentFilter
    ordering_fields = ["value", "criterion"]

    def get_queryset(self):
        return (
            HumanJudgment.objects.filter(summary__in=access.visible_summaries(self.request.user))
            .select_related("summary__docset")
            .order_by("summary__docset_id", "summary_id", "criterion", "judge", "id")
        )
