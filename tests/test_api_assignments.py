"""/api/assignments/: bulk assignment, withdraw and reassign, as the pages do them."""

import pytest

from annotator.models import Assignment

pytestmark = pytest.mark.django_db


def test_bulk_assign_then_withdraw_and_reassign(client, demo):
    client.force_login(demo["admin"])
    report = client.post("/api/assignments/", {"task": "peer", "docsets": [demo["pyramid"].docset_id],
                                               "annotators": ["outsider", "organizer"], "mode": "round_robin"},
                         content_type="application/json")
    assert report.status_code == 201
    body = report.json()
    assert [(a["peer"], a["user"]) for a in body["created"]][0][1] == "outsider" and len(body["created"]) == 3
    first = body["created"][0]["id"]
    assert client.post(f"/api/assignments/{first}/withdraw/").json()["status"] == "withdrawn"
    moved = client.post(f"/api/assignments/{first}/reassign/", {"to": "annotator"}, content_type="application/json")
    assert moved.status_code == 422 and "already" in moved.json()["detail"]  # withdrawn work is not handed on twice


def test_unknown_annotators_are_named(client, demo):
    client.force_login(demo["admin"])
    response = client.post("/api/assignments/", {"task": "peer", "docsets": [demo["pyramid"].docset_id],
                                                 "annotators": ["nobody", "outsider"]}, content_type="application/json")
    assert response.status_code == 400 and "nobody" in response.json()["annotators"]
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()


def test_ids_no_database_can_hold_are_refused_not_crashed_on(client, demo):
    client.force_login(demo["admin"])
    response = client.post("/api/assignments/", {"task": "peer", "docsets": [2**70], "annotators": ["outsider"]},
                           content_type="application/json")
    assert response.status_code == 400 and "docsets" in response.json()
    edit = client.post(f"/api/peer-annotations/{demo['annotations']['1'].pk}/actions/remove_pse/",
                       {"version": 1, "pse": 2**70}, content_type="application/json")
    assert edit.status_code == 422
