"""Making a docset's unit sets (issue 21), each in one transaction, its units in one bulk insert:

- SEE (Harman & Over 2004): one unit set per model summary, as a peer was judged against one model
  in SEE; its units are the model's clauses (annotator.coverage.splitting), each with its span;
- presence from a submitted pyramid: a unit per SCU, its label the text and its weight the SCU's,
  as the collection's weight convention counts it (SCUQuerySet.with_weight, the one definition);
- presence written by hand: one unit per line, optionally "written from" one model; a line written
  twice is refused, naming it (it would be judged twice and count twice in the score).

A unit set is deleted whole (delete_unit_set) only while no judgment is given against it.

Units are numbered from 1 (`position`), the order judges see them in. A refusal raises
UnitSetError with a message for the administrator; nothing is stored then.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction

from annotator.campaigns.models import Docset, Summary
from annotator.coverage import splitting
from annotator.coverage.models import Judgment, JudgmentTask, Unit, UnitSet
from annotator.pyramids.models import SCU, Pyramid
from annotator.text.plurals import counted

SEE_SCALES = (UnitSet.Scale.FIVE_POINT, UnitSet.Scale.PERCENT)


class UnitSetError(ValueError):
    """A unit set that cannot be made as asked; `message` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def see_name(model: Summary) -> str:
    return f"SEE model {model.author}"


def _refuse_taken(docset: Docset, names: Iterable[str]) -> None:
    taken = sorted(
        UnitSet.objects.filter(docset=docset, name__in=list(names)).values_list("name", flat=True)
    )
    if taken:
        listed = ", ".join(f"“{name}”" for name in taken)
        raise UnitSetError(f"Docset {docset.name} already has a unit set named {listed}.")


def _created(unit_set: UnitSet, units: list[Unit]) -> UnitSet:
    """Store the unit set and its units (numbered from 1); a name taken meanwhile is refused."""
    if not units:
        raise UnitSetError(f"“{unit_set.name}” would have no unit.")
    try:
        with transaction.atomic():
            unit_set.save()
            for position, unit in enumerate(units, start=1):
                unit.unit_set = unit_set
                unit.position = position
            Unit.objects.bulk_create(units)
    except IntegrityError:  # the unique name, taken by another request since it was checked
        raise UnitSetError(
            f"Docset {unit_set.docset.name} already has a unit set named “{unit_set.name}”."
        ) from None
    return unit_set


def see_unit_sets(docset: Docset, models: Iterable[Summary], scale: str) -> list[UnitSet]:
    """One SEE unit set per model summary, named "SEE model <author>", its units the model's
    clauses. All or none: a name already taken or a model without words refuses them all."""
    models = list(models)
    if scale not in SEE_SCALES:
        raise UnitSetError("SEE is judged on the five-point or the percent scale.")
    if not models:
        raise UnitSetError("Choose at least one model summary.")
    for model in models:
        if model.docset_id != docset.pk or model.kind != Summary.Kind.MODEL:
            raise UnitSetError(f"{model} is not a model summary of docset {docset.name}.")
    _refuse_taken(docset, [see_name(model) for model in models])
    made = []
    with transaction.atomic():
        for model in models:
            spans = splitting.units(model.text)
            if not spans:
                raise UnitSetError(f"Model {model.author} has no words to cut into units.")
            unit_set = UnitSet(
                docset=docset,
                name=see_name(model),
                method=UnitSet.Method.SEE,
                scale=scale,
                source=UnitSet.Source.MODELS,
                source_name=model.name,
            )
            units = [
                Unit(text=model.text[start:end], model=model, start=start, end=end)
                for start, end in spans
            ]
            made.append(_created(unit_set, units))
    return made


