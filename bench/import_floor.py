r"""Benchmark: the DUCView import's CPU time over the parser's floor, per DUC folder (issue 19).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/import_floor.py

The floor is ElementTree parsing every .pyr and .pan file of a folder and walking every element
(its attributes and text): what any import must at least do. Against it, in the same process and
timed the same way (time.process_time, this process's CPU, and with it the CPU of the PostgreSQL
backends serving the benchmark's database: /proc/<pid>/schedstat, issue 33; the floor uses none):
- the command's path: DucviewImporter.import_file for each file, into a fresh collection;
- the browser's path: the folder zipped and stored as an ImportJob (not timed, as the upload page
  does it), then run_import_job as a worker runs it, into a fresh collection.
Each is run BENCH_RUNS times (default 5), interleaved, and the floor on either side of each path
(floor, command, floor, browser, floor): on a small folder the floor is a few tens of
milliseconds, and one sample of it a run made the ratio swing with the machine's load. Every timed
section starts from a collected heap (gc.collect(), not timed), so that no section pays for the
garbage of the one before it (a full collection costs more than the whole floor of a small
folder). The median and min–max are printed, and the ratio of medians (the target's); beside it,
the range of each run's own ratio (its path over the mean of the floors either side of it), which
shows how much of the spread is the machine's load. SQL statements per file are counted on one more,
untimed, run of each path (BEGIN and COMMIT aside: Django lists them even where psycopg sends
none, a transaction with nothing sent in it). Target: every ratio <= 8x.

The database is named per run (pyramid_floor_<pid>) and dropped at the end. PYRAMID_DATA names
the folder holding the DUC folders (a full NIST package where one is at hand).
"""

import gc
import io
import os
import statistics
import sys
import time
import zipfile
from xml.etree import ElementTree

os.environ["BENCH_DB"] = f"pyramid_floor_{os.getpid()}"

from benchdb import DATA, bench_database, database_cpu  # noqa: E402 (after naming the database)

FOLDERS = ["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"]
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
TARGET = 8.0


def floor(files) -> None:
    """ElementTree's parse of every file, and a walk of every element's attributes and text."""
    for path in files:
        root = ElementTree.fromstring(path.read_bytes())
        for element in root.iter():
            element.attrib.get("label")
            element.text  # noqa: B018 (touched, as a reader would)


def cpu(action, *args) -> float:
    """The CPU time of action(*args), from a collected heap (this process's only)."""
    gc.collect()
    started = time.process_time()
    action(*args)
    return time.process_time() - started


def cpu_with_database(action, *args) -> tuple[float, float]:
    """(this process's CPU, the database backends') of action(*args), from a collected heap."""
    gc.collect()
    database = database_cpu()
    started = time.process_time()
    action(*args)
    process = time.process_time() - started
    return process, database_cpu() - database


def statements(queries) -> int:
    return sum(query["sql"] not in ("BEGIN", "COMMIT") for query in queries)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):6.3f} s ({min(values):.3f}–{max(values):.3f})"


def main() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotator.models import Collection, ImportJob
    from annotator.transfer import job_bytes, jobs
    from annotator.transfer.batches import FileBatches
    from annotator.transfer.importing import DucviewImporter, ducview_files

    counter = 0

    def fresh_name(kind: str, folder: str) -> str:
        nonlocal counter
        counter += 1
        return f"{kind} {folder} {counter}"

    def command_path(files, folder: str) -> None:  # as import_ducview imports them
        importer = DucviewImporter(fresh_name("command", folder))
        with FileBatches() as batches:
            for path in files:
                importer.import_file(path)
                if batches.due():
                    batches.commit()
        if importer.report.failures:
            sys.exit(f"command import failed: {importer.report.failures[:3]}")

    def zipped(files) -> bytes:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in files:
                archive.writestr(str(path.relative_to(DATA)), path.read_bytes())
        return buffer.getvalue()

    def browser_job(upload: bytes, folder: str) -> int:
        collection = Collection.objects.create(name=fresh_name("browser", folder))
        job = ImportJob.objects.create(collection=collection, kind="ducview", file_name="duc.zip")
        job_bytes.store(job, upload)  # as the upload page stores it (not timed)
        return job.pk

    def check_job(pk: int) -> None:
        job = ImportJob.objects.get(pk=pk)
        if job.status != "done" or job.report_sections["refused"]:
            sys.exit(f"browser import failed: {job.report[:3]}")

    print(f"data: {DATA}; {RUNS} runs each, CPU time (time.process_time) of this process")
    ok = True
    for folder in FOLDERS:
        if not (DATA / folder).is_dir():
            sys.exit(f"no folder {DATA / folder}: PYRAMID_DATA names the folder holding {FOLDERS}")
        files = ducview_files([DATA / folder])
        upload = zipped(files)
        megabytes = sum(f.stat().st_size for f in files) / 1e6
        floors: list[float] = []
        commands: list[float] = []  # this process's CPU and the database's
        browsers: list[float] = []
        databases: dict[str, list[float]] = {"command": [], "browser": []}
        paired: dict[str, list[float]] = {"command": [], "browser": []}
        floor(files)  # warm the file cache and the imports
        for _ in range(RUNS):
            before = cpu(floor, files)
            process, database = cpu_with_database(command_path, files, folder)
            commands.append(process + database)
            databases["command"].append(database)
            pk = browser_job(upload, folder)
            between = cpu(floor, files)
            process, database = cpu_with_database(jobs.run_import_job.call, pk)
            browsers.append(process + database)
            databases["browser"].append(database)
            after = cpu(floor, files)
            check_job(pk)
            floors.extend((before, between, after))
            paired["command"].append(commands[-1] / ((before + between) / 2))
            paired["browser"].append(browsers[-1] / ((between + after) / 2))
        with CaptureQueriesContext(connection) as command_queries:
            command_path(files, folder)
        pk = browser_job(upload, folder)
        with CaptureQueriesContext(connection) as browser_queries:
            jobs.run_import_job.call(pk)
        check_job(pk)

        base = statistics.median(floors)
        print(f"\n{folder}: {len(files)} files, {megabytes:.1f} MB")
        print(f"  floor (ElementTree parse and walk): {spread(floors)}")
        for label, kind, times, queries in (
            ("command (DucviewImporter)", "command", commands, command_queries),
            ("browser job (run_import_job)", "browser", browsers, browser_queries),
        ):
            ratio = statistics.median(times) / base
            ok = ok and ratio <= TARGET
            ratios = paired[kind]
            print(
                f"  {label:30} {spread(times)}  {ratio:5.1f}x the floor "
                f"({'OK' if ratio <= TARGET else 'MISSED'}; target <= {TARGET:g}x); "
                f"of it PostgreSQL {statistics.median(databases[kind]):.3f} s; "
                f"a run's own: {min(ratios):.1f}–{max(ratios):.1f}x; "
                f"{statements(queries) / len(files):.1f} SQL statements per file"
            )
    print(f"\n{'every ratio within the target' if ok else 'a ratio MISSED the target'}")


if __name__ == "__main__":
    with bench_database():
        main()
