"""What the endpoints of several packages share: the refusals (403 for the role), the check that a
write's body is an object of fields, records created in a docset, the editing-action endpoint of
pyramids and peer annotations, and the histories' viewset.

What a user may read is what the pages show them (annotator.campaigns.access): anything else is
404. Writes need the role the pages need (403 otherwise). Pyramids and peer annotations change only
through their editing actions, with the same rules and versions as the pages (409 on a stale
version).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from django.db.models import Prefetch
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response

from annotator.api.base_serializers import (
    ActionRequestSerializer,
    ActionResultSerializer,
    RefusalSerializer,
)
from annotator.campaigns import access
from annotator.editing.actions import apply_action, status_for
from annotator.editing.errors import EditError, StaleVersion


def deny(reason: str) -> NoReturn:
    raise PermissionDenied(reason)


def _what(data) -> str:
    if data is None:
        return "null"
    if isinstance(data, bool):  # before numbers: True is an int to Python
        return "true or false"
    if isinstance(data, (int, float)):
        return "a number"
    names: dict[type, str] = {list: "a list", str: "a string"}
    return names.get(type(data), type(data).__name__)


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


def administers(user, collection_id: int) -> None:
    if not access.can_administer(user, collection_id):
        deny("Only the collection's administrators do this.")


def restrict(serializer, field: str, queryset) -> None:
    """Only these objects may be named in `field` (others read as "does not exist")."""
    if not isinstance(serializer, serializers.ListSerializer) and field in serializer.fields:
        serializer.fields[field].queryset = queryset


class WrittenIntoDocset:
    """Records created in a docset (summaries, pyramids): the docset must be one the caller sees
    (else "does not exist", 400) and whose collection they administer (else 403)."""

    def get_serializer(self, *args, **kwargs):
        serializer = super().get_serializer(*args, **kwargs)
        restrict(serializer, "docset", access.visible_docsets(self.request.user))
        return serializer

    def perform_create(self, serializer):
        administers(self.request.user, serializer.validated_data["docset"].collection_id)
        serializer.save()


def spans_in_order(model) -> Prefetch:
    return Prefetch("spans", queryset=model.objects.order_by("position", "id"))


def action_view(
    actions: dict,
    record: str,
    answer_also: Callable[[Any], dict] | None = None,
    answer_serializer: type[serializers.Serializer] = ActionResultSerializer,
):
    """POST …/{id}/actions/{action}/: one editing action, as the page sends it. `answer_also`
    (the action's result -> dict) adds to the answer what the record's page shows with it."""

    @extend_schema(
        request=ActionRequestSerializer,
        responses={
            200: answer_serializer,
            403: RefusalSerializer,
            409: RefusalSerializer,
            422: RefusalSerializer,
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


def flag(request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in ("1", "true", "yes")


SNAPSHOTS_PARAMETER = OpenApiParameter(
    "snapshots",
    bool,
    description="Also each change's `before` and `after` snapshots, as the detail gives them "
    "(large: leave them out to page through a history).",
)


class AddedViewSet(
    mixins.CreateModelMixin,
    mixins.RetrieveModelMixin,
    mixins.ListModelMixin,
    viewsets.GenericViewSet,
):
    """Records created and read through the API, never changed or deleted there: summaries,
    assignments, pyramids and annotations (these change through their editing actions), jobs."""


class EditableViewSet(mixins.UpdateModelMixin, AddedViewSet):
    """Records created, read and changed through the API: collections and docsets."""


class ChangeViewSet(viewsets.ReadOnlyModelViewSet):
    """A history, as the History pages list it: newest first (`?ordering=id` for oldest first)."""

    ordering_fields = ["id", "created_at"]
    ordering = ["-id"]
    detail_serializer_class: type[serializers.Serializer]

    def records(self):
        raise NotImplementedError

    def get_queryset(self):
        changes = self.records().select_related("user").order_by("-id")
        if self.action == "list" and not flag(self.request, "snapshots"):
            changes = changes.defer("before", "after")
        return changes

    def get_serializer_class(self):
        if self.action == "retrieve" or flag(self.request, "snapshots"):
            return self.detail_serializer_class
        return self.serializer_class
