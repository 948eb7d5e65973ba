import os
from pathlib import Path

import pytest
from django.db import connection, connections

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "ducview"
PYRAMID_FIXTURE = FIXTURES / "D9901.pyr"
PAN_FIXTURE = FIXTURES / "100.D9901.M.100.A.7.pan"
CHROMIUM = Path("/usr/bin/chromium")
# A browser test: real Chromium over a live server (a transactional database the server's thread
# sees), skipped, saying why, where Debian's Chromium is not installed.
BROWSER_TEST = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's Chromium is not installed (apt-get install -y chromium)",
    ),
]


# Workers of pytest-xdist ("-n auto" in pyproject.toml): one per core, at most this many (each has
# its own test database and, for browser tests, its own Chromium).
MAX_WORKERS = 4


def pytest_xdist_auto_num_workers(config):
    return min(MAX_WORKERS, os.cpu_count() or 1)


def shared_data_root() -> Path:
    return Path(os.environ.get("PYRAMID_DATA", ROOT.parent / "shared" / "data" / "pyramids"))


@pytest.fixture(scope="session", autouse=True)
def guide_root_of_the_tests(tmp_path_factory):
    """rundemo builds the user guide: into a folder of this test process, never the checkout's."""
    from django.conf import settings

    settings.GUIDE_ROOT = tmp_path_factory.mktemp("guide") / "site"


@pytest.fixture(scope="session")
def built_guide(tmp_path_factory) -> Path:
    """The user guide built once for the test process, as build_guide builds it (strict)."""
    import io

    from django.conf import settings
    from django.core.management import call_command

    root = tmp_path_factory.mktemp("built-guide") / "site"
    previous, settings.GUIDE_ROOT = settings.GUIDE_ROOT, root
    try:
        call_command("build_guide", stdout=io.StringIO())
    finally:
        settings.GUIDE_ROOT = previous
    return root


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
    """The demo docset and a user in every role (`build_demo`)."""
    return build_demo()


def build_demo() -> dict:
    """The demo docset and a user in every role:
    - admin: a site administrator (the group Administrators);
    - organizer: the demo collection's organizer;
    - annotator: assigned demo peer 1; other_annotator: assigned demo peer 2;
    - outsider: a user with no role and no work.
    """
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from annotator.demo import load_demo
    from annotator.models import Assignment, Membership, PeerAnnotation, Pyramid, Role

    load_demo()
    users = get_user_model().objects
    pyramid = Pyramid.objects.select_related("docset__collection").get()
    collection = pyramid.docset.collection
    annotations = {a.peer.author: a for a in PeerAnnotation.objects.select_related("peer")}
    admin = users.create_user("admin", password="admin-pass-1", is_staff=True)
    admin.groups.add(Group.objects.get(name="Administrators"))
    organizer = users.create_user("organizer", password="organizer-pass-1")
    Membership.objects.create(collection=collection, user=organizer, role=Role.ORGANIZER)
    annotators = {}
    for name, peer in [("annotator", "1"), ("other_annotator", "2")]:
        annotators[name] = users.create_user(name, password=f"{name.replace('_', '-')}-pass-1")
        Membership.objects.create(collection=collection, user=annotators[name], role=Role.ANNOTATOR)
        Assignment.objects.create(
            user=annotators[name], task="peer", pyramid=pyramid, peer=annotations[peer].peer
        )
    return {
        "pyramid": pyramid,
        "collection": collection,
        "scores_url": f"/collections/{collection.pk}/scores/",
        "annotations": annotations,
        "admin": users.get(pk=admin.pk),  # fresh: permissions are cached on the instance
        "organizer": organizer,
        **annotators,
        "outsider": users.create_user("outsider", password="outsider-pass-1"),
    }


@pytest.fixture
def viewport(request):
    """The window size of a browser test: the desktop (1440x900) unless the test is parametrized
    with "laptop" (1280x720) through `indirect=True`."""
    from tests.human import VIEWPORTS

    return VIEWPORTS[getattr(request, "param", "desktop")]


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]


