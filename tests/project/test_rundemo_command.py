"""rundemo: the address checked before anything (a busy port refused with the address and another
port to try, before any URL is printed), the database migrated with a line per migration, the demo
loaded with open work for `demo`, then the URL and the login, then the server."""

import os
import re
import socket
import subprocess
import sys
from io import StringIO
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from annotator.models import Collection
from tests.conftest import ROOT
from tests.helpers import run

pytestmark = pytest.mark.django_db


class Served:
    """runserver, replaced: what it was asked to serve (nothing if never called)."""

    def __init__(self, monkeypatch):
        from django.core import management

        self.addresses = []
        real_call_command = management.call_command

        def fake_call_command(name, *args, **options):
            if name == "runserver":
                self.addresses.append(args[0])
                return None
            return real_call_command(name, *args, **options)

        monkeypatch.setattr("annotator.management.commands.rundemo.call_command", fake_call_command)


@pytest.fixture
def served(settings, monkeypatch):
    settings.DEBUG = True
    return Served(monkeypatch)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


PORT = free_port()  # rundemo binds it to check it (runserver itself is left out): never a fixed one
ADDRESS = f"127.0.0.1:{PORT}"


def test_refuses_without_debug(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG=1 only"):
        run("rundemo")


def test_migrates_loads_the_demo_creates_the_login_and_serves(served, django_user_model):
    out, _ = run("rundemo", ADDRESS)
    assert served.addresses == [ADDRESS]
    assert f"http://{ADDRESS}/" in out
    assert "demo / pyramid-demo" in out
    user = django_user_model.objects.get(username="demo")
    assert user.is_superuser
    assert user.check_password("pyramid-demo")
    # Loading is announced, and what it did told, before the URL.
    assert (
        out.index("Loading the demo…")
        < out.index("Loaded Demo: Apollo 11")
        < out.index(f"http://{ADDRESS}/")
    )


def test_the_guide_is_built_once_and_its_address_printed(served, settings, tmp_path, client):
    settings.GUIDE_ROOT = tmp_path / "site"
    out, _ = run("rundemo", ADDRESS)
    assert "Building the user guide…" in out
    assert f"The user guide: http://{ADDRESS}/guide/" in out
    assert (settings.GUIDE_ROOT / "annotator" / "builder" / "index.html").is_file()
    assert client.get("/guide/annotator/builder/").status_code == 200
    built = (settings.GUIDE_ROOT / "index.html").stat().st_mtime_ns
    again, _ = run("rundemo", ADDRESS)
    assert "Building the user guide" not in again
    assert (settings.GUIDE_ROOT / "index.html").stat().st_mtime_ns == built


@pytest.mark.parametrize(
    ("given", "asked", "url"),
    [
        (
            "8080",
            "127.0.0.1:8080",
            "http://127.0.0.1:8080/",
        ),  # a bare port was printed as http://8080/
        ("0.0.0.0:8080", "0.0.0.0:8080", "http://127.0.0.1:8080/"),
        ("localhost:8081", "localhost:8081", "http://localhost:8081/"),
        ("[::1]:8082", "[::1]:8082", "http://[::1]:8082/"),
    ],
)
def test_a_port_or_host_and_port(served, monkeypatch, given, asked, url):
    monkeypatch.setattr("annotator.management.commands.rundemo.bind_problem", lambda address: None)
    out, _ = run("rundemo", given)
    assert served.addresses == [asked]
    assert f"Pyramid annotator: {url}\n" in out
    assert ("Listening on every interface" in out) == (given == "0.0.0.0:8080")


def test_a_host_named_is_let_in(served, settings, monkeypatch):
    monkeypatch.setattr("annotator.management.commands.rundemo.bind_problem", lambda address: None)
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
    run("rundemo", "192.0.2.7:8000")
    assert settings.ALLOWED_HOSTS == ["localhost", "127.0.0.1", "192.0.2.7"]
    run("rundemo", "0.0.0.0:8000")  # every interface: not every Host header
    assert "0.0.0.0" not in settings.ALLOWED_HOSTS


@pytest.mark.parametrize("given", ["foo:bar", "70000", "0", "127.0.0.1:"])
def test_what_is_not_an_address_is_refused(served, given):
    with pytest.raises(CommandError, match="neither a port .8080. nor HOST:PORT"):
        run("rundemo", given)
    assert served.addresses == []


def test_the_help_tells_the_address_forms(capsys):
    with pytest.raises(SystemExit):
        call_command("rundemo", "--help")
    help_text = " ".join(capsys.readouterr().out.split())
    assert "[HOST:]PORT" in help_text
    assert "a port (8080, on 127.0.0.1) or HOST:PORT" in help_text
    assert "0.0.0.0:8080 listens on every interface" in help_text


def test_a_busy_port_is_refused_before_anything_is_printed(served, django_user_model):
    out = StringIO()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(CommandError) as refused:
            call_command("rundemo", f"127.0.0.1:{port}", stdout=out, stderr=StringIO())
    message = str(refused.value)
    assert message.startswith(f"Cannot serve at 127.0.0.1:{port}: the port is in use")
    # The whole command, runnable as written: without DEBUG=1 rundemo refuses to run.
    assert "Try another port: DEBUG=1 python manage.py rundemo 127.0.0.1:" in message
    suggested = int(message.rsplit(":", 1)[1])
    assert suggested > port
    assert message.endswith(
        f"Try another port: DEBUG=1 python manage.py rundemo 127.0.0.1:{suggested}"
    )
    assert served.addresses == []
    assert out.getvalue() == ""
    assert not django_user_model.objects.filter(username="demo").exists()
    assert not Collection.objects.exists()


def test_the_port_suggested_is_a_command_to_copy_for_ipv6_too(monkeypatch):
    """The suggestion is read by a shell: DEBUG=1 set, and an IPv6 address quoted."""
    import shlex

    from annotator.management.commands import rundemo

    in_use = rundemo.BindProblem("the port is in use", range(8001, 8002))
    assert rundemo.refusal(
        rundemo.Address("::1", 8000, ipv6=True), rundemo.BindProblem("x", range(0))
    ).endswith("Try another port.")  # none free: no command
    monkeypatch.setattr(rundemo, "bind_problem", lambda address: None)  # 8001 free
    for address, written in [
        (rundemo.Address("127.0.0.1", 8000), "127.0.0.1:8001"),
        (rundemo.Address("::1", 8000, ipv6=True), "[::1]:8001"),
    ]:
        command = rundemo.refusal(address, in_use).split("Try another port: ", 1)[1]
        assert shlex.split(command) == ["DEBUG=1", "python", "manage.py", "rundemo", written]
    assert rundemo.refusal(rundemo.Address("::1", 8000, ipv6=True), in_use).endswith(
        "DEBUG=1 python manage.py rundemo '[::1]:8001'"
    )


def test_a_busy_port_exits_non_zero(tmp_path):
    """From the shell, as a newcomer runs it: exit status 1 and the error on stderr."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "manage.py", "rundemo", str(port)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={
                **os.environ,
                "DEBUG": "1",
                "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                "SECRET_KEY": "test",
            },
            timeout=120,
        )
    assert result.returncode == 1
    assert f"Cannot serve at 127.0.0.1:{port}: the port is in use" in result.stderr
    assert "http://" not in result.stdout
    assert "pyramid-demo" not in result.stdout


def test_the_demo_users_home_page_lists_their_open_work(served, client, django_user_model):
    run("rundemo", ADDRESS)
    client.force_login(django_user_model.objects.get(username="demo"))
    page = client.get(reverse("home")).content.decode()
    assert "4 assigned · 0 started · 0 submitted" in page
    assert "Build pyramid DEMO01-demo" in page
    for peer in "123":
        assert f"Annotate peer {peer} against DEMO01-example" in page
    assert "No work is assigned to you" not in page


def test_what_is_printed_of_the_home_page_and_the_finished_example_is_true(
    served, client, django_user_model
):
    """The home page lists the open work only; the finished example is printed where it is: the
    collection's page and its Progress page, with their addresses."""
    out, _ = run("rundemo", ADDRESS)
    text = " ".join(out.split())
    assert "beside the finished example" not in text
    assert (
        'Your home page lists your open work in "Demo: Apollo 11": a pyramid to build and peers to '
        "annotate." in text
    )
    pk = Collection.objects.get().pk
    collection_url, progress_url = f"/collections/{pk}/", f"/collections/{pk}/progress/"
    assert f"  http://{ADDRESS}{collection_url}\n  http://{ADDRESS}{progress_url}\n" in out
    assert (
        "The finished example (the pyramid DEMO01-example and its peer annotations, by the account "
        "example)" in text
    )
    client.force_login(django_user_model.objects.get(username="demo"))
    home = client.get(reverse("home")).content.decode()
    assert "example" not in home.replace(
        "DEMO01-example", ""
    )  # not the example's work: only the pyramid named
    assert (
        "with a finished pyramid and peer annotations"
        in client.get(collection_url).content.decode()
    )
    progress = client.get(progress_url).content.decode()
    assert "Done · submitted" in progress
    assert '<tr class="work assigned"' in progress


def test_the_progress_page_counts_the_example_done_and_the_open_work(
    served, client, django_user_model
):
    run("rundemo", ADDRESS)
    client.force_login(django_user_model.objects.get(username="demo"))
    page = client.get(
        reverse("collection-progress", args=[Collection.objects.get().pk])
    ).content.decode()
    # example: a pyramid and 3 annotations, done and submitted; demo: a pyramid and 3 peers to do.
    assert "8 assigned · 4 started · 4 submitted · 11 SCUs · 13 PSEs" in page
    assert page.count("Done · submitted") == 4
    assert page.count('<tr class="work assigned"') == 4


def test_the_second_run_changes_nothing(served, django_user_model):
    from tests.project.test_load_demo_command import everything

    run("rundemo", ADDRESS)
    before = everything()
    out, _ = run("rundemo", ADDRESS)
    assert "The demo data is already loaded; nothing changed." in out
    assert everything() == before
    assert "Preparing the database" not in out  # nothing to migrate
    assert served.addresses == [ADDRESS] * 2


def test_a_changed_password_is_not_printed_as_the_published_one(served, django_user_model):
    user = django_user_model.objects.create_superuser("demo", password="something-else-1")
    out, _ = run("rundemo", ADDRESS)
    assert "pyramid-demo" not in out
    assert "Log in as demo / (the password you gave it)" in out
    user.refresh_from_db()
    assert user.check_password("something-else-1")


PENDING = ["contenttypes.0001_initial", "auth.0001_initial", "annotator.0001_initial"]


@pytest.fixture
def pending(monkeypatch):
    """Three migrations to apply (the test database has them all): the plan rundemo reads, and a
    migrate that applies them by calling the progress callback as Django's does. Called with the
    migrations already applied (none: a fresh database)."""
    from django.core.management.base import BaseCommand
    from django.db.migrations import Migration

    migrations = [Migration(name, app) for app, name in (n.split(".") for n in PENDING)]

    class Migrate(BaseCommand):
        def add_arguments(self, parser):
            parser.add_argument("--noinput", action="store_false", dest="interactive")

        def handle(self, *args, **options):
            for migration in migrations:
                self.migration_progress_callback("apply_start", migration)
                self.migration_progress_callback("apply_success", migration)

    def install(applied=None):
        class Executor:
            def __init__(self, connection, progress_callback=None):
                self.loader = SimpleNamespace(
                    applied_migrations=applied or {}, graph=SimpleNamespace(leaf_nodes=lambda: [])
                )

            def migration_plan(self, targets):
                return [(migration, False) for migration in migrations]

        monkeypatch.setattr("annotator.management.commands.rundemo.MigrationExecutor", Executor)
        monkeypatch.setattr("annotator.management.commands.rundemo.MigrateCommand", Migrate)

    return install


def test_the_first_migration_is_announced_with_a_line_per_migration(served, pending):
    pending()
    out, err = run("rundemo", ADDRESS)
    assert out.startswith("Preparing the database (first run: about 10 s)…\n")
    assert (
        "  1/3 contenttypes.0001_initial\n  2/3 auth.0001_initial\n  3/3 annotator.0001_initial\n"
        in out
    )
    assert out.index("3/3") < out.index("Loading the demo…") < out.index(f"http://{ADDRESS}/")
    assert err == ""
    assert served.addresses == [ADDRESS]


def test_on_a_terminal_the_migrations_are_a_progress_bar(served, pending):
    pending(applied={("auth", "0001_initial"): object()})

    class Terminal(StringIO):
        def isatty(self):
            return True

    out, err = StringIO(), Terminal()
    call_command("rundemo", ADDRESS, stdout=out, stderr=err)
    assert out.getvalue().startswith(
        "Updating the database (3 new migrations)…\n"
    )  # not the first run
    assert "1/3" not in out.getvalue()  # the bar instead of lines
    assert "Migrations: 100%" in err.getvalue()
    assert "3/3" in err.getvalue()
    assert "annotator.0001_initial" in err.getvalue()


FIRST_RUN = """
import django
django.setup()
from django.core.management import call_command
import annotator.management.commands.rundemo as rundemo
passing = rundemo.call_command
def stop_at_runserver(name, *args, **options):
    if name == "runserver":
        print("runserver", *args)
        return None
    return passing(name, *args, **options)
rundemo.call_command = stop_at_runserver
call_command("rundemo", "PORT")
"""


def test_the_first_run_on_a_fresh_sqlite_database(tmp_path):
    """The real first run, in a process of its own (runserver left out): every migration told as it
    is applied, then the demo loaded, then the URL and the login."""
    result = subprocess.run(
        [sys.executable, "-c", FIRST_RUN.replace("PORT", str(PORT))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DEBUG": "1",
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        },
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Preparing the database (first run: about 10 s)…"
    counted = [
        line.split()[0] for line in lines if re.fullmatch(r"  \d+/\d+ \S+", line)
    ]  # not the URLs
    total = len(counted)
    assert total > 10
    assert counted == [f"{n}/{total}" for n in range(1, total + 1)]
    assert "  1/" in result.stdout
    assert " annotator.0001_initial\n" in result.stdout
    text = result.stdout
    assert (
        text.index(f"{total}/{total}")
        < text.index("Loading the demo…")
        < text.index("Open work for demo")
        < text.index(f"Pyramid annotator: http://{ADDRESS}/")
        < text.index("Log in as demo / pyramid-demo")
    )
    assert lines[-1] == f"runserver {ADDRESS}"
