"""ruff passes on the whole checkout, as [tool.ruff] in pyproject.toml configures it: 100 columns
(E501), imports in order (I), the syntax of the Python we require (UP), tests in pytest's idiom
(PT), and every file as `ruff format` writes it."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def ruff() -> str:
    beside_python = Path(sys.executable).with_name("ruff")
    found = str(beside_python) if beside_python.exists() else shutil.which("ruff")
    if not found:
        pytest.skip("ruff is not installed (pip install -e '.[test]')")
    return found


@pytest.mark.parametrize(
    ("what", "arguments"),
    [("lint", ["check", "--no-cache", "."]), ("format", ["format", "--check", "--no-cache", "."])],
)
def test_ruff_passes(what, arguments):
    result = subprocess.run(
        [ruff(), *arguments], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"ruff {what} failed:\n{result.stdout}{result.stderr}"
