"""POST /collections/<pk>/archive/: the collection's readers export an archive, as a job whose
page offers the file."""

import io
import zipfile

import pytest
from django.urls import reverse

from annotator.models import ArchiveJob

pytestmark = pytest.mark.django_db


def test_the_collection_page_offers_the_export_to_its_readers(client, demo):
    client.force_login(demo["organizer"])
    page = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    assert f'action="{reverse("collection-archive", args=[demo["collection"].pk])}"' in page
    assert ">Export an archive</button>" in page


def test_an_organizer_exports_and_downloads_the_archive(
    client, demo, django_capture_on_commit_callbacks
):
    client.force_login(demo["organizer"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("collection-archive", args=[demo["collection"].pk]))
    job = ArchiveJob.objects.get()
    assert response.url == reverse("archive-job", args=[job.pk])
    assert job.created_by == demo["organizer"]
    page = client.get(response.url).content.decode()
    assert "<strong>Done</strong>" in page
    assert "Download demo-apollo-11-archive.zip" in page
    download = client.get(reverse("archive-download", args=[job.pk]))
    assert download["Content-Type"] == "application/zip"
    assert download["Content-Disposition"] == 'attachment; filename="demo-apollo-11-archive.zip"'
    assert "scus.jsonl" in zipfile.ZipFile(io.BytesIO(download.getvalue())).namelist()
    listed = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    assert (
        f'href="{reverse("archive-job", args=[job.pk])}">demo-apollo-11-archive.zip</a> · Done'
        in listed
    )


def test_an_annotator_may_not_and_an_outsider_does_not_see_it(client, demo):
    for user, status in [("annotator", 403), ("outsider", 404)]:
        client.force_login(demo[user])
        assert (
            client.post(reverse("collection-archive", args=[demo["collection"].pk])).status_code
            == status
        )
    assert not ArchiveJob.objects.exists()


def test_a_get_is_not_an_export(client, demo):
    client.force_login(demo["admin"])
    assert (
        client.get(reverse("collection-archive", args=[demo["collection"].pk])).status_code == 405
    )
