"""The database as the app sees it (issue 16): a connection that ended told from a refusal of what
was sent, and whether every migration is applied (the health check, a worker waiting to start).

Free of models, so that the logging configuration can use it before the apps are loaded.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError, connection
from django.db.migrations.executor import MigrationExecutor

# PostgreSQL's codes for a connection that ended: class 08 (connection exceptions), and the server
# shutting down or terminating the backend (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03).
CONNECTION_ENDED = ("08", "57P01", "57P02", "57P03")


def connection_lost(error: BaseException) -> bool:
    """Whether a database error is the connection gone (a restart, a failover, a terminated
    backend) rather than a refusal of what was sent: then the work is interrupted, not refused.

    Judged from the error itself: Django opens a new connection as soon as the transaction that
    failed is left, so the connection cannot be asked afterwards."""
    if isinstance(error, InterfaceError):
        return True  # used after it was closed
    if not isinstance(error, OperationalError) or connection.vendor != "postgresql":
        return False
    code = getattr(error.__cause__, "sqlstate", None)
    if code is None:
        return True  # no answer from the server at all: "server closed the connection unexpectedly"
    return code.startswith(CONNECTION_ENDED)


def database_unreachable(error: BaseException | None) -> bool:
    """The error, or what caused it, is the database connection failing or gone."""
    while error is not None:
        if connection_lost(error):
            return True
        error = error.__cause__ or error.__context__
    return False


class DatabaseAwayFilter(logging.Filter):
    """While the database is away every request fails the same way and answers the 503 page
    (annotator.web.errors): one line each in the log, not a traceback each."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and database_unreachable(record.exc_info[1]):
            record.msg = (
                f"{record.getMessage()}: the database is unreachable "
                f"({record.exc_info[1]!s:.200}); answered 503"
            )
            record.args = ()
            record.exc_info = record.exc_text = None
        return True


def pending_migrations() -> int:
    """How many migrations the database lacks (it reads django_migrations: a DatabaseError when the
    database does not answer)."""
    executor = MigrationExecutor(connection)
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
