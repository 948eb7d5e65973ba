"""GET/POST /collections/<pk>/import/: DUCView files from the browser, run as an import job."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotator.models import ImportJob, Pyramid
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def url(demo):
    return reverse("ducview-import", args=[demo["collection"].pk])


def test_the_form_names_its_fields(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo)).content.decode()
    assert 'name="files"' in page
    assert "multiple" in page
    assert 'name="docset"' in page
    assert 'name="annotator"' in page


@pytest.mark.shared_data
def test_a_pyramid_is_imported_and_the_job_page_follows(
    client, demo, shared_data, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    data = (shared_data / "duc2006-nist/allpyramids/D0601.pyr").read_bytes()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(demo), {"files": SimpleUploadedFile("D0601.pyr", data)})
    job = ImportJob.objects.get()
    assert response.url == reverse("job-detail", args=[job.pk])
    assert (
        Pyramid.objects.get(
            docset__name="D0601", docset__collection=demo["collection"]
        ).scus.count()
        == 94
    )
    page = client.get(response.url).content.decode()
    assert "<strong>Done</strong> · 1 of 1 file" in page
    assert "1 pyramid (94 SCUs" in page


def test_other_files_are_refused_by_the_form(client, demo):
    client.force_login(demo["admin"])
    response = client.post(url(demo), {"files": SimpleUploadedFile("notes.docx", b"x")})
    assert (
        "notes.docx: expected .pyr or .pan files, or a .zip of them." in response.content.decode()
    )
    assert not ImportJob.objects.exists()


@pytest.mark.shared_data
def test_several_files_chosen_at_once_are_imported_as_one_job(
    client, demo, shared_data, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    folder = shared_data / "duc2007-main-nist"
    pans = sorted((folder / "allpans").glob("*.pan"))[:3]
    files = [
        SimpleUploadedFile(p.name, p.read_bytes())
        for p in [*pans, folder / "allpyramids/D0703-ACDJ.pyr"]
    ]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url(demo), {"files": files})
    job = ImportJob.objects.get()
    assert job.file_name == "4 files"
    assert job.status == "done"
    assert job.total == 4
    pyramid = Pyramid.objects.get(docset__collection=demo["collection"], docset__name="D0703")
    assert pyramid.name == "D0703-ACDJ"
    assert pyramid.peer_annotations.count() == 3


def test_a_zip_and_other_files_together_are_refused(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        url(demo),
        {"files": [SimpleUploadedFile("a.zip", b"PK"), SimpleUploadedFile("D0601.pyr", b"x")]},
    )
    assert "Upload one zip, or several .pyr and .pan files, not both." in response.content.decode()
    assert not ImportJob.objects.exists()


@pytest.mark.parametrize("field", ["docset", "peer", "annotator"])
def test_a_nul_character_in_a_field_is_refused_as_bad_input_and_nothing_is_queued(
    client, demo, field
):
    """A multipart form's text fields too (issue 16): 400 naming the field, no job."""
    client.force_login(demo["admin"])
    response = client.post(
        url(demo), {"files": SimpleUploadedFile("D0601.pyr", b"<pyramid/>"), field: f"D06{NUL}"}
    )
    assert refuses_nul(response, field)
    assert not ImportJob.objects.exists()


def test_a_file_over_the_per_file_limit_is_refused_before_anything_is_stored(
    client, demo, monkeypatch
):
    """Issue 16: a 99 MiB .pyr was kept in the job, read by a worker and only then refused."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from annotator.models import ImportJob
    from annotator.transfer import uploads

    monkeypatch.setattr(uploads, "DUCVIEW_MAX_BYTES", 1000)
    client.force_login(demo["admin"])
    big = SimpleUploadedFile("D0601.pyr", b"<pyramid>" + b" " * 2000)
    page = client.post(
        f"/collections/{demo['collection'].pk}/import/", {"files": [big]}
    ).content.decode()
    assert "D0601.pyr: 2,009 bytes, more than the 1,000 allowed per file" in page
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(
            "allpyramids/D0601.pyr", b" " * 5000
        )  # compresses to a few bytes: its directory tells
        archive.writestr("../evil.pan", b"x")
    upload = SimpleUploadedFile("duc.zip", zipped.getvalue())
    page = client.post(
        f"/collections/{demo['collection'].pk}/import/", {"files": [upload]}
    ).content.decode()
    assert (
        "duc.zip: allpyramids/D0601.pyr: 5,000 bytes, more than the 1,000 allowed per file" in page
    )
    assert "duc.zip: ../evil.pan: refused, its path climbs out of the archive (..)" in page
    assert not ImportJob.objects.exists()
