"""A throwaway PostgreSQL database for a benchmark, and Django set up on it (DEBUG off)."""

import os
import shutil
import signal
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import psycopg
from benchdata import DATA, ROOT

__all__ = ["DATA", "ROOT", "BENCH_DB", "backend_cpu", "bench_database", "database_cpu"]

# Named per run, so that two runs never drop each other's database; BENCH_DB names it otherwise.
BENCH_DB = os.environ.get("BENCH_DB") or f"pyramid_bench_{os.getpid()}"
# BENCH_KEEP=1 keeps the database at the end, to look into it (EXPLAIN, psql); drop it yourself.
KEEP = os.environ.get("BENCH_KEEP") == "1"


def backend_cpu(pid: int) -> float:
    """Seconds the PostgreSQL backend `pid` has spent on a CPU (schedstat: nanoseconds); 0 once it
    has gone."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except FileNotFoundError:
        return 0.0


def database_cpu() -> float:
    """Seconds on a CPU of every PostgreSQL backend connected to the benchmark's database now
    (the app's connections: a job's progress may come through one of its own)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        return sum(backend_cpu(pid) for (pid,) in cursor.fetchall())


@contextmanager
def bench_database():
    """Create BENCH_DB on DATABASE_URL's server, set Django up on it, drop it at the end."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL server (the benchmarks measure PostgreSQL)")
    end = "kept" if KEEP else "dropped"
    print(f"database: {BENCH_DB} (made now, {end} at the end)", flush=True)
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        connection.execute(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = f"{url.rsplit('/', 1)[0]}/{BENCH_DB}"
    os.environ.setdefault("SECRET_KEY", "benchmark")
    os.environ["DEBUG"] = "0"  # what production runs: no query log, no debug pages
    # Static files collected into a folder of the run's own: a test run collecting into the
    # project's staticfiles/ at the same time once read a file this run was rewriting.
    static_root = tempfile.mkdtemp(prefix="pyramid-bench-static-")
    os.environ.setdefault("STATIC_ROOT", static_root)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    call_command("migrate", verbosity=0)
    call_command(
        "collectstatic", interactive=False, verbosity=0
    )  # production settings need the manifest
    # Stopped (kill, or a background run's SIGTERM): unwind, so that the database is dropped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        yield
    finally:
        connections.close_all()
        shutil.rmtree(static_root, ignore_errors=True)
        with psycopg.connect(url, autocommit=True) as connection:
            # A server the benchmark started may still be closing its connections.
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [BENCH_DB],
            )
            if KEEP:
                print(f"database {BENCH_DB} kept (BENCH_KEEP=1): drop it when done", flush=True)
            else:
                connection.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
