"""The production stack of deploy/stack.sh (issue 16), started for real on a fresh PostgreSQL
database with free ports: nginx in front of two gunicorn app servers, two background workers.

Through nginx: the app answers and nginx serves the static files; a session made on one app server
works on the other; eight slow clients do not stall six normal requests; an oversized body is
refused by nginx before an app server sees it; login throttling sees the client's address. Behind
it: an upload is imported by one of the two workers, exactly once; two edits of one pyramid version
sent to the two app servers give one success and one 409; a worker that dies is started again;
`stop` stops everything.

Skipped, with the reason, without nginx or PostgreSQL (CI has both). The module's tests share one
stack (started once, ~20-30 s) and run in file order; the stack is stopped and its database
dropped even when a test fails.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.conftest import FIXTURES, ROOT

STACK = ROOT / "deploy" / "stack.sh"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PASSWORD = "stack-admin-pass-1"
MAX_UPLOAD_MB = 1


def free_ports(count: int) -> list[int]:
    """Ports nothing listens on now, picked by the kernel (all held open at once: distinct)."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [probe.getsockname()[1] for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def server_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("the stack needs PostgreSQL: set DATABASE_URL to a PostgreSQL server")
    return url


@dataclass
class Response:
    status: int
    headers: http.client.HTTPMessage
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class Client:
    """A browser, as far as the test needs one: cookies (which, as in browsers, do not depend on
    the port: the session works on any of the stack's ports), CSRF, an Origin header."""

    port: int
    source: str | None = None  # the client's own address (127.0.0.x) for throttling checks
    cookies: dict[str, str] = field(default_factory=dict)

    def request(self, method, path, body=None, headers=None, port=None) -> Response:
        port = port or self.port
        connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=(self.source, 0) if self.source else None
        )
        sent = (
            {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
            if self.cookies
            else {}
        )
        sent |= headers or {}
        if method == "POST":  # as a browser sends it: Django's CSRF check compares it with Host
            sent.setdefault("Origin", f"http://127.0.0.1:{port}")
            sent.setdefault("X-CSRFToken", self.cookies.get("csrftoken", ""))
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            response = Response(answer.status, answer.headers, answer.read())
        finally:
            connection.close()
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response

    def get(self, path, **options) -> Response:
        return self.request("GET", path, **options)

    def post_form(self, path, values, headers=None, **options) -> Response:
        values = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **values}
        return self.request(
            "POST",
            path,
            body=urlencode(values),
            headers={"Content-Type": "application/x-www-form-urlencoded", **(headers or {})},
            **options,
        )

    def log_in(self, username, password) -> Response:
        self.get("/accounts/login/")  # the CSRF cookie
        return self.post_form("/accounts/login/", {"username": username, "password": password})


