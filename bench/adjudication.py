"""Benchmark: the two independent MATTER pyramids (34 and 56 SCUs of the same five summaries,
../shared/data/pyramids/pyreval-matter/IA/) aligned from the records, and their comparison page
rendered (server time, in process), on PostgreSQL. Target: the page under 300 ms. Then a consensus
of the two started, its merge page rendered and one decision answered.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/adjudication.py
"""

from benchdata import MATTER, describe, import_matter_pyramids
from benchdb import bench_database
from timing import measure, runs

RUNS = runs(30)


def main() -> None:
    from annotator.adjudication.aligned_pyramids import align_pyramids
    from annotator.adjudication.alignment import summary
    from annotator.models import Pyramid

    print(describe(sorted(MATTER.glob("*.pyr"))))
    a, b = import_matter_pyramids()
    groups = align_pyramids(a, b)
    aligned = measure(lambda: align_pyramids(a, b), RUNS)
    print(f"align {a.scus.count()} and {b.scus.count()} SCUs: {aligned}; groups {summary(groups)}")

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    client = Client(SERVER_NAME="localhost")
    client.force_login(get_user_model().objects.create_superuser("bench"))
    url = reverse("pyramid-comparison", args=[a.docset_id]) + f"?a={a.pk}&b={b.pk}"
    first = measure(lambda: client.get(url), 1)  # computes alpha for the pair, and keeps it
    print(f"comparison page: first view {first.median * 1000:.0f} ms (computing the pair's alpha)")
    print(f"comparison page: then {measure(lambda: client.get(url), RUNS)} (target < 300 ms)")

    from annotator.adjudication import pyramid_consensus

    user = get_user_model().objects.get(username="bench")
    started = measure(lambda: pyramid_consensus.start(a, b, user), 1)
    consensus = Pyramid.objects.get(merge__isnull=False)
    merge_url = reverse("pyramid-merge", args=[consensus.pk])
    print(
        f"consensus: started in {started.median * 1000:.0f} ms (once); its merge page "
        f"({len(consensus.merge.groups)} groups) {measure(lambda: client.get(merge_url), RUNS)}"
    )
    group = next(
        g["key"]
        for g in consensus.merge.groups
        if g["a"] and g["key"] not in pyramid_consensus.decisions(consensus)
    )
    choose_url = reverse("pyramid-merge-decide", args=[consensus.pk, "choose_version"])

    sides = iter("ab" * RUNS)  # alternate, so that every decision changes the consensus

    def choose():
        version = Pyramid.objects.get(pk=consensus.pk).version
        return client.post(
            choose_url,
            {"version": version, "group": group, "side": next(sides)},
            HTTP_HX_REQUEST="true",
        )

    answered = measure(choose, RUNS)
    print(f"one decision answered with what it changed (its group, counts, controls): {answered}")


if __name__ == "__main__":
    with bench_database():
        main()
