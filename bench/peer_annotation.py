r"""Benchmark: the peer annotation page on D0601 (94 SCUs), on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/peer_annotation.py

Server time (in process, through Django's test client) to render the page, and to assign peer
text to an SCU and answer with the workspace and its refreshed score panel.
Targets: page < 150 ms; an assignment with the score refresh < 50 ms.
"""

import json
import re

from benchdata import data_file, describe
from benchdb import bench_database
from timing import measure, runs

RUNS = runs(30)
PEER = "duc2006-nist/allpans/100.D0601.M.250.A.10.pan"


def main() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from annotator.models import Assignment, PeerAnnotation
    from annotator.transfer.importing import DucviewImporter

    print(describe([data_file(PEER)]))
    DucviewImporter("bench").import_file(data_file(PEER))
    source = PeerAnnotation.objects.get()
    # Timed as the annotator assigned to the peer: their access checks are part of every action.
    annotator = get_user_model().objects.create_user("bench")
    Assignment.objects.create(
        user=annotator, task=Assignment.Task.ANNOTATE_PEER, pyramid=source.pyramid, peer=source.peer
    )
    annotation = PeerAnnotation.objects.create(
        pyramid=source.pyramid, peer=source.peer, annotator=annotator
    )
    client = Client(SERVER_NAME="localhost")
    client.force_login(annotator)

    page_url = reverse("annotation-detail", args=[annotation.pk])
    assert client.get(page_url).status_code == 200
    print(f"page:   {measure(lambda: client.get(page_url), RUNS)} (target < 150 ms)")

    uids = list(source.pyramid.scus.values_list("uid", flat=True)[:RUNS])
    text = source.peer.text
    counter = iter(range(10**6))

    version = [annotation.version]  # the page keeps the version the last answer carried

    def assign():
        uid = uids[next(counter) % len(uids)]
        response = client.post(
            reverse("annotation-edit", args=[annotation.pk, "assign"]),
            {"version": version[0], "scu": uid, "ranges": json.dumps([[0, min(40, len(text))]])},
        )
        assert response.status_code == 200, response.status_code
        version[0] = int(re.search(r'data-version="(\d+)"', response.content.decode()).group(1))

    print(f"assign: {measure(assign, RUNS)} (with the score panel; target < 50 ms)")


if __name__ == "__main__":
    with bench_database():
        main()
