"""GET/POST /collections/<pk>/import/: DUCView files from the browser, run as an import job."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotator.models import ImportJob, Pyramid

pytestmark = pytest.mark.django_db


def url(demo):
    return reverse("ducview-import", args=[demo["collection"].pk])


def test_the_form_names_its_fields(client, demo):
    client.force_login(demo["admin"])
    page = client.get(url(demo)).content.decode()
    assert 'name="files"' in page and 'multiple' in page and 'name="docset"' in page and 'name="annotator"' in page


@pytest.mark.shared_data
def test_a_pyramid_is_imported_and_the_job_page_follows(client, demo, shared_data, django_capture_on_commit_callbacks):
    client.force_login(demo["admin"])
    data = (shared_data / "duc2006-nist/allpyramids/D0601.pyr").read_bytes()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(demo), {"files": SimpleUploadedFile("D0601.pyr", data)})
    job = ImportJob.objects.get()
    assert response.url == reverse("job-detail", args=[job.pk])
    assert Pyramid.objects.get(docset__name="D0601", docset__collection=demo["collection"]).scus.count() == 94
    page = client.get(response.url).content.decode()
    assert "<strong>Done</strong> · 1 of 1 file" in page and "1 pyramid (94 SCUs" in page


def test_other_files_are_refused_by_the_form(client, demo):
    client.force_login(demo["admin"])
    response = client.post(url(demo), {"files": SimpleUploadedFile("notes.docx", b"x")})
    assert "notes.docx: expected .pyr or .pan files, or a .zip of them." in response.content.decode()
    assert not ImportJob.objects.exists()


@pytest.mark.shared_data
def test_several_files_chosen_at_once_are_imported_as_one_job(client, demo, shared_data, django_capture_on_commit_callbacks):
    client.force_login(demo["admin"])
    folder = shared_data / "duc2007-main-nist"
    pans = sorted((folder / "allpans").glob("*.pan"))[:3]
    files = [SimpleUploadedFile(p.name, p.read_bytes()) for p in [*pans, folder / "allpyramids/D0703-ACDJ.pyr"]]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url(demo), {"files": files})
    job = ImportJob.objects.get()
    assert job.file_name == "4 files" and job.status == "done" and job.total == 4
    pyramid = Pyramid.objects.get(docset__collection=demo["collection"], docset__name="D0703")
    assert pyramid.name == "D0703-ACDJ" and pyramid.peer_annotations.count() == 3


def test_a_zip_and_other_files_together_are_refused(client, demo):
    client.force_login(demo["admin"])
    response = client.post(url(demo), {"files": [SimpleUploadedFile("a.zip", b"PK"), SimpleUploadedFile("D0601.pyr", b"x")]})
    assert "Upload one zip, or several .pyr and .pan files, not both." in response.content.decode()
    assert not ImportJob.objects.exists()
