"""build_guide: the user guide (MkDocs, from docs/ and mkdocs.yml) built into GUIDE_ROOT, where
/guide/ serves it (annotator/web/guide.py).

Strict, as CI builds it: a broken link or a page missing from the navigation fails the build. It is
built into a folder beside GUIDE_ROOT and then put in its place, so the app never serves half a
guide. `--if-changed` builds only when the sources differ from those of the guide in place (a hash
of docs/ and mkdocs.yml, kept in the guide): rundemo and the release step use it.
"""

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

CONFIG = Path(settings.BASE_DIR) / "mkdocs.yml"
SOURCES_HASH = ".sources-sha256"  # in the built guide: the hash of what it was built from


def sources_hash(config: Path | None = None) -> str:
    """The SHA-256 of mkdocs.yml and every file under docs/ (names and bytes)."""
    config = config or CONFIG
    digest = hashlib.sha256(config.read_bytes())
    docs = config.parent / "docs"
    for path in sorted(p for p in docs.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(docs)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def built_hash(root: Path) -> str | None:
    try:
        return (root / SOURCES_HASH).read_text().strip()
    except OSError:
        return None


class Command(BaseCommand):
    help = "Build the user guide (docs/) into GUIDE_ROOT, where the app serves it at /guide/."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-changed",
            action="store_true",
            help="build only when docs/ or mkdocs.yml changed since the guide in place was built",
        )

    def handle(self, *args, **options):
        root = Path(settings.GUIDE_ROOT)
        root.parent.mkdir(parents=True, exist_ok=True)
        # One build at a time per guide (two release steps, or test processes, starting together).
        with open(root.with_name(root.name + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            wanted = sources_hash()
            if options["if_changed"] and built_hash(root) == wanted:
                self.stdout.write(f"The guide in {root} is up to date.")
                return
            self._build_in_place(root, wanted)
        self.stdout.write(f"The guide is built in {root} (served at /guide/).")

    def _build_in_place(self, root: Path, wanted: str) -> None:
        staging = Path(tempfile.mkdtemp(prefix=".guide-", dir=root.parent))
        try:
            self._build(staging)
            (staging / SOURCES_HASH).write_text(wanted + "\n")
            old = root.with_name(root.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            if root.exists():
                root.rename(old)
            staging.rename(root)
            shutil.rmtree(old, ignore_errors=True)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _build(self, target: Path) -> None:
        # MkDocs in a process of its own: its logging and its strict mode as on the command line.
        environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        command = [sys.executable, "-m", "mkdocs", "build", "--strict"]
        command += ["--config-file", str(CONFIG), "--site-dir", str(target)]
        result = subprocess.run(command, env=environment, capture_output=True, text=True)
        if result.returncode != 0:
            raise CommandError(f"The guide did not build:\n{result.stdout}{result.stderr}".strip())
