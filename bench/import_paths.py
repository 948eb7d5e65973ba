"""Benchmark: the shared DUC folders imported by the command line and by the browser's path (the
upload stored as an ImportJob, run by the background task as a worker runs it), side by side.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/import_paths.py

Creates (and finally drops) the database `pyramid_bench` (bench/benchdb.py). Target: the browser
path within 1.2x of the command line (it unpacks a zip held in the database and writes its
progress as it goes; the import itself is the same code). Each path runs ROUNDS times into fresh
collections, alternating; the best of each is compared.
"""

import io
import os
import sys
import time
import zipfile
from contextlib import redirect_stderr, redirect_stdout

from benchdb import DATA, bench_database

FOLDERS = ["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"]
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
TARGET = 1.2


def main() -> None:
    from django.core.management import call_command

    from annotator.models import Collection, ImportJob, PeerAnnotation
    from annotator.transfer import job_bytes, jobs
    from annotator.transfer.importing import ducview_files

    folders = [DATA / folder for folder in FOLDERS]
    files = ducview_files(folders)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            archive.writestr(str(path.relative_to(DATA)), path.read_bytes())
    upload = buffer.getvalue()
    print(
        f"data: {len(files)} files, {sum(f.stat().st_size for f in files) / 1e6:.1f} MB; zip "
        f"{len(upload) / 1e6:.1f} MB"
    )

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

    best_command, best_browser = min(command), min(browser)
    ratio = best_browser / best_command
    print(
        f"command line: {best_command:.2f} s (best of {ROUNDS}; {len(files) / best_command:.0f} "
        "files/s)"
    )
    print(
        f"browser job:  {best_browser:.2f} s (best of {ROUNDS}; {len(files) / best_browser:.0f} "
        "files/s)"
    )
    print(
        f"browser / command: {ratio:.2f}x (target <= {TARGET}x) "
        f"{'OK' if ratio <= TARGET else 'MISSED'}"
    )


if __name__ == "__main__":
    with bench_database():
        main()
