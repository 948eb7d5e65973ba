"""What the progress page's Withdraw, Reassign and Reopen buttons do, for assignments and judgment
tasks alike: the action, then its outcome said as a message (a refusal's reason, or `success`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages

from annotator.campaigns.forms import ReassignForm
from annotator.editing.errors import EditError

Done = TypeVar("Done")


def act(request, action: Callable[[], Done], success: Callable[[Done], str]) -> None:
    """Run `action`; say its refusal, or `success` of what it returns."""
    try:
        done = action()
    except EditError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, success(done))


def reassign_to_chosen(
    request, reassign: Callable[[object], Done], success: Callable[[Done], str]
) -> None:
    """The work reassigned to the user the posted ReassignForm names, or why not."""
    form = ReassignForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            "Choose who the work goes to: "
            + "; ".join(str(e) for errors in form.errors.values() for e in errors),
        )
        return
    act(request, lambda: reassign(form.cleaned_data["to"]), success)
