"""annotator.transfer.jobs: imports run as background tasks, through PostgreSQL as the queue, with
progress."""

import io
import zipfile

import pytest
from django.core.management import call_command
from django.test import override_settings

from annotator.models import Docset, ImportJob, PeerAnnotation, Pyramid
from annotator.transfer import jobs
from tests.helpers import stored_job

pytestmark = pytest.mark.django_db
DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def zipped(entries):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def make_job(demo, kind, name, content, **options):
    return stored_job(
        ImportJob,
        content=content,
        collection=demo["collection"],
        kind=kind,
        file_name=name,
        options=options,
        created_by=demo["admin"],
    )


@pytest.mark.django_db(transaction=True)  # the worker closes its connections as it goes
@override_settings(TASKS=DATABASE_QUEUE)
def test_a_job_waits_in_the_database_queue_until_a_worker_runs_it(demo):
    job = jobs.start(make_job(demo, "summaries", "DEMO01.peer.9.txt", b"Peer nine."))
    job.refresh_from_db()
    assert job.status == "queued"  # enqueued, not run: the web request does not do the work
    call_command("db_worker", batch=True, no_startup_delay=True, verbosity=0)
    job.refresh_from_db()
    assert job.status == "done"
    assert job.done == job.total == 1
    assert demo["collection"].docsets.get(name="DEMO01").summaries.filter(author="9").exists()


def test_a_job_runs_once_even_if_delivered_twice(demo):
    job = make_job(demo, "summaries", "DEMO01.peer.9.txt", b"Peer nine.")
    jobs.run_import_job.call(job.pk)
    jobs.run_import_job.call(job.pk)  # a second delivery finds it done and leaves it
    job.refresh_from_db()
    assert job.status == "done"
    assert job.report[0].startswith("Stored 0 model summaries and 1 peer summary")


@pytest.mark.shared_data
def test_ducview_files_are_imported_pyramids_first_with_progress(demo, shared_data):
    folder = shared_data / "duc2006-nist"
    content = zipped(
        {
            "allpans/100.D0601.M.250.A.10.pan": (
                folder / "allpans/100.D0601.M.250.A.10.pan"
            ).read_bytes(),
            "allpyramids/D0601.pyr": (folder / "allpyramids/D0601.pyr").read_bytes(),
        }
    )
    job = make_job(demo, "ducview", "duc.zip", content)
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == "done"
    assert job.done == job.total == 2
    assert job.report[0].startswith("2 files: 1 pyramid (94 SCUs")
    pyramid = Pyramid.objects.get(docset__collection=demo["collection"], docset__name="D0601")
    assert PeerAnnotation.objects.get(pyramid=pyramid).annotator_code == "100"


@pytest.mark.shared_data
def test_a_bad_file_in_a_ducview_upload_is_listed_and_the_good_ones_are_stored(demo, shared_data):
    good = (shared_data / "duc2006-nist/allpyramids/D0601.pyr").read_bytes()
    content = zipped(
        {
            "D0601.pyr": good,
            "D0602.pyr": b"<pyramid><text>broken",
            "readme.txt": b"hello",
            "scoring/2006_modified_scores.txt": b"D0601 1 0.2",
        }
    )
    job = make_job(demo, "ducview", "duc.zip", content)
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == "done"
    assert job.done == job.total == 2
    assert job.report[0].startswith("2 files: 1 pyramid (94 SCUs")
    assert job.report[0].endswith("1 refused")
    # NIST's packages hold READMEs and score tables: left aside, as the command leaves them in a
    # folder.
    assert (
        job.report[1]
        == "Not DUCView files, left aside: readme.txt, scoring/2006_modified_scores.txt."
    )
    assert job.report_sections["refused"] == [
        "D0602.pyr: line 1, column 21: malformed XML: no element found"
    ]
    assert Pyramid.objects.filter(docset__name="D0601").count() == 1
    assert not Pyramid.objects.filter(docset__name="D0602").exists()
    # Uploaded again after the fix: the stored file is unchanged, only the missing one is imported.
    fixed = good.replace(b"<pyramid>", b"<pyramid>", 1)
    job = make_job(demo, "ducview", "fixed.zip", zipped({"D0601.pyr": good, "D0602.pyr": fixed}))
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.report[0].startswith("2 files: 1 pyramid (94 SCUs")
    assert "1 unchanged" in job.report[0]
    assert Pyramid.objects.filter(docset__name__in=["D0601", "D0602"]).count() == 2


def test_a_zip_holding_no_ducview_file_is_refused(demo):
    job = make_job(demo, "ducview", "notes.zip", zipped({"readme.txt": b"hello"}))
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.report == ["notes.zip: holds no DUCView file (.pyr or .pan)"]


def test_a_ducview_upload_whose_every_file_is_refused_fails_and_stores_nothing(demo):
    job = make_job(demo, "ducview", "duc.zip", zipped({"D0602.pyr": b"<pyramid><text>broken"}))
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.report == ["D0602.pyr: line 1, column 21: malformed XML: no element found"]
    assert not Docset.objects.filter(name="D0602").exists()


@pytest.mark.shared_data
def test_the_docset_given_names_a_file_whose_name_does_not(demo, shared_data):
    data = (shared_data / "duc2006-nist/allpyramids/D0601.pyr").read_bytes()
    job = make_job(demo, "ducview", "mine.pyr", data)
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == "failed"
    assert job.report == [
        "mine.pyr: cannot tell the docset from the file name; give it (--docset, or the Docset "
        "field of the import page)"
    ]
    job = make_job(demo, "ducview", "mine.pyr", data, docset="D0601")
    jobs.run_import_job.call(job.pk)
    job.refresh_from_db()
    assert job.status == "done"
    assert Pyramid.objects.filter(docset__name="D0601").count() == 1


@pytest.mark.django_db(transaction=True)  # the refresh is queued once the import is committed
def test_a_finished_import_job_queues_the_refresh_of_the_stored_scores(demo, shared_data):
    from django_tasks_db.models import DBTaskResult

    folder = shared_data / "duc2006-nist"
    content = zipped(
        {
            "allpyramids/D0640.pyr": (folder / "allpyramids/D0640.pyr").read_bytes(),
            **{
                f"allpans/{path.name}": path.read_bytes()
                for path in (folder / "allpans").glob("*.D0640.*.pan")
            },
        }
    )
    job = make_job(demo, "ducview", "duc.zip", content)
    with override_settings(TASKS=DATABASE_QUEUE):
        jobs.run_import_job.call(job.pk)
        queued = DBTaskResult.objects.filter(task_path__endswith="refresh_collection_scores")
        assert [task.args_kwargs["args"] for task in queued] == [[demo["collection"].pk]]
        # And the pyramid agreement kept, beside the scores (issue 32).
        kept = DBTaskResult.objects.filter(task_path__endswith="keep_pyramid_agreement")
        assert [task.args_kwargs["args"] for task in kept] == [[demo["collection"].pk]]
        # And the system means kept, for the scores page's systems view (issue 32).
        means = DBTaskResult.objects.filter(task_path__endswith="keep_system_means")
        assert [task.args_kwargs["args"] for task in means] == [[demo["collection"].pk]]
