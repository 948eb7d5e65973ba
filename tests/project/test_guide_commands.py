"""The guide's commands (docs/organizer/commands.md) run as written, in the shell the README's
quickstart leaves.

The quickstart activates the virtual environment and starts `rundemo` with `DEBUG=1` on that one
command only; so every `python manage.py …` line of the page's shell blocks is run here the same
way: `python` from the virtual environment, neither DEBUG nor SECRET_KEY set, the demo's SQLite
database (in a temporary folder, not the checkout's), the page's own `export` lines before each
(`PYRAMID_DATA=../shared/data/pyramids`, with `../shared` beside the working folder as in a
developer's checkout; no PYRAMID_DATA inherited), one line after another in the page's order. A
line fails the test when it exits with an error. Long-running commands (the worker) pass when they
are still running after a few seconds.
"""

import os
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import shared_data_root

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
COMMANDS = ROOT / "docs" / "organizer" / "commands.md"
LONG_RUNNING = {"db_worker", "runserver", "rundemo"}


def shell_blocks(markdown: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", markdown, flags=re.M | re.S)


def exports(markdown: str) -> str:
    """The page's `export NAME=value` lines, as one line of shell to run before each command."""
    lines = [
        line.strip()
        for block in shell_blocks(markdown)
        for line in block.splitlines()
        if line.startswith("export ")
    ]
    return "; ".join(lines)


def guide_commands(markdown: str) -> list[str]:
    """Every `python manage.py …` line of the page's shell blocks, in order (comments are not)."""
    commands = []
    for block in shell_blocks(markdown):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("python manage.py "):
                commands.append(line)
    return commands


def quickstart_command(markdown: str) -> str:
    return next(
        line for block in shell_blocks(markdown) for line in block.splitlines() if "rundemo" in line
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_guide_lists_its_commands_runnable_as_written():
    """No optional parts in brackets or placeholders: a line is copied and pasted as it stands; the
    research data through a variable the page sets, never a path a clone does not have."""
    markdown = COMMANDS.read_text(encoding="utf-8")
    commands = guide_commands(markdown)
    assert len(commands) >= 15, commands
    for command in commands:
        assert not re.search(r"\[--|<[a-z]+>|\|", command), f"not runnable as written: {command}"
        assert "../shared" not in command, command
    assert exports(markdown) == "export PYRAMID_DATA=../shared/data/pyramids"
    assert sum("$PYRAMID_DATA/" in command for command in commands) >= 5
    quickstart = quickstart_command(README.read_text(encoding="utf-8"))
    assert ". .venv/bin/activate" in quickstart
    assert "DEBUG=1 python manage.py rundemo" in quickstart


@pytest.fixture
def quickstart_shell(tmp_path):
    """A working folder like a checkout's (manage.py, ../shared), the venv's python first on the
    PATH."""
    data = shared_data_root()
    if not data.is_dir():
        pytest.skip(f"shared pyramid data not found at {data} (set PYRAMID_DATA)")
    work = tmp_path / "checkout"
    work.mkdir()
    (work / "manage.py").symlink_to(ROOT / "manage.py")
    (tmp_path / "shared").symlink_to(data.parent.parent)
    environment = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DEBUG",
            "SECRET_KEY",
            "DATABASE_URL",
            "DJANGO_SETTINGS_MODULE",
            "TASKS_BACKEND",
            "PYRAMID_DATA",
            "GUIDE_ROOT",
        }
    }
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment.get('PATH', '')}"
    environment["VIRTUAL_ENV"] = str(Path(sys.executable).parent.parent)
    environment["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    environment["GUIDE_ROOT"] = str(tmp_path / "site")  # rundemo builds the guide: not into ours
    return work, environment


def in_shell(command: str, work: Path, environment: dict) -> subprocess.Popen:
    """A line run by bash in the working folder, in a process group of its own (stopped whole)."""
    return subprocess.Popen(
        ["bash", "-c", command],
        cwd=work,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def start_quickstart_demo(work: Path, environment: dict) -> None:
    """The quickstart's rundemo, on a free port: it prints the URL and the login, then is
    stopped."""
    port = free_port()
    server = in_shell(f"DEBUG=1 python manage.py rundemo 127.0.0.1:{port}", work, environment)
    printed = []
    try:
        deadline = time.monotonic() + 180
        for line in server.stdout:
            printed.append(line)
            if f"http://127.0.0.1:{port}/" in line or time.monotonic() > deadline:
                break
        assert any(f"http://127.0.0.1:{port}/" in line for line in printed), "".join(printed)
    finally:
        os.killpg(server.pid, 9)
        server.wait()


def run_as_written(
    command: str, work: Path, environment: dict, before: str = ""
) -> tuple[int | None, str]:
    name = shlex.split(command)[2]
    process = in_shell(f"{before}; {command}" if before else command, work, environment)
    try:
        output, _ = process.communicate(timeout=8 if name in LONG_RUNNING else 600)
        return process.returncode, output
    except subprocess.TimeoutExpired:
        if name not in LONG_RUNNING:
            raise
        os.killpg(process.pid, 15)
        output, _ = process.communicate()
        return None, output


def test_every_command_of_the_guide_runs_in_the_shell_the_quickstart_leaves(quickstart_shell):
    work, environment = quickstart_shell
    start_quickstart_demo(work, environment)
    failures = []
    markdown = COMMANDS.read_text(encoding="utf-8")
    for command in guide_commands(markdown):
        returncode, output = run_as_written(command, work, environment, exports(markdown))
        if returncode not in (0, None) or "Traceback" in output:
            failures.append(f"$ {command}\n(exit {returncode})\n{output[-2000:]}")
    assert not failures, "\n\n".join(failures)
    header, *rows = (work / "scores.csv").read_text(encoding="utf-8").splitlines()
    assert "docset" in header.split(",")
    assert rows
    assert all(",D0631," in row for row in rows)
    assert (work / "export" / "allpyramids").is_dir()
