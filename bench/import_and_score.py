r"""Benchmark: import the shared DUC files into a fresh database, then score them.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
        .venv/bin/python bench/import_and_score.py

Creates (and finally drops) the database `pyramid_bench` on the server of DATABASE_URL
(bench/benchdb.py). Targets on the 2-core machine, PostgreSQL: a full DUC year (~460 .pan files, 27
MB) imported in under 20 s; 1,000 peer annotations scored from the database in under 1 s. The shared
data holds 154 .pan files (7 MB), so the import is repeated into several collections to reach ~1,000
annotations, and the import rate is reported per file and per MB.
"""

import os
import sys
import time

from benchdb import DATA, bench_database

FOLDERS = ["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"]
COPIES = int(os.environ.get("BENCH_COPIES", "7"))


def main() -> None:
    from annotator.models import PeerAnnotation
    from annotator.transfer.importing import DucviewImporter, ducview_files
    from scoring.records import score_annotations

    files = ducview_files([DATA / folder for folder in FOLDERS])
    megabytes = sum(f.stat().st_size for f in files) / 1e6
    pans = sum(1 for f in files if f.suffix == ".pan")
    print(f"data: {len(files)} files ({pans} .pan), {megabytes:.1f} MB, imported {COPIES} times")

    timings = []
    for copy in range(COPIES):
        importer = DucviewImporter(f"bench {copy}")
        started = time.perf_counter()
        for path in files:
            importer.import_file(path)
        timings.append(time.perf_counter() - started)
        if importer.report.failures:
            sys.exit(f"import failed: {importer.report.failures[:3]}")
    best = min(timings)
    print(
        f"import: {best:.2f} s for {len(files)} files (best of {COPIES}; mean "
        f"{sum(timings) / len(timings):.2f} s)"
    )
    print(f"        {len(files) / best:.0f} files/s, {megabytes / best:.1f} MB/s")
    print(
        f"        a DUC year (462 .pan, 27 MB) at this rate: ~{27 / (megabytes / best):.1f} s "
        "(target < 20 s)"
    )

    annotations = PeerAnnotation.objects.all()
    total = annotations.count()
    score_timings = []
    for _ in range(5):
        started = time.perf_counter()
        rows = score_annotations(annotations)
        score_timings.append(time.perf_counter() - started)
    assert len(rows) == total
    best = min(score_timings)
    print(
        f"score: {best:.3f} s for {total} peer annotations (best of 5); {total / best:.0f} rows/s"
    )
    print(f"       1,000 annotations at this rate: ~{1000 / (total / best):.2f} s (target < 1 s)")


if __name__ == "__main__":
    with bench_database():
        main()
