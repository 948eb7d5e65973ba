"""How the editing pages answer a refused action (the builder and the peer annotation page).

A broken rule (422) changes nothing and the page was current (its version matched): only the
status line is sent, out of band, so the annotator keeps their scroll, selection and typed text.
A stale view (409) or a refusal of the user (403) comes with the whole workspace as it now is;
the page keeps what the annotator was doing around it (static/js/workspace-actions.js).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.shortcuts import render
from django_htmx.http import reswap

from annotator.editing.actions import status_for
from annotator.editing.errors import EditError


def fix_values(fix: dict | None) -> str:
    """The values the offered fix posts (its action apart), as the page's form posts send them."""
    if not fix:
        return ""
    values = {key: value for key, value in fix.items() if key != "action"}
    if "ranges" in values:
        values["ranges"] = json.dumps(values["ranges"])
    return json.dumps(values)


def refused_answer(
    request,
    refusal: EditError,
    workspace_template: str,
    status_template: str,
    current: Callable[[], dict],
):
    """The answer to a refused action; `current()` gives the workspace's context as it now is."""
    status = status_for(refusal)
    said = {
        "message": refusal.message,
        "level": "conflict" if status == 409 else "error",
        "fix": refusal.fix,
        "fix_values": fix_values(refusal.fix),
    }
    if status == 422:
        response = render(request, status_template, said | {"oob": True}, status=status)
        return reswap(response, "none")
    return render(request, workspace_template, current() | said, status=status)
