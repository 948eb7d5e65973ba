"""/api/import-jobs/: DUCView files, summaries and unit sets imported through the API as the pages
and the commands import them."""

import io
import zipfile

import pytest

from annotator.coverage.models import UnitSet
from annotator.models import ImportJob, PeerAnnotation, Pyramid, Summary
from tests.conftest import PAN_FIXTURE, PYRAMID_FIXTURE
from tests.coverage.unit_files import (
    BATCH,
    BATCH_ANSWERS,
    LITE,
    SCUS_LIST,
    answers,
    stored,
    write_realsumm,
)
from tests.helpers import run, stored_job

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


# Unit sets (issue 21): the same records by the command, the page and the API.


def realsumm_zip() -> tuple[str, bytes]:
    """A zip of a small REALSumm folder (tests/coverage/unit_files), as a user would upload it."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("realsumm/SCUs_list.csv", SCUS_LIST)
        archive.writestr("realsumm/sys1_Batch.csv", BATCH)
    return "realsumm.zip", data.getvalue()


def test_a_realsumm_zip_gives_the_records_and_report_of_the_command(
    client, demo, tmp_path, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, demo["collection"], "units", realsumm_zip(), format="realsumm")
    assert response.status_code == 202
    assert (response.json()["kind"], response.json()["status"]) == ("units", "queued")
    job = client.get(f"/api/import-jobs/{response.json()['id']}/").json()
    assert (job["status"], job["total"], job["done"]) == ("done", 2, 2)
    assert job["options"] == {"format": "realsumm", "unit_set": ""}
    by_api = stored(demo["collection"].name)
    assert answers(demo["collection"].name) == BATCH_ANSWERS
    out, _ = run(
        "import_units",
        str(write_realsumm(tmp_path / "realsumm")[0].parent),
        format="realsumm",
        collection="By command",
        no_progress=True,
    )
    assert stored("By command") == by_api
    lines = [line.replace("By command", demo["collection"].name) for line in out.splitlines()]
    assert job["stored"] + [f"warning: {w}" for w in job["warnings"]] == lines
    assert "2 unit sets (5 units) new" in " ".join(job["stored"])
    assert any("no answer for unit 1 of D1" in w for w in job["warnings"])


def test_units_are_checked_as_the_upload_page_checks_them(client, demo):
    client.force_login(demo["admin"])
    name, data = realsumm_zip()
    refused = post(client, demo["collection"], "units", (name, data))
    assert refused.status_code == 400
    assert refused.json() == {"format": ["This field is required."]}
    wrong = post(client, demo["collection"], "units", ("scus.docx", b"x"), format="realsumm")
    assert wrong.status_code == 400
    assert wrong.json() == {
        "files": ["scus.docx: expected .csv, .txt, .summary or .label files, or a .zip."]
    }
    unknown = post(client, demo["collection"], "units", (name, data), format="rouge")
    assert unknown.status_code == 400
    assert list(unknown.json()) == ["format"]
    assert not ImportJob.objects.exists()


def test_a_lite_pyramid_upload_under_a_name(client, demo, django_capture_on_commit_callbacks):
    client.force_login(demo["admin"])
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for name, text in LITE.items():
            archive.writestr(f"lite/{name}", text)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(
            client,
            demo["collection"],
            "units",
            ("lite.zip", data.getvalue()),
            format="lite-pyramid",
            unit_set="Lite",
        )
    assert client.get(f"/api/import-jobs/{response.json()['id']}/").json()["status"] == "done"
    assert set(
        UnitSet.objects.filter(docset__collection=demo["collection"]).values_list("name", flat=True)
    ) == {"Lite"}


@pytest.mark.parametrize(
    ("user", "code"), [("organizer", 403), ("annotator", 403), ("outsider", 400)]
)
def test_only_the_collections_administrators_import_units(client, demo, user, code):
    client.force_login(demo[user])
    response = post(client, demo["collection"], "units", realsumm_zip(), format="realsumm")
    assert response.status_code == code
    assert not ImportJob.objects.exists()
    assert not UnitSet.objects.exists()


def test_the_schema_documents_units(client, demo):
    client.force_login(demo["admin"])
    schema = client.get("/api/schema/?format=json").json()
    upload = schema["components"]["schemas"]["ImportUploadRequest"]["properties"]
    assert upload["kind"] == {"$ref": "#/components/schemas/ImportJobKindEnum"}
    assert "units" in schema["components"]["schemas"]["ImportJobKindEnum"]["enum"]
    assert set(upload) >= {"format", "unit_set"}
    assert upload["format"]["allOf"] == [{"$ref": "#/components/schemas/UnitFormatEnum"}]
    assert schema["components"]["schemas"]["UnitFormatEnum"]["enum"] == ["realsumm", "lite-pyramid"]
    assert "import_units" in upload["format"]["description"]
    operation = schema["paths"]["/api/import-jobs/"]["post"]
    assert "import_units" in operation["description"]
