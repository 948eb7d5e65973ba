import os
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ducview"
PYRAMID_FIXTURE = FIXTURES / "D9901.pyr"
PAN_FIXTURE = FIXTURES / "100.D9901.M.100.A.7.pan"


def shared_data_root() -> Path:
    return Path(os.environ.get("PYRAMID_DATA", ROOT.parent / "shared" / "data" / "pyramids"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The research data of ../shared/data/pyramids (or $PYRAMID_DATA); skips visibly if absent."""
    root = shared_data_root()
    if not (root / "duc2006-nist").is_dir():
        pytest.skip(f"shared pyramid data not found at {root} (set PYRAMID_DATA)")
    return root


@pytest.fixture
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): the rule is a PostgreSQL trigger")