def presence_from_pyramid(docset: Docset, pyramid: Pyramid, name: str) -> UnitSet:
    """A presence unit set of the pyramid's SCUs, in the pyramid's order: text the label, weight
    the SCU's weight under the collection's convention."""
    if pyramid.docset_id != docset.pk:
        raise UnitSetError(f"Pyramid {pyramid.name} is not of docset {docset.name}.")
    if pyramid.status != Pyramid.Status.SUBMITTED:
        raise UnitSetError(
            f"Pyramid {pyramid.name} is not submitted: its SCUs may still change. "
            "Make units from a submitted pyramid."
        )
    name = name.strip()
    if not name:
        raise UnitSetError("Name the unit set.")
    _refuse_taken(docset, [name])
    scus = SCU.objects.filter(pyramid=pyramid).with_weight().order_by("position", "id")
    unit_set = UnitSet(
        docset=docset,
        name=name,
        method=UnitSet.Method.PRESENCE,
        scale=UnitSet.Scale.PRESENT_ABSENT,
        source=UnitSet.Source.PYRAMID,
        pyramid=pyramid,
        source_name=pyramid.name,
    )
    units = [Unit(text=scu.label.strip() or scu.label, scu=scu, weight=scu.weight) for scu in scus]
    with transaction.atomic():
        return _created(unit_set, units)


def hand_lines(text: str) -> list[str]:
    """The units written by hand: one a line, spaces around each trimmed, blank lines skipped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _refuse_repeated(texts: list[str]) -> None:
    """A line written twice (spaces and case aside) would be judged twice and count twice in the
    presence score: refused, each repeated line named once, as first written."""
    first: dict[str, str] = {}
    repeated: list[str] = []
    for text in texts:
        key = " ".join(text.split()).casefold()
        if key in first and first[key] not in repeated:
            repeated.append(first[key])
        first.setdefault(key, text)
    if repeated:
        listed = ", ".join(f"“{text}”" for text in repeated)
        raise UnitSetError(f"Write each unit once: these lines are there more than once: {listed}.")


def presence_by_hand(
    docset: Docset, name: str, lines: Iterable[str], model: Summary | None = None
) -> UnitSet:
    """A presence unit set of sentences written by hand, one unit each, in the order given;
    `model`: the model summary they were written from, if one was."""
    if model is not None and (model.docset_id != docset.pk or model.kind != Summary.Kind.MODEL):
        raise UnitSetError(f"{model} is not a model summary of docset {docset.name}.")
    name = name.strip()
    if not name:
        raise UnitSetError("Name the unit set.")
    texts = [line.strip() for line in lines if line.strip()]
    if not texts:
        raise UnitSetError("Write at least one unit: one sentence a line.")
    _refuse_repeated(texts)
    _refuse_taken(docset, [name])
    unit_set = UnitSet(
        docset=docset,
        name=name,
        method=UnitSet.Method.PRESENCE,
        scale=UnitSet.Scale.PRESENT_ABSENT,
        source=UnitSet.Source.HAND,
        source_name=f"written from model {model.author}" if model else "",
    )
    with transaction.atomic():
        return _created(unit_set, [Unit(text=text, model=model) for text in texts])


# -- deleting -------------------------------------------------------------------------------------


def judgments_given(unit_set: UnitSet) -> int:
    return Judgment.objects.filter(unit__unit_set=unit_set).count()


def deletion_refused(judgments: int) -> str:
    return (
        f"Judging has started on this unit set ({counted(judgments, 'judgment')} given): it can "
        "no longer be deleted, or the judges' work would be lost."
    )


def delete_unit_set(unit_set_id: int) -> tuple[str, int, int]:
    """Delete the unit set with its units and its judgment tasks, none answered yet, in one
    transaction: (its name, units, tasks). Its row is locked first, as a judge's answer locks it
    (annotator.coverage.judging): a first answer and the deletion never interleave. Refused
    (UnitSetError) once a judgment is given: the judges' work would be lost."""
    with transaction.atomic():
        unit_set = UnitSet.objects.select_for_update().filter(pk=unit_set_id).first()
        if unit_set is None:
            raise UnitSetError("This unit set no longer exists.")
        judgments = judgments_given(unit_set)
        if judgments:
            raise UnitSetError(deletion_refused(judgments))
        units = unit_set.units.count()
        tasks = JudgmentTask.objects.filter(unit_set=unit_set).count()
        name = unit_set.name
        unit_set.delete()  # its units and tasks by cascade
    return name, units, tasks
