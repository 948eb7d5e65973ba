"""The undo stack both editors keep (pyramids and peer annotations), in their change tables.

A change is APPLIED, UNDONE, or DISCARDED (undone, then superseded by a new edit). Undo takes the
latest applied change, redo the earliest undone one; a new edit discards what could be redone.
Undo, redo and status changes are recorded for the audit trail but are not themselves undone.
"""

from dataclasses import dataclass
from typing import TypeVar

from django.db.models import Exists, OuterRef, QuerySet

from annotator.editing.models import ChangeRecord, PyramidChange

# A pyramid's or a peer annotation's change: decisions() gives back the kind it is given.
Change = TypeVar("Change", bound=ChangeRecord)

State = PyramidChange.State
NOT_ON_THE_UNDO_STACK = {"undo", "redo", "submit", "reopen", "complete", "mark_reviewed"}


def undo_stack(changes):
    return changes.exclude(action__in=NOT_ON_THE_UNDO_STACK)


def stack_after(change) -> set[str] | None:
    """What `stack_states` would find right after `change` was recorded, where it is known
    without a query (an edit's answer, issue 32: a query per action): a new edit is on top of the
    stack, applied, and ended the redo chain; an undo or a redo says what it left
    (`note_stack_after`). None after an action off the stack."""
    if change.action in ("undo", "redo"):
        return getattr(change, "stack_after", None)
    if change.action in NOT_ON_THE_UNDO_STACK:
        return None
    return {State.APPLIED}


def note_stack_after(step, travelled, undoing: bool) -> None:
    """Note on `step` (the undo or redo just recorded) what the stack holds after it: the change
    it `travelled` over is now undone (or applied again), and there is another to travel over in
    the same direction where `next_to_travel` found one (its `more`)."""
    left = {State.UNDONE} if undoing else {State.APPLIED}
    if travelled.more:
        left.add(State.APPLIED if undoing else State.UNDONE)
    step.stack_after = left


def end_redo_chain(changes) -> None:
    changes.filter(state=State.UNDONE).update(state=State.DISCARDED)


def next_to_travel(changes, undoing: bool):
    """The change undo (or redo) would revert (or re-apply), or None; with `more`: whether
    another would follow it (one query: what Undo and Redo can do after it, note_stack_after)."""
    stack = undo_stack(changes)
    if undoing:
        applied = stack.filter(state=State.APPLIED)
        beyond = applied.filter(id__lt=OuterRef("id"))
        return applied.annotate(more=Exists(beyond)).order_by("-id").first()
    undone = stack.filter(state=State.UNDONE)
    beyond = undone.filter(id__gt=OuterRef("id"))
    return undone.annotate(more=Exists(beyond)).order_by("id").first()


def stack_states(changes) -> set[str]:
    """Which of APPLIED and UNDONE the stack holds (can undo, can redo), in one query."""
    return set(undo_stack(changes).values_list("state", flat=True).distinct())


def nothing_to(undoing: bool) -> str:
    return f"There is nothing to {'undo' if undoing else 'redo'}."


def step_over(change, undoing: bool) -> tuple[object, str, str]:
    """Mark a change undone (or re-applied); return the state to restore, and the action and
    description to record for the step itself."""
    change.state = State.UNDONE if undoing else State.APPLIED
    change.save(update_fields=["state"])
    action, verb = ("undo", "Undid") if undoing else ("redo", "Redid")
    return (change.before if undoing else change.after), action, f"{verb}: {change.description}"


@dataclass(frozen=True)
class Decided:
    """A decision as `decided_groups` reads it: the change's id and its decision, no more."""

    pk: int
    decision: dict


def decided_groups(changes: QuerySet[Change]) -> dict[str, Decided]:
    """`decisions`, each with its id and decision alone (no user, no time, no description), read
    as plain rows: for counting and placing decisions, not showing them (issue 32: a decision's
    answer shows only the one it made, and every change it read with its user grew with the
    history)."""
    decided: dict[str, Decided] = {}
    applied = changes.filter(state=State.APPLIED, decision__isnull=False).order_by("id")
    for pk, decision in applied.values_list("id", "decision"):
        decided.update(dict.fromkeys(decision.get("groups", []), Decided(pk, decision)))
    return decided


def decisions(changes: QuerySet[Change]) -> dict[str, Change]:
    """{group key: the applied change that decided it} in a consensus (the latest, where decided
    more than once): an undone decision no longer counts."""
    decided: dict[str, Change] = {}
    applied = changes.filter(state=State.APPLIED, decision__isnull=False).order_by("id")
    for change in applied.select_related("user").defer("before", "after"):
        assert change.decision is not None  # the filter above leaves out changes without one
        for key in change.decision.get("groups", []):
            decided[key] = change
    return decided
