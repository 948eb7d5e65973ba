"""/api/scores/: the rows export_scores writes, for the collection's readers."""

import pytest

from scoring.records import score_collection

pytestmark = pytest.mark.django_db


def test_scores_equal_export_scores(client, demo):
    client.force_login(demo["organizer"])
    rows = client.get(f"/api/scores/?collection={demo['collection'].pk}").json()
    expected = [row.as_dict() for row in score_collection(demo["collection"])]
    assert [(r["peer"], r["modified"], r["raw_score"]) for r in rows] == [(e["peer"], e["modified"], e["raw_score"]) for e in expected]



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


def test_the_docset_is_given_by_its_id_or_its_name_and_an_unknown_one_is_400(client, demo, django_user_model):
    """One convention with every other endpoint (ids), names still accepted; an unknown value,
    or another collection's docset, answers 400 rather than an empty list (issue 15)."""
    from annotator.models import Collection, Docset

    client.force_login(demo["organizer"])
    base = f"/api/scores/?collection={demo['collection'].pk}"
    docset = demo["pyramid"].docset
    everything = client.get(base).json()
    assert len(everything) == 3
    assert client.get(f"{base}&docset={docset.pk}").json() == everything
    assert client.get(f"{base}&docset={docset.name}").json() == everything
    other = Docset.objects.create(collection=Collection.objects.create(name="Other"), name="D9999")
    for unknown in ("NONE", str(other.pk), "D9999", "99999999", "99999999999999999999"):
        answer = client.get(f"{base}&docset={unknown}")
        assert answer.status_code == 400 and "docset" in answer.json(), unknown


def test_the_api_roots_links_are_the_apis(client, demo):
    """The root's `collections` pointed at the HTML page /collections/ (the router's names clashed
    with the pages'): every link of the root is under /api/."""
    client.force_login(demo["organizer"])
    root = client.get("/api/", HTTP_ACCEPT="application/json").json()
    assert root["collections"].endswith("/api/collections/")
    assert all("/api/" in link for link in root.values()), root
    assert client.get(root["collections"], HTTP_ACCEPT="application/json").json()["results"][0]["name"] == demo["collection"].name
