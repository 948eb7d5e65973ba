"""What the unit set tests share: a SEE unit set of the demo's model A, what is stored of it, and a
judgment given against it."""

from annotator.coverage import unit_sets
from annotator.models import Judgment, JudgmentTask, Summary, Unit, UnitSet


def see_of_model_a(demo) -> UnitSet:
    """SEE model A: its four clauses (see tests/coverage/test_unit_sets.py)."""
    docset = demo["pyramid"].docset
    model = docset.summaries.get(kind=Summary.Kind.MODEL, author="A")
    (unit_set,) = unit_sets.see_unit_sets(docset, [model], "five_point")
    return unit_set


def units_of(unit_set) -> list[tuple[int, str, int | None, int | None]]:
    """(position, text, start, end) of each unit, in order."""
    return list(
        Unit.objects.filter(unit_set=unit_set)
        .order_by("position")
        .values_list("position", "text", "start", "end")
    )


def texts_of(unit_set) -> list[str]:
    return [text for _, text, _, _ in units_of(unit_set)]


def version_of(unit_set) -> int:
    return UnitSet.objects.get(pk=unit_set.pk).version


def judged(unit_set, demo) -> Judgment:
    """A judgment of peer 1 against the unit set's first unit, by the demo's annotator."""
    task = JudgmentTask.objects.create(
        unit_set=unit_set, peer=demo["annotations"]["1"].peer, judge=demo["annotator"]
    )
    return Judgment.objects.create(
        task=task, unit=Unit.objects.filter(unit_set=unit_set).order_by("position").first(), value=4
    )
