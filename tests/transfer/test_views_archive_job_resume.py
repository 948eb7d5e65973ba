"""POST /archives/<pk>/resume/: an archive job stopped by interruptions queued again."""

import pytest
from django.urls import reverse

from annotator.models import ArchiveJob
from tests.helpers import job_content

pytestmark = pytest.mark.django_db


def stopped_export(demo):
    return ArchiveJob.objects.create(
        kind="export",
        collection=demo["collection"],
        file_name="demo-archive.zip",
        status="failed",
        interrupted=True,
        attempts=3,
        report=["Stopped after 3 interrupted runs."],
    )


def test_resume_writes_the_archive_after_all(client, demo, django_capture_on_commit_callbacks):
    job = stopped_export(demo)
    client.force_login(demo["organizer"])  # who may export may resume the export
    page = client.get(reverse("archive-job", args=[job.pk])).content.decode()
    assert f'action="{reverse("archive-job-resume", args=[job.pk])}"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("archive-job-resume", args=[job.pk]))
    assert response.status_code == 302
    job.refresh_from_db()
    assert job.status == "done"
    assert job_content(job).startswith(b"PK")
    assert not job.interrupted


@pytest.mark.parametrize(("user", "code"), [("annotator", 403), ("outsider", 404)])
def test_those_who_may_not_see_the_job_do_not_resume_it(client, demo, user, code):
    job = stopped_export(demo)
    client.force_login(demo[user])
    assert client.post(reverse("archive-job-resume", args=[job.pk])).status_code == code
    assert ArchiveJob.objects.get(pk=job.pk).status == "failed"
