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


def test_a_fractional_x_a_is_a_number(client, demo):
    """The demo pyramid's 25 contributors over 4 models, not rounded (PyrEval v2): X_a = 6.25, and
    Max(X_a) = the 6 heaviest SCUs (19) and a quarter of the next (a 2)."""
    demo["collection"].average_rounding = "fractional"
    demo["collection"].save()
    client.force_login(demo["organizer"])
    rows = client.get(f"/api/scores/?collection={demo['collection'].pk}").json()
    assert {(r["average_rounding"], r["average_scu_count"], r["max_modified"]) for r in rows} == {("fractional", 6.25, 19.5)}
    assert rows[0]["modified"] == 19 / 19.5
    demo["collection"].average_rounding = "half_up"
    demo["collection"].save()
    whole = client.get(f"/api/scores/?collection={demo['collection'].pk}").json()[0]
    assert isinstance(whole["average_scu_count"], int) and isinstance(whole["max_modified"], int)
