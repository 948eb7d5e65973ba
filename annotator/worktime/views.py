"""The endpoint the builder and the peer page call (static/js/worktime.js) when the user selects
words or moves through the page: an action on the pyramid or the peer annotation, recorded for
those who may edit it now (the page's own check: annotator.pyramids.editing /
annotator.peer_annotation.editing EDITOR.may_edit); a user who may only view it is refused."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_POST

from annotator.editing.engine import NotAllowed
from annotator.peer_annotation.editing import EDITOR as ANNOTATION_EDITOR
from annotator.pyramids.editing import EDITOR as PYRAMID_EDITOR
from annotator.worktime.recording import record

EDITORS = {"pyramid": PYRAMID_EDITOR, "annotation": ANNOTATION_EDITOR}
# A report is held back at most 30 s by the page (worktime.js), and says how long ago the activity
# was (`ago_ms`); more than this is not believed.
LATEST_REPORT = timedelta(seconds=60)


def activity_time(ago_ms: str | None):
    """When the activity reported happened: now, less the page's `ago_ms` (0 to LATEST_REPORT;
    a missing or malformed value is now)."""
    now = timezone.now()
    try:
        ago = timedelta(milliseconds=float(ago_ms or 0))
    except (TypeError, ValueError, OverflowError):
        return now
    return now - min(max(ago, timedelta(0)), LATEST_REPORT)


@require_POST
@login_required
def activity(request, kind: str, pk: int):
    """204 once recorded; 403 for a user who may not edit the work now; 404 if there is none."""
    editor = EDITORS.get(kind)
    if editor is None:
        raise Http404("no such kind of work")
    work = editor.rows.filter(pk=pk).first()
    if work is None:
        raise Http404(editor.missing)
    try:
        editor.may_edit(work, request.user, False)
    except NotAllowed as refused:
        raise PermissionDenied(refused.message) from None
    record(request.user, now=activity_time(request.POST.get("ago_ms")), **{f"{kind}_id": work.pk})
    return HttpResponse(status=204)


HELD_ACTIVITY = "activity_ago_ms"  # an edit's field: the page's report it held, sent with the edit


def record_held_activity(request, kind: str, work) -> None:
    """The activity the page held back (worktime.js) and sends with an edit instead of on its own,
    recorded before the edit: sent alone, it could arrive after an edit that made the work
    read-only ("Mark complete") and be refused (issue 32: a 403 and a console error each time).
    Nothing for a user who may not edit the work (the edit is refused too)."""
    if HELD_ACTIVITY not in request.POST:
        return
    try:
        EDITORS[kind].may_edit(work, request.user, False)
    except NotAllowed:
        return
    record(request.user, now=activity_time(request.POST[HELD_ACTIVITY]), **{f"{kind}_id": work.pk})
