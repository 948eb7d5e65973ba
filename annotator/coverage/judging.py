"""Judging a peer against a unit set (issue 21): who may see and answer a judgment task, each
answer saved at once, submitting, and what the judging page shows.

Every answer goes lock → check → write in one transaction, as the edit engine's edits do
(annotator.editing.engine): the task's row is read FOR UPDATE, the user must be its judge and it
open (NotAllowed: 403), the page must have shown the units as they are (UnitsChanged, 409: an
administrator edited them since the page was opened, annotator.coverage.unit_editing; the 409
brings the units as they now are) and seen the task's current version (StaleVersion: 409: another
tab or person answered since), the answer must fit the scale and the unit the unit set (RuleBroken:
422). Then the judgment is written and the task's version raised. A handful of queries an answer,
whatever the size of the unit set (bench/judging.py times it).

SEE's "none" (0, 0 %) says that no sentence of the peer expresses the unit: it is stored with no
sentences, whatever sentences the page sent with it (the answer says so: sentences_cleared).

Undo is the page's: it keeps the answers it replaced and sends the one before back as an answer
(or clears it), on the current version like any other; so an undo is saved, and checked, as an
answer is.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, F, Q, QuerySet, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from annotator.assist.lexical import sentence_bounds
from annotator.campaigns.access import readable_collections
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
from annotator.editing.errors import EditError, NotAllowed, RuleBroken, StaleVersion
from annotator.worktime.models import WorkTime

# The longest time one answer may count: a pause longer than the worktime's active gap is time away
# from the page, not time spent judging (annotator.worktime).
MAX_SECONDS = WorkTime.ACTIVE_GAP.total_seconds()
SUBMITTED = JudgmentTask.Status.SUBMITTED

# Each scale's answers as the page offers them: (value, label, key). Keys: p/n for presence; for
# SEE the five-point value itself (4 all … 0 none); percentages 0–5 for 0, 20, …, 100.
CHOICES: dict[str, tuple[tuple[float, str, str], ...]] = {
    UnitSet.Scale.PRESENT_ABSENT: ((1.0, "Present", "p"), (0.0, "Absent", "n")),
    UnitSet.Scale.FIVE_POINT: (
        (4.0, "All", "4"),
        (3.0, "Most", "3"),
        (2.0, "Some", "2"),
        (1.0, "Hardly any", "1"),
        (0.0, "None", "0"),
    ),
    UnitSet.Scale.PERCENT: tuple(
        (float(value), f"{value} %", str(value // 20)) for value in (100, 80, 60, 40, 20, 0)
    ),
}
# The keys of the peer's sentences (SEE), shown on each: letters the page uses for nothing else
# (j, k, n, p, u are taken). Sentences past these are reached with Tab and toggled with Space.
SENTENCE_KEYS = "abcdefghilmoqrstvwxyz"
# The method in a word, where a task is named ("peer 1 against Lite Pyramid (presence)"): the
# method's full name (with its papers) is the unit set's page's.
SHORT_METHODS = {UnitSet.Method.SEE: "SEE", UnitSet.Method.PRESENCE: "presence"}


def short_method(method: str) -> str:
    return SHORT_METHODS.get(UnitSet.Method(method), method)


class UnitsChanged(StaleVersion):
    """The answer was given on units an administrator has changed since (409)."""

    def __init__(self, current_version: int):
        # StaleVersion's message names another tab or person: this one says what happened.
        EditError.__init__(
            self,
            "Not saved: the units were changed by an administrator since this page was opened; "
            "they are shown here as they now are.",
        )
        self.current_version = current_version


def visible_tasks(user) -> QuerySet[JudgmentTask]:
    """The judge's own tasks (not withdrawn), and every task of the collections the user reads in
    full (administrators, organizers, adjudicators): anything else is 404."""
    if not (user and user.is_authenticated and user.is_active):
        return JudgmentTask.objects.none()
    return JudgmentTask.objects.filter(
        Q(judge=user, withdrawn=False)
        | Q(unit_set__docset__collection__in=readable_collections(user))
    )


def may_answer(task: JudgmentTask, user) -> bool:
    """Only the task's own judge answers, while it is theirs and open."""
    return (
        user.is_authenticated
        and task.judge_id == user.pk
        and not task.withdrawn
        and task.status != SUBMITTED
    )


def _check(task: JudgmentTask, user, version: int, units_version: int | None = None) -> None:
    if task.judge_id != user.pk or task.withdrawn:
        raise NotAllowed("Only the judge of this task answers it.")
    if task.status == SUBMITTED:
        raise NotAllowed("These judgments are submitted: an administrator may reopen them.")
    # The units first: an answer to units the judge never saw is refused whatever the task's
    # version, and the page must show the new units before anything else.
    if units_version is not None and units_version != task.unit_set.version:
        raise UnitsChanged(task.unit_set.version)
    if version != task.version:
        raise StaleVersion(task.version, record="judgment task")


def _locked(pk: int) -> JudgmentTask:
    """The task, its row and its unit set's locked (JudgmentTask.DoesNotExist if there is none).
    The unit set's too: an administrator's edit of the units (annotator.coverage.unit_editing)
    locks it and checks that nothing is judged yet, so a first answer and an edit of the units
    never interleave (answers of one unit set take turns, a few milliseconds each)."""
    return (
        JudgmentTask.objects.select_related("unit_set", "peer")
        .select_for_update(of=("self", "unit_set"))
        .get(pk=pk)
    )


