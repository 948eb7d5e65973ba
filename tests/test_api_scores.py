"""/api/scores/: the rows export_scores writes, for the collection's readers."""

import pytest

from scoring.records import score_collection

pytestmark = pytest.mark.django_db


def test_scores_equal_export_scores(client, demo):
    client.force_login(demo["organizer"])
    rows = client.get(f"/api/scores/?collection={demo['collection'].pk}").json()
    expected = [row.as_dict() for row in score_collection(demo["collection"])]
    assert [(r["peer"], r["modified"], r["raw_score"]) for r in rows] == [(e["peer"], e["modified"], e["raw_score"]) for e in expected]
    one = client.get(f"/api/scores/?collection={demo['collection'].pk}&docset=NONE").json()
    assert one == []


def test_the_collection_is_required(client, demo):
    client.force_login(demo["organizer"])
    assert client.get("/api/scores/").status_code == 400
