"""POST /jobs/<pk>/resume/: an import stopped by interruptions (annotator.transfer.leases) queued
again."""

import pytest
from django.urls import reverse

from annotator.models import ImportJob
from tests.helpers import stored_job
from tests.transfer.test_leases import upload

pytestmark = pytest.mark.django_db


def stopped(demo, **fields):
    return stored_job(
        ImportJob,
        content=upload(),
        collection=demo["collection"],
        kind="ducview",
        file_name="fixtures.zip",
        status="failed",
        interrupted=True,
        attempts=3,
        report=["Stopped after 3 interrupted runs."],
        **fields,
    )


def test_resume_runs_the_job_again_from_where_it_stopped(
    client, demo, django_capture_on_commit_callbacks
):
    job = stopped(demo)
    client.force_login(demo["admin"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("job-resume", args=[job.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("job-detail", args=[job.pk])
    assert "Resumed: a worker goes on from where the job stopped." in response.content.decode()
    job.refresh_from_db()
    assert job.status == "done"
    assert job.report[0].startswith("2 files: 1 pyramid")
    assert not job.chunks.exists()


def test_a_job_not_stopped_by_interruptions_is_not_resumed(client, demo):
    job = stopped(demo)
    ImportJob.objects.filter(pk=job.pk).update(
        interrupted=False
    )  # refused: uploading again is the way
    client.force_login(demo["admin"])
    response = client.post(reverse("job-resume", args=[job.pk]), follow=True)
    assert "This job is failed: there is nothing to resume." in response.content.decode()
    assert ImportJob.objects.get(pk=job.pk).status == "failed"


@pytest.mark.parametrize(
    ("user", "code"), [("organizer", 403), ("annotator", 403), ("outsider", 404)]
)
def test_only_the_collections_administrators_resume(client, demo, user, code):
    job = stopped(demo)
    client.force_login(demo[user])
    assert client.post(reverse("job-resume", args=[job.pk])).status_code == code
    assert ImportJob.objects.get(pk=job.pk).status == "failed"


def test_resume_is_a_post(client, demo):
    client.force_login(demo["admin"])
    assert client.get(reverse("job-resume", args=[stopped(demo).pk])).status_code == 405
