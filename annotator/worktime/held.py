"""What the page held back of its activity (static/js/worktime.js), recorded: on its own (the
activity endpoint, annotator.worktime.views) or sent with an edit (the edit views of the builder
and the peer page), for those who may edit the work now."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from annotator.editing.errors import NotAllowed
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


HELD_ACTIVITY = "activity_ago_ms"  # an edit's field: the page's report it held, sent with the edit


def record_held_activity(request, kind: str, pk: int) -> None:
    """The activity the page held back (worktime.js) and sends with an edit instead of on its own,
    recorded before the edit of work `pk`: sent alone, it could arrive after an edit that made the
    work read-only ("Mark complete") and be refused (issue 32: a 403 and a console error each
    time). Nothing for a user who may not edit the work (the edit is refused too); the work is
    read only when the page sent such a report."""
    if HELD_ACTIVITY not in request.POST:
        return
    editor = EDITORS[kind]
    try:
        work = editor.rows.get(pk=pk)
        editor.may_edit(work, request.user, False)
    except (editor.rows.model.DoesNotExist, NotAllowed):
        return
    record(request.user, now=activity_time(request.POST[HELD_ACTIVITY]), **{f"{kind}_id": work.pk})
