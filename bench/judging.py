r"""Benchmark: answering on the judging page (issue 21), a unit set of 40 units, on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/judging.py

Server time (in process, through Django's test client, as the judge: their checks are part of
every answer) of one answer: lock the task, check it, store the judgment, raise the version, count
the progress, answer JSON. Each unit answered once (a new judgment), then each again (a changed
one), then every answer undone as the page undoes (the earlier answer sent back). Prints the median
and the 95th percentile of all the answers, and each kind's median. Target: p95 < 50 ms.
Also the page itself, with its 40 units.
"""

import statistics

from benchdb import bench_database
from timing import measure, runs

UNITS = 40
PEER = (
    "Apollo 11 landed on the Moon in July 1969. Neil Armstrong was the first man to walk on the "
    "Moon, and Buzz Aldrin followed him. Michael Collins remained in orbit. The astronauts "
    "returned to Earth with lunar rock samples."
)


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from annotator.coverage.models import JudgmentTask, Unit, UnitSet
    from annotator.models import Collection, Docset, Summary

    docset = Docset.objects.create(collection=Collection.objects.create(name="bench"), name="D1")
    model = Summary.objects.create(docset=docset, kind="model", author="A", text=PEER)
    peer = Summary.objects.create(docset=docset, kind="peer", author="1", text=PEER)
    unit_set = UnitSet.objects.create(
        docset=docset, name="SEE", method="see", scale="five_point", source="hand"
    )
    units = Unit.objects.bulk_create(
        Unit(unit_set=unit_set, position=i, text=f"Unit {i} says a thing.", model=model)
        for i in range(UNITS)
    )
    judge = get_user_model().objects.create_user("bench")
    task = JudgmentTask.objects.create(unit_set=unit_set, peer=peer, judge=judge)
    client = Client(SERVER_NAME="localhost")
    client.force_login(judge)
    url = reverse("judging-answer", args=[task.pk])
    version = [task.version]
    sentence = "[[0, 42]]"

    def answer(unit, value, seconds="3.2"):
        def call():
            response = client.post(
                url,
                {
                    "version": version[0],
                    "units_version": unit_set.version,
                    "unit": unit.pk,
                    "value": value,
                    "sentences": sentence if value not in ("", "0") else "[]",
                    "seconds": seconds,
                },
            )
            assert response.status_code == 200, response.content
            version[0] = response.json()["version"]

        return call

    print(f"unit set: {UNITS} units (SEE, five-point scale), one judge, one peer")
    page = reverse("judging-task", args=[task.pk])
    assert client.get(page).status_code == 200
    print(f"page:    {measure(lambda: client.get(page), runs(20))}")
    timings: dict[str, list[float]] = {}
    for kind, value, taken in (("new", "3", "3.2"), ("changed", "2", "1.1"), ("undone", "3", "")):
        timings[kind] = [measure(answer(unit, value, taken), 1).seconds[0] for unit in units]
    every = [s * 1000 for kind in timings.values() for s in kind]
    for kind, seconds in timings.items():
        print(f"{kind + ':':8} median {statistics.median(seconds) * 1000:.2f} ms ({UNITS} answers)")
    median, p95 = statistics.median(every), percentile(every, 0.95)
    print(
        f"answers: median {median:.2f} ms, 95th percentile {p95:.2f} ms, max {max(every):.2f} ms "
        f"({len(every)} answers; target p95 < 50 ms: {'met' if p95 < 50 else 'NOT met'})"
    )


if __name__ == "__main__":
    with bench_database():
        main()
