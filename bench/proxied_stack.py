"""Benchmark: the production stack under load (issue 16): nginx → two gunicorn app servers →
PostgreSQL, two workers (deploy/stack.sh), with 8 concurrent clients on the builder page, the peer
annotation page, /api/scores/ and the CSV score export.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/proxied_stack.py

Starts the stack on a throwaway database (made, then dropped, on DATABASE_URL's server) with free
ports, imports DUC 2006 (NIST's pyramids and peer annotations in ../shared, or the full package
PYRAMID_FULL_DATA names: bench/benchdata.py; `import_ducview`), logs in through nginx as the
administrator the release step made, reopens the largest pyramid (D0640, 103 SCUs, in ../shared)
for the builder and a D0601 peer annotation for the peer page, then, URL by URL,
runs 8 clients for DURATION seconds (default 15): threads, each with its own keep-alive connection
to nginx, sending a request as soon as the previous answer is read (gzip accepted, as browsers do).
Prints requests/s, p50 and p99 per URL.

On a running stack instead: STACK_URL=http://host:8000/ BENCH_USER=... BENCH_PASSWORD=...
BENCH_COLLECTION=<id> BENCH_PYRAMID=<id> BENCH_ANNOTATION=<id> (nothing is imported or changed).

The clients run on the same machine as the stack and take some of its CPU: the figures are a floor.
"""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from benchdata import ROOT, describe, package_files, package_folders

CLIENTS = 8
DURATION = float(os.environ.get("DURATION", "15"))
WARM_UP = 2.0  # seconds of load before measuring (connections made, caches warm)
USER, PASSWORD = "bench-admin", "bench-admin-pass-1"


def free_ports(count: int) -> list[int]:
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


