import pytest

from tests.helpers import import_files


@pytest.fixture
def duc2006(shared_data):
    """The shared DUC 2006 files (NIST's pyramids and peer annotations) imported as "DUC 2006"."""
    import_files(shared_data / "duc2006-nist", collection="DUC 2006")
