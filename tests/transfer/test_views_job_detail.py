"""GET /jobs/<pk>/: an import's progress, polled by htmx while it runs, then its report."""

import pytest
from django.urls import reverse

from annotator.models import ImportJob

pytestmark = pytest.mark.django_db


def job(demo, **fields):
    return ImportJob.objects.create(
        collection=demo["collection"], kind="ducview", file_name="duc.zip", **fields
    )


def test_a_running_job_polls_for_its_progress(client, demo):
    running = job(demo, status="running", total=40, done=12)
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[running.pk])).content.decode()
    assert '<progress max="40" value="12" aria-label="Files imported">' in page
    assert 'hx-trigger="every 1s"' in page
    part = client.get(
        reverse("job-detail", args=[running.pk]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert part.startswith('<section id="job"')
    assert "<html" not in part


def test_a_finished_job_stops_polling_and_lists_its_problems(client, demo):
    failed = job(demo, status="failed", report=["a.pyr: broken", "b.pan: broken too"])
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[failed.pk])).content.decode()
    assert "every 1s" not in page
    assert "<li>a.pyr: broken</li>" in page
    assert "Refused: nothing was stored. Fix every problem" in page


def test_a_queued_job_says_it_waits_for_a_worker(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[job(demo).pk])).content.decode()
    assert "Waiting for a worker" in page
    assert 'id="no-worker"' not in page


def test_a_job_no_worker_takes_says_so_and_how_to_start_one(client, demo):
    """Issue 16: not "Queued" forever; still polled, so that it goes on once a worker runs."""
    from datetime import timedelta

    from django.utils import timezone

    waiting = job(demo)
    ImportJob.objects.filter(pk=waiting.pk).update(queued_at=timezone.now() - timedelta(minutes=2))
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[waiting.pk])).content.decode()
    assert '<p class="message warning" id="no-worker">No worker has taken this job since' in page
    assert "<code>python manage.py db_worker</code>" in page
    assert "Waiting for a worker" not in page
    assert 'hx-trigger="every 1s"' in page
    ImportJob.objects.filter(pk=waiting.pk).update(status="running")
    assert (
        'id="no-worker"'
        not in client.get(reverse("job-detail", args=[waiting.pk])).content.decode()
    )


def test_a_finished_import_lists_its_refused_files_apart_from_its_warnings(client, demo):
    done = job(
        demo,
        status="done",
        total=3,
        done=3,
        report=[
            "3 files: 1 pyramid (2 SCUs, 3 contributors), 1 peer annotation (2 PSEs); 0 unchanged",
            "warning: D0601.pyr: line 9: SCU 3 has more than one contributor from model A",
            "refused: D0602.pyr: line 1, column 1: malformed XML: syntax error",
        ],
    )
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[done.pk])).content.decode()
    assert 'id="refused-files">Refused files (1)</h2>' in page
    assert "<li>D0602.pyr: line 1, column 1: malformed XML: syntax error</li>" in page
    assert "<summary>Warnings (1)" in page
    assert "<li>D0601.pyr: line 9: SCU 3 has more" in page
    assert "every other file was" in page
    assert "Refused: nothing was stored" not in page


def test_a_job_waiting_while_workers_are_busy_says_so(client, demo):
    from datetime import timedelta

    from django.utils import timezone

    from annotator.models import WorkerBeat

    waiting = job(demo)
    ImportJob.objects.filter(pk=waiting.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[waiting.pk])).content.decode()
    assert (
        "Waiting for a worker" in page
    )  # queued just now (made long ago: resumed, say): no warning yet
    ImportJob.objects.filter(pk=waiting.pk).update(queued_at=timezone.now() - timedelta(minutes=2))
    WorkerBeat.objects.create(
        worker_id="w1", started_at=timezone.now(), seen_at=timezone.now(), running="ImportJob 1"
    )
    page = client.get(reverse("job-detail", args=[waiting.pk])).content.decode()
    assert 'id="workers-busy"' in page
    assert "the worker is busy with other jobs; this one is next in line" in page
    assert 'id="no-worker"' not in page
    WorkerBeat.objects.create(
        worker_id="w2", started_at=timezone.now(), seen_at=timezone.now()
    )  # idle
    page = client.get(reverse("job-detail", args=[waiting.pk])).content.decode()
    assert 'id="workers-idle"' in page
    assert "though 2 workers are running and not all busy" in page


def test_a_job_whose_worker_stopped_says_it_is_interrupted_and_will_be_taken_back(client, demo):
    from datetime import timedelta

    from django.utils import timezone

    stopped = job(
        demo,
        status="running",
        total=482,
        done=104,
        heartbeat_at=timezone.now() - timedelta(minutes=3),
    )
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[stopped.pk])).content.decode()
    assert 'id="job-interrupted"' in page
    assert "No worker is running" in page
    assert 'hx-trigger="every 1s"' in page
    assert "goes on from where it stopped" in page
    beating = job(demo, status="running", total=482, done=104, heartbeat_at=timezone.now())
    assert (
        'id="job-interrupted"'
        not in client.get(reverse("job-detail", args=[beating.pk])).content.decode()
    )


def test_a_job_stopped_by_interruptions_offers_resume(client, demo):
    stopped = job(
        demo,
        status="failed",
        interrupted=True,
        attempts=3,
        total=10,
        done=4,
        report=["Interrupted at 4 of 10 files", "Stopped after 3 interrupted runs."],
    )
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[stopped.pk])).content.decode()
    assert f'action="{reverse("job-resume", args=[stopped.pk])}"' in page
    assert '<button type="submit" id="resume">Resume</button>' in page
    assert "This job was interrupted 3 times" in page
    assert "Refused: nothing was stored" not in page
