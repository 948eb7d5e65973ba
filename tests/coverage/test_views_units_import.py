"""GET/POST /collections/<pk>/import-units/: REALSumm's or Lite Pyramid's files from the browser,
imported in an import job as `import_units` imports them; only the collection's administrators."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from annotator.models import ImportJob
from tests.coverage.unit_files import BATCH, LITE, SCUS_LIST, stored, write_realsumm
from tests.helpers import run

pytestmark = pytest.mark.django_db


def url(demo):
    return reverse("units-import", args=[demo["collection"].pk])


def realsumm_files():
    return [
        SimpleUploadedFile("SCUs_list.csv", SCUS_LIST.encode()),
        SimpleUploadedFile("sys1_Batch.csv", BATCH.encode()),
    ]


def lite_zip() -> SimpleUploadedFile:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for name, text in LITE.items():
            archive.writestr(f"lite/{name}", text)
    return SimpleUploadedFile("lite.zip", data.getvalue())


def post(client, demo, files, format_name, capture, **fields):
    with capture(execute=True):
        return client.post(url(demo), {"files": files, "format": format_name, **fields})


def test_the_collection_page_offers_it_to_administrators(client, demo):
    client.force_login(demo["admin"])
    page = client.get(reverse("collection-detail", args=[demo["collection"].pk])).content.decode()
    assert f'href="{url(demo)}">Import unit sets</a>' in page
    form = client.get(url(demo)).content.decode()
    assert 'name="format"' in form
    assert 'name="unit_set"' in form
    assert "multiple" in form


def test_realsumm_csv_files_give_the_records_and_report_of_the_command(
    client, demo, tmp_path, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    response = post(client, demo, realsumm_files(), "realsumm", django_capture_on_commit_callbacks)
    job = ImportJob.objects.get()
    assert response.url == reverse("job-detail", args=[job.pk])
    assert (job.kind, job.status, job.total, job.done) == ("units", "done", 2, 2)
    name = demo["collection"].name
    by_page = stored(name)
    out, _ = run(
        "import_units",
        *map(str, write_realsumm(tmp_path)),
        format="realsumm",
        collection="By command",
        no_progress=True,
    )
    assert stored("By command") == by_page
    assert job.report == [line.replace("By command", name) for line in out.splitlines()]
    page = client.get(response.url).content.decode()
    assert "<strong>Done</strong> · 2 of 2 files" in page
    assert "2 unit sets (5 units) new" in page
    assert "Warnings (7): what the files hold oddly" in page
    assert "no answer for unit 1 of D1" in page


def test_a_zip_of_a_lite_pyramid_folder_under_a_name(
    client, demo, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    post(
        client,
        demo,
        lite_zip(),
        "lite-pyramid",
        django_capture_on_commit_callbacks,
        unit_set="Lite",
    )
    job = ImportJob.objects.get()
    assert job.status == "done"
    assert job.options == {"format": "lite-pyramid", "unit_set": "Lite"}
    units = stored(demo["collection"].name)["unit_sets"]
    assert {(d, n) for d, n, *_ in units} == {("D1", "Lite"), ("D2", "Lite")}
    assert "Not read: lite/README.md." in job.report


def test_a_conflict_fails_the_job_and_stores_nothing(
    client, demo, django_capture_on_commit_callbacks
):
    client.force_login(demo["admin"])
    post(client, demo, realsumm_files(), "realsumm", django_capture_on_commit_callbacks)
    before = stored(demo["collection"].name)
    changed = SCUS_LIST.replace("Collins stayed in orbit.", "Collins orbited.")
    post(
        client,
        demo,
        [SimpleUploadedFile("SCUs_list.csv", changed.encode())],
        "realsumm",
        django_capture_on_commit_callbacks,
    )
    job = ImportJob.objects.latest("pk")
    assert job.status == "failed"
    assert job.report[0].startswith('D2: unit set "REALSumm" already holds other units')
    assert stored(demo["collection"].name) == before
    page = client.get(reverse("job-detail", args=[job.pk])).content.decode()
    assert "Refused: nothing was stored." in page


def test_unreadable_files_fail_the_job(client, demo, django_capture_on_commit_callbacks):
    client.force_login(demo["admin"])
    post(
        client,
        demo,
        [SimpleUploadedFile("notes.csv", b"a,b\n")],
        "realsumm",
        django_capture_on_commit_callbacks,
    )
    job = ImportJob.objects.get()
    assert job.status == "failed"
    assert "no units list" in job.report[0]


def test_other_files_are_refused_by_the_form(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        url(demo), {"files": SimpleUploadedFile("a.docx", b"x"), "format": "realsumm"}
    )
    assert "a.docx: expected .csv, .txt, .summary or .label files, or a .zip." in (
        response.content.decode()
    )
    assert not ImportJob.objects.exists()


@pytest.mark.parametrize("user", ["organizer", "annotator"])
def test_organizers_and_annotators_cannot_import(client, demo, user):
    client.force_login(demo[user])
    assert client.get(url(demo)).status_code == 403
    response = client.post(url(demo), {"files": realsumm_files(), "format": "realsumm"})
    assert response.status_code == 403
    assert not ImportJob.objects.exists()
    page = client.get(reverse("collection-detail", args=[demo["collection"].pk]))
    assert "Import unit sets" not in page.content.decode()


def test_outsiders_do_not_see_it(client, demo):
    client.force_login(demo["outsider"])
    assert client.get(url(demo)).status_code == 404
