r"""Benchmark: the peer annotation page on D0601 (94 SCUs), on PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/peer_annotation.py

Server time (in process, through Django's test client) to render the page, and to assign peer
text to an SCU and answer with the workspace and its refreshed score panel.
Targets: page < 150 ms; an assignment with the score refresh < 50 ms.
"""

import json
import re

from benchdb import DATA, bench_database
from pyramid_builder import ROUNDS, timed


def main() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from annotator.models import Assignment, PeerAnnotation
    from annotator.transfer.importing import DucviewImporter

    DucviewImporter("bench").import_file(DATA / "duc2006-nist/allpans/100.D0601.M.250.A.10.pan")
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
    median, worst = timed(lambda: client.get(page_url))
    print(f"page:   {median:.1f} ms median, {worst:.1f} ms worst of {ROUNDS} (target < 150 ms)")

    uids = list(source.pyramid.scus.values_list("uid", flat=True)[:ROUNDS])
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

    median, worst = timed(assign)
    print(
        f"assign: {median:.1f} ms median, {worst:.1f} ms worst of {ROUNDS} (with the score panel; "
        "target < 50 ms)"
    )


if __name__ == "__main__":
    with bench_database():
        main()
