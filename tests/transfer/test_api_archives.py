"""/api/collections/<id>/archive/ and /api/archive-jobs/: the pages' export and restore, as jobs."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotator.models import ArchiveJob, Collection
from tests.archives import assert_same_records, written
from tests.helpers import record_counts, stored_job

pytestmark = pytest.mark.django_db


def test_an_organizer_exports_follows_the_job_and_downloads_the_archive(
    client, demo, django_capture_on_commit_callbacks
):
    client.force_login(demo["organizer"])
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(f"/api/collections/{demo['collection'].pk}/archive/")
    assert started.status_code == 202
    assert started.json()["status"] == "queued"
    assert started.json()["kind"] == "export"
    job = client.get(f"/api/archive-jobs/{started.json()['id']}/").json()
    assert job["status"] == "done"
    assert job["done"] == job["total"] > 50
    assert job["created_by"] == "organizer"
    assert job["download"] == f"http://testserver/api/archive-jobs/{job['id']}/download/"
    download = client.get(job["download"], HTTP_ACCEPT="application/zip")
    assert download.status_code == 200
    assert download["Content-Type"] == "application/zip"
    assert "archive.json" in zipfile.ZipFile(io.BytesIO(download.getvalue())).namelist()
    assert [j["id"] for j in client.get("/api/archive-jobs/?kind=export").json()["results"]] == [
        job["id"]
    ]


def test_a_site_administrator_restores_an_archive(client, demo, django_capture_on_commit_callbacks):
    client.force_login(demo["admin"])
    upload = SimpleUploadedFile(
        "demo.zip", written(demo["collection"]), content_type="application/zip"
    )
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post("/api/archive-jobs/", {"file": upload, "name": "Via the API"})
    assert started.status_code == 202
    assert started.json()["kind"] == "restore"
    assert started.json()["download"] is None
    job = client.get(f"/api/archive-jobs/{started.json()['id']}/").json()
    restored = Collection.objects.get(name="Via the API")
    assert job["status"] == "done"
    assert job["collection"] == restored.pk
    assert job["report"][0].startswith("Restored Via the API")
    assert_same_records(demo["collection"], restored)


def test_a_malformed_archive_is_refused_at_once_and_nothing_is_stored(client, demo):
    client.force_login(demo["admin"])
    before = record_counts()
    response = client.post(
        "/api/archive-jobs/", {"file": SimpleUploadedFile("x.zip", b"not a zip"), "name": "X"}
    )
    assert response.status_code == 400
    assert response.json()["file"][0].startswith("Not a collection archive: not a zip file")
    assert record_counts() == before
    assert not ArchiveJob.objects.exists()


def test_a_name_in_use_is_refused_at_once(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        "/api/archive-jobs/",
        {"file": SimpleUploadedFile("x.zip", b"x"), "name": demo["collection"].name},
    )
    assert response.status_code == 400
    assert "exists already" in response.json()["name"][0]
    assert not ArchiveJob.objects.exists()


def test_who_may_do_what(client, demo):
    collection = demo["collection"]
    done = stored_job(
        ArchiveJob,
        content=b"PK",
        kind="export",
        collection=collection,
        file_name="a.zip",
        status="done",
    )
    restore = ArchiveJob.objects.create(kind="restore", file_name="b.zip", status="done")
    #                 export  job  download  restore job  restore
    expected = {
        "annotator": (403, 403, 403, 404, 403),
        "outsider": (404, 404, 404, 404, 403),
        "organizer": (202, 200, 200, 404, 403),
        "admin": (202, 200, 200, 200, 400),
    }
    for user, statuses in expected.items():
        client.force_login(demo[user])
        got = (
            client.post(f"/api/collections/{collection.pk}/archive/").status_code,
            client.get(f"/api/archive-jobs/{done.pk}/").status_code,
            client.get(f"/api/archive-jobs/{done.pk}/download/").status_code,
            client.get(f"/api/archive-jobs/{restore.pk}/").status_code,
            client.post("/api/archive-jobs/", {}).status_code,
        )
        assert got == statuses, user
    client.logout()
    assert client.post(f"/api/collections/{collection.pk}/archive/").status_code == 401
    assert client.get("/api/archive-jobs/").status_code == 401


def test_the_schema_documents_both(client, demo):
    client.force_login(demo["admin"])
    schema = client.get("/api/schema/?format=json").json()
    assert "post" in schema["paths"]["/api/collections/{id}/archive/"]
    assert (
        "multipart/form-data"
        in schema["paths"]["/api/archive-jobs/"]["post"]["requestBody"]["content"]
    )
    assert (
        "application/zip"
        in schema["paths"]["/api/archive-jobs/{id}/download/"]["get"]["responses"]["200"]["content"]
    )


def test_an_archive_job_stopped_by_interruptions_is_resumed_through_the_api(
    client, demo, django_capture_on_commit_callbacks
):
    job = ArchiveJob.objects.create(
        kind="export",
        collection=demo["collection"],
        file_name="a.zip",
        status="failed",
        interrupted=True,
        attempts=3,
    )
    client.force_login(demo["organizer"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/archive-jobs/{job.pk}/resume/")
    assert response.status_code == 202
    assert response.json()["interrupted"] is False
    job.refresh_from_db()
    assert job.status == "done"
    assert client.post(f"/api/archive-jobs/{job.pk}/resume/").status_code == 409
