"""mypy passes on annotator/ and scoring/, as [tool.mypy] in pyproject.toml configures it: strict on
the pure modules, the default checks elsewhere, with the Django and DRF plugins."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_passes(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[test]')")
    result = subprocess.run(
        # The files and every option come from pyproject.toml; the cache goes where the checkout
        # never sees it.
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mypy failed:\n{result.stdout}{result.stderr}"
