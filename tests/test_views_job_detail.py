"""GET /jobs/<pk>/: an import's progress, polled by htmx while it runs, then its report."""

import pytest
from django.urls import reverse

from annotator.models import ImportJob

pytestmark = pytest.mark.django_db


def job(demo, **fields):
    return ImportJob.objects.create(collection=demo["collection"], kind="ducview", file_name="duc.zip", content=b"x", **fields)


def test_a_running_job_polls_for_its_progress(client, demo):
    running = job(demo, status="running", total=40, done=12)
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[running.pk])).content.decode()
    assert '<progress max="40" value="12">' in page and 'hx-trigger="every 1s"' in page
    part = client.get(reverse("job-detail", args=[running.pk]), HTTP_HX_REQUEST="true").content.decode()
    assert part.startswith('<section id="job"') and "<html" not in part


def test_a_finished_job_stops_polling_and_lists_its_problems(client, demo):
    failed = job(demo, status="failed", report=["a.pyr: broken", "b.pan: broken too"])
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[failed.pk])).content.decode()
    assert "every 1s" not in page and "<li>a.pyr: broken</li>" in page and "Refused: fix every problem" in page


def test_a_queued_job_says_it_waits_for_a_worker(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("job-detail", args=[job(demo).pk])).content.decode()
    assert "Waiting for a worker" in page