def multipart(fields: dict[str, str], files: list[tuple[str, str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts += [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        f"Content-Type: application/octet-stream\r\n\r\n".encode()
        + data
        + b"\r\n"
        for name, filename, data in files
    ]
    return b"".join(
        parts
    ) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


@dataclass
class Stack:
    port: int
    app_ports: list[int]
    run_dir: Path
    env: dict[str, str]
    database_url: str

    def script(self, command: str, timeout: float = 90) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(STACK), command], env=self.env, capture_output=True, text=True, timeout=timeout
        )

    def access_log(self, server: int) -> str:
        """What app server 1 or 2 was asked (gunicorn's access log)."""
        return (self.run_dir / f"app{server}.access.log").read_text()

    def query(self, sql: str, params=()) -> list[tuple]:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as connection:
            return connection.execute(sql, params).fetchall()

    def pid(self, name: str) -> int:
        return int((self.run_dir / f"{name}.pid").read_text())


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="module")
def stack():
    if not Path(NGINX).is_file():
        pytest.skip(
            "nginx is not installed (apt-get install nginx): the stack puts it in front of the app"
        )
    for tool in ["setsid"] + (["runuser"] if os.geteuid() == 0 else []):
        if not shutil.which(tool, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin"):
            pytest.skip(f"{tool} (util-linux) is not installed")
    import psycopg

    url = server_url()
    name = f"stack_test_{os.getpid()}_{secrets.token_hex(3)}"
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as error:
        pytest.skip(f"PostgreSQL does not answer at DATABASE_URL: {error}")
    database_url = f"{url.rsplit('/', 1)[0]}/{name}"
    run_dir = Path(tempfile.mkdtemp(prefix="pyramid-stack-"))
    run_dir.chmod(
        0o755
    )  # started as root, nginx's workers (nobody) write their temporary files here
    port, *app_ports = free_ports(3)
    env = {
        # A clean environment: nothing of pytest's (DJANGO_SETTINGS_MODULE=config.test_settings...).
        "PATH": os.environ.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin",
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "DATABASE_URL": database_url,
        "SECRET_KEY": secrets.token_urlsafe(40),
        "PORT": str(port),
        "LISTEN": f"127.0.0.1:{port}",
        "APP_PORTS": " ".join(map(str, app_ports)),
        "MAX_UPLOAD_MB": str(MAX_UPLOAD_MB),
        "RUN_DIR": str(run_dir),
        "STATIC_ROOT": str(run_dir / "static"),
        "PYTHON": sys.executable,
        "GUNICORN_WORKERS": "1",
        "STOP_TIMEOUT": "20",
        "DJANGO_SUPERUSER_USERNAME": "boss",
        "DJANGO_SUPERUSER_PASSWORD": PASSWORD,
    }
    stack = Stack(port, app_ports, run_dir, env, database_url)
    try:
        started = stack.script("start", timeout=180)
        assert started.returncode == 0, started.stdout + started.stderr
        assert f"running at http://127.0.0.1:{port}/" in started.stdout
        yield stack
    finally:
        stopped = stack.script("stop")
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                "AND pid <> pg_backend_pid()",
                [name],
            )
            connection.execute(f"DROP DATABASE IF EXISTS {name}")
        shutil.rmtree(run_dir, ignore_errors=True)
        assert stopped.returncode == 0, stopped.stdout + stopped.stderr


@pytest.fixture(scope="module")
def admin(stack):
    """The administrator the release step made from DJANGO_SUPERUSER_*, logged in through nginx."""
    client = Client(stack.port)
    response = client.log_in("boss", PASSWORD)
    assert response.status == 302, response.text
    assert "sessionid" in client.cookies
    return client


def test_the_stack_runs_and_answers_through_nginx(stack):
    status = stack.script("status")
    assert status.returncode == 0, status.stdout + status.stderr
    assert re.findall(r"^(\w+)\s+running", status.stdout, re.M) == [
        "nginx",
        "app1",
        "app2",
        "worker1",
        "worker2",
    ]

    health = Client(stack.port).get("/healthz/")
    assert health.status == 200
    assert json.loads(health.body) == {"status": "ok"}
    login = Client(stack.port).get("/accounts/login/")
    assert login.status == 200
    assert 'name="password"' in login.text
    assert login.headers["Server"] == "nginx"  # server_tokens off: no version

    # Static files come from nginx (no app server sees them), compressed, cached by their hashed
    # names.
    manifest = json.loads((stack.run_dir / "static" / "staticfiles.json").read_text())["paths"]
    hashed = manifest["css/app.css"]
    assert hashed != "css/app.css"
    css = Client(stack.port).get(f"/static/{hashed}", headers={"Accept-Encoding": "gzip"})
    assert css.status == 200
    assert css.headers["Content-Type"] == "text/css"
    assert css.headers["Content-Encoding"] == "gzip"
    assert css.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    plain = Client(stack.port).get("/static/css/app.css")
    assert plain.status == 200
    assert plain.headers["Cache-Control"] == "public, max-age=60"
    assert "Content-Encoding" not in plain.headers  # not asked for
    assert "/static/" not in stack.access_log(1) + stack.access_log(2)


