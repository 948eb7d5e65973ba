"""The endpoint the builder and the peer page call (static/js/worktime.js) when the user selects
words or moves through the page: an action on the pyramid or the peer annotation, recorded for
those who may edit it now (the page's own check: annotator.pyramids.editing /
annotator.peer_annotation.editing EDITOR.may_edit); a user who may only view it is refused."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.views.decorators.http import require_POST

from annotator.editing.errors import NotAllowed
from annotator.worktime.held import EDITORS, activity_time
from annotator.worktime.recording import record


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
