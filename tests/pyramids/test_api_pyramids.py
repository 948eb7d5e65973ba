"""/api/pyramids/: create a pyramid and build it through the same actions as the page, versions
and all."""

import pytest

from annotator.models import Pyramid, PyramidChange
from tests.helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def act(client, pyramid_id, name, **body):
    return client.post(
        f"/api/pyramids/{pyramid_id}/actions/{name}/", body, content_type="application/json"
    )


def test_build_a_pyramid_through_the_api(client, demo):
    client.force_login(demo["admin"])
    created = client.post(
        "/api/pyramids/",
        {"docset": demo["pyramid"].docset_id, "name": "DEMO01-api"},
        content_type="application/json",
    ).json()
    assert created["status"] == "in_progress"
    assert len(created["models"]) == 4
    assert created["created_by"] == "admin"
    pyramid_id, model = created["id"], created["models"][0]
    first = act(client, pyramid_id, "new_scu", version=1, summary=model, ranges=[[0, 9]])
    assert first.status_code == 200
    assert first.json() == {
        "version": 2,
        "description": "New SCU 1 “Apollo 11”",
    }
    assert (
        act(client, pyramid_id, "set_label", version=2, scu=1, label="The landing").json()[
            "version"
        ]
        == 3
    )
    stale = act(client, pyramid_id, "set_label", version=2, scu=1, label="Lost update")
    assert stale.status_code == 409
    assert stale.json()["current_version"] == 3
    assert Pyramid.objects.get(pk=pyramid_id).scus.get().label == "The landing"


def test_refusals_say_why(client, demo):
    client.force_login(demo["admin"])
    submitted = demo["pyramid"]
    response = act(client, submitted.pk, "set_label", version=submitted.version, scu=1, label="x")
    assert response.status_code == 403
    assert "submitted and read-only" in response.json()["detail"]
    assert act(client, submitted.pk, "no_such_thing", version=1).status_code == 404
    bad = act(client, submitted.pk, "reopen", version=submitted.version)
    assert bad.status_code == 200
    assert (
        act(client, submitted.pk, "set_label", version=bad.json()["version"], scu=1).status_code
        == 422
    )  # no label


@pytest.mark.parametrize(
    ("action", "field", "body"),
    [
        ("set_label", "label", {"scu": 1, "label": f"The{NUL}landing"}),
        ("set_comment", "comment", {"scu": 1, "comment": f"{NUL}"}),
        ("new_scu", "label", {"summary": None, "ranges": [[10, 19]], "label": f"landed{NUL}"}),
    ],
)
def test_a_nul_character_in_an_actions_text_is_refused_and_nothing_is_stored(
    client, demo, action, field, body
):
    """The action endpoints read their JSON by hand (annotator.editing.actions): a NUL was a 500
    (issue 16); it is refused as any bad argument of an edit is, 422 naming the field."""
    client.force_login(demo["admin"])
    created = client.post(
        "/api/pyramids/",
        {"docset": demo["pyramid"].docset_id, "name": "DEMO01-api"},
        content_type="application/json",
    ).json()
    pyramid_id = created["id"]
    act(client, pyramid_id, "new_scu", version=1, summary=created["models"][0], ranges=[[0, 9]])
    if body.get("summary", 0) is None:
        body = body | {"summary": created["models"][0]}
    response = act(client, pyramid_id, action, version=2, **body)
    assert refuses_nul(response, field, status=422)
    assert set(response.json()) == {"detail"}
    pyramid = Pyramid.objects.get(pk=pyramid_id)
    assert pyramid.version == 2
    assert list(pyramid.scus.values_list("label", "comment")) == [("Apollo 11", "")]
    assert PyramidChange.objects.filter(pyramid=pyramid).count() == 1


def test_a_docset_without_models_cannot_have_a_pyramid(client, demo):
    from annotator.models import Docset

    client.force_login(demo["admin"])
    empty = Docset.objects.create(collection=demo["collection"], name="EMPTY")
    response = client.post(
        "/api/pyramids/", {"docset": empty.pk, "name": "P"}, content_type="application/json"
    )
    assert response.status_code == 400
    (message,) = response.json()["docset"]  # a list of messages, as for every field
    assert "at least two model summaries" in message


def test_a_pyramid_name_taken_in_its_docset_is_refused(client, demo):
    client.force_login(demo["admin"])
    response = client.post(
        "/api/pyramids/",
        {"docset": demo["pyramid"].docset_id, "name": "DEMO01"},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["name"] == ["Docset DEMO01 already has a pyramid named DEMO01."]
    assert Pyramid.objects.filter(name="DEMO01").count() == 1


@pytest.mark.parametrize("path", ["pyramids/", "pyramids/{pyramid}/actions/undo/"])
@pytest.mark.parametrize("body", ["null", "[]", '"undo"'])
def test_a_body_that_is_not_a_json_object_is_refused_and_nothing_changes(client, demo, path, body):
    """Issue 16: one rule for every write of the API, said the same way."""
    client.force_login(demo["admin"])
    before = list(Pyramid.objects.values())
    answer = client.post(
        "/api/" + path.format(pyramid=demo["pyramid"].pk), body, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("The body must be a JSON object of fields, not ")
    assert list(Pyramid.objects.values()) == before