def test_a_session_made_on_one_app_server_works_on_both(stack, admin):
    for _ in range(4):  # round robin: two for each server
        home = admin.get("/")
        assert home.status == 200, (
            home.status
        )  # logged in: anonymous users are sent to the login page
    for server in (1, 2):
        assert re.search(r'"GET / HTTP/1\.[01]" 200 ', stack.access_log(server)), (
            f"app server {server} served no logged-in home page"
        )
    # Asked directly, each app server knows the session too.
    for port in stack.app_ports:
        assert admin.get("/", port=port).status == 200


def test_login_throttling_counts_the_clients_address_not_nginx(stack):
    # From 127.0.0.2, claiming another address: nginx replaces the header, and Django (BEHIND_PROXY)
    # records the real one. REMOTE_ADDR at the app servers is nginx's 127.0.0.1.
    client = Client(stack.port, source="127.0.0.2")
    client.get("/accounts/login/")
    response = client.post_form(
        "/accounts/login/",
        {"username": "boss", "password": "wrong"},
        headers={"X-Forwarded-For": "203.0.113.9"},
    )
    assert response.status == 200
    assert "sessionid" not in client.cookies
    assert stack.query(
        "SELECT host(ip_address) FROM axes_accessattempt WHERE username = 'boss'"
    ) == [("127.0.0.2",)]


def test_slow_clients_do_not_stall_other_users(stack):
    """Eight anonymous connections sending a byte a second (four dribbling their headers, four a
    form body) while six normal requests are made: those are all answered at once; the header
    dribblers are cut off by nginx (client_header_timeout 10 s); no app server saw any of the eight
    (nginx reads a whole request before passing it on)."""
    done = threading.Event()
    cut_off: dict[str, float] = {}
    started = time.monotonic()

    def dribble(name: str, data: bytes) -> None:
        with socket.create_connection(("127.0.0.1", stack.port)) as connection:
            connection.settimeout(1)
            for byte in data:
                if done.is_set():
                    return
                try:
                    connection.send(bytes([byte]))
                    if connection.recv(1024) == b"":  # closed
                        raise ConnectionResetError
                except TimeoutError:
                    continue  # still open: on to the next byte
                except OSError:
                    cut_off[name] = time.monotonic() - started
                    return

    header_dribblers = [
        threading.Thread(
            target=dribble,
            args=(
                f"header-{n}",
                (
                    f"GET /accounts/login/?slow=header-{n} HTTP/1.1\r\nHost: "
                    f"127.0.0.1\r\nX-Padding: {'x' * 60}\r\n\r\n"
                ).encode(),
            ),
        )
        for n in range(4)
    ]
    body_dribblers = [
        threading.Thread(
            target=dribble,
            args=(
                f"body-{n}",
                (
                    f"POST /accounts/login/?slow=body-{n} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n"
                    + "username=x&password="
                    + "y" * 180
                ).encode(),
            ),
        )
        for n in range(4)
    ]
    for thread in header_dribblers + body_dribblers:
        thread.start()
    time.sleep(2)  # the eight are connected and dribbling

    answers: list[tuple[int, float]] = []

    def normal(n: int) -> None:
        begun = time.monotonic()
        response = Client(stack.port).get(f"/accounts/login/?normal={n}")
        answers.append((response.status, time.monotonic() - begun))

    users = [threading.Thread(target=normal, args=(n,)) for n in range(6)]
    for thread in users:
        thread.start()
    for thread in users:
        thread.join(timeout=30)
    assert [status for status, _ in answers] == [200] * 6
    assert max(seconds for _, seconds in answers) < 5, answers  # at once, not after the slow ones
    assert not cut_off  # the slow ones are all still connected while the others were served

    for thread in header_dribblers:  # until nginx cuts them off
        thread.join(timeout=20)
    done.set()
    for thread in body_dribblers:
        thread.join(timeout=5)
    headers_cut = {name: seconds for name, seconds in cut_off.items() if name.startswith("header")}
    assert sorted(headers_cut) == [f"header-{n}" for n in range(4)], cut_off
    assert all(seconds < 16 for seconds in headers_cut.values()), (
        headers_cut
    )  # 10 s, from the connection
    logs = stack.access_log(1) + stack.access_log(2)
    assert "normal=" in logs
    assert "slow=" not in logs


