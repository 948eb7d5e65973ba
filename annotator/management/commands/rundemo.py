"""rundemo: try the app on a fresh machine in one command (the README's first command).

In this order, so that nothing is printed about a server that cannot start: the address is checked
(bound and let go at once, as runserver binds it), the database migrated (with a progress line per
migration: a bar on a terminal, plain lines otherwise), the demo login `demo` created, the demo
loaded and the open work given to `demo` (annotator.demo.install_demo, as `load_demo` does), and
only then the URL and the login printed and the development server started.
"""

import errno
import io
import os
import re
import shlex
import socket
from dataclasses import dataclass, replace
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.core.management.commands.migrate import Command as MigrateCommand
from django.core.management.commands.runserver import naiveip_re
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from tqdm import tqdm

from annotator.demo import DEMO_PASSWORD, DEMO_USERNAME, EXAMPLE_USERNAME, install_demo
from annotator.management.commands.build_guide import built_hash, sources_hash
from annotator.text.plurals import counted

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
EVERY_INTERFACE = {"0.0.0.0": "127.0.0.1", "::": "::1"}  # and the address to open on this machine
PORTS_TRIED = 50  # looking for a free port to suggest when the one asked for cannot be had


@dataclass(frozen=True)
class Address:
    host: str
    port: int
    ipv6: bool = False

    @property
    def netloc(self) -> str:
        return f"[{self.host}]:{self.port}" if self.ipv6 else f"{self.host}:{self.port}"

    @property
    def every_interface(self) -> bool:
        return self.host in EVERY_INTERFACE

    @property
    def url(self) -> str:
        """What to open in a browser on this machine (127.0.0.1 for 0.0.0.0)."""
        return f"http://{replace(self, host=EVERY_INTERFACE.get(self.host, self.host)).netloc}/"


def parse_address(value: str) -> Address:
    """`PORT` or `HOST:PORT` (an IPv4 address, [an IPv6 address] or a name), as runserver reads
    it."""
    match = re.match(naiveip_re, value)
    port = int(match["port"]) if match else 0
    if match is None or not 0 < port < 65536:
        raise CommandError(
            f'"{value}" is neither a port (8080) nor HOST:PORT (127.0.0.1:8080, 0.0.0.0:8080, '
            "[::1]:8080)."
        )
    if match["ipv6"]:
        return Address(match["ipv6"][1:-1], port, ipv6=True)
    return Address(match["addr"] or DEFAULT_HOST, port)


@dataclass(frozen=True)
class BindProblem:
    reason: str
    ports: range | None = (
        None  # where to look for a port to suggest instead, if the port is the problem
    )


def bind_problem(address: Address) -> BindProblem | None:
    """Why a server could not listen at `address`, or None if it can: the address is bound and let
    go at once, with SO_REUSEADDR as runserver binds (so a port left in TIME_WAIT counts as free,
    one another server listens on does not)."""
    try:
        with socket.socket(
            socket.AF_INET6 if address.ipv6 else socket.AF_INET, socket.SOCK_STREAM
        ) as probe:
            if os.name != "nt":  # on Windows it would let us bind over a listening server
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((address.host, address.port))
    except socket.gaierror:
        return BindProblem(f"{address.host} is not a known host name")
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return BindProblem(
                "the port is in use (is another server, perhaps an earlier rundemo, still "
                "running?)",
                range(address.port + 1, min(address.port + 1 + PORTS_TRIED, 65536)),
            )
        if error.errno == errno.EACCES:
            return BindProblem(
                "permission denied (a port below 1024 needs administrator rights)",
                range(DEFAULT_PORT, DEFAULT_PORT + PORTS_TRIED),
            )
        if error.errno == errno.EADDRNOTAVAIL:
            return BindProblem(f"{address.host} is not an address of this machine")
        return BindProblem(error.strerror or str(error))
    return None


def command_line(address: Address) -> str:
    """rundemo at `address`, as a shell runs it as written: with the DEBUG=1 it refuses to run
    without, and the address quoted where the shell would read it otherwise ([::1]:8001)."""
    return f"DEBUG=1 python manage.py rundemo {shlex.quote(address.netloc)}"


def refusal(address: Address, problem: BindProblem) -> str:
    """The error: what is wrong, and a free port to try instead if the port is what is wrong (the
    whole command, to copy)."""
    message = f"Cannot serve at {address.netloc}: {problem.reason}."
    if problem.ports is None:
        return message
    free = next(
        (port for port in problem.ports if bind_problem(replace(address, port=port)) is None), None
    )
    if free is None:
        return f"{message} Try another port."
    return f"{message} Try another port: {command_line(replace(address, port=free))}"


