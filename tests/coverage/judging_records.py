"""Small judging records for the judging tests, made directly (issue 21): unit sets on the demo
docset (DEMO01: models A–D, peers 1–3) and judgment tasks of its peers."""

from __future__ import annotations

from annotator.coverage.models import JudgmentTask, Unit, UnitSet
from annotator.models import Summary

# Model A's first two sentences, cut into clauses as SEE units are (Harman & Over 2004, Fig. 1).
SEE_CLAUSES = [
    "Apollo 11 landed on the Moon on July 20, 1969.",
    "Neil Armstrong and Buzz Aldrin walked on the surface",
    "while Michael Collins orbited above in the command module.",
]
# Peer 1's sentences, as the judging page splits them.
PEER_1 = [
    "Apollo 11 landed on the Moon in July 1969.",
    "Neil Armstrong was the first man to walk on the Moon, and Buzz Aldrin followed him.",
    "Michael Collins remained in orbit.",
    "The astronauts returned to Earth with lunar rock samples.",
]


def peer(demo, author: str) -> Summary:
    return Summary.objects.get(docset=demo["pyramid"].docset, kind=Summary.Kind.PEER, author=author)


def presence_set(demo, count: int | None = None, name: str = "Lite Pyramid") -> UnitSet:
    """Presence units from the demo pyramid's SCU labels (weights kept); `count` units made by hand
    instead, if given (a unit set of any size)."""
    pyramid = demo["pyramid"]
    unit_set = UnitSet.objects.create(
        docset=pyramid.docset,
        name=name,
        method=UnitSet.Method.PRESENCE,
        scale=UnitSet.Scale.PRESENT_ABSENT,
        source=UnitSet.Source.PYRAMID if count is None else UnitSet.Source.HAND,
        pyramid=pyramid if count is None else None,
    )
    if count is None:
        scus = list(pyramid.scus.with_weight().order_by("position", "pk"))
        Unit.objects.bulk_create(
            Unit(unit_set=unit_set, position=i, text=scu.label, scu=scu, weight=scu.weight)
            for i, scu in enumerate(scus)
        )
    else:
        Unit.objects.bulk_create(
            Unit(unit_set=unit_set, position=i, text=f"Unit number {i + 1} holds a fact.")
            for i in range(count)
        )
    return unit_set


def see_set(demo, scale: str = UnitSet.Scale.FIVE_POINT, name: str = "SEE model A") -> UnitSet:
    """SEE units: model A's clauses, with their place in the model's text."""
    docset = demo["pyramid"].docset
    model = Summary.objects.get(docset=docset, kind=Summary.Kind.MODEL, author="A")
    unit_set = UnitSet.objects.create(
        docset=docset, name=name, method=UnitSet.Method.SEE, scale=scale, source="models"
    )
    for i, clause in enumerate(SEE_CLAUSES):
        start = model.text.index(clause)
        Unit.objects.create(
            unit_set=unit_set,
            position=i,
            text=clause,
            model=model,
            start=start,
            end=start + len(clause),
        )
    return unit_set


def task(unit_set: UnitSet, peer_summary: Summary, judge) -> JudgmentTask:
    return JudgmentTask.objects.create(unit_set=unit_set, peer=peer_summary, judge=judge)


def span(sentence: str) -> list[int]:
    """Peer 1's sentence as the [start, end) a SEE judgment stores."""
    text = " ".join(PEER_1)
    start = text.index(sentence)
    return [start, start + len(sentence)]
