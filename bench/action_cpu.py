r"""Benchmark: the server's CPU for each builder and peer-page action (issue 32's budget).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/action_cpu.py

The largest DUC pyramid with many peer annotations here (D0601: 94 SCUs, 22 NIST annotations
against it; PYRAMID_FULL_DATA for another package), imported into a throwaway PostgreSQL
database. Each action is the request the page sends (an htmx POST with the record's version),
answered by Django in this process (the test client, production settings; the builder's with the
help for the SCU selected, as the page asks for it), and its CPU is this
process's (time.process_time: the view, the templates, the client's small part) plus the
PostgreSQL backend's serving it (/proc/<pg_backend_pid()>/schedstat, nanoseconds on the CPU).
CPU does not depend on the machine's load, wall time does: both are printed, median and
min-max of repeated runs. Target: <= 25 ms of CPU at the median for every action.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import time

from benchdata import data_file, data_glob, describe, import_matter_pyramids
from benchdb import ROOT, backend_cpu, bench_database
from timing import Timing, number, runs

sys.path.insert(0, str(ROOT))

ROUNDS = runs(15)
PYRAMID = "duc2006-nist/allpyramids/D0601.pyr"
PANS = "duc2006-nist/allpans/*.D0601.*.pan"
TARGET_MS = 25
# BENCH_PROFILE="peer: match" prints a CPU profile (BENCH_SORT: its order, cumulative by default;
# BENCH_LINES: how many lines; BENCH_ONLY: a pattern of the files shown) and the queries of one
# run of the actions whose name holds it.
PROFILE = os.environ.get("BENCH_PROFILE", "")
# BENCH_ACTIONS="merge" measures only some of the pages' actions (peer, builder, merge).
ACTIONS = os.environ.get("BENCH_ACTIONS", "peer builder merge").split()


class Meter:
    """Each action's CPU (this process + the database backend) and wall time, by name."""

    def __init__(self):
        from django.db import connection

        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.pid = cursor.fetchone()[0]
        self.cpu: dict[str, list[float]] = {}
        self.database: dict[str, list[float]] = {}
        self.wall: dict[str, list[float]] = {}

    def __call__(self, name: str, call):
        if PROFILE and PROFILE in name:  # where the CPU goes, once the rounds are warm
            return self.profiled(name, call)
        started, cpu, db = time.perf_counter(), time.process_time(), backend_cpu(self.pid)
        answer = call()
        process, database = time.process_time() - cpu, backend_cpu(self.pid) - db
        self.wall.setdefault(name, []).append(time.perf_counter() - started)
        self.cpu.setdefault(name, []).append(process + database)
        self.database.setdefault(name, []).append(database)
        assert answer.status_code == 200, (name, answer.status_code, answer.content[:300])
        return answer

    def profiled(self, name: str, call):
        import cProfile
        import pstats

        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        profile = cProfile.Profile(
            time.process_time
        )  # CPU only: waits on the database are not this process's
        with CaptureQueriesContext(connection) as queries:
            answer = profile.runcall(call)
        if len(self.cpu.setdefault(name, [])) == ROUNDS // 2:
            print(f"-- {name}: where this process's CPU goes (cProfile)")
            pstats.Stats(profile).sort_stats(
                os.environ.get("BENCH_SORT", "cumulative")
            ).print_stats(
                *filter(None, [os.environ.get("BENCH_ONLY")]),  # e.g. "annotator|scoring"
                int(os.environ.get("BENCH_LINES", "45")),
            )
            print(f"-- {name}: its {len(queries)} queries")
            for query in queries:
                print(f"{query['time']:>6} {query['sql'][:400]}")
        self.cpu[name].append(0.0)
        self.wall.setdefault(name, []).append(0.0)
        return answer

    def report(self) -> bool:
        met = True
        width = max(map(len, self.cpu)) + 2
        print(f"{'action':<{width}} server CPU (process + PostgreSQL)      of it PostgreSQL  wall")
        for name, cpu in self.cpu.items():
            median = statistics.median(cpu) * 1000
            met &= median <= TARGET_MS
            database = statistics.median(self.database.get(name) or [0]) * 1000
            print(
                f"{name:<{width}} {Timing(tuple(cpu)).format('ms'):<40} "
                f"{number(database):>6} ms  "
                f"{number(statistics.median(self.wall[name]) * 1000):>6} ms"
                f"{'' if median <= TARGET_MS else f'  (over {TARGET_MS} ms)'}"
            )
        return met


