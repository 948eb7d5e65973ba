"""/api/peer-annotations/: annotate an assigned peer through the API; scores as export_scores has them."""

import pytest

from annotator.models import PeerAnnotation

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


def test_the_peer_must_be_of_the_pyramids_docset(client, demo):
    from annotator.models import Docset, Summary

    client.force_login(demo["admin"])
    other = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    stranger = Summary.objects.create(docset=other, kind="peer", author="1", text="Elsewhere.")
    response = client.post("/api/peer-annotations/", {"pyramid": demo["pyramid"].pk, "peer": stranger.pk},
                           content_type="application/json")
    assert response.status_code == 400 and not PeerAnnotation.objects.filter(peer=stranger).exists()
