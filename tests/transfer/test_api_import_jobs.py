"""/api/import-jobs/: DUCView files and summaries imported through the API as the pages import
them."""

import pytest

from annotator.models import ImportJob, PeerAnnotation, Pyramid, Summary
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.helpers import stored_job

pytestmark = pytest.mark.django_db


def post(client, collection, kind, *files, **fields):
    from django.core.files.uploadedfile import SimpleUploadedFile

    uploads = [SimpleUploadedFile(name, data) for name, data in files]
    return client.post(
        "/api/import-jobs/", {"collection": collection.pk, "kind": kind, "files": uploads, **fields}
    )


def test_ducview_files_are_imported_and_the_job_reports_each_file(
    client, demo, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    with django_capture_on_commit_callbacks(execute=True):
        response = post(
            client,
            demo["collection"],
            "ducview",
            ("D9901.pyr", PYRAMID_FIXTURE.read_bytes()),
            (PAN_FIXTURE.name, PAN_FIXTURE.read_bytes()),
            ("D9902.pyr", b"<pyramid>"),
        )
    assert response.status_code == 202
    assert response.json()["status"] == "queued"
    job = client.get(f"/api/import-jobs/{response.json()['id']}/").json()
    assert job["status"] == "done"
    assert (job["total"], job["done"]) == (3, 3)
    assert job["stored"][0].startswith(
        "3 files: 1 pyramid (5 SCUs, 8 contributors), 1 peer annotation (4 PSEs)"
    )
    assert job["refused"] == ["D9902.pyr: line 1, column 9: malformed XML: no element found"]
    pyramid = Pyramid.objects.get(docset__collection=demo["collection"], docset__name="D9901")
    assert PeerAnnotation.objects.get(pyramid=pyramid).annotator_code == "100"


def test_summaries_are_checked_as_the_upload_page_checks_them(
    client, demo, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    refused = post(client, demo["collection"], "ducview", ("notes.docx", b"x"))
    assert refused.status_code == 400
    assert refused.json() == {
        "files": ["notes.docx: expected .pyr or .pan files, or a .zip of them."]
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = post(
            client, demo["collection"], "summaries", ("D0601.M.250.B.06", b"Peer six.\r\n")
        )
    assert client.get(f"/api/import-jobs/{response.json()['id']}/").json()["status"] == "done"
    assert Summary.objects.get(docset__name="D0601", author="6").text == "Peer six."


@pytest.mark.parametrize(
    ("user", "code"), [("organizer", 403), ("annotator", 403), ("outsider", 400)]
)
def test_only_the_collections_administrators_import(client, demo, user, code):
    client.force_login(demo[user])
    response = post(
        client, demo["collection"], "ducview", ("D9901.pyr", PYRAMID_FIXTURE.read_bytes())
    )
    assert response.status_code == code
    assert not ImportJob.objects.exists()


def test_jobs_are_seen_by_their_collections_administrators_only(client, demo):
    job = stored_job(
        ImportJob, content=b"x", collection=demo["collection"], kind="ducview", file_name="x.zip"
    )
    client.force_login(demo["organizer"])
    assert client.get(f"/api/import-jobs/{job.pk}/").status_code == 404
    assert client.get("/api/import-jobs/").json()["count"] == 0
    client.force_login(demo["admin"])
    assert client.get("/api/import-jobs/").json()["results"][0]["id"] == job.pk
    client.logout()
    assert client.get("/api/import-jobs/").status_code in (401, 403)


def test_an_import_stopped_by_interruptions_is_resumed_through_the_api(
    client, demo, django_capture_on_commit_callbacks
):
    from tests.transfer.test_leases import upload

    job = stored_job(
        ImportJob,
        content=upload(),
        collection=demo["collection"],
        kind="ducview",
        file_name="fixtures.zip",
        status="failed",
        interrupted=True,
        attempts=3,
    )
    client.force_login(demo["admin"])
    assert client.get(f"/api/import-jobs/{job.pk}/").json()["interrupted"] is True
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/import-jobs/{job.pk}/resume/")
    assert response.status_code == 202
    assert response.json()["status"] == "queued"
    done = client.get(f"/api/import-jobs/{job.pk}/").json()
    assert done["status"] == "done"
    assert done["interruptions"] == []
    assert done["stored"][0].startswith("2 files")
    again = client.post(f"/api/import-jobs/{job.pk}/resume/")
    assert again.status_code == 409
    assert "nothing to resume" in again.json()["detail"]
    client.force_login(demo["organizer"])
    assert client.post(f"/api/import-jobs/{job.pk}/resume/").status_code == 404