def main() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from annotator.models import SCU, Assignment, PeerAnnotation, Pyramid
    from annotator.pyramids import editing
    from annotator.transfer.importing import DucviewImporter

    pans = sorted(data_glob(PANS))
    print(describe([data_file(PYRAMID), *pans]))
    importer = DucviewImporter("bench")
    importer.import_file(data_file(PYRAMID))
    for pan in pans:
        importer.import_file(pan)
    pyramid = Pyramid.objects.get(name="D0601")
    source = PeerAnnotation.objects.filter(pyramid=pyramid).first()
    users = get_user_model().objects
    admin = users.create_superuser("admin", password="bench-password-1")
    annotator = users.create_user("annotator", password="bench-password-1")
    Assignment.objects.create(
        user=annotator, task=Assignment.Task.ANNOTATE_PEER, pyramid=pyramid, peer=source.peer
    )
    annotation = PeerAnnotation.objects.create(
        pyramid=pyramid, peer=source.peer, annotator=annotator
    )
    against = PeerAnnotation.objects.filter(pyramid=pyramid).count()
    print(
        f"D0601: {pyramid.scus.count()} SCUs, {against} "
        f"peer annotations against it; peer {source.peer.author} ({len(source.peer.text.split())} "
        f"words); {ROUNDS} runs of each action"
    )
    meter = Meter()
    htmx = {"HTTP_HX_REQUEST": "true"}

    # -- the peer page: match to an SCU or to nothing, undo, redo, remove -------------------------
    client = Client(SERVER_NAME="localhost")
    client.force_login(annotator)
    client.get(reverse("annotation-detail", args=[annotation.pk]))  # the page once, as people do

    def peer(action, **values):
        version = PeerAnnotation.objects.values_list("version", flat=True).get(pk=annotation.pk)
        url = reverse("annotation-edit", args=[annotation.pk, action])
        return lambda: client.post(url, {"version": version, **values}, **htmx)

    text = annotation.peer.text
    words = [(m.start(), m.end()) for m in re.finditer(r"\w+(?: \w+){2}", text)]
    uids = list(SCU.objects.filter(pyramid=pyramid).values_list("uid", flat=True))
    for round_ in range(ROUNDS if "peer" in ACTIONS else 0):
        ranges = json.dumps([words[round_ % len(words)]])
        meter("peer: match to an SCU", peer("assign", scu=uids[round_ % len(uids)], ranges=ranges))
        meter("peer: undo", peer("undo"))
        meter("peer: redo", peer("redo"))
        pse = annotation.pses.order_by("-id").first()
        meter("peer: remove a PSE", peer("remove_pse", pse=pse.pk))
        meter("peer: match to nothing (0)", peer("assign", scu=0, ranges=ranges))

    # -- the builder: the same pyramid reopened (22 annotations against it are flagged) ------------
    editing.reopen(pyramid.pk, admin, Pyramid.objects.get(pk=pyramid.pk).version)
    builder = users.create_user("builder", password="bench-password-1")
    Assignment.objects.create(user=builder, task=Assignment.Task.BUILD_PYRAMID, pyramid=pyramid)
    client = Client(SERVER_NAME="localhost")
    client.force_login(builder)
    client.get(reverse("pyramid-detail", args=[pyramid.pk]))

    def build(action, **values):
        # As the page sends it: with the SCU it has selected, whose help the answer brings.
        version = Pyramid.objects.values_list("version", flat=True).get(pk=pyramid.pk)
        url = reverse("pyramid-edit", args=[pyramid.pk, action])
        selected = SCU.objects.filter(pyramid=pyramid).order_by("-uid").values_list("uid")[0][0]
        values = {"version": version, "help_for": selected, **values}
        return lambda: client.post(url, values, **htmx)

    model = pyramid.models_used.order_by("author").first()
    phrases = [(m.start(), m.end()) for m in re.finditer(r"\w+ \w+", model.text)]
    for round_ in range(ROUNDS if "builder" in ACTIONS else 0):
        ranges = json.dumps([phrases[round_ % len(phrases)]])
        meter("builder: new SCU (n)", build("new_scu", summary=model.pk, ranges=ranges))
        meter("builder: undo (Ctrl+Z)", build("undo"))
        meter("builder: redo (Ctrl+Y)", build("redo"))
        new = SCU.objects.filter(pyramid=pyramid).order_by("-uid").first()
        other = pyramid.models_used.order_by("-author").first()
        ranges = json.dumps([[0, 3 + round_]])
        meter(
            "builder: add a contributor (a)",
            build("add_contributor", scu=new.uid, summary=other.pk, ranges=ranges),
        )
        meter("builder: relabel (l)", build("set_label", scu=new.uid, label=f"Relabelled {round_}"))
        meter("builder: move an SCU (Alt+Up)", build("move_scu", scu=new.uid, position=0))
        meter("builder: remove the SCU (Delete)", build("remove_scu", scu=new.uid))

    if "merge" in ACTIONS:
        merge_decisions(meter)
    met = meter.report()
    print("target met" if met else f"target NOT met: some action over {TARGET_MS} ms of CPU")


def merge_decisions(meter: Meter) -> None:
    """A consensus of the two MATTER pyramids (as bench/adjudication.py aligns them): one group's
    version taken, A's then B's, and a group kept whole, as the merge page sends them."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from annotator.adjudication import pyramid_consensus
    from annotator.models import Membership, Pyramid, Role

    a, b = import_matter_pyramids()
    # Decided by an adjudicator of the collection (not a site administrator, whose rights are
    # read without a query), as people adjudicate.
    adjudicator = get_user_model().objects.create_user("adjudicator")
    Membership.objects.create(
        collection_id=a.docset.collection_id, user=adjudicator, role=Role.ADJUDICATOR
    )
    consensus = pyramid_consensus.start(a, b, adjudicator)
    client = Client(SERVER_NAME="localhost")
    client.force_login(adjudicator)
    client.get(reverse("pyramid-merge", args=[consensus.pk]))
    groups = [g["key"] for g in consensus.merge.groups if g["a"] and g["b"]]
    print(f"MATTER consensus: {len(consensus.merge.groups)} groups; {ROUNDS} runs of each decision")

    def decide(action, **values):
        version = Pyramid.objects.values_list("version", flat=True).get(pk=consensus.pk)
        url = reverse("pyramid-merge-decide", args=[consensus.pk, action])
        return lambda: client.post(url, {"version": version, **values}, HTTP_HX_REQUEST="true")

    for round_ in range(ROUNDS):
        group = groups[round_ % len(groups)]
        meter("merge: take A's version", decide("choose_version", group=group, side="a"))
        meter("merge: take B's version", decide("choose_version", group=group, side="b"))
        meter("merge: keep as edited", decide("keep_group", group=group))


if __name__ == "__main__":
    with bench_database():
        main()
