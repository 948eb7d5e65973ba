"""A background job's bytes, kept in the database a piece at a time (issue 16).

An upload goes from the request's temporary file into chunks of at most CHUNK_BYTES, one INSERT a
chunk; the worker reads them back into a temporary file (in memory while small, on disk beyond
SPOOL_BYTES), one row at a time; an export's archive is written the same way and downloaded as a
stream. So neither a web process nor a worker ever holds an upload or an archive whole, whatever
its size, and any worker or web process reaches the bytes (nothing on a server's own disk).
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from collections.abc import Iterator

from django.db import transaction

CHUNK_BYTES = 1024 * 1024
SPOOL_BYTES = 8 * 1024 * 1024  # a temporary file stays in memory up to this, then goes to disk


def store(job, source) -> int:
    """Replace the job's bytes with what the binary file `source` (or bytes) holds, read from its
    start; the number of bytes."""
    if isinstance(source, (bytes, bytearray)):
        source = io.BytesIO(source)
    source.seek(0)
    size = 0
    with transaction.atomic():
        job.chunks.all().delete()
        for index, piece in enumerate(iter(lambda: source.read(CHUNK_BYTES), b"")):
            job.chunks.create(index=index, data=piece)
            size += len(piece)
    return size


def store_uploads(job, files) -> int:
    """One uploaded file as it is; several packed into one zip first (a job keeps one upload)."""
    if len(files) == 1:
        return store(job, files[0])
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as packed:
        with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
            for file in files:
                file.seek(0)
                with archive.open(file.name, "w") as entry:
                    for piece in file.chunks(CHUNK_BYTES):
                        entry.write(piece)
        return store(job, packed)


def upload_name(files) -> str:
    """The job's name for its upload: the file's, or "N files" (a zip by its bytes, not its
    name)."""
    return files[0].name if len(files) == 1 else f"{len(files)} files"


def pieces(job) -> Iterator[bytes]:
    """The job's bytes in order, a chunk at a time (a server-side cursor on PostgreSQL)."""
    for data in job.chunks.order_by("index").values_list("data", flat=True).iterator(chunk_size=1):
        yield bytes(data)


def spooled(job):
    """The job's bytes in a temporary file, at its start (the caller closes it)."""
    target = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)
    for piece in pieces(job):
        target.write(piece)
    target.seek(0)
    return target


def size(job) -> int:
    from django.db.models import Sum
    from django.db.models.functions import Length

    return job.chunks.aggregate(total=Sum(Length("data")))["total"] or 0


def read(job) -> bytes:
    """The job's bytes whole: for tests and small archives only."""
    return b"".join(pieces(job))


def free(job) -> None:
    """The bytes served their purpose (the job's report says what became of them)."""
    job.chunks.all().delete()
