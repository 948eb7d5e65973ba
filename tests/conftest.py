import os
from pathlib import Path

import pytest
from django.db import connection, connections

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ducview"
PYRAMID_FIXTURE = FIXTURES / "D9901.pyr"
PAN_FIXTURE = FIXTURES / "100.D9901.M.100.A.7.pan"
CHROMIUM = Path("/usr/bin/chromium")


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


@pytest.fixture
def browser_page():
    playwright_api = pytest.importorskip("playwright.sync_api")
    # Playwright's sync API runs an event loop in this thread; the live server's database work
    # happens in its own thread, so Django's async guard does not apply to us here.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
        )
        # A context of our own, so a test can open a second tab in the same session.
        page = browser.new_context(accept_downloads=True).new_page()
        yield page
        browser.close()
        # Database work done while Playwright runs gets a connection of its own (another context):
        # close it, or it outlives the test database.
        connections.close_all()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def log_in(page, live_server, username, password):
    page.goto(live_server.url + "/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