def test_one_client_cannot_take_every_connection_with_slow_uploads(stack):
    """A client holding many uploads open (whole headers, a body trickling) is refused beyond 128
    connections (429), and another client is served meanwhile."""
    held: list[socket.socket] = []
    refused = 0
    try:
        for n in range(140):
            connection = socket.create_connection(
                ("127.0.0.1", stack.port), timeout=5, source_address=("127.0.0.2", 0)
            )
            connection.sendall(
                (
                    f"POST /accounts/login/?flood={n} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                    "application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\nu"
                ).encode()
            )
            held.append(connection)
        time.sleep(1)
        for connection in held:
            connection.settimeout(0.05)
            try:
                if connection.recv(64).startswith(b"HTTP/1.1 429"):
                    refused += 1
            except OSError:
                pass  # still waiting for its body: held
        assert refused == 140 - 128, refused
        assert Client(stack.port).get("/accounts/login/?other=1").status == 200
    finally:
        for connection in held:
            connection.close()


def test_an_oversized_body_is_refused_by_nginx_before_the_app_sees_it(stack):
    limit = MAX_UPLOAD_MB * 1024 * 1024
    # Announced by Content-Length (what browsers send): refused after the headers, body unread.
    with socket.create_connection(("127.0.0.1", stack.port), timeout=10) as connection:
        connection.sendall(
            (
                f"POST /collections/1/import/?oversized=declared HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Content-Type: application/octet-stream\r\nContent-Length: {5 * limit}\r\n\r\n"
            ).encode()
        )
        connection.sendall(b"x" * 65536)
        answer = receive_answer(connection)
    assert answer.startswith("HTTP/1.1 413 "), answer[:200]
    assert f"accepts uploads of at most {MAX_UPLOAD_MB} MB" in answer
    # Chunked, without a length: refused once the body passes the limit.
    with socket.create_connection(("127.0.0.1", stack.port), timeout=10) as connection:
        connection.sendall(
            b"POST /collections/1/import/?oversized=chunked HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
        try:
            for _ in range(3 * limit // 65536):
                connection.sendall(chunk)
        except OSError:
            pass  # nginx may stop reading once it has refused
        answer = receive_answer(connection)
    assert answer.startswith("HTTP/1.1 413 "), answer[:200]
    assert "oversized" not in stack.access_log(1) + stack.access_log(2)


def receive_answer(connection: socket.socket) -> str:
    received = b""
    try:
        while b"</html>" not in received:
            data = connection.recv(65536)
            if not data:
                break
            received += data
    except OSError:
        pass
    return received.decode("utf-8", "replace")


@pytest.fixture(scope="module")
def imported(stack, admin):
    """The fixtures' DUCView files uploaded through nginx by the API, and the job followed until
    done."""
    created = admin.request(
        "POST",
        "/api/collections/",
        body=json.dumps({"name": "Through the stack"}),
        headers={"Content-Type": "application/json"},
    )
    assert created.status == 201, created.text
    collection = json.loads(created.body)["id"]
    files = [
        ("files", path.name, path.read_bytes())
        for path in (FIXTURES / "D9901.pyr", FIXTURES / "100.D9901.M.100.A.7.pan")
    ]
    body, content_type = multipart({"collection": str(collection), "kind": "ducview"}, files)
    queued = admin.request(
        "POST", "/api/import-jobs/", body=body, headers={"Content-Type": content_type}
    )
    assert queued.status == 202, queued.text
    job = json.loads(queued.body)
    deadline = time.monotonic() + 30
    while job["status"] in ("queued", "running") and time.monotonic() < deadline:
        time.sleep(0.3)
        job = json.loads(admin.get(f"/api/import-jobs/{job['id']}/").body)
    return {"collection": collection, "job": job}


def test_an_upload_is_imported_by_one_worker_exactly_once(stack, imported):
    job = imported["job"]
    assert job["status"] == "done", job
    tasks = stack.query(
        "SELECT status, worker_ids FROM django_tasks_database_dbtaskresult "
        "WHERE task_path LIKE %s AND args_kwargs->'args' = %s::jsonb",
        ["%run_import_job", json.dumps([job["id"]])],
    )
    assert len(tasks) == 1, tasks
    assert tasks[0][0] == "SUCCESSFUL", tasks
    (worker,) = tasks[0][1]  # one worker claimed it, once
    assert worker in ("worker1", "worker2")
    scus = len(re.findall(r"<scu uid=", (FIXTURES / "D9901.pyr").read_text()))
    assert stack.query(
        "SELECT count(*) FROM annotator_pyramid p JOIN annotator_docset d ON d.id = p.docset_id "
        "WHERE d.collection_id = %s",
        [imported["collection"]],
    ) == [(1,)]
    assert stack.query(
        "SELECT count(*) FROM annotator_scu s JOIN annotator_pyramid p ON p.id = s.pyramid_id "
        "JOIN annotator_docset d ON d.id = p.docset_id WHERE d.collection_id = %s",
        [imported["collection"]],
    ) == [(scus,)]
    assert stack.query("SELECT count(*) FROM annotator_peerannotation") == [(1,)]


def test_two_edits_of_one_version_on_the_two_app_servers_give_a_409(stack, admin, imported):
    ((pyramid, version),) = stack.query(
        "SELECT p.id, p.version FROM annotator_pyramid p JOIN annotator_docset d ON d.id = "
        "p.docset_id WHERE d.collection_id = %s",
        [imported["collection"]],
    )
    first, second = stack.app_ports
    reopened = admin.post_form(
        f"/pyramids/{pyramid}/edit/reopen/", {"version": version}, port=first
    )
    assert reopened.status == 200, reopened.text[:500]
    seen = version + 1  # both servers' pages showed this version
    on_first = admin.post_form(
        f"/pyramids/{pyramid}/edit/set_label/",
        {"version": seen, "scu": 11, "label": "Edited on the first server"},
        port=first,
    )
    on_second = admin.post_form(
        f"/pyramids/{pyramid}/edit/set_label/",
        {"version": seen, "scu": 11, "label": "Edited on the second server"},
        port=second,
    )
    assert on_first.status == 200, on_first.text[:500]
    assert on_second.status == 409
    assert "changed elsewhere" in on_second.text
    assert stack.query(
        "SELECT label FROM annotator_scu WHERE pyramid_id = %s AND uid = 11", [pyramid]
    ) == [("Edited on the first server",)]
    assert re.search(r'"POST /pyramids/\d+/edit/set_label/ HTTP/1\.[01]" 409 ', stack.access_log(2))


def test_a_worker_that_dies_is_started_again(stack):
    child = int((stack.run_dir / "worker1.child.pid").read_text())
    os.kill(child, signal.SIGKILL)
    deadline = time.monotonic() + 15
    restarted = None
    while time.monotonic() < deadline:
        now = int((stack.run_dir / "worker1.child.pid").read_text() or 0)
        if now != child and running(now):
            restarted = now
            break
        time.sleep(0.2)
    assert restarted, (stack.run_dir / "worker1.log").read_text()[-2000:]
    assert (
        "worker1 exited with status 137; starting it again in 1s"
        in (stack.run_dir / "worker1.log").read_text()
    )


def test_stop_stops_everything(stack):
    pids = [stack.pid(name) for name in ("nginx", "app1", "app2", "worker1", "worker2")]
    children = [int((stack.run_dir / f"worker{n}.child.pid").read_text()) for n in (1, 2)]
    # A supervisor killed leaves its worker running alone: status says so, and stop stops it too.
    os.kill(stack.pid("worker2"), signal.SIGKILL)
    deadline = time.monotonic() + 10
    while running(pids[4]) and time.monotonic() < deadline:
        time.sleep(0.1)
    status = stack.script("status")
    assert status.returncode == 3
    assert f"worker2    running without its supervisor (pid {children[1]})" in status.stdout
    stopped = stack.script("stop")
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert not [pid for pid in pids + children if running(pid)]
    for port in [stack.port, *stack.app_ports]:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    assert stack.script("status").returncode == 3
