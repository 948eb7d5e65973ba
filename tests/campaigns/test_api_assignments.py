"""/api/assignments/: bulk assignment, withdraw and reassign, as the pages do them."""

import pytest

from annotator.models import Assignment

pytestmark = pytest.mark.django_db


def test_bulk_assign_then_withdraw_and_reassign(client, demo):
    client.force_login(demo["admin"])
    report = client.post(
        "/api/assignments/",
        {
            "task": "peer",
            "docsets": [demo["pyramid"].docset_id],
            "annotators": ["outsider", "organizer"],
            "mode": "round_robin",
        },
        content_type="application/json",
    )
    assert report.status_code == 201
    body = report.json()
    assert [(a["peer"], a["user"]) for a in body["created"]][0][1] == "outsider"
    assert len(body["created"]) == 3
    first = body["created"][0]["id"]
    assert client.post(f"/api/assignments/{first}/withdraw/").json()["status"] == "withdrawn"
    moved = client.post(
        f"/api/assignments/{first}/reassign/", {"to": "annotator"}, content_type="application/json"
    )
    assert moved.status_code == 422
    assert "already" in moved.json()["detail"]


def test_unknown_annotators_are_named(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        "/api/assignments/",
        {
            "task": "peer",
            "docsets": [demo["pyramid"].docset_id],
            "annotators": ["nobody", "outsider"],
        },
        content_type="application/json",
    )
    assert response.status_code == 400
    # Each field's messages are a list, as everywhere in the API (its schema says so).
    assert response.json() == {"annotators": ["No such active user: nobody"]}
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()


def test_unknown_docsets_pyramids_and_users_are_refused_field_by_field_as_lists(client, demo):
    client.force_login(demo["admin"])
    docset = demo["pyramid"].docset_id
    for body, expected in [
        (
            {"task": "peer", "docsets": [docset + 1000], "annotators": ["outsider"]},
            {"docsets": ["No such docset."]},
        ),
        (
            {"task": "peer", "docsets": [docset], "annotators": ["outsider"], "pyramid": 10**6},
            {"pyramid": ["No such pyramid among these docsets."]},
        ),
    ]:
        answer = client.post("/api/assignments/", body, content_type="application/json")
        assert answer.status_code == 400, body
        assert answer.json() == expected, body
    first = Assignment.objects.filter(status=Assignment.Status.ASSIGNED).first()
    moved = client.post(
        f"/api/assignments/{first.pk}/reassign/", {"to": "nobody"}, content_type="application/json"
    )
    assert moved.status_code == 400
    assert moved.json() == {"to": ["No such active user."]}
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()


def test_ids_no_database_can_hold_are_refused_not_crashed_on(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        "/api/assignments/",
        {"task": "peer", "docsets": [2**70], "annotators": ["outsider"]},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "docsets" in response.json()
    edit = client.post(
        f"/api/peer-annotations/{demo['annotations']['1'].pk}/actions/remove_pse/",
        {"version": 1, "pse": 2**70},
        content_type="application/json",
    )
    assert edit.status_code == 422


@pytest.mark.parametrize(
    "path",
    ["assignments/", "assignments/{assignment}/reassign/", "assignments/{assignment}/withdraw/"],
)
def test_a_body_that_is_not_a_json_object_is_refused_and_nothing_changes(client, demo, path):
    """Issue 16: one rule for every write of the API, said the same way (withdraw reads no body,
    but one sent must be an object all the same)."""
    client.force_login(demo["admin"])
    before = list(Assignment.objects.values())
    assignment = Assignment.objects.get(user=demo["annotator"])
    answer = client.post(
        "/api/" + path.format(assignment=assignment.pk), "[1]", content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json() == {"detail": "The body must be a JSON object of fields, not a list."}
    assert list(Assignment.objects.values()) == before


def test_a_nul_character_in_a_user_name_is_refused_by_the_serializer(client, demo):
    """Issue 16: DRF's text fields refuse NUL, naming the field; nothing is assigned."""
    client.force_login(demo["admin"])
    before = list(Assignment.objects.values())
    answer = client.post(
        "/api/assignments/",
        {"task": "peer", "docsets": [demo["pyramid"].docset_id], "annotators": ["outsider\x00"]},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert answer.json() == {"annotators": {"0": ["Null characters are not allowed."]}}
    assignment = Assignment.objects.get(user=demo["annotator"])
    moved = client.post(
        f"/api/assignments/{assignment.pk}/reassign/",
        {"to": "outsider\x00"},
        content_type="application/json",
    )
    assert moved.status_code == 400
    assert moved.json() == {"to": ["Null characters are not allowed."]}
    assert list(Assignment.objects.values()) == before


def test_peers_are_not_assigned_against_a_pyramid_still_being_edited(client, demo):
    """The Assign page offers only submitted pyramids; the API took any pyramid of the docsets."""
    from annotator.models import Pyramid

    Pyramid.objects.filter(pk=demo["pyramid"].pk).update(status=Pyramid.Status.IN_PROGRESS)
    client.force_login(demo["admin"])
    answer = client.post(
        "/api/assignments/",
        {
            "task": "peer",
            "docsets": [demo["pyramid"].docset_id],
            "annotators": ["outsider"],
            "pyramid": demo["pyramid"].pk,
        },
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "Pyramid DEMO01 is still being edited: peers are annotated against a "
        "submitted pyramid."
    }
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()


def test_a_chosen_pyramid_is_for_its_own_docset_only_as_on_the_page(client, demo):
    """The page refuses a pyramid chosen with other docsets; the API assigned the others against
    their latest submitted pyramid."""
    from annotator.models import Docset, Summary

    other = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    Summary.objects.create(docset=other, kind="peer", author="1", text="Elsewhere.")
    client.force_login(demo["admin"])
    answer = client.post(
        "/api/assignments/",
        {
            "task": "peer",
            "docsets": [demo["pyramid"].docset_id, other.pk],
            "annotators": ["outsider"],
            "pyramid": demo["pyramid"].pk,
        },
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "Pyramid DEMO01 is for docset DEMO01 only: choose just that docset."
    }
    assert not Assignment.objects.filter(user=demo["outsider"]).exists()


def test_the_report_matches_the_pages(client, demo):
    client.force_login(demo["admin"])
    body = {"task": "peer", "docsets": [demo["pyramid"].docset_id], "annotators": ["annotator"]}
    answer = client.post("/api/assignments/", body, content_type="application/json").json()
    assert (len(answer["created"]), len(answer["already"]), answer["skipped"]) == (2, 1, [])
