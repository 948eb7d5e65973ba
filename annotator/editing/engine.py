"""The edit engine: how a pyramid or a peer annotation is edited, whatever the operation.

Every edit goes lock → check → apply → record, in one transaction:
1. lock: the record's row is read FOR UPDATE, so two edits of one record run one after the other;
2. check: the domain says whether the user may edit it now (NotAllowed: HTTP 403), then the engine
   whether the user saw its current version (StaleVersion: 409: another tab or person edited it);
   the operation's own rules refuse with RuleBroken (422). A refusal changes nothing;
3. apply: the operation changes the records, between two snapshots of what it touches;
4. record: the version goes up and a change row holds the snapshots before and after (what the
   Editor `kept` of them: a peer annotation keeps only the PSEs that differ), with who, what (a
   description for the history) and, in a consensus, the adjudication decision made.
Undo and redo (annotator.editing.history keeps the stack) lock and check in the same way, then
restore the snapshot the change started from (undo) or left (redo), and record that step too.

The domains supply what differs, as an Editor: annotator.pyramids.editing (SCUs, contributors)
and annotator.peer_annotation.editing (PSEs). The refusals are here, as both raise them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from django.db import transaction
from django.db.models import Model, QuerySet

from annotator.editing import history
from annotator.editing.errors import RuleBroken, StaleVersion


class ChangeRows(Protocol):
    """A record's change rows, as its `changes` related manager gives them (rows of an
    annotator.models.ChangeRecord subclass, which the engine, knowing no domain, does not
    import)."""

    def all(self) -> QuerySet[Model]: ...

    def create(self, **fields: Any) -> Model: ...


class VersionedRecord(Protocol):
    """A record the engine edits (a Pyramid, a PeerAnnotation): a `version` that each edit raises,
    and its change rows as `changes`."""

    version: int

    @property
    def changes(self) -> ChangeRows: ...

    def save(self, *, update_fields: Iterable[str] | None = None) -> None: ...


# An operation's plan, made from the locked record once its rules are checked: what the edit
# touches (for the snapshots), and what applies it, returning the description for the history.
Plan = tuple[Collection[int], Callable[[], str]]


def _nothing(*_args) -> None:
    pass


def _as_taken(before: Any, after: Any) -> tuple[Any, Any]:
    return before, after


@dataclass(frozen=True)
class Editor:
    """What the engine needs to know of one kind of record (a pyramid, a peer annotation).

    The record has a `version` and its change rows as `changes` (annotator.models.ChangeRecord)."""

    rows: QuerySet  # the records, with what `may_edit` reads joined in (select_related)
    name: str  # as StaleVersion says it: "this pyramid was changed elsewhere"
    missing: str  # the refusal when there is no such record
    may_edit: Callable[[Any, Any, bool], None]  # (record, user, reopening): raises NotAllowed
    snapshot: Callable[[Any, Collection[int]], Any]  # (record, touched): JSON-ready state
    touched_in: Callable[[Any], Collection[int]]  # what a snapshot covers, to take it again
    # (record, state, now): make the snapshot `state` true again; `now`: the snapshot of what it
    # covers as it is (what the restore may leave as it is)
    restore: Callable[[Any, Any, Any], None]
    result: Callable[..., Any]  # (record, version, description, change): what an edit returns
    saved_fields: tuple[str, ...]  # saved with the version: what an operation may set on the row
    # (record, before, after): the content changed, by an edit or by undo/redo
    after_change: Callable[[Any, Any, Any], None] = _nothing
    # (record, user): a new edit by the user (not undo/redo, not a status change)
    after_edit: Callable[[Any, Any], None] = _nothing
    # (record, user): any edit, undo or redo by the user, once recorded: an action on the work, for
    # its active time (annotator.worktime, issue 20)
    after_action: Callable[[Any, Any], None] = _nothing
    # (before, after) -> what the change row keeps of the two snapshots: by default all of them
    # (a pyramid's snapshots hold only the SCUs touched); a peer annotation's snapshots hold every
    # PSE, and the row keeps those that differ. `after` may be a kept snapshot (undo's and redo's
    # target), from which `restore` made the record true again.
    kept: Callable[[Any, Any], tuple[Any, Any]] = _as_taken

    def edit(
        self,
        pk: int,
        user,
        version: int | None,
        action: str,
        plan: Callable[[Any], Plan],
        decision: dict | None = None,
    ):
        """Lock, check, apply and record one edit (see the module's description). `version`
        None skips the version check (the consensus's first edit, made as it is created);
        `decision` is the adjudication decision the edit makes, in a consensus."""
        with transaction.atomic():
            # Reopening is the one edit of a submitted record.
            record = self._locked(pk, user, version, reopening=action == "reopen")
            touched, apply = plan(record)
            before = self.snapshot(record, touched)
            description = apply()
            after = self.snapshot(record, touched)
            if action not in history.NOT_ON_THE_UNDO_STACK:
                history.end_redo_chain(record.changes.all())  # a new edit: no redo past it
                self.after_change(record, before, after)
                self.after_edit(record, user)
            before, after = self.kept(before, after)
            return self._record(record, user, action, description, before, after, decision)

    def undo(self, pk: int, user, version: int | None):
        """Undo the latest edit still applied (also after a reload: the history is stored)."""
        return self._travel(pk, user, version, undoing=True)

    def redo(self, pk: int, user, version: int | None):
        """Redo the edit undone last, if no new edit came since."""
        return self._travel(pk, user, version, undoing=False)

    def _travel(self, pk: int, user, version: int | None, undoing: bool):
        with transaction.atomic():
            record = self._locked(pk, user, version)
            change = history.next_to_travel(record.changes.all(), undoing)
            if change is None:
                raise RuleBroken(history.nothing_to(undoing))
            # The step's own "before": what the change covers, as it is now.
            now = self.snapshot(record, self.touched_in(change.after if undoing else change.before))
            target, action, description = history.step_over(change, undoing)
            self.restore(record, target, now)
            self.after_change(record, now, target)
            return self._record(
                record,
                user,
                action,
                description,
                *self.kept(now, target),
                travelled=(change, undoing),
            )

    def _locked(self, pk: int, user, version: int | None, reopening: bool = False):
        try:
            # of=("self",): only the record's row is locked, not the rows joined in to check it.
            record = self.rows.select_for_update(of=("self",)).get(pk=pk)
        except self.rows.model.DoesNotExist:
            raise RuleBroken(self.missing) from None
        self.may_edit(record, user, reopening)
        if version is not None and version != record.version:
            raise StaleVersion(record.version, record=self.name)
        return record

    def _record(
        self,
        record: VersionedRecord,
        user,
        action,
        description,
        before,
        after,
        decision=None,
        travelled=None,
    ):
        """Raise the version and record the change; `travelled`: (the change an undo or a redo
        travelled over, whether it undid it), so that its answer knows what Undo and Redo can do
        next (history.note_stack_after)."""
        record.version += 1
        record.save(update_fields=["version", *self.saved_fields])
        change = record.changes.create(
            user=user if user and user.is_authenticated else None,
            action=action,
            description=description,
            before=before,
            after=after,
            decision=decision,
        )
        if travelled is not None:
            history.note_stack_after(change, *travelled)
        self.after_action(record, user)
        return self.result(record, record.version, description, change)


def quoted(text: str, limit: int = 60) -> str:
    """Text as a description for the history quotes it, cut to `limit` characters."""
    return f"“{text if len(text) <= limit else text[: limit - 1] + '…'}”"