class Command(BaseCommand):
    help = (
        "Try the app locally: migrate, create the demo login (demo / pyramid-demo, an "
        "administrator), load the demo (a finished example, and open work for demo: a pyramid to "
        "build and peers to annotate), and start the development server. Refuses to run unless "
        "DEBUG is on (it creates a known password)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "addrport",
            nargs="?",
            default=f"{DEFAULT_HOST}:{DEFAULT_PORT}",
            metavar="[HOST:]PORT",
            help=f"where to serve: a port (8080, on {DEFAULT_HOST}) or HOST:PORT (default: "
            "%(default)s; 0.0.0.0:8080 listens on every interface, for a container or another "
            "machine)",
        )

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(
                "rundemo creates a login with a published password: run it with DEBUG=1 only"
            )
        address = parse_address(options["addrport"])
        problem = bind_problem(address)
        if problem:
            raise CommandError(refusal(address, problem))
        self.migrate()
        user, known_password = self.demo_user()
        self.stdout.write("Loading the demo…")
        setup = install_demo(user)
        for line in setup.lines():
            self.stdout.write(f"  {line}")
        self.build_guide()
        self.allow_host(address)
        self.stdout.write(self.style.SUCCESS(f"\nPyramid annotator: {address.url}"))
        if address.every_interface:
            self.stdout.write(
                f"Listening on every interface ({address.netloc}). From another machine, open this "
                "machine's name or address, once it is in ALLOWED_HOSTS: e.g. "
                "ALLOWED_HOSTS=192.0.2.7,localhost,127.0.0.1 before the command."
            )
        password = DEMO_PASSWORD if known_password else "(the password you gave it)"
        site = address.url.rstrip("/")
        collection = setup.collection
        self.stdout.write(
            f"Log in as {DEMO_USERNAME} / {password} (an administrator). Your home page lists "
            f'your open work in "{collection.name}": a pyramid to build and peers to annotate. '
            f"The finished example (the pyramid {setup.example_pyramid.name} and its peer "
            f"annotations, by the account {EXAMPLE_USERNAME}) "
            "is on the collection's page, and done beside your work on its Progress page:\n"
            f"  {site}{reverse('collection-detail', args=[collection.pk])}\n"
            f"  {site}{reverse('collection-progress', args=[collection.pk])}\n"
            f"The user guide: {site}{reverse('guide')}\n"
        )
        call_command("runserver", address.netloc, use_reloader=False)

    def build_guide(self) -> None:
        """The user guide served at /guide/, built on the first run and when docs/ changed."""
        if built_hash(Path(settings.GUIDE_ROOT)) != sources_hash():
            self.stdout.write("Building the user guide…")
            call_command("build_guide", stdout=io.StringIO())

    def migrate(self) -> None:
        """`migrate`, telling what it does: the first run takes seconds with nothing else to see."""
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        if plan:
            self.stdout.write(
                "Preparing the database (first run: about 10 s)…"
                if not executor.loader.applied_migrations
                else f"Updating the database ({counted(len(plan), 'new migration')})…"
            )
            self.stdout.flush()
        migrate = MigrateCommand()
        bar = tqdm(
            total=len(plan),
            unit="migration",
            desc="Migrations",
            file=self.stderr._out,
            disable=not plan or not self.stderr.isatty(),
        )
        done = 0

        def progress(action, migration=None, fake=False):
            nonlocal done
            if action != "apply_success":
                return
            done += 1
            if bar.disable:
                self.stdout.write(f"  {done}/{len(plan)} {migration.app_label}.{migration.name}")
            else:
                bar.set_postfix_str(f"{migration.app_label}.{migration.name}", refresh=False)
                bar.update()

        # The hook migrate reports each migration to, replaced on this instance only.
        migrate.migration_progress_callback = progress  # type: ignore[method-assign]
        with bar:
            call_command(migrate, interactive=False, verbosity=0)

    def demo_user(self):
        """The administrator `demo` (made with the published password the first time), and whether
        that password is still theirs."""
        user, created = get_user_model().objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        return user, created or user.check_password(DEMO_PASSWORD)

    def allow_host(self, address: Address) -> None:
        """A host named on the command line (a name or an address) is let in: the browser sends
        it, and ALLOWED_HOSTS (localhost by default) would refuse it with 400."""
        host = f"[{address.host}]" if address.ipv6 else address.host
        allowed = settings.ALLOWED_HOSTS
        if (
            not address.every_interface
            and "*" not in allowed
            and host.lower() not in (h.lower() for h in allowed)
        ):
            settings.ALLOWED_HOSTS = [*allowed, host]
