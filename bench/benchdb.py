"""A throwaway PostgreSQL database for a benchmark, and Django set up on it."""

import os
import sys
from contextlib import contextmanager
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PYRAMID_DATA", ROOT.parent / "shared" / "data" / "pyramids"))
BENCH_DB = os.environ.get(
    "BENCH_DB", "pyramid_bench"
)  # another name lets two benchmarks run at once


@contextmanager
def bench_database():
    """Create `pyramid_bench` on DATABASE_URL's server, set Django up on it, drop it at the end."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL server (the benchmarks measure PostgreSQL)")
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        connection.execute(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = f"{url.rsplit('/', 1)[0]}/{BENCH_DB}"
    os.environ.setdefault("SECRET_KEY", "benchmark")
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
    try:
        yield
    finally:
        connections.close_all()
        with psycopg.connect(url, autocommit=True) as connection:
            # A server the benchmark started may still be closing its connections.
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [BENCH_DB],
            )
            connection.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
