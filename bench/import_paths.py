"""Benchmark: the shared DUC folders imported by the command line and by the browser's path (the
upload stored as an ImportJob, run by the background task as a worker runs it), side by side.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/import_paths.py

Creates (and finally drops) a database of its own (bench/benchdb.py); PYRAMID_FULL_DATA names a
full NIST package to import instead of the shared subset (bench/benchdata.py). Target: the browser
path within 1.2x of the command line (it unpacks a zip held in the database and writes its
progress as it goes; the import itself is the same code). Each path runs BENCH_RUNS times (default
3) into fresh collections, alternating; their medians are compared (bench/timing.py).
"""

import io
import sys
import time
import zipfile
from contextlib import redirect_stderr, redirect_stdout

from benchdata import describe, package_folders
from benchdb import bench_database
from timing import Timing, ratio, runs

FOLDERS = ["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"]
ROUNDS = runs(3)
TARGET = 1.2


def main() -> None:
    from django.core.management import call_command

    from annotator.models import Collection, ImportJob, PeerAnnotation
    from annotator.transfer import job_bytes, jobs
    from annotator.transfer.importing import ducview_files

    folders = package_folders(FOLDERS)
    files = ducview_files(folders)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            archive.writestr(str(path.relative_to(folders[0].parent)), path.read_bytes())
    upload = buffer.getvalue()
    print(f"{describe(files)}; zip {len(upload) / 1e6:.1f} MB")

    command, browser = [], []
    for round_ in range(ROUNDS):
        name = f"command {round_}"
        started = time.perf_counter()
        with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
            call_command("import_ducview", *map(str, folders), collection=name, no_progress=True)
        command.append(time.perf_counter() - started)

        collection = Collection.objects.create(name=f"browser {round_}")
        job = ImportJob.objects.create(collection=collection, kind="ducview", file_name="duc.zip")
        job_bytes.store(job, upload)  # as the upload page stores it
        started = time.perf_counter()
        jobs.run_import_job.call(job.pk)
        browser.append(time.perf_counter() - started)
        job.refresh_from_db()
        if job.status != "done" or job.report_sections["refused"]:
            sys.exit(f"browser import failed: {job.report[:3]}")
        stored = {
            n: PeerAnnotation.objects.filter(pyramid__docset__collection__name=n).count()
            for n in (name, collection.name)
        }
        if len(set(stored.values())) != 1:
            sys.exit(f"the two paths stored different records: {stored}")

    by_command, by_browser = Timing(tuple(command)), Timing(tuple(browser))
    print(f"command line: {by_command} ({len(files) / by_command.median:.0f} files/s)")
    print(f"browser job:  {by_browser} ({len(files) / by_browser.median:.0f} files/s)")
    met = by_browser.median / by_command.median <= TARGET
    print(
        f"browser / command: {ratio(by_browser, by_command)} (target <= {TARGET}x) "
        f"{'OK' if met else 'MISSED'}"
    )


if __name__ == "__main__":
    with bench_database():
        main()
