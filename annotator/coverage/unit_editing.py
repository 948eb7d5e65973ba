"""Editing a unit set's units before judging starts (issue 21): relabel, merge with the next unit,
split, delete, add, move.

Every edit, in one transaction: the unit set's row is locked (two edits run one after the other),
then the checks, in the order the edit engine makes them (annotator.editing.engine):
1. the user administers the collection (NotAllowed, 403);
2. no judgment exists for the unit set: the judges' answers were given to the units as they were
   and would no longer mean what they meant (NotAllowed, 403, saying so);
3. the version the page showed is the current one (StaleVersion, 409: the page shows the units as
   they now are);
4. the edit's own rules (RuleBroken, 422), e.g. an empty text, no next unit to merge with.
Then the units change and the unit set's version goes up by one.

What an edit does to a unit's place in its model (SEE units keep `model`, `start`, `end`, which the
pages and the judging page show as the unit's context):
- relabel changes the text only: the unit still stands for the same words of the model;
- merge joins the next unit into this one: the span from the first's start to the last's end when
  both are of one model; the text that span's words when neither text was edited (the model's own
  words between them included), else the two texts joined by a space. Two SCUs' units merged stand
  for neither SCU alone: the SCU is dropped and the weights added (the total weight stays);
- split cuts the text before a word: when the text is still its span's words, the span is cut
  there too; else (relabelled) both parts keep the whole span, the passage they were written from.
  Both parts keep the SCU and its weight;
- add writes a new unit (no span) at a place; in a unit set whose units are all of one model, it
  is "written from" that model.
Positions run from 1 without gaps after every edit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F

from annotator.campaigns.access import can_administer
from annotator.coverage import splitting
from annotator.coverage.models import Judgment, Unit, UnitSet
from annotator.editing.errors import EditError, NotAllowed, RuleBroken, StaleVersion

__all__ = ["EditError", "Edited", "ACTIONS", "relabel", "merge", "split", "delete", "add", "move"]

RENUMBER_OFFSET = 1_000_000  # above any position: renumbering passes through it (see `_renumber`)
JUDGING_STARTED = (
    "Judging has started on this unit set: its units can no longer be changed, or the judges' "
    "answers would no longer mean what they meant."
)


@dataclass(frozen=True)
class Edited:
    """What an edit did: the unit set as it now is, a line for the status, and the unit to put the
    focus on (None: the list's end)."""

    unit_set: UnitSet
    message: str
    unit_id: int | None


def judging_started(unit_set: UnitSet) -> bool:
    return Judgment.objects.filter(unit__unit_set=unit_set).exists()


def _locked(unit_set_id: int, user, version: int) -> UnitSet:
    """The unit set, locked for this edit, once the checks 1-3 above pass."""
    unit_set = (
        UnitSet.objects.select_for_update(of=("self",))
        .select_related("docset__collection")
        .filter(pk=unit_set_id)
        .first()
    )
    if unit_set is None:
        raise RuleBroken("This unit set no longer exists.")
    if not can_administer(user, unit_set.docset.collection_id):
        raise NotAllowed("Only an administrator of the collection edits its unit sets.")
    if judging_started(unit_set):
        raise NotAllowed(JUDGING_STARTED)
    if version != unit_set.version:
        raise StaleVersion(unit_set.version, record="unit set")
    return unit_set


def _unit(unit_set: UnitSet, unit_id: int) -> Unit:
    unit = Unit.objects.select_related("model").filter(unit_set=unit_set, pk=unit_id).first()
    if unit is None:
        raise RuleBroken("That unit is no longer in this unit set: reload the page.")
    return unit


def _text(raw: str) -> str:
    text = " ".join(raw.split())  # one line: units are read one at a time, as a sentence
    if not text:
        raise RuleBroken("A unit needs some text.")
    return text


def _renumber(unit_set: UnitSet, ordered: list[Unit]) -> None:
    """Give `ordered` the positions 1, 2, ... Two updates, as the unique (unit set, position) is
    checked row by row: first every position moves above all the present ones, then each unit to
    its place, so that no two rows ever hold one position."""
    Unit.objects.filter(unit_set=unit_set).update(position=F("position") + RENUMBER_OFFSET)
    for position, unit in enumerate(ordered, start=1):
        unit.position = position
    Unit.objects.bulk_update(ordered, ["position"])


def _ordered(unit_set: UnitSet) -> list[Unit]:
    return list(Unit.objects.filter(unit_set=unit_set).select_related("model").order_by("position"))


def _is_model_words(unit: Unit) -> bool:
    """Whether the unit's text is still the words of its span in its model (never relabelled)."""
    return (
        unit.model is not None
        and unit.start is not None
        and unit.end is not None
        and unit.model.text[unit.start : unit.end] == unit.text
    )


def _edit(unit_set_id: int, user, version: int, change: Callable[[UnitSet], Edited]) -> Edited:
    with transaction.atomic():
        unit_set = _locked(unit_set_id, user, version)
        edited = change(unit_set)
        unit_set.version += 1
        unit_set.save(update_fields=["version"])
        return edited


def relabel(unit_set_id: int, user, version: int, unit_id: int, text: str) -> Edited:
    def change(unit_set: UnitSet) -> Edited:
        unit = _unit(unit_set, unit_id)
        unit.text = _text(text)
        unit.save(update_fields=["text"])
        return Edited(unit_set, f"Saved the text of unit {unit.position}.", unit.pk)

    return _edit(unit_set_id, user, version, change)


def merge(unit_set_id: int, user, version: int, unit_id: int) -> Edited:
    """Merge the unit with the one after it (see the module's description)."""

    def change(unit_set: UnitSet) -> Edited:
        units = _ordered(unit_set)
        at = next((i for i, u in enumerate(units) if u.pk == unit_id), None)
        if at is None:
            raise RuleBroken("That unit is no longer in this unit set: reload the page.")
        if at + 1 == len(units):
            raise RuleBroken("The last unit has no next unit to merge with.")
        first, second = units[at], units[at + 1]
        same_model = first.model is not None and first.model_id == second.model_id
        if (
            first.model is not None
            and same_model
            and first.start is not None
            and first.end is not None
            and second.start is not None
            and second.end is not None
        ):
            start, end = min(first.start, second.start), max(first.end, second.end)
            if _is_model_words(first) and _is_model_words(second):
                first.text = first.model.text[start:end]
            else:
                first.text = f"{first.text} {second.text}"
            first.start, first.end = start, end
        else:
            first.text = f"{first.text} {second.text}"
            if not same_model:
                first.model, first.start, first.end = None, None, None
        if first.scu_id != second.scu_id:
            first.scu = None
            first.weight = first.weight + second.weight
        second.delete()
        first.save(update_fields=["text", "model", "start", "end", "scu", "weight"])
        _renumber(unit_set, units[: at + 1] + units[at + 2 :])
        return Edited(unit_set, f"Merged units {at + 1} and {at + 2} into unit {at + 1}.", first.pk)

    return _edit(unit_set_id, user, version, change)


def split(unit_set_id: int, user, version: int, unit_id: int, at: int) -> Edited:
    """Split the unit before the word at offset `at` of its text."""

    def change(unit_set: UnitSet) -> Edited:
        units = _ordered(unit_set)
        index = next((i for i, u in enumerate(units) if u.pk == unit_id), None)
        if index is None:
            raise RuleBroken("That unit is no longer in this unit set: reload the page.")
        unit = units[index]
        try:
            head, tail = splitting.split_at(unit.text, at)
        except ValueError:
            raise RuleBroken("Split before a word of the unit other than its first.") from None
        second = Unit(
            unit_set=unit_set,
            position=RENUMBER_OFFSET * 2,  # renumbered below
            text=unit.text[slice(*tail)],
            model=unit.model,
            start=unit.start,
            end=unit.end,
            scu=unit.scu,
            weight=unit.weight,
        )
        if _is_model_words(unit):
            base = unit.start
            assert base is not None
            unit.start, unit.end = base + head[0], base + head[1]
            second.start, second.end = base + tail[0], base + tail[1]
        unit.text = unit.text[slice(*head)]
        unit.save(update_fields=["text", "start", "end"])
        second.save()
        _renumber(unit_set, units[: index + 1] + [second] + units[index + 1 :])
        return Edited(
            unit_set, f"Split unit {index + 1} into units {index + 1} and {index + 2}.", second.pk
        )

    return _edit(unit_set_id, user, version, change)


def delete(unit_set_id: int, user, version: int, unit_id: int) -> Edited:
    def change(unit_set: UnitSet) -> Edited:
        units = _ordered(unit_set)
        index = next((i for i, u in enumerate(units) if u.pk == unit_id), None)
        if index is None:
            raise RuleBroken("That unit is no longer in this unit set: reload the page.")
        if len(units) == 1:
            raise RuleBroken("A unit set keeps at least one unit: add another before this goes.")
        units[index].delete()
        rest = units[:index] + units[index + 1 :]
        _renumber(unit_set, rest)
        near = rest[min(index, len(rest) - 1)]
        return Edited(unit_set, f"Deleted unit {index + 1}.", near.pk)

    return _edit(unit_set_id, user, version, change)


def add(unit_set_id: int, user, version: int, text: str, position: int | None = None) -> Edited:
    """Add a unit written by hand at `position` (1 first; None or past the end: last)."""

    def change(unit_set: UnitSet) -> Edited:
        units = _ordered(unit_set)
        place = len(units) if position is None else min(max(position, 1) - 1, len(units))
        models = {unit.model_id for unit in units}
        unit = Unit.objects.create(
            unit_set=unit_set,
            position=RENUMBER_OFFSET * 2,  # renumbered below
            text=_text(text),
            model_id=models.pop() if len(models) == 1 else None,
        )
        _renumber(unit_set, units[:place] + [unit] + units[place:])
        return Edited(unit_set, f"Added unit {place + 1}.", unit.pk)

    return _edit(unit_set_id, user, version, change)


def move(unit_set_id: int, user, version: int, unit_id: int, position: int) -> Edited:
    """Move the unit to `position` (1 first), the others closing up behind it."""

    def change(unit_set: UnitSet) -> Edited:
        units = _ordered(unit_set)
        index = next((i for i, u in enumerate(units) if u.pk == unit_id), None)
        if index is None:
            raise RuleBroken("That unit is no longer in this unit set: reload the page.")
        if not 1 <= position <= len(units):
            raise RuleBroken(f"Units are numbered 1 to {len(units)}.")
        unit = units.pop(index)
        units.insert(position - 1, unit)
        _renumber(unit_set, units)
        return Edited(unit_set, f"Moved unit {index + 1} to place {position}.", unit.pk)

    return _edit(unit_set_id, user, version, change)


# name -> (edit, its arguments after the version; "?" marks an optional one), as the page posts
# them (annotator.editing.actions.parse_arguments reads them).
ACTIONS: dict[str, tuple[Callable[..., Edited], list[str]]] = {
    "relabel": (relabel, ["unit", "text"]),
    "merge": (merge, ["unit"]),
    "split": (split, ["unit", "at"]),
    "delete": (delete, ["unit"]),
    "add": (add, ["text", "position?"]),
    "move": (move, ["unit", "position"]),
}
