"""/api/collections/ and /api/docsets/ and /api/summaries/: read, create, filter, paginate."""

import pytest

pytestmark = pytest.mark.django_db


def test_create_a_collection_then_a_docset_and_summaries(client, demo):
    client.force_login(demo["admin"])
    collection = client.post("/api/collections/", {"name": "TAC 2008", "weight_convention": "models"},
                             content_type="application/json").json()
    assert collection["weight_convention"] == "models" and collection["average_rounding"] == "half_up"
    docset = client.post("/api/docsets/", {"collection": collection["id"], "name": "D0801"}, content_type="application/json")
    assert docset.status_code == 201
    summary = {"docset": docset.json()["id"], "kind": "model", "author": "A", "text": "A model."}
    assert client.post("/api/summaries/", summary, content_type="application/json").status_code == 201
    again = client.post("/api/summaries/", summary, content_type="application/json")
    assert again.status_code == 400 and "already has a model summary by A" in again.content.decode()
    peer = {"docset": docset.json()["id"], "kind": "peer", "author": "06", "text": "Line one.\r\nLine two."}
    stored = client.post("/api/summaries/", peer, content_type="application/json").json()
    assert (stored["author"], stored["text"]) == ("6", "Line one.\nLine two.")  # the same record as every path stores


def test_lists_are_paginated_and_filtered(client, demo):
    client.force_login(demo["organizer"])
    listing = client.get(f"/api/summaries/?docset={demo['pyramid'].docset_id}&kind=peer").json()
    assert listing["count"] == 3 and [s["author"] for s in listing["results"]] == ["1", "2", "3"]
    assert set(listing) == {"count", "next", "previous", "results"}


def test_summaries_cannot_be_changed(client, demo):
    client.force_login(demo["admin"])
    peer = demo["annotations"]["1"].peer_id
    response = client.patch(f"/api/summaries/{peer}/", {"text": "Changed."}, content_type="application/json")
    assert response.status_code == 405
