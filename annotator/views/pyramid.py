"""The pyramid page: read it, or build it (htmx posts one editing action at a time)."""

from __future__ import annotations

import json
from collections import defaultdict

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from .. import editing
from ..access import can_edit_pyramid, visible_pyramids
from ..models import Contributor, Pyramid, PyramidChange, Span
from ..problems import pyramid_problems
from ..textmarks import coverage, runs

# The actions the page posts, and the form fields each takes (after the pyramid's version).
ACTIONS = {
    "new_scu": (editing.new_scu, ["summary", "ranges", "label?"]),
    "add_contributor": (editing.add_contributor, ["scu", "summary", "ranges"]),
    "add_part": (editing.add_part, ["contributor", "summary", "ranges"]),
    "set_label": (editing.set_label, ["scu", "label"]),
    "set_label_from_contributor": (editing.set_label_from_contributor, ["contributor"]),
    "set_comment": (editing.set_comment, ["scu", "comment"]),
    "move_contributor": (editing.move_contributor, ["contributor", "target"]),
    "merge_scus": (editing.merge_scus, ["scu", "target"]),
    "split_contributor": (editing.split_contributor, ["contributor"]),
    "move_scu": (editing.move_scu, ["scu", "position"]),
    "order_scus": (editing.order_scus, []),
    "remove_part": (editing.remove_part, ["span"]),
    "remove_contributor": (editing.remove_contributor, ["contributor"]),
    "remove_scu": (editing.remove_scu, ["scu"]),
    "undo": (editing.undo, []),
    "redo": (editing.redo, []),
    "submit": (editing.submit, []),
    "reopen": (editing.reopen, []),
}
TEXT_FIELDS = {"label", "comment"}


def workspace_context(pyramid: Pyramid, user) -> dict:
    """Everything the workspace partial shows: shaded models, SCUs with contributors, problems."""
    scus = list(pyramid.scus.annotate(weight=Count("contributors")).order_by("position", "id"))
    uid_of = {scu.id: scu.uid for scu in scus}
    spans = list(Span.objects.filter(contributor__scu__pyramid=pyramid).select_related("summary").order_by("start"))
    by_summary, by_contributor = defaultdict(list), defaultdict(list)
    for span in spans:
        by_contributor[span.contributor_id].append(span)
    contributors = defaultdict(list)
    for contributor in Contributor.objects.filter(scu__pyramid=pyramid).select_related("summary").order_by("position", "id"):
        parts = sorted(by_contributor[contributor.id], key=lambda s: s.start)
        for span in parts:
            by_summary[span.summary_id].append((span.start, span.end, uid_of[contributor.scu_id]))
        contributors[contributor.scu_id].append(
            {"id": contributor.id, "model": contributor.summary.author, "comment": contributor.comment,
             "parts": [{"id": s.id, "text": s.summary.text[s.start : s.end]} for s in parts]}
        )
    for scu in scus:
        scu.contributor_list = contributors[scu.id]
    models = []
    for link in pyramid.model_links.select_related("summary"):
        marks = by_summary[link.summary_id]
        models.append({"summary": link.summary, "runs": runs(link.summary.text, marks),
                       "coverage": coverage(link.summary.text, marks)})
    editable = pyramid.status == Pyramid.Status.IN_PROGRESS and can_edit_pyramid(user, pyramid)
    stack = pyramid.changes.exclude(action__in=editing.NOT_ON_THE_UNDO_STACK)
    return {
        "pyramid": pyramid,
        "models": models,
        "scus": scus,
        "problems": pyramid_problems(pyramid),
        "editable": editable,
        "can_reopen": pyramid.status == Pyramid.Status.SUBMITTED and user.is_staff,
        "can_undo": editable and stack.filter(state=PyramidChange.State.APPLIED).exists(),
        "can_redo": editable and stack.filter(state=PyramidChange.State.UNDONE).exists(),
        "last_change": pyramid.changes.order_by("-id").select_related("user").first(),
    }


@login_required
def pyramid_detail(request, pk):
    pyramid = get_object_or_404(visible_pyramids(request.user).select_related("docset__collection"), pk=pk)
    return render(request, "annotator/pyramid_detail.html", workspace_context(pyramid, request.user))


def _arguments(request, fields: list[str]) -> list:
    values = []
    for field in fields:
        optional = field.endswith("?")
        name = field.rstrip("?")
        raw = request.POST.get(name)
        if raw is None or (raw == "" and name not in TEXT_FIELDS):
            if optional:
                values.append(None)
                continue
            raise editing.RuleBroken(f"The request lacks {name!r}: reload the page and try again.")
        try:
            if name in TEXT_FIELDS:
                values.append(raw)
            elif name == "ranges":
                values.append([(int(start), int(end)) for start, end in json.loads(raw)])
            else:
                values.append(int(raw))
        except (TypeError, ValueError):
            raise editing.RuleBroken(f"The request's {name!r} is not valid: reload the page and try again.") from None
    return values


@require_POST
@login_required
def pyramid_edit(request, pk, action):
    """Apply one editing action; answer with the workspace as it now is (and a status)."""
    if action not in ACTIONS:
        raise Http404("no such action")
    pyramid = get_object_or_404(visible_pyramids(request.user), pk=pk)
    operation, fields = ACTIONS[action]
    status, message, level = 200, "", "saved"
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = -1  # no version: treat as stale, never as "whatever is there"
    try:
        result = operation(pyramid.pk, request.user, version, *_arguments(request, fields))
        message = result.description
    except editing.StaleVersion as stale:
        status, message, level = 409, stale.message, "conflict"
    except editing.NotAllowed as refused:
        # The user may read this pyramid (or visible_pyramids would have given 404), not change it.
        status, message, level = 403, refused.message, "error"
    except editing.RuleBroken as broken:
        status, message, level = 422, broken.message, "error"
    pyramid = Pyramid.objects.select_related("docset__collection").get(pk=pyramid.pk)
    context = workspace_context(pyramid, request.user) | {"message": message, "level": level}
    return render(request, "annotator/_workspace.html", context, status=status)


@login_required
def pyramid_history(request, pk):
    pyramid = get_object_or_404(visible_pyramids(request.user).select_related("docset__collection"), pk=pk)
    changes = pyramid.changes.select_related("user").order_by("-id")
    return render(request, "annotator/pyramid_history.html", {"pyramid": pyramid, "changes": changes})
