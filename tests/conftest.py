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


@pytest.fixture
def demo(db):
    """The demo docset, and three users: an administrator, an assigned annotator, an outsider."""
    from django.contrib.auth import get_user_model

    from annotator.demo import load_demo
    from annotator.models import Assignment, PeerAnnotation, Pyramid

    load_demo()
    users = get_user_model().objects
    pyramid = Pyramid.objects.select_related("docset__collection").get()
    annotator = users.create_user("annotator", password="annotator-pass-1")
    Assignment.objects.create(
        user=annotator, task="peer", pyramid=pyramid, peer=PeerAnnotation.objects.get(peer__author="1").peer
    )
    return {
        "pyramid": pyramid,
        "scores_url": f"/collections/{pyramid.docset.collection.pk}/scores/",
        "annotations": {a.peer.author: a for a in PeerAnnotation.objects.select_related("peer")},
        "admin": users.create_user("organizer", password="organizer-pass-1", is_staff=True),
        "annotator": annotator,
        "outsider": users.create_user("outsider", password="outsider-pass-1"),
    }
