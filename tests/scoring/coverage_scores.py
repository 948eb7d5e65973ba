"""A small collection of coverage judgments (issue 21), made directly with the models, for the
tests of the scores page, the exports, the API, `ranking` and `correlate`; the values each score
must have, worked out by hand below.

On the demo docset DEMO01 (peers 1, 2, 3; its pyramid scores are the demo's), judged by J1 and J2:
- "Lite": 4 presence units weighing 3, 2, 1, 1 (7 in all); a unit is present when both judges say
  so (2 of 2 is a majority; 1 of 2 a tie, absent):
    peer 1: J1 p p p n, J2 p p n n -> p p n n: presence 2/4, weighted (3 + 2) / 7
    peer 2: J1 n n p p, J2 p n p n -> n n p n: presence 1/4, weighted 1 / 7
    peer 3: J1 n n n n, J2 p n n n -> n n n n: 0 and 0
- "SEE model A": 3 units on the five-point scale (4 all ... 0 none), coverage = mean / 4:
    peer 1: J1 4 3 2 (9/12), J2 4 4 2 (10/12) -> 19/24
    peer 2: J1 2 1 0 (3/12), J2 2 2 1 (5/12) -> 8/24
    peer 3: J1 0 0 0 (0),    J2 1 0 0 (1/12) -> 1/24
On a second docset DEMO02 (loaded after DEMO01), "Lite": 2 units of weight 1:
    peer 1: J1 p p, J2 p n -> p n: 1/2 (weighted 1/2)
    peer 2: J1 p p, J2 p p -> p p: 1 (weighted 1)
    peer 3: J1 p p, in progress (not submitted): counted only with work in progress, 1.

System means over the docsets (submitted work): presence 1: (2/4 + 1/2) / 2 = 1/2;
2: (1/4 + 1) / 2 = 5/8; 3: 0 (DEMO01 only). SEE coverage: DEMO01's alone.
"""

from __future__ import annotations

from annotator.models import Docset, Judgment, JudgmentTask, Summary, Unit, UnitSet

P, N = 1.0, 0.0
PRESENCE_1 = {
    "1": {"J1": [P, P, P, N], "J2": [P, P, N, N]},
    "2": {"J1": [N, N, P, P], "J2": [P, N, P, N]},
    "3": {"J1": [N, N, N, N], "J2": [P, N, N, N]},
}
SEE_1 = {
    "1": {"J1": [4, 3, 2], "J2": [4, 4, 2]},
    "2": {"J1": [2, 1, 0], "J2": [2, 2, 1]},
    "3": {"J1": [0, 0, 0], "J2": [1, 0, 0]},
}
PRESENCE_2 = {"1": {"J1": [P, P], "J2": [P, N]}, "2": {"J1": [P, P], "J2": [P, P]}}
IN_PROGRESS_2 = {"3": {"J1": [P, P]}}

# (docset, unit set, peer) -> (presence, presence_weighted, see_coverage), submitted work
ROWS = {
    ("DEMO01", "Lite", "1"): (2 / 4, 5 / 7, None),
    ("DEMO01", "Lite", "2"): (1 / 4, 1 / 7, None),
    ("DEMO01", "Lite", "3"): (0.0, 0.0, None),
    ("DEMO01", "SEE model A", "1"): (None, None, 19 / 24),
    ("DEMO01", "SEE model A", "2"): (None, None, 8 / 24),
    ("DEMO01", "SEE model A", "3"): (None, None, 1 / 24),
    ("DEMO02", "Lite", "1"): (1 / 2, 1 / 2, None),
    ("DEMO02", "Lite", "2"): (1.0, 1.0, None),
}
# peer -> (docsets, presence, presence_weighted, see_coverage), submitted work
SYSTEMS = {
    "1": (2, (2 / 4 + 1 / 2) / 2, (5 / 7 + 1 / 2) / 2, 19 / 24),
    "2": (2, (1 / 4 + 1) / 2, (1 / 7 + 1) / 2, 8 / 24),
    "3": (1, 0.0, 0.0, 1 / 24),
}


def _units(unit_set: UnitSet, weights: list[int]) -> list[Unit]:
    return [
        Unit.objects.create(
            unit_set=unit_set, position=i, text=f"{unit_set.name} unit {i + 1}.", weight=weight
        )
        for i, weight in enumerate(weights)
    ]


def _judge(unit_set, units, docset, answers, status=JudgmentTask.Status.SUBMITTED) -> None:
    for author, by_judge in answers.items():
        peer = Summary.objects.get(docset=docset, kind=Summary.Kind.PEER, author=author)
        for judge, values in by_judge.items():
            task = JudgmentTask.objects.create(
                unit_set=unit_set, peer=peer, judge_code=judge, status=status
            )
            Judgment.objects.bulk_create(
                Judgment(task=task, unit=unit, value=value) for unit, value in zip(units, values)
            )


def coverage_collection(demo) -> dict:
    """The judgments above, on the demo collection; returns its unit sets."""
    first = demo["pyramid"].docset
    lite_1 = UnitSet.objects.create(
        docset=first, name="Lite", method="presence", scale="present_absent", source="hand"
    )
    _judge(lite_1, _units(lite_1, [3, 2, 1, 1]), first, PRESENCE_1)
    see_1 = UnitSet.objects.create(
        docset=first, name="SEE model A", method="see", scale="five_point", source="models"
    )
    _judge(see_1, _units(see_1, [1, 1, 1]), first, SEE_1)
    second = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    for author in ("1", "2", "3"):
        Summary.objects.create(
            docset=second, kind=Summary.Kind.PEER, author=author, text=f"Peer {author}."
        )
    lite_2 = UnitSet.objects.create(
        docset=second, name="Lite", method="presence", scale="present_absent", source="hand"
    )
    units_2 = _units(lite_2, [1, 1])
    _judge(lite_2, units_2, second, PRESENCE_2)
    _judge(lite_2, units_2, second, IN_PROGRESS_2, status=JudgmentTask.Status.IN_PROGRESS)
    return {"lite_1": lite_1, "see_1": see_1, "lite_2": lite_2, "second": second}


def more_judged_peers(demo, count: int, start: int = 10) -> None:
    """`count` more peers of DEMO01, each judged by J1 and J2 on "Lite" and "SEE model A": for
    tests that the queries do not grow with the rows."""
    docset = demo["pyramid"].docset
    lite = UnitSet.objects.get(docset=docset, name="Lite")
    see = UnitSet.objects.get(docset=docset, name="SEE model A")
    for n in range(start, start + count):
        Summary.objects.create(docset=docset, kind=Summary.Kind.PEER, author=str(n), text="A peer.")
        _judge(lite, list(lite.units.order_by("position")), docset, {str(n): PRESENCE_1["1"]})
        _judge(see, list(see.units.order_by("position")), docset, {str(n): SEE_1["2"]})


def close(found: dict, expected: dict) -> bool:
    """`found` has `expected`'s keys and, for each, its values to a float's precision (the means
    are summed in another order than the hand's fractions)."""
    import pytest

    assert set(found) == set(expected)
    for key, values in expected.items():
        assert found[key] == pytest.approx(values), key
    return True