@pytest.fixture(scope="session")
def playwright_session():
    """Playwright, started once for the session, when a test first needs a browser (issue 34:
    a Chromium launched and closed per test cost 2.0 s; a new context in a running one, 0.7 s).
    Its sync API keeps an event loop running in this thread from then on: Django's guard against
    database calls from async code would refuse every query of the tests after, so it is off for
    the rest of the session (the live server's database work happens in its own thread)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = playwright_api.sync_playwright().start()
    yield playwright
    playwright.stop()
    del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture(scope="session")
def chromium(playwright_session):
    """Debian's Chromium, one for the session: each test has a context of its own in it."""
    browser = playwright_session.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def browser_page(viewport, chromium):
    """A page in a context of the test's own (its own cookies and storage: a new session; a test
    may open a second tab in it), closed at the end."""
    from tests.human import watch_changes

    context = chromium.new_context(accept_downloads=True, viewport=viewport)
    page = context.new_page()
    watch_changes(page)
    yield page
    context.close()
    # Database work done while Playwright runs gets a connection of its own (another context):
    # close it, or it outlives the test database.
    connections.close_all()


def log_in(page, live_server, username, password):
    page.goto(live_server.url + "/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")


@pytest.fixture
def pair(demo, django_user_model):
    """Two pyramids of the demo models, as two annotators built them:
    - both: "Apollo 11 landed on the Moon" (A) with "Apollo 11 achieved the first Moon landing" (D);
    - A has "Neil Armstrong and Buzz Aldrin walked on the surface" (A, D) as one SCU, which B split
      into "Neil Armstrong" and "Buzz Aldrin walked on ...";
    - only A: "Michael Collins orbited above in the command module" (A);
    - only B: "The crew collected rock samples" (A) with "gathered 21.5 kilograms of lunar samples"
      (B).
    """
    from annotator.models import Membership, Role
    from tests.helpers import Builder

    a, b = (
        Builder(demo, name="by-annotator", user="annotator"),
        Builder(demo, name="by-other", user="other_annotator"),
    )
    for builder in (a, b):
        builder.new_scu("A", "Apollo 11 landed on the Moon", label="Apollo 11 landed on the Moon")
        builder.add(1, "D", "Apollo 11 achieved the first Moon landing")
    a.new_scu(
        "A",
        "Neil Armstrong and Buzz Aldrin walked on the surface",
        label="Armstrong and Aldrin walked on the Moon",
    )
    a.add(2, "D", "Neil Armstrong and Buzz Aldrin walked on the Moon")
    a.new_scu("A", "Michael Collins orbited above in the command module", label="Collins orbited")
    b.new_scu("A", "Neil Armstrong", label="Armstrong")
    b.add(2, "D", "Neil Armstrong")
    b.new_scu("A", "Buzz Aldrin walked on the surface", label="Aldrin walked on the Moon")
    b.add(3, "D", "Buzz Aldrin walked on the Moon")
    b.new_scu("A", "The crew collected rock samples", label="Samples were collected")
    b.add(4, "B", "gathered 21.5 kilograms of lunar samples")
    adjudicator = django_user_model.objects.create_user(
        "adjudicator", password="adjudicator-pass-1"
    )
    Membership.objects.create(
        collection=demo["collection"], user=adjudicator, role=Role.ADJUDICATOR
    )
    return {"a": a.pyramid, "b": b.pyramid, "adjudicator": adjudicator, "demo": demo}


@pytest.fixture
def trio(pair):
    """`pair` and a third pyramid of the demo models, C (built by "outsider"), for merging more
    than two at once:
    - identical in all three: "Apollo 11 landed on the Moon" (A) with the D contributor;
    - as A: "Neil Armstrong and Buzz Aldrin walked on the surface" (A, D), which B split;
    - as A, not B: "Michael Collins orbited above in the command module" (A): in some pyramids only;
    - only C: "The mission fulfilled President Kennedy's goal" (C); only B: the rock samples.
    """
    from tests.helpers import Builder

    c = Builder(pair["demo"], name="by-third", user="outsider")
    c.new_scu("A", "Apollo 11 landed on the Moon", label="Apollo 11 landed on the Moon")
    c.add(1, "D", "Apollo 11 achieved the first Moon landing")
    c.new_scu(
        "A",
        "Neil Armstrong and Buzz Aldrin walked on the surface",
        label="Armstrong and Aldrin on the Moon",
    )
    c.add(2, "D", "Neil Armstrong and Buzz Aldrin walked on the Moon")
    c.new_scu("A", "Michael Collins orbited above in the command module", label="Collins in orbit")
    c.new_scu(
        "C", "The mission fulfilled President Kennedy's goal", label="Kennedy's goal fulfilled"
    )
    return {**pair, "c": c.pyramid}
