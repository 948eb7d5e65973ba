"""Files imported in transactions of about a second each, each file in a savepoint of its own.

A transaction a file cost a commit (and a WAL flush) a file: for NIST's DUC 2007 update package
(hundreds of files of a few KB) the database's share was 40% of the import (issue 33). Within a
batch, DucviewImporter.import_data's own atomic block is a savepoint: a bad file still stores
nothing and the files before it stay. What a batch holds is committed together, with the job's
progress that counts it (annotator.transfer.jobs), so that a resumed job goes on where the last
commit left it; an interrupted import loses at most the batch under way, which a resumed run
imports again.
"""

from __future__ import annotations

import time

from django.db import transaction

BATCH_SECONDS = 1.0  # as often as a job's progress is written (annotator.transfer.leases)


class FileBatches:
    """`with FileBatches() as batches:` opens a transaction; `batches.commit()` commits what it
    holds and opens the next (`due()`: a batch's time is up); leaving the block commits the last
    one, or rolls it back on an exception."""

    def __init__(self, seconds: float = BATCH_SECONDS):
        self.seconds = seconds
        self._block: transaction.Atomic | None = None
        self._opened = 0.0

    def __enter__(self) -> FileBatches:
        self._open()
        return self

    def __exit__(self, kind, error, trace) -> None:
        block, self._block = self._block, None
        if block is not None:
            block.__exit__(kind, error, trace)

    def due(self) -> bool:
        return time.monotonic() - self._opened >= self.seconds

    def commit(self) -> None:
        """Commit the batch so far, and open the next."""
        self.__exit__(None, None, None)
        self._open()

    def _open(self) -> None:
        self._block = transaction.atomic()
        self._block.__enter__()
        self._opened = time.monotonic()
