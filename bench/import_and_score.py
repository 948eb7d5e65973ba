r"""Benchmark: import the shared DUC files into a fresh database, then score them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/import_and_score.py

Creates (and finally drops) a database of its own on the server of DATABASE_URL (bench/benchdb.py);
PYRAMID_FULL_DATA names a full NIST package to import instead of the shared subset
(bench/benchdata.py). Medians and min–max of BENCH_RUNS imports, each into a fresh collection
(bench/timing.py). Targets on the 2-core machine, PostgreSQL: a full DUC year (~460 .pan files, 27
MB) imported in under 20 s; 1,000 peer annotations scored from the database in under 1 s. The
shared data holds 154 .pan files (7 MB), so the import is repeated into several collections to
reach ~1,000 annotations, and the import rate is reported per file and per MB.
"""

import os
import sys

from benchdata import describe, package_folders
from benchdb import bench_database
from timing import measure, runs

FOLDERS = ["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"]
# Each import goes into a fresh collection; the shared subset is small, so it is imported 7 times.
COPIES = runs(7 if os.environ.get("PYRAMID_FULL_DATA") is None else 3)


def main() -> None:
    from annotator.models import PeerAnnotation
    from annotator.transfer.importing import DucviewImporter, ducview_files
    from scoring.scores.records import score_annotations

    files = ducview_files(package_folders(FOLDERS))
    megabytes = sum(f.stat().st_size for f in files) / 1e6
    print(f"{describe(files)}; imported {COPIES} times")

    copies = iter(range(COPIES))

    def import_once():
        importer = DucviewImporter(f"bench {next(copies)}")
        for path in files:
            importer.import_file(path)
        if importer.report.failures:
            sys.exit(f"import failed: {importer.report.failures[:3]}")

    imported = measure(import_once, COPIES)
    rate = megabytes / imported.median
    print(f"import: {imported} for {len(files)} files")
    print(f"        {len(files) / imported.median:.0f} files/s, {rate:.1f} MB/s (medians)")
    print(f"        a DUC year (462 .pan, 27 MB) at this rate: ~{27 / rate:.1f} s (target < 20 s)")

    annotations = PeerAnnotation.objects.all()
    total = annotations.count()
    scored = measure(lambda: score_annotations(annotations), runs(5))
    assert len(scored.value) == total
    print(f"score: {scored} for {total} peer annotations; {total / scored.median:.0f} rows/s")
    print(
        f"       1,000 annotations at this rate: ~{1000 / (total / scored.median):.2f} s "
        "(target < 1 s)"
    )


if __name__ == "__main__":
    with bench_database():
        main()
