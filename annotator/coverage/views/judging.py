"""The judging page (issue 21): a judge answers a peer's units one at a time, each answer saved at
once (JSON, static/js/judging.js); and giving out, withdrawing and reassigning judgment tasks.

Who sees what: a task is the judge's own (until withdrawn) and readable by those who read its
collection in full (administrators, organizers, adjudicators: read-only); anyone else gets 404, as
for the other work (annotator.campaigns.access). Only the judge answers (403 for the readers).
"""

from __future__ import annotations

import json
import math

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from annotator.campaigns import work_actions
from annotator.campaigns.guards import ADMINISTER, collection_for
from annotator.coverage import judging, judging_assignment
from annotator.coverage.judging_forms import JudgingAssignForm
from annotator.coverage.judging_page import page_context, task_for_page, units_state
from annotator.coverage.models import JudgmentTask
from annotator.editing.actions import status_for
from annotator.editing.errors import EditError, NotAllowed, StaleVersion

BAD_ANSWER = (
    "An answer needs the task's version, the version of the units shown, a unit and a value "
    "(or none): reload the page."
)


def _task(request, pk: int) -> JudgmentTask:
    try:
        return task_for_page(judging.visible_tasks(request.user), pk)
    except JudgmentTask.DoesNotExist:
        raise Http404("No such judgment task.") from None


@login_required
def judging_task(request, pk):
    task = _task(request, pk)
    return render(request, "coverage/judging.html", page_context(task, request.user))


def _refused(request, task_pk: int, refused: EditError) -> JsonResponse:
    """A refused answer or submission. Refused to someone who may not even see the task (not its
    judge, not a reader of its collection): 404, as for the page."""
    if (
        isinstance(refused, NotAllowed)
        and not judging.visible_tasks(request.user).filter(pk=task_pk).exists()
    ):
        raise Http404("No such judgment task.")
    said: dict = {"error": refused.message}
    if isinstance(refused, StaleVersion):
        # The task as it now is: the page shows it, and keeps the answer it could not save.
        task = JudgmentTask.objects.select_related("unit_set", "peer").get(pk=task_pk)
        said["state"] = judging.state(task)
        if isinstance(refused, judging.UnitsChanged):
            # The units the page shows are gone or changed: it puts these in their place.
            said["state"].update(units_state(task))
    return JsonResponse(said, status=status_for(refused))


def _number(raw: str | None, kind=float):
    value = kind(raw)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("not a number")
    return value


@require_POST
@login_required
def judging_answer(request, pk):
    """One answer: version, units_version (the unit set's, as the page showed the units), unit,
    value ("" leaves the unit unanswered), sentences (SEE: a JSON list of [start, end]), seconds.
    JSON back: the new version, the progress, and whether sentences sent with a SEE "none" were
    cleared."""
    # Straight to the locked task: the judge's own check is judging.answer's (its judge, open),
    # and those it refuses are told 404 or 403 after (_refused): an answer costs no query more.
    data = request.POST
    try:
        version = _number(data.get("version"), int)
        units_version = _number(data.get("units_version"), int)
        unit = _number(data.get("unit"), int)
        raw = data.get("value", "")
        value = None if raw == "" else _number(raw)
        sentences = json.loads(data.get("sentences") or "[]")
        spans = [(int(start), int(end)) for start, end in sentences]
        seconds = None if data.get("seconds", "") == "" else _number(data.get("seconds"))
    except (TypeError, ValueError):
        return JsonResponse({"error": BAD_ANSWER}, status=400)
    try:
        done = judging.answer(
            pk, request.user, version, unit, value, spans, seconds, units_version=units_version
        )
    except JudgmentTask.DoesNotExist:
        raise Http404("No such judgment task.") from None
    except EditError as refused:
        return _refused(request, pk, refused)
    return JsonResponse(
        {
            "version": done.version,
            "answered": done.answered,
            "total": done.total,
            "status": done.status,
            "sentencesCleared": done.sentences_cleared,
        }
    )


@require_POST
@login_required
def judging_submit(request, pk):
    try:
        version = _number(request.POST.get("version"), int)
    except (TypeError, ValueError):
        return JsonResponse({"error": "Submitting needs the task's version."}, status=400)
    try:
        done = judging.submit(pk, request.user, version)
    except JudgmentTask.DoesNotExist:
        raise Http404("No such judgment task.") from None
    except EditError as refused:
        return _refused(request, pk, refused)
    return JsonResponse({"version": done.version, "status": done.status})


def _administered(request, pk: int) -> JudgmentTask:
    task = _task(request, pk)
    collection_for(request, task.unit_set.docset.collection_id, ADMINISTER)  # 403 otherwise
    return task


@require_POST
@login_required
def judging_reopen(request, pk):
    task = _administered(request, pk)
    work_actions.act(
        request,
        lambda: judging_assignment.reopen_task(task, request.user),
        lambda _: f"Reopened: {task.judge_name} may change the answers again.",
    )
    return redirect("judging-task", pk=task.pk)


@login_required
def judging_assign(request, pk):
    collection = collection_for(request, pk, ADMINISTER)
    form = JudgingAssignForm(request.POST or None, collection=collection)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            report = judging_assignment.assign_judging(
                form.chosen_unit_sets(), data["judges"], request.user, data["per_peer"]
            )
        except EditError as refused:
            form.add_error(None, refused.message)
        else:
            messages.success(request, f"{report.summary}.")
            for reason in report.skipped:
                messages.warning(request, reason)
            return redirect("collection-progress", pk=collection.pk)
    return render(request, "coverage/judging_assign.html", {"collection": collection, "form": form})


@require_POST
@login_required
def judging_withdraw(request, pk):
    task = _administered(request, pk)
    work_actions.act(
        request,
        lambda: judging_assignment.withdraw_task(task, request.user),
        lambda _: f"Withdrew {task.judge_name}'s judgment task; the answers given are kept.",
    )
    return redirect("collection-progress", pk=task.unit_set.docset.collection_id)


@require_POST
@login_required
def judging_reassign(request, pk):
    task = _administered(request, pk)
    work_actions.reassign_to_chosen(
        request,
        lambda to: judging_assignment.reassign_task(task, to, request.user),
        lambda moved: (
            f"Reassigned to {moved.judge_name}, who judges the peer with answers of their own."
        ),
    )
    return redirect("collection-progress", pk=task.unit_set.docset.collection_id)
