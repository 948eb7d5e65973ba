"""/api/pyramid-changes/ and /api/peer-annotation-changes/: the histories the History pages show,
read-only, with the pages' permissions; the snapshots behind an option and in the detail."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.adjudication import pyramid_consensus
from annotator.models import PeerAnnotation, PeerAnnotationChange, PyramidChange
from annotator.peer_annotation import editing as peer_editing
from tests.helpers import Builder, complete_consensus_of_peer_1

pytestmark = pytest.mark.django_db

SUMMARY_FIELDS = {"id", "created_at", "user", "action", "description", "state", "decision"}


@pytest.fixture
def built(demo):
    """A pyramid the annotator builds: a new SCU, a relabel undone, then a new edit (the relabel is
    discarded), and a second pyramid nobody else sees changes to."""
    build = Builder(demo, name="built", user="annotator")
    build.new_scu("A", "Apollo 11 landed on the Moon", label="Apollo 11 landed on the Moon")
    build.do("set_label", 1, "Apollo")
    build.do("undo")
    build.do("set_comment", 1, "checked")
    return build.pyramid


def get(client, path, status=200):
    response = client.get(path)
    assert response.status_code == status, response.content[:300]
    return response.json()


def test_a_pyramids_history_newest_first(client, demo, built):
    client.force_login(demo["organizer"])
    page = get(client, f"/api/pyramid-changes/?pyramid={built.pk}")
    changes = page["results"]
    assert page["count"] == 4
    assert set(changes[0]) == {"pyramid", *SUMMARY_FIELDS}
    assert [(c["action"], c["state"]) for c in changes] == [
        ("set_comment", "applied"),
        ("undo", "applied"),
        ("set_label", "discarded"),
        ("new_scu", "applied"),
    ]
    assert changes[-1]["description"] == "New SCU 1 “Apollo 11 landed on the Moon”"
    assert {c["user"] for c in changes} == {"annotator"}
    assert all(c["decision"] is None for c in changes)
    assert [c["id"] for c in changes] == sorted(c["id"] for c in changes)[::-1]
    oldest_first = get(client, f"/api/pyramid-changes/?pyramid={built.pk}&ordering=id")["results"]
    assert [c["id"] for c in oldest_first] == [c["id"] for c in changes][::-1]


def test_filters_by_state_action_and_user(client, demo, built):
    client.force_login(demo["admin"])
    base = f"/api/pyramid-changes/?pyramid={built.pk}"
    assert [c["action"] for c in get(client, base + "&state=discarded")["results"]] == ["set_label"]
    assert get(client, base + "&action=new_scu")["count"] == 1
    assert get(client, base + "&user__username=annotator")["count"] == 4
    assert get(client, base + "&user__username=admin")["count"] == 0


def test_the_snapshots_behind_an_option_and_in_the_detail(client, demo, built):
    client.force_login(demo["organizer"])
    listed = get(client, f"/api/pyramid-changes/?pyramid={built.pk}&snapshots=true")["results"]
    relabel = next(c for c in listed if c["action"] == "set_label")
    stored = PyramidChange.objects.get(pk=relabel["id"])
    assert relabel["before"] == stored.before
    assert relabel["after"] == stored.after
    assert stored.after != stored.before
    detail = get(client, f"/api/pyramid-changes/{relabel['id']}/")
    assert detail == relabel
    assert (
        "before"
        not in get(client, f"/api/pyramid-changes/?pyramid={built.pk}&snapshots=0")["results"][0]
    )


def test_a_consensus_pyramid_says_which_decision_each_change_made(client, pair):
    consensus = pyramid_consensus.start(pair["a"], pair["b"], pair["adjudicator"])
    client.force_login(pair["adjudicator"])
    changes = get(client, f"/api/pyramid-changes/?pyramid={consensus.pk}")["results"]
    decided = [c for c in changes if c["decision"]]
    assert decided
    assert decided[0]["decision"]["choice"] == "identical"
    assert decided[0]["decision"]["groups"]
    assert decided[0]["user"] == "adjudicator"


def test_a_peer_annotations_history_with_its_decisions(client, demo):
    consensus = complete_consensus_of_peer_1(demo)
    client.force_login(demo["organizer"])
    page = get(client, f"/api/peer-annotation-changes/?annotation={consensus.pk}")
    changes = page["results"]
    assert set(changes[0]) == {"annotation", *SUMMARY_FIELDS}
    assert changes[0]["action"] == "complete"
    assert changes[0]["decision"] is None
    chosen = [c for c in changes if c["decision"]]
    theirs = demo["annotations"]["1"].pk
    assert chosen
    assert all(c["user"] == "admin" and c["state"] == "applied" for c in chosen)
    assert {c["decision"]["choice"] for c in chosen} <= {theirs, "identical"}
    detail = get(client, f"/api/peer-annotation-changes/{chosen[0]['id']}/")
    stored = PeerAnnotationChange.objects.get(pk=chosen[0]["id"])
    assert detail["before"] == stored.before
    assert detail["after"] == stored.after
    with_snapshots = get(
        client, f"/api/peer-annotation-changes/?annotation={consensus.pk}&snapshots=1"
    )["results"]
    assert {"before", "after"} <= set(with_snapshots[0])


def test_undone_and_redone_peer_changes(client, demo):
    annotation = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["2"].peer, annotator=demo["admin"]
    )
    peer_editing.assign(annotation.pk, demo["admin"], 1, [(0, 9)], 0)
    peer_editing.undo(annotation.pk, demo["admin"], 2)
    client.force_login(demo["admin"])
    path = f"/api/peer-annotation-changes/?annotation={annotation.pk}"
    changes = get(client, path)["results"]
    assert [(c["action"], c["state"]) for c in changes] == [
        ("undo", "applied"),
        ("assign", "undone"),
    ]
    assert changes[0]["description"].startswith("Undid: ")
    assert changes[0]["user"] == "admin"
    peer_editing.redo(annotation.pk, demo["admin"], 3)
    assert [c["state"] for c in get(client, path)["results"]] == ["applied", "applied", "applied"]


# -- who reads what --------------------------------------------------------------------------------


def visible_pyramid_changes(client, user, pyramid):
    client.force_login(user)
    return get(client, f"/api/pyramid-changes/?pyramid={pyramid.pk}")["count"]


def test_who_reads_a_pyramids_history(client, demo, built, django_user_model):
    from annotator.models import Membership, Role

    adjudicator = django_user_model.objects.create_user("adjudicator")
    Membership.objects.create(
        collection=demo["collection"], user=adjudicator, role=Role.ADJUDICATOR
    )
    change = built.changes.first()
    for user, count, detail in [
        (demo["admin"], 4, 200),
        (demo["organizer"], 4, 200),
        (adjudicator, 4, 200),
        (demo["annotator"], 4, 200),  # builds it
        (demo["other_annotator"], 0, 404),  # annotates peers against another pyramid
        (demo["outsider"], 0, 404),
    ]:
        assert visible_pyramid_changes(client, user, built) == count, user
        assert client.get(f"/api/pyramid-changes/{change.pk}/").status_code == detail, user


def test_who_reads_a_peer_annotations_history(client, demo):
    consensus = complete_consensus_of_peer_1(demo)
    mine = PeerAnnotation.objects.get(annotator=demo["annotator"])
    path = "/api/peer-annotation-changes/"
    client.force_login(demo["annotator"])  # their own annotation, not the consensus made of it
    assert {c["annotation"] for c in get(client, path)["results"]} == {mine.pk}
    assert client.get(f"{path}{consensus.changes.first().pk}/").status_code == 404
    client.force_login(demo["other_annotator"])
    assert get(client, path)["count"] == 0
    assert client.get(f"{path}{mine.changes.first().pk}/").status_code == 404
    client.force_login(demo["outsider"])
    assert get(client, path)["count"] == 0
    client.force_login(demo["organizer"])
    assert get(client, path)["count"] == PeerAnnotationChange.objects.count()


def test_anonymous_callers_are_refused_and_nothing_is_written(client, demo, built):
    assert client.get("/api/pyramid-changes/").status_code == 401
    assert client.get("/api/peer-annotation-changes/").status_code == 401
    client.force_login(demo["admin"])
    change = built.changes.first()
    assert (
        client.post("/api/pyramid-changes/", {}, content_type="application/json").status_code == 405
    )
    assert client.delete(f"/api/pyramid-changes/{change.pk}/").status_code == 405
    assert (
        client.patch(
            f"/api/pyramid-changes/{change.pk}/",
            {"state": "undone"},
            content_type="application/json",
        ).status_code
        == 405
    )


def queries(client, path) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


@pytest.mark.parametrize("who", ["organizer", "annotator"])
def test_the_same_queries_whatever_the_number_of_changes(
    client, demo, who, django_assert_max_num_queries
):
    build = Builder(demo, name="built", user="annotator")
    build.new_scu("A", "Apollo 11 landed on the Moon", label="Apollo 11")
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer, annotator=demo["annotator"]
    )
    peer_editing.assign(mine.pk, demo["annotator"], mine.version, [(0, 9)], 0)
    client.force_login(demo[who])
    paths = [
        f"/api/pyramid-changes/?pyramid={build.pyramid.pk}",
        "/api/pyramid-changes/?snapshots=1",
        f"/api/peer-annotation-changes/?annotation={mine.pk}",
        "/api/peer-annotation-changes/?snapshots=1",
    ]
    few = {path: queries(client, path) for path in paths}
    for n in range(5):
        build.do("set_label", 1, f"Apollo {n}")
        mine.refresh_from_db()
        peer_editing.undo(mine.pk, demo["annotator"], mine.version)
        peer_editing.redo(mine.pk, demo["annotator"], mine.version + 1)
    for path in paths:
        with django_assert_max_num_queries(8):
            assert queries(client, path) == few[path], path
    assert get(client, paths[0])["count"] == 6


def test_documented_in_the_schema(client, demo):
    client.force_login(demo["admin"])
    schema = client.get("/api/schema/?format=json").json()
    for path, record in [
        ("/api/pyramid-changes/", "pyramid"),
        ("/api/peer-annotation-changes/", "annotation"),
    ]:
        listing = schema["paths"][path]["get"]
        assert {p["name"] for p in listing["parameters"]} >= {
            record,
            "snapshots",
            "state",
            "page",
            "ordering",
        }
        assert set(schema["paths"][path + "{id}/"]) == {"get"}  # read-only
    detail = schema["components"]["schemas"]["PyramidChangeDetail"]["properties"]
    assert {
        "before",
        "after",
        "decision",
        "state",
        "user",
        "action",
        "description",
        "created_at",
    } <= set(detail)
