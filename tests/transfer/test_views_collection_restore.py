"""GET/POST /collections/restore/: site administrators restore an archive as a new collection."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotator.models import ArchiveJob, Collection
from tests.archives import assert_same_records, written
from tests.helpers import NUL, record_counts, refuses_nul

pytestmark = pytest.mark.django_db
URL = "/collections/restore/"


def test_the_collections_list_links_the_restore_page_for_site_administrators(client, demo):
    client.force_login(demo["admin"])
    assert (
        f'href="{URL}">Restore an archive</a>'
        in client.get(reverse("collection-list")).content.decode()
    )
    client.force_login(demo["organizer"])
    assert "Restore an archive" not in client.get(reverse("collection-list")).content.decode()


def test_the_form_names_its_fields(client, demo):
    client.force_login(demo["admin"])
    page = client.get(URL).content.decode()
    assert 'name="file"' in page
    assert 'name="name"' in page
    assert 'enctype="multipart/form-data"' in page


def test_an_archive_is_restored_under_a_new_name_and_the_job_page_says_so(
    client, demo, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    upload = SimpleUploadedFile(
        "apollo.zip", written(demo["collection"]), content_type="application/zip"
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(URL, {"file": upload, "name": "Apollo, again"})
    job = ArchiveJob.objects.get()
    assert response.url == reverse("archive-job", args=[job.pk])
    restored = Collection.objects.get(name="Apollo, again")
    assert_same_records(demo["collection"], restored)
    page = client.get(response.url).content.decode()
    assert "<strong>Done</strong>" in page
    assert "Restored Apollo, again: 1 docset, 7 summaries" in page
    assert (
        f'href="{reverse("collection-detail", args=[restored.pk])}">Open Apollo, again</a>' in page
    )


def test_a_malformed_archive_is_refused_by_the_form_and_nothing_is_stored(client, demo):
    client.force_login(demo["admin"])
    before = record_counts()
    upload = SimpleUploadedFile("broken.zip", b"PK\x03\x04 not a zip at all")
    page = client.post(URL, {"file": upload, "name": "Broken"}).content.decode()
    assert "Not a collection archive: not a zip file" in page
    assert record_counts() == before
    assert not ArchiveJob.objects.exists()


def test_an_archive_whose_own_name_is_in_use_is_refused_before_it_is_queued(client, demo):
    client.force_login(demo["admin"])
    upload = SimpleUploadedFile("apollo.zip", written(demo["collection"]))
    page = client.post(URL, {"file": upload, "name": ""}).content.decode()
    assert (
        "A collection named &#x27;Demo: Apollo 11&#x27; exists already: restore this archive under "
        "another name." in page
    )
    assert not ArchiveJob.objects.exists()


def test_a_name_in_use_or_a_file_of_another_kind_is_refused_by_the_form(client, demo):
    client.force_login(demo["admin"])
    page = client.post(
        URL, {"file": SimpleUploadedFile("a.zip", b"x"), "name": demo["collection"].name}
    ).content.decode()
    assert "A collection named Demo: Apollo 11 exists already." in page
    page = client.post(URL, {"file": SimpleUploadedFile("a.pyr", b"x")}).content.decode()
    assert "a.pyr: expected a collection archive (.zip)." in page
    assert not ArchiveJob.objects.exists()


def test_organizers_and_collection_administrators_may_not_restore(client, demo):
    client.force_login(demo["organizer"])
    assert client.get(URL).status_code == 403
    assert (
        client.post(
            URL, {"file": SimpleUploadedFile("a.zip", written(demo["collection"])), "name": "X"}
        ).status_code
        == 403
    )
    assert not ArchiveJob.objects.exists()


def test_a_nul_character_in_the_name_is_refused_as_bad_input_and_nothing_is_queued(client, demo):
    """Issue 16: 400 naming the field, no job."""
    client.force_login(demo["admin"])
    upload = SimpleUploadedFile(
        "apollo.zip", written(demo["collection"]), content_type="application/zip"
    )
    response = client.post(URL, {"file": upload, "name": f"Apollo{NUL}"})
    assert refuses_nul(response, "name")
    assert not ArchiveJob.objects.exists()
