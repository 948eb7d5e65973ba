"""Who may do what: every page and API endpoint, for every role, with the exact status.

Roles: anonymous; an annotator, on their own objects and on another annotator's; the collection's
organizer; a site administrator; an outsider (signed in, no role). A 404 means the user may not
even know the object exists; a 403 that they see it but their role does not allow the action.
"""

import copy
import json

import pytest
from django.db import transaction
from django.urls import reverse
from rest_framework.authtoken.models import Token

from annotator.adjudication import annotation_consensus, pyramid_consensus
from annotator.campaigns import assignments
from annotator.models import (
    PSE,
    SCU,
    ArchiveJob,
    Assignment,
    ImportJob,
    JudgmentTask,
    Membership,
    PeerAnnotation,
    Summary,
    Unit,
    UnitSet,
)
from tests.conftest import build_demo
from tests.helpers import stored_job

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "annotator", "organizer", "admin", "outsider"]


@pytest.fixture(scope="module")
def world_of_the_module(django_db_setup, django_db_blocker):
    """The world built once for the module's 600-odd cases (issue 34: 283 s when each built its
    own), inside a transaction that is rolled back at the module's end, as Django's setUpTestData
    does: each case runs in a savepoint of its own within it, so what one changes, the next does
    not see."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            yield build_world(build_demo())
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def world(world_of_the_module, db):
    """The module's world, its records as each case receives them (a copy: what a case changes in
    memory stays in it; the database is rolled back)."""
    return copy.deepcopy(world_of_the_module)


def build_world(demo: dict) -> dict:
    """The demo, with each annotator's own work: an annotation of their peer (with one PSE), a
    pyramid they build, an import job, and a membership to remove."""
    pyramid = demo["pyramid"]
    unit_set = UnitSet.objects.create(
        docset=pyramid.docset,
        name="Presence",
        method="presence",
        scale="present_absent",
        source="hand",
    )
    unit = Unit.objects.create(unit_set=unit_set, position=1, text="Apollo 11 landed.")
    own = {}
    for name, peer in [("annotator", "1"), ("other_annotator", "2")]:
        user = demo[name]
        annotation = PeerAnnotation.objects.create(
            pyramid=pyramid, peer=demo["annotations"][peer].peer, annotator=user
        )
        PSE.objects.create(annotation=annotation, scu=pyramid.scus.get(uid=1), position=1)
        (building,) = assignments.assign_pyramids([pyramid.docset], [user], demo["admin"]).created
        own[name] = {
            "annotation": annotation,
            "pse": annotation.pses.get(),
            "pyramid": building.pyramid,
            "assignment": Assignment.objects.get(user=user, task="peer"),
            # a judgment task of coverage judgments (issue 21)
            "task": JudgmentTask.objects.create(
                unit_set=unit_set, peer=demo["annotations"][peer].peer, judge=user
            ),
        }
    collection = demo["collection"]
    consensus = {
        "consensus_pyramid": pyramid_consensus.start(
            pyramid, own["annotator"]["pyramid"], demo["admin"]
        ),
        "consensus_annotation": annotation_consensus.start(
            [demo["annotations"]["1"], own["annotator"]["annotation"]], demo["admin"]
        ),
    }
    return (
        demo
        | consensus
        | {
            "own": own["annotator"],
            "other": own["other_annotator"],
            "job": ImportJob.objects.create(
                collection=collection, kind="summaries", file_name="x.zip", status="done"
            ),
            "archive": stored_job(
                ArchiveJob,
                content=b"PK",
                kind="export",
                collection=collection,
                file_name="a.zip",
                status="done",
            ),
            "restore": ArchiveJob.objects.create(
                kind="restore", file_name="b.zip", status="done", collection=collection
            ),
            "membership": Membership.objects.get(
                user=demo["other_annotator"], collection=collection
            ),
            "scu": SCU.objects.filter(pyramid=pyramid).first(),
            "unit_set": unit_set,
            "unit": unit,
            "peer3": Summary.objects.get(docset=pyramid.docset, kind="peer", author="3"),
            "model": Summary.objects.get(docset=pyramid.docset, kind="model", author="A"),
        }
    )


def page(name, *args):
    return lambda w: reverse(name, args=[arg(w) if callable(arg) else arg for arg in args])


C = lambda w: w["collection"].pk  # noqa: E731
D = lambda w: w["pyramid"].docset_id  # noqa: E731

#            role:        anonymous annotator organizer admin outsider
READERS = dict(zip(ROLES, [302, 403, 200, 200, 404]))
ADMINS = dict(zip(ROLES, [302, 403, 403, 200, 404]))
SITE_ADMINS = dict(zip(ROLES, [302, 403, 403, 200, 403]))
EVERYONE = dict(zip(ROLES, [302, 200, 200, 200, 200]))
SUBMITTED_PYRAMID = dict(zip(ROLES, [302, 200, 200, 200, 404]))

PAGES = [
    # (label, method, url, form data, expected statuses)
    ("home", "get", page("home"), None, EVERYONE),
    ("collection list", "get", page("collection-list"), None, EVERYONE),
    ("collection create", "get", page("collection-create"), None, SITE_ADMINS),
    (
        "collection create post",
        "post",
        page("collection-create"),
        lambda w: {
            "name": "New",
            "weight_convention": "contributors",
            "average_rounding": "half_up",
        },
        dict(SITE_ADMINS, admin=302),
    ),
    ("collection detail", "get", page("collection-detail", C), None, READERS),
    ("collection settings", "get", page("collection-settings", C), None, ADMINS),
    ("collection members", "get", page("collection-members", C), None, ADMINS),
    (
        "member remove",
        "post",
        page("member-remove", C, lambda w: w["membership"].pk),
        None,
        dict(ADMINS, admin=302),
    ),
    ("docset create", "get", page("docset-create", C), None, ADMINS),
    ("summaries upload", "get", page("summaries-upload", C), None, ADMINS),
    ("ducview import", "get", page("ducview-import", C), None, ADMINS),
    ("assign", "get", page("assign", C), None, ADMINS),
    ("progress", "get", page("collection-progress", C), None, READERS),
    ("scores", "get", page("collection-scores", C), None, READERS),
    ("reports", "get", page("collection-reports", C), None, READERS),
    ("a report", "get", page("collection-report", C, "pyramids"), None, READERS),
    ("docset detail", "get", page("docset-detail", D), None, READERS),
    # Coverage judgments (issue 21)
    ("units import", "get", page("units-import", C), None, ADMINS),
    ("unit set create", "get", page("unit-set-create", D), None, ADMINS),
    ("unit set", "get", page("unit-set-detail", lambda w: w["unit_set"].pk), None, READERS),
    ("assign judging", "get", page("judging-assign", C), None, ADMINS),
    (
        "own judging task",
        "get",
        page("judging-task", lambda w: w["own"]["task"].pk),
        None,
        dict(zip(ROLES, [302, 200, 200, 200, 404])),
    ),
    (
        "other's judging task",
        "get",
        page("judging-task", lambda w: w["other"]["task"].pk),
        None,
        dict(zip(ROLES, [302, 404, 200, 200, 404])),
    ),
    ("compare pyramids", "get", page("pyramid-comparison", D), None, ADMINS),
    ("peers annotated twice", "get", page("peer-disagreements", D), None, ADMINS),
    (
        "start a consensus pyramid",
        "post",
        page("pyramid-consensus-start", D),
        lambda w: {"a": w["pyramid"].pk, "b": w["own"]["pyramid"].pk},
        dict(ADMINS, admin=302),
    ),
    (
        "consensus pyramid",
        "get",
        page("pyramid-merge", lambda w: w["consensus_pyramid"].pk),
        None,
        dict(ADMINS, annotator=404),
    ),
    (
        "decide a group, stale",
        "post",
        page("pyramid-merge-decide", lambda w: w["consensus_pyramid"].pk, "keep_group"),
        lambda w: {"version": 0, "group": "x"},
        dict(ADMINS, annotator=404, admin=302),
    ),
    (
        "edit the consensus pyramid, stale",
        "post",
        page("pyramid-edit", lambda w: w["consensus_pyramid"].pk, "order_scus"),
        lambda w: {"version": 0},
        dict(zip(ROLES, [302, 404, 403, 409, 404])),
    ),
    (
        "compare a peer's annotations",
        "get",
        page(
            "peer-comparison", lambda w: w["pyramid"].pk, lambda w: w["own"]["annotation"].peer_id
        ),
        None,
        ADMINS,
    ),
    (
        "start a consensus annotation",
        "post",
        page(
            "peer-consensus-start",
            lambda w: w["pyramid"].pk,
            lambda w: w["own"]["annotation"].peer_id,
        ),
        None,
        dict(ADMINS, admin=302),
    ),
    (
        "decide an SCU, stale",
        "post",
        page(
            "peer-merge-decide",
            lambda w: w["pyramid"].pk,
            lambda w: w["own"]["annotation"].peer_id,
            "keep_reading",
        ),
        lambda w: {"version": 0, "scu": 1},
        dict(ADMINS, admin=302),
    ),
    (
        "other's peer compared",
        "get",
        page(
            "peer-comparison", lambda w: w["pyramid"].pk, lambda w: w["other"]["annotation"].peer_id
        ),
        None,
        dict(ADMINS, annotator=404),
    ),
    ("summary create", "get", page("summary-create", D), None, ADMINS),
    # Summaries as the API serves them (visible_summaries): an annotator reads their docsets' models
    # and their own peer; another peer is 404 to them, as to an outsider.
    (
        "summary detail",
        "get",
        page("summary-detail", lambda w: w["peer3"].pk),
        None,
        dict(READERS, annotator=404),
    ),
    (
        "own peer's page",
        "get",
        page("summary-detail", lambda w: w["own"]["annotation"].peer_id),
        None,
        SUBMITTED_PYRAMID,
    ),
    (
        "other's peer's page",
        "get",
        page("summary-detail", lambda w: w["other"]["annotation"].peer_id),
        None,
        dict(SUBMITTED_PYRAMID, annotator=404),
    ),
    (
        "a model's page",
        "get",
        page("summary-detail", lambda w: w["model"].pk),
        None,
        SUBMITTED_PYRAMID,
    ),
    ("job detail", "get", page("job-detail", lambda w: w["job"].pk), None, ADMINS),
    (
        "export an archive",
        "post",
        page("collection-archive", C),
        None,
        dict(READERS, organizer=302, admin=302),
    ),
    ("archive job", "get", page("archive-job", lambda w: w["archive"].pk), None, READERS),
    ("archive download", "get", page("archive-download", lambda w: w["archive"].pk), None, READERS),
    ("restore an archive", "get", page("collection-restore"), None, SITE_ADMINS),
    (
        "restore job",
        "get",
        page("archive-job", lambda w: w["restore"].pk),
        None,
        dict(zip(ROLES, [302, 404, 404, 200, 404])),
    ),
    # As the API: another's assignment is not to be seen (404); one's own may not be changed (403).
    (
        "withdraw own",
        "post",
        page("assignment-withdraw", lambda w: w["own"]["assignment"].pk),
        None,
        dict(ADMINS, admin=302),
    ),
    (
        "withdraw other's",
        "post",
        page("assignment-withdraw", lambda w: w["other"]["assignment"].pk),
        None,
        dict(ADMINS, admin=302, annotator=404),
    ),
    (
        "reassign other's",
        "post",
        page("assignment-reassign", lambda w: w["other"]["assignment"].pk),
        lambda w: {"to": "outsider"},
        dict(ADMINS, admin=302, annotator=404),
    ),
    ("user list", "get", page("user-list"), None, SITE_ADMINS),
    ("user create", "get", page("user-create"), None, SITE_ADMINS),
    ("API documentation", "get", page("api-docs"), None, EVERYONE),
    ("API reference", "get", page("api-redoc"), None, EVERYONE),
    (
        "submitted pyramid",
        "get",
        page("pyramid-detail", lambda w: w["pyramid"].pk),
        None,
        SUBMITTED_PYRAMID,
    ),
    (
        "own pyramid",
        "get",
        page("pyramid-detail", lambda w: w["own"]["pyramid"].pk),
        None,
        SUBMITTED_PYRAMID,
    ),
    (
        "other's pyramid",
        "get",
        page("pyramid-detail", lambda w: w["other"]["pyramid"].pk),
        None,
        dict(SUBMITTED_PYRAMID, annotator=404),
    ),
    (
        "own pyramid history",
        "get",
        page("pyramid-history", lambda w: w["own"]["pyramid"].pk),
        None,
        SUBMITTED_PYRAMID,
    ),
    (
        "edit own pyramid, stale",
        "post",
        page("pyramid-edit", lambda w: w["own"]["pyramid"].pk, "order_scus"),
        lambda w: {"version": 0},
        dict(zip(ROLES, [302, 409, 403, 409, 404])),
    ),
    (
        "edit other's pyramid",
        "post",
        page("pyramid-edit", lambda w: w["other"]["pyramid"].pk, "order_scus"),
        lambda w: {"version": 0},
        dict(zip(ROLES, [302, 404, 403, 409, 404])),
    ),
    (
        "own annotation",
        "get",
        page("annotation-detail", lambda w: w["own"]["annotation"].pk),
        None,
        SUBMITTED_PYRAMID,
    ),
    (
        "other's annotation",
        "get",
        page("annotation-detail", lambda w: w["other"]["annotation"].pk),
        None,
        dict(SUBMITTED_PYRAMID, annotator=404),
    ),
    (
        "own annotation history",
        "get",
        page("annotation-history", lambda w: w["own"]["annotation"].pk),
        None,
        SUBMITTED_PYRAMID,
    ),
    (
        "own annotation suggestions",
        "get",
        lambda w: (
            reverse("annotation-suggestions", args=[w["own"]["annotation"].pk]) + "?start=0&end=5"
        ),
        None,
        SUBMITTED_PYRAMID,
    ),
    (
        "edit own annotation, stale",
        "post",
        page("annotation-edit", lambda w: w["own"]["annotation"].pk, "undo"),
        lambda w: {"version": 0},
        dict(zip(ROLES, [302, 409, 403, 409, 404])),
    ),
    (
        "edit other's annotation",
        "post",
        page("annotation-edit", lambda w: w["other"]["annotation"].pk, "undo"),
        lambda w: {"version": 0},
        dict(zip(ROLES, [302, 404, 403, 409, 404])),
    ),
    (
        "start own assignment",
        "post",
        page("assignment-start", lambda w: w["own"]["assignment"].pk),
        None,
        dict(zip(ROLES, [302, 302, 404, 404, 404])),
    ),
]


def api(path):
    return lambda w: (
        "/api/"
        + path.format(
            **{
                "collection": w["collection"].pk,
                "docset": w["pyramid"].docset_id,
                "pyramid": w["pyramid"].pk,
                "own_pyramid": w["own"]["pyramid"].pk,
                "other_pyramid": w["other"]["pyramid"].pk,
                "own_annotation": w["own"]["annotation"].pk,
                "own_task": w["own"]["task"].pk,
                "other_task": w["other"]["task"].pk,
                "unit_set": w["unit_set"].pk,
                "other_annotation": w["other"]["annotation"].pk,
                "own_pse": w["own"]["pse"].pk,
                "other_pse": w["other"]["pse"].pk,
                "scu": w["scu"].pk,
                "own_assignment": w["own"]["assignment"].pk,
                "other_assignment": w["other"]["assignment"].pk,
                "peer1": w["own"]["annotation"].peer_id,
                "peer2": w["other"]["annotation"].peer_id,
                "peer3": w["peer3"].pk,
                "model": w["model"].pk,
                "contributor": w["scu"].contributors.first().pk,
                "span": w["scu"].contributors.first().spans.first().pk,
            }
        )
    )


#              role:       anonymous annotator organizer admin outsider
API_READ = dict(zip(ROLES, [401, 200, 200, 200, 200]))  # lists: an outsider's is empty
API_VISIBLE = dict(zip(ROLES, [401, 200, 200, 200, 404]))
API_OWN_ONLY = dict(zip(ROLES, [401, 404, 200, 200, 404]))
API_WRITE = dict(zip(ROLES, [401, 403, 403, 201, 400]))  # outsider: names what they cannot see
STALE = dict(zip(ROLES, [401, 409, 403, 409, 404]))

API = [
    ("collections", "get", api("collections/"), None, API_READ),
    # Coverage judgments (issue 21)
    ("unit sets", "get", api("unit-sets/"), None, API_READ),
    ("judgment tasks", "get", api("judgment-tasks/"), None, API_READ),
    ("coverage judgments", "get", api("coverage-judgments/"), None, API_READ),
    ("own judgment task", "get", api("judgment-tasks/{own_task}/"), None, API_VISIBLE),
    ("other's judgment task", "get", api("judgment-tasks/{other_task}/"), None, API_OWN_ONLY),
    (
        "answer own judgment task, stale",
        "post",
        api("judgment-tasks/{own_task}/answer/"),
        lambda w: {"version": 0, "units_version": 1, "unit": w["unit"].pk, "value": 1},
        dict(zip(ROLES, [401, 409, 403, 403, 404])),
    ),
    ("collection", "get", api("collections/{collection}/"), None, API_VISIBLE),
    (
        "collection create",
        "post",
        api("collections/"),
        lambda w: {"name": "New"},
        dict(API_WRITE, outsider=403),
    ),
    (
        "collection update",
        "patch",
        api("collections/{collection}/"),
        lambda w: {"description": "x"},
        dict(zip(ROLES, [401, 403, 403, 200, 404])),
    ),
    ("docsets", "get", api("docsets/"), None, API_READ),
    ("docset", "get", api("docsets/{docset}/"), None, API_VISIBLE),
    (
        "docset create",
        "post",
        api("docsets/"),
        lambda w: {"collection": w["collection"].pk, "name": "D9"},
        API_WRITE,
    ),
    ("summaries", "get", api("summaries/"), None, API_READ),
    ("own peer", "get", api("summaries/{peer1}/"), None, API_VISIBLE),
    ("other's peer", "get", api("summaries/{peer2}/"), None, dict(API_VISIBLE, annotator=404)),
    ("a model", "get", api("summaries/{model}/"), None, API_VISIBLE),
    (
        "a peer not assigned",
        "get",
        api("summaries/{peer3}/"),
        None,
        dict(API_VISIBLE, annotator=404),
    ),
    (
        "summary create",
        "post",
        api("summaries/"),
        lambda w: {
            "docset": w["pyramid"].docset_id,
            "kind": "peer",
            "author": "99",
            "text": "New peer.",
        },
        API_WRITE,
    ),
    ("pyramids", "get", api("pyramids/"), None, API_READ),
    ("submitted pyramid", "get", api("pyramids/{pyramid}/"), None, API_VISIBLE),
    (
        "other's pyramid",
        "get",
        api("pyramids/{other_pyramid}/"),
        None,
        dict(API_VISIBLE, annotator=404),
    ),
    (
        "consensus pyramid start",
        "post",
        api("pyramids/consensus/"),
        lambda w: {"a": w["pyramid"].pk, "b": w["own"]["pyramid"].pk, "another": True},
        dict(zip(ROLES, [401, 403, 403, 201, 404])),
    ),
    (
        "consensus pyramid",
        "get",
        lambda w: f"/api/pyramids/{w['consensus_pyramid'].pk}/",
        None,
        dict(API_VISIBLE, annotator=404),
    ),
    (
        "decide a group, stale",
        "post",
        lambda w: f"/api/pyramids/{w['consensus_pyramid'].pk}/actions/keep_group/",
        lambda w: {"version": 0, "group": "x"},
        dict(STALE, annotator=404),
    ),
    (
        "consensus annotation start",
        "post",
        api("peer-annotations/consensus/"),
        lambda w: {"annotations": [w["annotations"]["1"].pk, w["own"]["annotation"].pk]},
        dict(zip(ROLES, [401, 404, 403, 201, 404])),
    ),
    (
        "decide an SCU, stale",
        "post",
        lambda w: f"/api/peer-annotations/{w['consensus_annotation'].pk}/actions/keep_reading/",
        lambda w: {"version": 0, "scu": 1},
        dict(STALE, annotator=404),
    ),
    (
        "pyramid create",
        "post",
        api("pyramids/"),
        lambda w: {"docset": w["pyramid"].docset_id, "name": "P2"},
        API_WRITE,
    ),
    (
        "edit own pyramid, stale",
        "post",
        api("pyramids/{own_pyramid}/actions/order_scus/"),
        lambda w: {"version": 0},
        STALE,
    ),
    (
        "edit other's pyramid",
        "post",
        api("pyramids/{other_pyramid}/actions/order_scus/"),
        lambda w: {"version": 0},
        dict(STALE, annotator=404),
    ),
    ("scus", "get", api("scus/"), None, API_READ),
    ("scu", "get", api("scus/{scu}/"), None, API_VISIBLE),
    ("contributors", "get", api("contributors/"), None, API_READ),
    ("contributor", "get", api("contributors/{contributor}/"), None, API_VISIBLE),
    ("spans", "get", api("spans/"), None, API_READ),
    ("span", "get", api("spans/{span}/"), None, API_VISIBLE),
    ("peer annotations", "get", api("peer-annotations/"), None, API_READ),
    ("own annotation", "get", api("peer-annotations/{own_annotation}/"), None, API_VISIBLE),
    (
        "other's annotation",
        "get",
        api("peer-annotations/{other_annotation}/"),
        None,
        dict(API_VISIBLE, annotator=404),
    ),
    (
        "annotation of an unassigned peer",
        "post",
        api("peer-annotations/"),
        lambda w: {"pyramid": w["pyramid"].pk, "peer": w["peer3"].pk},
        dict(API_WRITE, annotator=400),
    ),
    (
        "edit own annotation, stale",
        "post",
        api("peer-annotations/{own_annotation}/actions/undo/"),
        lambda w: {"version": 0},
        STALE,
    ),
    (
        "edit other's annotation",
        "post",
        api("peer-annotations/{other_annotation}/actions/undo/"),
        lambda w: {"version": 0},
        dict(STALE, annotator=404),
    ),
    ("pses", "get", api("pses/"), None, API_READ),
    ("own pse", "get", api("pses/{own_pse}/"), None, API_VISIBLE),
    ("other's pse", "get", api("pses/{other_pse}/"), None, dict(API_VISIBLE, annotator=404)),
    ("assignments", "get", api("assignments/"), None, API_READ),
    ("own assignment", "get", api("assignments/{own_assignment}/"), None, API_VISIBLE),
    (
        "other's assignment",
        "get",
        api("assignments/{other_assignment}/"),
        None,
        dict(API_VISIBLE, annotator=404),
    ),
    (
        "assign",
        "post",
        api("assignments/"),
        lambda w: {"task": "peer", "docsets": [w["pyramid"].docset_id], "annotators": ["outsider"]},
        API_WRITE,
    ),
    (
        "withdraw own",
        "post",
        api("assignments/{own_assignment}/withdraw/"),
        None,
        dict(zip(ROLES, [401, 403, 403, 200, 404])),
    ),
    (
        "reassign other's",
        "post",
        api("assignments/{other_assignment}/reassign/"),
        lambda w: {"to": "outsider"},
        dict(zip(ROLES, [401, 404, 403, 200, 404])),
    ),
    (
        "scores",
        "get",
        lambda w: f"/api/scores/?collection={w['collection'].pk}",
        None,
        dict(zip(ROLES, [401, 403, 200, 200, 404])),
    ),
    (
        "export an archive",
        "post",
        api("collections/{collection}/archive/"),
        None,
        dict(zip(ROLES, [401, 403, 202, 202, 404])),
    ),
    ("archive jobs", "get", api("archive-jobs/"), None, API_READ),
    (
        "archive job",
        "get",
        lambda w: f"/api/archive-jobs/{w['archive'].pk}/",
        None,
        dict(zip(ROLES, [401, 403, 200, 200, 404])),
    ),
    (
        "archive download",
        "get",
        lambda w: f"/api/archive-jobs/{w['archive'].pk}/download/",
        None,
        dict(zip(ROLES, [401, 403, 200, 200, 404])),
    ),
    (
        "restore job",
        "get",
        lambda w: f"/api/archive-jobs/{w['restore'].pk}/",
        None,
        dict(zip(ROLES, [401, 404, 404, 200, 404])),
    ),
    (
        "restore an archive",
        "post",
        api("archive-jobs/"),
        lambda w: {"name": "X"},
        dict(zip(ROLES, [401, 403, 403, 400, 403])),
    ),
    ("schema", "get", lambda w: "/api/schema/", None, dict(zip(ROLES, [401, 200, 200, 200, 200]))),
]


def request(client, world, role, method, url, data, api_call):
    if role != "anonymous":
        client.force_login(world[role])
    body = data(world) if data else None
    if api_call:
        return getattr(client, method)(
            url(world),
            json.dumps(body) if body is not None else None,
            content_type="application/json",
        )
    return getattr(client, method)(url(world), body or {})


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("label", "method", "url", "data", "expected"), PAGES, ids=[row[0] for row in PAGES]
)
def test_pages(client, world, role, label, method, url, data, expected):
    response = request(client, world, role, method, url, data, api_call=False)
    assert response.status_code == expected[role], response.content.decode()[:300]
    if response.status_code == 302 and role == "anonymous":
        assert response.url.startswith(reverse("login"))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("label", "method", "url", "data", "expected"), API, ids=[row[0] for row in API]
)
def test_api(client, world, role, label, method, url, data, expected):
    response = request(client, world, role, method, url, data, api_call=True)
    assert response.status_code == expected[role], response.content.decode()[:300]


def test_an_outsiders_lists_are_empty_and_an_annotators_hold_their_own(client, world):
    client.force_login(world["outsider"])
    for path in (
        "collections",
        "docsets",
        "summaries",
        "pyramids",
        "scus",
        "peer-annotations",
        "pses",
        "assignments",
    ):
        assert client.get(f"/api/{path}/").json()["count"] == 0, path
    client.force_login(world["annotator"])
    assert [a["id"] for a in client.get("/api/peer-annotations/").json()["results"]] == [
        world["own"]["annotation"].pk
    ]
    assert {a["user"] for a in client.get("/api/assignments/").json()["results"]} == {"annotator"}
    peers = {s["author"] for s in client.get("/api/summaries/?kind=peer").json()["results"]}
    assert peers == {"1"}  # their own peer, not the docset's others


def test_a_token_authenticates_api_calls_and_nothing_else(client, world):
    token = Token.objects.create(user=world["organizer"])
    response = client.get("/api/collections/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200
    assert response.json()["count"] == 1
    assert (
        client.get("/api/collections/", HTTP_AUTHORIZATION="Token not-a-token").status_code == 401
    )
    assert (
        client.get(reverse("home"), HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 302
    )  # pages need a session
