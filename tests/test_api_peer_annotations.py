"""/api/peer-annotations/: annotate an assigned peer through the API; scores as export_scores has them."""

import pytest

from annotator.models import PSE, PeerAnnotation

from .helpers import NUL, refuses_nul

pytestmark = pytest.mark.django_db


def test_annotate_an_assigned_peer(client, demo):
    client.force_login(demo["annotator"])
    pyramid, peer = demo["pyramid"], demo["annotations"]["1"].peer
    created = client.post("/api/peer-annotations/", {"pyramid": pyramid.pk, "peer": peer.pk}, content_type="application/json")
    assert created.status_code == 201 and created.json()["annotator"] == "annotator"
    annotation_id = created.json()["id"]
    url = f"/api/peer-annotations/{annotation_id}/actions/assign/"
    start = peer.text.index("Apollo 11 landed")
    answer = client.post(url, {"version": 1, "scu": 1, "ranges": [[start, start + 16]]}, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["version"] == 2
    pses = client.get(f"/api/pses/?annotation={annotation_id}").json()["results"]
    assert [(p["scu_uid"], p["spans"][0]["start"]) for p in pses] == [(1, start)]
    twice = client.post("/api/peer-annotations/", {"pyramid": pyramid.pk, "peer": peer.pk}, content_type="application/json")
    assert twice.status_code == 400


def test_a_nul_character_in_an_actions_argument_is_refused_and_nothing_is_stored(client, demo):
    """Read by hand from the JSON (annotator.actions), a NUL is refused as any bad argument: 422 (issue 16)."""
    client.force_login(demo["annotator"])
    annotation = PeerAnnotation.objects.create(pyramid=demo["pyramid"], peer=demo["annotations"]["1"].peer,
                                               annotator=demo["annotator"])
    answer = client.post(f"/api/peer-annotations/{annotation.pk}/actions/assign/",
                         {"version": 1, "scu": f"1{NUL}", "ranges": [[0, 6]]}, content_type="application/json")
    assert refuses_nul(answer, "scu", status=422)
    assert PeerAnnotation.objects.get(pk=annotation.pk).version == 1 and not PSE.objects.filter(annotation=annotation).exists()


def test_the_peer_must_be_of_the_pyramids_docset(client, demo):
    from annotator.models import Docset, Summary

    client.force_login(demo["admin"])
    other = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    stranger = Summary.objects.create(docset=other, kind="peer", author="1", text="Elsewhere.")
    response = client.post("/api/peer-annotations/", {"pyramid": demo["pyramid"].pk, "peer": stranger.pk},
                           content_type="application/json")
    assert response.status_code == 400 and not PeerAnnotation.objects.filter(peer=stranger).exists()


@pytest.mark.parametrize("path", ["peer-annotations/", "peer-annotations/{annotation}/actions/undo/"])
def test_a_body_that_is_not_a_json_object_is_refused_and_nothing_changes(client, demo, path):
    """Issue 16: one rule for every write of the API, said the same way."""
    client.force_login(demo["admin"])
    before = list(PeerAnnotation.objects.values())
    answer = client.post("/api/" + path.format(annotation=demo["annotations"]["1"].pk), "null", content_type="application/json")
    assert answer.status_code == 400 and answer.json() == {"detail": "The body must be a JSON object of fields, not null."}
    assert list(PeerAnnotation.objects.values()) == before
