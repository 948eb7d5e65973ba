"""/api/pyramids/: create a pyramid and build it through the same actions as the page, versions and all."""

import pytest

from annotator.models import Pyramid

pytestmark = pytest.mark.django_db


def act(client, pyramid_id, name, **body):
    return client.post(f"/api/pyramids/{pyramid_id}/actions/{name}/", body, content_type="application/json")


def test_build_a_pyramid_through_the_api(client, demo):
    client.force_login(demo["admin"])
    created = client.post("/api/pyramids/", {"docset": demo["pyramid"].docset_id, "name": "DEMO01-api"},
                          content_type="application/json").json()
    assert created["status"] == "in_progress" and len(created["models"]) == 4 and created["created_by"] == "admin"
    pyramid_id, model = created["id"], created["models"][0]
    first = act(client, pyramid_id, "new_scu", version=1, summary=model, ranges=[[0, 9]])
    assert first.status_code == 200 and first.json() == {"version": 2, "description": "New SCU 1 “Apollo 11”"}
    assert act(client, pyramid_id, "set_label", version=2, scu=1, label="The landing").json()["version"] == 3
    stale = act(client, pyramid_id, "set_label", version=2, scu=1, label="Lost update")
    assert stale.status_code == 409 and stale.json()["current_version"] == 3
    assert Pyramid.objects.get(pk=pyramid_id).scus.get().label == "The landing"


def test_refusals_say_why(client, demo):
    client.force_login(demo["admin"])
    submitted = demo["pyramid"]
    response = act(client, submitted.pk, "set_label", version=submitted.version, scu=1, label="x")
    assert response.status_code == 403 and "submitted and read-only" in response.json()["detail"]
    assert act(client, submitted.pk, "no_such_thing", version=1).status_code == 404
    bad = act(client, submitted.pk, "reopen", version=submitted.version)
    assert bad.status_code == 200
    assert act(client, submitted.pk, "set_label", version=bad.json()["version"], scu=1).status_code == 422  # no label


def test_a_docset_without_models_cannot_have_a_pyramid(client, demo):
    from annotator.models import Docset

    client.force_login(demo["admin"])
    empty = Docset.objects.create(collection=demo["collection"], name="EMPTY")
    response = client.post("/api/pyramids/", {"docset": empty.pk, "name": "P"}, content_type="application/json")
    assert response.status_code == 400 and "at least two model summaries" in response.json()["docset"]


def test_a_pyramid_name_taken_in_its_docset_is_refused(client, demo):
    client.force_login(demo["admin"])
    response = client.post("/api/pyramids/", {"docset": demo["pyramid"].docset_id, "name": "DEMO01"},
                           content_type="application/json")
    assert response.status_code == 400 and response.json()["name"] == ["Docset DEMO01 already has a pyramid named DEMO01."]
    assert Pyramid.objects.filter(name="DEMO01").count() == 1
