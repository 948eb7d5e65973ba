"""GET/POST /collections/<pk>/upload/: summaries from .txt files or a zip, checked before
storing."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotator.models import Docset, ImportJob, Summary

pytestmark = pytest.mark.django_db


def zipped(entries):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.fixture
def upload(client, demo, django_capture_on_commit_callbacks):
    client.force_login(demo["admin"])

    def send(*files):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                reverse("summaries-upload", args=[demo["collection"].pk]),
                {"files": [SimpleUploadedFile(name, data) for name, data in files]},
            )
        return response, ImportJob.objects.order_by("-id").first()

    return send


def test_the_page_explains_the_naming(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("summaries-upload", args=[demo["collection"].pk])).content.decode()
    assert "<code>D0601.model.A.txt</code>" in page
    assert "<code>D0736-A.M.100.H.35</code>" in page


def test_a_zip_stores_its_summaries_and_creates_their_docsets(upload, demo):
    response, job = upload(
        (
            "batch.zip",
            zipped(
                {
                    "D0601.M.250.A.A": b"Model A of D0601.",
                    "D0601.M.250.A.10": b"Peer 10 of D0601.",
                    "DEMO02/model/B.txt": "Modèle B.".encode(),
                }
            ),
        )
    )
    assert response.status_code == 302
    assert response.url == reverse("job-detail", args=[job.pk])
    assert job.status == "done"
    assert job.report[0] == "Stored 2 model summaries and 1 peer summary in 2 docsets."
    assert set(
        Docset.objects.filter(collection=demo["collection"]).values_list("name", flat=True)
    ) == {"DEMO01", "D0601", "DEMO02"}
    assert Summary.objects.get(docset__name="DEMO02", kind="model", author="B").text == "Modèle B."
    assert not job.chunks.exists()  # the bytes are not kept once stored


def test_a_windows_text_is_stored_with_line_feeds_and_a_system_id_as_a_number(upload):
    _, job = upload(
        ("D0601.M.250.B.06", b"First line.\r\nSecond line.\r\n"),
    )
    assert job.status == "done"
    assert (
        Summary.objects.get(docset__name="D0601", kind="peer", author="6").text
        == "First line.\nSecond line."
    )


def test_several_txt_files_at_once(upload):
    _, job = upload(("DEMO01.peer.7.txt", b"Peer seven."), ("DEMO01.peer.8.txt", b"Peer eight."))
    assert job.status == "done"
    assert Summary.objects.filter(docset__name="DEMO01", author__in=["7", "8"]).count() == 2


def test_bad_input_is_refused_with_every_problem_and_nothing_is_stored(upload, demo):
    before = Summary.objects.count()
    # A zip whose directory breaks a rule is refused by the form: nothing is stored, not even a job.
    response, job = upload(
        (
            "bad.zip",
            zipped(
                {
                    "../escape.txt": b"x",
                    "D0601.model.A.txt": "Été".encode("latin-1"),
                    "notes.txt": b"what is this",
                    "D0602.model.A.txt": b"fine on its own",
                }
            ),
        )
    )
    assert job is None
    assert "bad.zip: ../escape.txt: refused, its path climbs out" in response.content.decode()
    # The zip's own problems come first; the rest are listed once it is safe to open.
    _, job = upload(
        (
            "bad.zip",
            zipped(
                {
                    "D0601.model.A.txt": "Été".encode("latin-1"),
                    "notes.txt": b"x",
                    "D0602.model.A.txt": b"fine",
                    "DEMO01.model.A.txt": b"A different text for a model that exists",
                }
            ),
        )
    )
    assert job.status == "failed"
    assert len(job.report) == 3
    assert "D0601.model.A.txt: not UTF-8 text (byte 0xC9 at offset 0)" in job.report[0]
    assert job.report[1].startswith("notes.txt: the name says neither docset, kind nor author")
    assert "DEMO01 model A is already stored with a different text" in job.report[2]
    assert Summary.objects.count() == before
    assert not Docset.objects.filter(name__in=["D0601", "D0602"]).exists()


def test_a_txt_file_holding_a_nul_character_is_refused_naming_the_file_and_the_line(upload, demo):
    """The job failed with "an unexpected error" (issue 16): it lists the problem, stores
    nothing."""
    before = Summary.objects.count()
    _, job = upload(
        ("D0601.model.A.txt", b"Model A\x00 of D0601."), ("D0601.peer.10.txt", b"A fine peer.")
    )
    assert job.status == "failed"
    assert job.report == [
        "D0601.model.A.txt: holds a NUL character (line 1, column 8), which no text may hold; "
        "remove it and upload it again"
    ]
    assert Summary.objects.count() == before
    assert not Docset.objects.filter(name="D0601").exists()


def test_an_oversized_upload_is_refused_before_it_is_stored(client, demo, settings):
    settings.MAX_UPLOAD_BYTES = 1000
    client.force_login(demo["admin"])
    response = client.post(
        reverse("summaries-upload", args=[demo["collection"].pk]),
        {"files": [SimpleUploadedFile("big.zip", b"x" * 1001)]},
    )
    assert response.status_code == 200
    assert "An upload may hold at most" in response.content.decode()
    assert not ImportJob.objects.exists()


def test_unchanged_summaries_are_reported_not_duplicated(upload, demo):
    text = Summary.objects.get(docset__name="DEMO01", kind="model", author="A").text
    _, job = upload(("DEMO01.model.A.txt", text.encode()))
    assert job.status == "done"
    assert job.report == [
        "Nothing new: every summary was already stored.",
        "DEMO01.model.A.txt: already stored, unchanged",
    ]


def test_the_job_is_titled_by_what_was_uploaded(upload, client, demo):
    """Issue 17: an upload of .txt files was titled "Import of 5 files.zip" (their bytes are packed
    into one zip for the worker, but nobody uploaded a zip). Several files: "N files"; one file or
    a zip: its name. The same on the job page (title and heading) and in the collection's
    imports."""
    import re

    def titles(job):
        page = client.get(reverse("job-detail", args=[job.pk])).content.decode()
        return re.search(r"<title>(.*?) · ", page).group(1), re.search(
            r"<h1>(.*?)</h1>", page
        ).group(1)

    _, several = upload(*[(f"DEMO01.peer.{n}.txt", f"Peer {n}.".encode()) for n in range(20, 25)])
    assert several.file_name == "5 files"
    assert titles(several) == (
        "Import of 5 files",
        "Import of 5 files",
    )
    _, archive = upload(("batch.zip", zipped({"DEMO01.peer.30.txt": b"Peer 30."})))
    assert archive.file_name == "batch.zip"
    assert titles(archive) == (
        "Import of batch.zip",
        "Import of batch.zip",
    )
    _, one = upload(("DEMO01.peer.31.txt", b"Peer 31."))
    assert titles(one) == ("Import of DEMO01.peer.31.txt", "Import of DEMO01.peer.31.txt")
    recent = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    assert f'<a href="{reverse("job-detail", args=[several.pk])}">5 files</a>' in recent
    assert all(job.status == "done" for job in (several, archive, one))
