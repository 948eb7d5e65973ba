"""GET /archives/<pk>/ and /archives/<pk>/download/: an archive job's progress, polled by htmx
while it runs, its report, and the archive an export wrote."""

import pytest
from django.urls import reverse

from annotator.models import ArchiveJob
from annotator.transfer import job_bytes

pytestmark = pytest.mark.django_db


def export(demo, **fields):
    return ArchiveJob.objects.create(
        kind="export", collection=demo["collection"], file_name="demo-archive.zip", **fields
    )


def test_a_running_job_polls_for_its_progress(client, demo):
    running = export(demo, status="running", total=400, done=120)
    client.force_login(demo["organizer"])
    page = client.get(reverse("archive-job", args=[running.pk])).content.decode()
    assert '<progress max="400" value="120" aria-label="Records written">' in page
    assert 'hx-trigger="every 1s"' in page
    assert "120 of 400 records" in page
    assert "Download" not in page
    part = client.get(
        reverse("archive-job", args=[running.pk]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert part.startswith('<section id="job"')
    assert "<html" not in part
    assert (
        client.get(reverse("archive-download", args=[running.pk])).status_code == 404
    )  # nothing to download yet


def test_a_queued_job_says_it_waits_for_a_worker(client, demo):
    client.force_login(demo["admin"])
    assert (
        "Waiting for a worker"
        in client.get(reverse("archive-job", args=[export(demo).pk])).content.decode()
    )


def test_an_archive_job_no_worker_takes_says_so(client, demo):
    from datetime import timedelta

    from django.utils import timezone

    waiting = export(demo)
    ArchiveJob.objects.filter(pk=waiting.pk).update(queued_at=timezone.now() - timedelta(minutes=5))
    client.force_login(demo["admin"])
    page = client.get(reverse("archive-job", args=[waiting.pk])).content.decode()
    assert 'id="no-worker">No worker has taken this job since' in page
    assert 'hx-trigger="every 1s"' in page


def test_a_failed_restore_stops_polling_and_says_what_is_wrong(client, demo):
    failed = ArchiveJob.objects.create(
        kind="restore",
        file_name="x.zip",
        status="failed",
        report=["scus.jsonl line 3: field 'pyramid': no record 9 in pyramids.jsonl"],
    )
    client.force_login(demo["admin"])
    page = client.get(reverse("archive-job", args=[failed.pk])).content.decode()
    assert "every 1s" not in page
    assert "Refused: nothing was stored." in page
    assert (
        "<li>scus.jsonl line 3: field &#x27;pyramid&#x27;: no record 9 in pyramids.jsonl</li>"
        in page
    )


def test_a_finished_export_offers_its_archive_with_a_link_a_keyboard_reaches(client, demo):
    done = export(demo, status="done", total=3, done=3, report=["Wrote Demo: ..."])
    job_bytes.store(done, b"PK zip bytes")
    client.force_login(demo["organizer"])
    page = client.get(reverse("archive-job", args=[done.pk])).content.decode()
    assert (
        f'<a class="button" id="download" href="{reverse("archive-download", args=[done.pk])}" '
        "download>" in page
    )
    assert client.get(reverse("archive-download", args=[done.pk])).getvalue() == b"PK zip bytes"


def test_who_sees_which_job(client, demo):
    done = export(demo, status="done")
    job_bytes.store(done, b"PK")
    restore = ArchiveJob.objects.create(kind="restore", file_name="x.zip", status="done")
    expected = {
        "annotator": (403, 403, 404),
        "outsider": (404, 404, 404),
        "organizer": (200, 200, 404),
        "admin": (200, 200, 200),
    }
    for user, statuses in expected.items():
        client.force_login(demo[user])
        got = (
            client.get(reverse("archive-job", args=[done.pk])).status_code,
            client.get(reverse("archive-download", args=[done.pk])).status_code,
            client.get(reverse("archive-job", args=[restore.pk])).status_code,
        )
        assert got == statuses, user