def peer_sentences(text: str) -> list[tuple[int, int]]:
    """The peer's sentences as [start, end) without the spaces around them (the spans a SEE
    judgment stores), split as the rest of the tool splits sentences (annotator.assist.lexical)."""
    spans = []
    bounds = sentence_bounds(text)
    for start, end in zip(bounds, bounds[1:]):
        piece = text[start:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.append((start + lead, start + len(piece.rstrip())))
    return spans


@dataclass(frozen=True)
class Answered:
    version: int
    answered: int
    total: int
    status: str
    sentences_cleared: bool = False  # a SEE "none" sent with sentences: stored without them


def _counts(task: JudgmentTask, unit_id: int | None = None) -> tuple[int, int, bool]:
    """(answered, total) units of the task, and whether `unit_id` is one of them: one query."""
    found = Unit.objects.filter(unit_set_id=task.unit_set_id).aggregate(
        total=Count("pk", distinct=True),
        answered=Count("judgments", filter=Q(judgments__task_id=task.pk), distinct=True),
        unit=Count("pk", filter=Q(pk=unit_id), distinct=True),
    )
    return found["answered"], found["total"], found["unit"] > 0


def answer(
    pk: int,
    user,
    version: int,
    unit_id: int,
    value: float | None,
    sentences: list[tuple[int, int]] | None = None,
    seconds: float | None = None,
    *,
    units_version: int,
) -> Answered:
    """Store the judge's answer for one unit (`value` None: no answer, the unit left open again),
    with the peer sentences that express it (SEE; none with a 0: "none" is no sentence) and the
    seconds it took (capped). `units_version`: the unit set's version the page showed."""
    cleared = False
    with transaction.atomic():
        task = _locked(pk)
        _check(task, user, version, units_version)
        unit_set = task.unit_set
        # The progress before the answer, and the unit checked, in one query; the answer's own
        # change to the progress is added below.
        answered, total, known = _counts(task, unit_id)
        if not known:
            raise RuleBroken("That unit is not one of this task's units.")
        judgments = Judgment.objects.filter(task_id=task.pk, unit_id=unit_id)
        if value is None:
            deleted, _ = judgments.delete()
            answered -= deleted
        else:
            if value not in unit_set.answers:
                raise RuleBroken(
                    f"{value:g} is not an answer on this scale: "
                    + ", ".join(f"{a:g}" for a in unit_set.answers)
                    + "."
                )
            spans = sorted({(int(s), int(e)) for s, e in sentences or []})
            if spans and unit_set.method != UnitSet.Method.SEE:
                raise RuleBroken("Only SEE judgments mark the peer's sentences.")
            if not set(spans) <= set(peer_sentences(task.peer.text)):
                raise RuleBroken("Those are not sentences of the peer.")
            if spans and value == 0:
                spans, cleared = [], True
            taken = None if seconds is None else min(max(float(seconds), 0.0), MAX_SECONDS)
            stored = [list(span) for span in spans]
            # The time on a unit adds up over its answers (changed later, or undone to).
            updated = judgments.update(
                value=value,
                sentences=stored,
                seconds=F("seconds")
                if taken is None
                else Coalesce(F("seconds"), Value(0.0)) + taken,
                updated_at=timezone.now(),
            )
            if not updated:
                Judgment.objects.create(
                    task=task, unit_id=unit_id, value=value, sentences=stored, seconds=taken
                )
                answered += 1
        task.version += 1
        task.save(update_fields=["version", "updated_at"])
        return Answered(task.version, answered, total, task.status, cleared)


def submit(pk: int, user, version: int) -> Answered:
    """The judge's judgments of the peer, done: every unit answered, then read-only."""
    with transaction.atomic():
        task = _locked(pk)
        _check(task, user, version)
        answered, total, _ = _counts(task)
        if answered < total:
            raise RuleBroken(f"{total - answered} of the {total} units are not answered yet.")
        task.status = SUBMITTED
        task.version += 1
        task.save(update_fields=["status", "version", "updated_at"])
        return Answered(task.version, answered, total, task.status)


def state(task: JudgmentTask) -> dict:
    """The task as it now is, for the page (after a 409): its version, status and answers, and
    the version of its units."""
    return {
        "version": task.version,
        "unitsVersion": task.unit_set.version,
        "status": task.status,
        "judgments": {
            str(unit): {"value": value, "sentences": sentences}
            for unit, value, sentences in Judgment.objects.filter(task=task).values_list(
                "unit_id", "value", "sentences"
            )
        },
    }


def next_task(task: JudgmentTask) -> int | None:
    """The id of the judge's next open task after this one (in the order of docsets, unit sets and
    peers), else the first open one before it: the page's "Next peer". One query."""
    if task.judge_id is None:
        return None
    tasks = list(
        JudgmentTask.objects.filter(judge_id=task.judge_id, withdrawn=False)
        .order_by("unit_set__docset__name", "unit_set__name", "peer__author", "pk")
        .values_list("pk", "status")
    )
    here = next((i for i, (pk, _) in enumerate(tasks) if pk == task.pk), -1)
    after, before = tasks[here + 1 :], tasks[: max(here, 0)]
    return next((pk for pk, status in after + before if status != SUBMITTED), None)
