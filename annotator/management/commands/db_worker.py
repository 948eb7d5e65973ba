"""`manage.py db_worker`: django-tasks-db's worker, made to run unattended (issue 16).

On top of the library's worker (which this command replaces: annotator comes before
django_tasks_db in INSTALLED_APPS):
- it waits for the database to be migrated instead of exiting on a missing table (a container
  started beside the one that migrates);
- when its database connection is cut (a PostgreSQL restart, a failover, a terminated backend) it
  reconnects, with a growing pause while the database is away, and goes on; the job it was running
  is taken back and resumed (annotator.transfer.leases);
- a heartbeat thread says it is alive (WorkerBeat, `manage.py worker_alive`), keeps the leases of
  the jobs it runs and takes back the jobs of workers that died;
- where background work runs inside the request (TASKS_BACKEND=immediate, SQLite's default) it says
  there is nothing for a worker to do and exits cleanly, rather than failing on its --backend.
"""

from __future__ import annotations

import logging
import os
import time

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks import task_backends
from django_tasks_db import DatabaseBackend
from django_tasks_db.management.commands import db_worker as library

from annotator.transfer import leases
from annotator.web.database import pending_migrations

logger = logging.getLogger("django_tasks_db")
PAUSES = (1, 2, 4, 8, 15, 30)  # seconds between two tries while the database is away


class Worker(library.Worker):
    def run(self) -> None:
        leases.set_worker_id(self.worker_id)
        self.wait_for_migrations()
        heartbeat = leases.Heartbeat()
        heartbeat.start()
        failures, last_failure = 0, 0.0
        try:
            while True:
                try:
                    return super().run()
                except (OperationalError, InterfaceError) as error:
                    if not self.running:
                        raise
                    if time.monotonic() - last_failure > 120:
                        failures = (
                            0  # it ran well since the last time: start again with a short pause
                        )
                    pause = PAUSES[min(failures, len(PAUSES) - 1)]
                    failures, last_failure = failures + 1, time.monotonic()
                    logger.warning(
                        "The database connection was lost (%s); trying again in %s s.",
                        str(error).strip().splitlines()[0]
                        if str(error).strip()
                        else type(error).__name__,
                        pause,
                    )
                    connections.close_all()
                    time.sleep(pause)
        finally:
            heartbeat.stop()

    def wait_for_migrations(self) -> None:
        """Until every migration is applied (another process runs them), say so and wait."""
        said = False
        while self.running:
            try:
                if not pending_migrations():
                    if said:
                        logger.info("The database is migrated: starting.")
                    return
                message = (
                    "The database is not migrated yet (run `python manage.py migrate`): waiting."
                )
            except DatabaseError as error:
                message = (
                    "The database does not answer "
                    f"({str(error).strip() or type(error).__name__}): waiting."
                )
                connections.close_all()
            if not said:
                logger.warning(message)
                said = True
            time.sleep(2)


class Command(library.Command):
    help = (
        "Run the background worker: it waits for the migrations, reconnects when its database "
        "connection is cut, and resumes interrupted jobs (annotator.transfer.leases)."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        # No default backend checked while parsing: without --backend, handle() decides (and says
        # so when the default backend is not a queue).
        parser.set_defaults(backend_name=None)

    def handle(
        self,
        *,
        verbosity,
        queue_name,
        interval,
        batch,
        backend_name,
        startup_delay,
        reload,
        max_tasks,
        worker_id,
        exclude_queues,
        **options,
    ) -> None:
        if backend_name is None:
            if not isinstance(task_backends["default"], DatabaseBackend):
                self.stdout.write(
                    "Background work runs inside each request here (TASKS_BACKEND=immediate, "
                    "SQLite's default): there is nothing for a worker to do. With PostgreSQL "
                    "(DATABASE_URL) the database is the queue, and this command runs a worker."
                )
                return
            backend_name = "default"
        self.configure_logging(verbosity)
        if reload and batch:
            logger.warning(
                "Warning: --reload and --batch cannot be specified together. Disabling autoreload."
            )
            reload = False
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise library.CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_names,
            interval=interval,
            batch=batch,
            backend_name=backend_name,
            startup_delay=startup_delay,
            max_tasks=max_tasks,
            worker_id=worker_id,
            excluded_queue_names=excluded,
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # only the child process
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