class Session:
    """A logged-in browser's cookies, and one request at a time on its own connection."""

    def __init__(self, host: str, port: int):
        self.host, self.port, self.cookies = host, port, {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, bytes]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        headers = {"Cookie": self.cookie_header()}
        body = None
        if form is not None:
            body = urlencode({"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **form})
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": f"http://{self.host}:{self.port}",
            }
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            self.cookies |= {name: morsel.value for name, morsel in SimpleCookie(header).items()}
        return response.status, data

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def log_in(self, username: str, password: str) -> None:
        self.request("GET", "/accounts/login/")
        status, _ = self.request(
            "POST", "/accounts/login/", {"username": username, "password": password}
        )
        if status != 302 or "sessionid" not in self.cookies:
            sys.exit(f"could not log in as {username} ({status})")


def load(host: str, port: int, path: str, cookie: str) -> dict:
    """CLIENTS threads asking for path, one request at a time each, for WARM_UP + DURATION seconds;
    the answers within the last DURATION seconds are measured."""
    start = time.monotonic()
    measure_from, stop_at = start + WARM_UP, start + WARM_UP + DURATION
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client() -> None:
        connection = http.client.HTTPConnection(host, port, timeout=60)
        headers = {"Cookie": cookie, "Accept-Encoding": "gzip"}
        mine, failed = [], []
        while True:
            begun = time.monotonic()
            if begun >= stop_at:
                break
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
                status = response.status
                if response.will_close:
                    connection.close()
            except (
                OSError,
                http.client.HTTPException,
            ) as error:  # nginx closed a kept connection: again
                connection.close()
                failed.append(type(error).__name__)
                continue
            ended = time.monotonic()
            if begun < measure_from:
                continue  # warm-up
            if status == 200:
                mine.append(ended - begun)
            else:
                failed.append(str(status))
        connection.close()
        with lock:
            latencies.extend(mine)
            errors.extend(failed)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies.sort()
    return {
        "rate": len(latencies) / DURATION,
        "p50": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
        if latencies
        else float("nan"),
        "n": len(latencies),
        "errors": errors,
    }


def report(name: str, figures: dict) -> None:
    errors = (
        f"  {len(figures['errors'])} errors ({', '.join(sorted(set(figures['errors'])))})"
        if figures["errors"]
        else ""
    )
    print(
        f"{name:<44} {figures['rate']:7.1f} req/s   p50 {figures['p50']:6.0f} ms   p99 "
        f"{figures['p99']:6.0f} ms   ({figures['n']} requests){errors}",
        flush=True,
    )


def run(
    base: str,
    user: str,
    password: str,
    collection: int,
    pyramid: int,
    annotation: int,
    labels: dict,
) -> None:
    parts = urlsplit(base)
    host, port = parts.hostname, parts.port or 80
    session = Session(host, port)
    session.log_in(user, password)
    urls = [
        (f"builder page ({labels.get('pyramid', f'pyramid {pyramid}')})", f"/pyramids/{pyramid}/"),
        (
            f"peer page ({labels.get('annotation', f'annotation {annotation}')})",
            f"/annotations/{annotation}/",
        ),
        ("/api/scores/ (the collection, first page)", f"/api/scores/?collection={collection}"),
        ("CSV score export (the collection)", f"/collections/{collection}/scores/?format=csv"),
    ]
    for _, path in urls:  # every URL answers before the load starts
        status, body = session.request("GET", path)
        if status != 200:
            sys.exit(f"{path} answered {status}: {body[:300]!r}")
    print(
        f"{CLIENTS} clients, {DURATION:.0f} s per URL (after {WARM_UP:.0f} s of warm-up), through "
        f"nginx at {base}"
    )
    print(f"{os.cpu_count()} CPUs; load average before: {os.getloadavg()[0]:.1f}")
    for name, path in urls:
        report(name, load(host, port, path, session.cookie_header()))
    print(f"load average after: {os.getloadavg()[0]:.1f} (the clients' own share included)")


def main() -> None:
    if os.environ.get("STACK_URL"):
        names = [
            "BENCH_USER",
            "BENCH_PASSWORD",
            "BENCH_COLLECTION",
            "BENCH_PYRAMID",
            "BENCH_ANNOTATION",
        ]
        missing = [name for name in names if not os.environ.get(name)]
        if missing:
            sys.exit(f"with STACK_URL, set {', '.join(missing)}")
        run(
            os.environ["STACK_URL"],
            os.environ["BENCH_USER"],
            os.environ["BENCH_PASSWORD"],
            int(os.environ["BENCH_COLLECTION"]),
            int(os.environ["BENCH_PYRAMID"]),
            int(os.environ["BENCH_ANNOTATION"]),
            {},
        )
        return

    import psycopg

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("set DATABASE_URL to a PostgreSQL server (the stack runs on PostgreSQL)")
    (folder,) = package_folders(["duc2006-nist"])  # or PYRAMID_FULL_DATA's package
    print(describe(package_files(["duc2006-nist"])))
    name = f"pyramid_bench_stack_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    database_url = f"{url.rsplit('/', 1)[0]}/{name}"
    run_dir = Path(tempfile.mkdtemp(prefix="pyramid-bench-stack-"))
    run_dir.chmod(
        0o755
    )  # started as root, nginx's workers (nobody) write their temporary files here
    port, *app_ports = free_ports(3)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin",
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "DATABASE_URL": database_url,
        "SECRET_KEY": secrets.token_urlsafe(40),
        "PORT": str(port),
        "LISTEN": f"127.0.0.1:{port}",
        "APP_PORTS": " ".join(map(str, app_ports)),
        "RUN_DIR": str(run_dir),
        "STATIC_ROOT": str(run_dir / "static"),
        "PYTHON": sys.executable,
        "GUNICORN_WORKERS": os.environ.get("GUNICORN_WORKERS", "2"),
        "DJANGO_SUPERUSER_USERNAME": USER,
        "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
    }
    stack = [str(ROOT / "deploy" / "stack.sh")]
    try:
        began = time.monotonic()
        subprocess.run(stack + ["start"], env=env, check=True, stdout=subprocess.DEVNULL)
        print(
            f"stack started in {time.monotonic() - began:.0f} s "
            f"(nginx, 2 app servers × {env['GUNICORN_WORKERS']} gunicorn workers, 2 workers)"
        )
        began = time.monotonic()
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "import_ducview",
                str(folder),
                "--collection",
                "DUC 2006",
                "--no-progress",
            ],
            cwd=ROOT,
            env=env | {"DJANGO_SETTINGS_MODULE": "config.settings"},
            check=True,
            stdout=subprocess.DEVNULL,
        )
        with psycopg.connect(database_url, autocommit=True) as connection:

            def one(sql, *params):
                return connection.execute(sql, params).fetchone()

            collection, pyramids, annotations = one(
                "SELECT c.id, (SELECT count(*) FROM annotator_pyramid), (SELECT count(*) FROM "
                "annotator_peerannotation) FROM annotator_collection c WHERE c.name = 'DUC 2006'"
            )
            print(
                f"{folder} imported in {time.monotonic() - began:.0f} s: "
                f"{pyramids} pyramids, {annotations} peer annotations"
            )
            # The largest pyramid (D0640 in the shared DUC 2006), and a D0601 peer where there is.
            pyramid, version, pyramid_label = one(
                "SELECT p.id, p.version, d.name || ', ' || count(s.id) || ' SCUs' FROM "
                "annotator_pyramid p JOIN annotator_docset d ON d.id = p.docset_id JOIN "
                "annotator_scu s ON s.pyramid_id = p.id GROUP BY p.id, d.name "
                "ORDER BY count(s.id) DESC, p.id LIMIT 1"
            )
            annotation, annotation_version, annotation_label = one(
                "SELECT a.id, a.version, 'a ' || d.name || ' peer' FROM annotator_peerannotation a "
                "JOIN annotator_pyramid p ON p.id = a.pyramid_id JOIN annotator_docset d ON d.id = "
                "p.docset_id ORDER BY d.name <> 'D0601', a.id LIMIT 1"
            )
        # Both pages as their editors see them: reopened (the builder needs the pyramid in
        # progress).
        session = Session("127.0.0.1", port)
        session.log_in(USER, PASSWORD)
        for path, at in (
            (f"/pyramids/{pyramid}/edit/reopen/", version),
            (f"/annotations/{annotation}/edit/reopen/", annotation_version),
        ):
            status, body = session.request("POST", path, {"version": at})
            if status != 200:
                sys.exit(f"{path} answered {status}: {body[:300]!r}")
        run(
            f"http://127.0.0.1:{port}/",
            USER,
            PASSWORD,
            collection,
            pyramid,
            annotation,
            {"pyramid": pyramid_label, "annotation": annotation_label},
        )
    finally:
        subprocess.run(stack + ["stop"], env=env, stdout=subprocess.DEVNULL)
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )
            connection.execute(f"DROP DATABASE IF EXISTS {name}")
        shutil.rmtree(run_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
