"""Benchmark: the memory an upload costs the web process and the worker (issue 16).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/upload_memory.py

An upload is stored in the job's chunks a piece at a time (annotator.transfer.job_bytes) and the
worker reads it back into a temporary file, then unpacks the zip's files one at a time
(annotator.transfer.uploads), so the memory either side needs does not grow with the upload. This
stores a SIZE_MB zip (default 90, under MAX_UPLOAD_MB's 100; its entries are the shared DUC files,
repeated) as the upload page does, reads it back as the worker does, unpacks every file once, and
prints the peak growth of the process's resident memory at each step (sampled every 5 ms). Target:
each step under 64 MB whatever the size (it was about 1 GB for a 99 MiB file before). Uses a
database of its own (bench/benchdb.py); the files are PYRAMID_FULL_DATA's package when one is named
(bench/benchdata.py).
"""

import os
import threading
import time
import zipfile

from benchdata import describe, package_files
from benchdb import bench_database

FOLDERS = ["duc2006-nist", "duc2007-main-nist", "duc2007-update-nist"]

SIZE_MB = int(os.environ.get("SIZE_MB", "90"))
TARGET_MB = 64


def resident_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class PeakMemory:
    """The largest resident size seen while the block runs, above what it was before."""

    def __enter__(self):
        self.before = self.peak = resident_mb()
        self.running = True
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    def _sample(self):
        while self.running:
            self.peak = max(self.peak, resident_mb())
            time.sleep(0.005)

    def __exit__(self, *exc):
        self.running = False
        self.thread.join()
        self.peak = max(self.peak, resident_mb())
        self.growth = self.peak - self.before


def upload_file(path):
    """A zip of the shared DUC files, repeated under other folder names up to SIZE_MB, on disk."""
    files = package_files(FOLDERS)
    print(describe(files))
    with zipfile.ZipFile(
        path, "w", zipfile.ZIP_STORED
    ) as archive:  # stored: the size is what is sent
        copy = 0
        while os.path.getsize(path) < SIZE_MB * 2**20:
            for source in files:
                archive.write(source, f"copy{copy}/{source.parent.name}/{source.name}")
            copy += 1
            archive.fp.flush()


def main() -> None:
    import tempfile

    from django.core.files.uploadedfile import TemporaryUploadedFile

    from annotator.models import Collection, ImportJob
    from annotator.transfer import job_bytes
    from annotator.transfer.uploads import DUCVIEW_MAX_BYTES, read_upload

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "upload.zip")
        upload_file(path)
        size = os.path.getsize(path) / 2**20
        collection = Collection.objects.create(name="memory")
        job = ImportJob.objects.create(
            collection=collection, kind="ducview", file_name="upload.zip"
        )
        # What the upload page does: Django has spooled the request's file to disk; it is stored.
        uploaded = TemporaryUploadedFile(
            "upload.zip", "application/zip", os.path.getsize(path), None
        )
        with open(path, "rb") as source:
            for piece in iter(lambda: source.read(2**20), b""):
                uploaded.write(piece)
        uploaded.seek(0)
        with PeakMemory() as web:
            job_bytes.store_uploads(job, [uploaded])
        uploaded.close()
        # What the worker does: the bytes into a temporary file, the zip measured, each file read
        # once.
        with PeakMemory() as worker:
            with job_bytes.spooled(job) as spooled:
                files = read_upload("upload.zip", spooled, DUCVIEW_MAX_BYTES, 10 * 2**30)
                unpacked = sum(len(file.data) for file in files)
    print(f"upload: {size:.0f} MB zip, {len(files):,} files, {unpacked / 2**20:.0f} MB unpacked")
    print(
        f"  web process (store the upload):             +{web.growth:6.1f} MB resident at the peak"
    )
    print(
        f"  worker (read it back, measure, unpack all):  +{worker.growth:6.1f} MB resident at the "
        "peak"
    )
    worst = max(web.growth, worker.growth)
    print(f"target: under {TARGET_MB} MB each ({'met' if worst < TARGET_MB else 'NOT met'})")


if __name__ == "__main__":
    with bench_database():
        main()
