"""Commands and the site start without NumPy, SciPy, statsmodels or pandas (issue 19): together
they cost over a second before any work; the modules that need them import them where used."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "scipy", "statsmodels", "pandas")

SETUP = f"""
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.core.management import load_command_class
from django.urls import get_resolver
get_resolver().url_patterns  # every view module the site loads
for name in ("export_scores", "ranking", "agreement", "correlate", "stability",
             "coverage_agreement"):
    load_command_class("scoring", name)
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r}))
print(",".join(heavy))
"""


def test_django_setup_the_urls_and_the_scoring_commands_import_no_heavy_library():
    found = subprocess.run(
        [sys.executable, "-c", SETUP], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == "", f"imported at start-up: {found.stdout.strip()}"


COMMAND = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.core.management import load_command_class
command = load_command_class("scoring", sys.argv[1])
command.handle = lambda *args, **kwargs: None  # no database: only what the command loads first
command.run_from_argv(["manage.py", sys.argv[1], "--collection", "X"])
print("urls loaded" if "config.urls" in sys.modules else "urls not loaded")
"""


@pytest.mark.parametrize(
    "name", ["export_scores", "ranking", "agreement", "correlate", "coverage_agreement"]
)
def test_the_scoring_commands_skip_the_system_checks_and_the_url_modules(name):
    found = subprocess.run(
        [sys.executable, "-c", COMMAND, name], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert found.stdout.split() == ["urls", "not", "loaded"], found.stdout + found.stderr
