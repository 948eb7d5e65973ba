"""/api/pyramids/consensus/ and /api/peer-annotations/consensus/: adjudication through the API,
with the pages' rules, versions and permissions."""

import pytest

from annotator.adjudication.alignment import ONLY_A, PARTIAL, SPLIT
from annotator.models import PeerAnnotation, PyramidMerge

pytestmark = pytest.mark.django_db


def post(client, path, **body):
    return client.post(path, body, content_type="application/json")


def test_merging_two_pyramids_through_the_api(client, pair):
    client.force_login(pair["adjudicator"])
    created = post(client, "/api/pyramids/consensus/", a=pair["a"].pk, b=pair["b"].pk)
    assert created.status_code == 201, created.content
    consensus = created.json()
    assert consensus["merged_from"] == [pair["a"].pk, pair["b"].pk]
    assert consensus["status"] == "in_progress"
    groups = {
        g["kind"]: g["key"] for g in PyramidMerge.objects.get(consensus_id=consensus["id"]).groups
    }
    actions = f"/api/pyramids/{consensus['id']}/actions/"
    chosen = post(
        client,
        actions + "choose_version/",
        version=consensus["version"],
        group=groups[SPLIT],
        side="b",
    )
    assert chosen.status_code == 200
    assert "chose B's version" in chosen.json()["description"]
    stale = post(
        client, actions + "keep_group/", version=consensus["version"], group=groups[ONLY_A]
    )
    assert stale.status_code == 409
    bad_side = post(
        client,
        actions + "choose_version/",
        version=chosen.json()["version"],
        group=groups[ONLY_A],
        side="c",
    )
    assert bad_side.status_code == 422
    kept = post(
        client, actions + "keep_group/", version=chosen.json()["version"], group=groups[ONLY_A]
    )
    assert kept.status_code == 200
    # Provenance is in the records: the copies of B's SCUs point to them.
    scus = client.get(f"/api/scus/?pyramid={consensus['id']}").json()["results"]
    sources = {scu["label"]: scu["source"] for scu in scus}
    assert sources["Armstrong"] == pair["b"].scus.get(label="Armstrong").pk
    assert all(c["source"] for scu in scus for c in scu["contributors"])


def test_only_adjudicators_and_administrators_merge(client, pair):
    demo = pair["demo"]
    client.force_login(demo["annotator"])  # builds A: sees it, not B
    assert (
        post(client, "/api/pyramids/consensus/", a=pair["a"].pk, b=pair["b"].pk).status_code == 404
    )
    client.force_login(demo["organizer"])  # reads both, adjudicates nothing
    assert (
        post(client, "/api/pyramids/consensus/", a=pair["a"].pk, b=pair["b"].pk).status_code == 403
    )
    client.force_login(pair["adjudicator"])
    assert (
        post(client, "/api/pyramids/consensus/", a=pair["a"].pk, b=pair["a"].pk).status_code == 400
    )
    assert post(client, "/api/pyramids/consensus/", a=pair["a"].pk, b=2**63).status_code == 400


def test_merging_a_peers_annotations_through_the_api(client, pair):
    demo = pair["demo"]
    theirs = demo["annotations"]["2"]
    mine = PeerAnnotation.objects.create(
        pyramid=demo["pyramid"], peer=theirs.peer, annotator=demo["other_annotator"]
    )
    client.force_login(pair["adjudicator"])
    assert (
        post(client, "/api/peer-annotations/consensus/", annotations=[theirs.pk]).status_code == 400
    )
    created = post(client, "/api/peer-annotations/consensus/", annotations=[theirs.pk, mine.pk])
    assert created.status_code == 201
    consensus = created.json()
    assert consensus["annotator_code"] == "consensus"
    assert consensus["merged_from"] == sorted([theirs.pk, mine.pk])
    taken = post(
        client,
        f"/api/peer-annotations/{consensus['id']}/actions/take_reading/",
        version=consensus["version"],
        scu=0,
        source=theirs.pk,
    )
    assert taken.status_code == 200
    assert "(2 PSEs)" in taken.json()["description"]
    pses = client.get(f"/api/pses/?annotation={consensus['id']}").json()["results"]
    assert len(pses) == 2
    assert all(p["source"] for p in pses)
    client.force_login(demo["other_annotator"])
    refused = post(
        client,
        f"/api/peer-annotations/{mine.pk}/actions/keep_reading/",
        version=mine.version,
        scu=0,
    )
    assert refused.status_code == 422
    assert "not a consensus" in refused.json()["detail"]


def test_a_second_consensus_of_a_pair_is_refused_naming_the_first_unless_asked_for(client, pair):
    client.force_login(pair["adjudicator"])
    first = post(client, "/api/pyramids/consensus/", a=pair["a"].pk, b=pair["b"].pk).json()
    again = post(client, "/api/pyramids/consensus/", a=pair["b"].pk, b=pair["a"].pk)
    assert again.status_code == 400
    assert (
        f"have a consensus already: {first['name']} (id {first['id']}, in progress)"
        in again.json()["detail"]
    )
    assert PyramidMerge.objects.count() == 1
    another = post(client, "/api/pyramids/consensus/", a=pair["a"].pk, b=pair["b"].pk, another=True)
    assert another.status_code == 201
    assert PyramidMerge.objects.count() == 2


def test_merging_three_pyramids_at_once_through_the_api(client, trio):
    client.force_login(trio["adjudicator"])
    ids = [trio["a"].pk, trio["b"].pk, trio["c"].pk]
    created = post(client, "/api/pyramids/consensus/", pyramids=ids)
    assert created.status_code == 201, created.content
    consensus = created.json()
    assert consensus["merged_from"] == ids
    partial = next(
        g["key"]
        for g in PyramidMerge.objects.get(consensus_id=consensus["id"]).groups
        if g["kind"] == PARTIAL
    )
    chosen = post(
        client,
        f"/api/pyramids/{consensus['id']}/actions/choose_version/",
        version=consensus["version"],
        group=partial,
        side="c",
    )
    assert chosen.status_code == 200
    assert "chose C's version" in chosen.json()["description"]
    # The same three again: refused, naming the consensus, unless asked for.
    again = post(client, "/api/pyramids/consensus/", pyramids=[ids[2], ids[0], ids[1]])
    assert again.status_code == 400
    assert consensus["name"] in str(again.json()["detail"])
    # a/b and pyramids together, a pyramid twice, or one alone: 400, nothing made.
    for body in (
        {"a": ids[0], "pyramids": ids},
        {"pyramids": [ids[0], ids[0]]},
        {"pyramids": [ids[0]]},
        {"a": ids[0]},
    ):
        assert post(client, "/api/pyramids/consensus/", **body).status_code == 400, body
    assert PyramidMerge.objects.count() == 1


def test_listing_consensus_pyramids_takes_the_same_queries_however_many(
    client, trio, django_assert_max_num_queries
):
    """merged_from names every source (C too) without a query per pyramid."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotator.adjudication import pyramid_consensus

    client.force_login(trio["adjudicator"])
    pyramid_consensus.start_many([trio["a"], trio["b"], trio["c"]], trio["adjudicator"])
    with CaptureQueriesContext(connection) as one:
        first = client.get("/api/pyramids/").json()
    for _ in range(3):
        pyramid_consensus.start_many([trio["a"], trio["b"], trio["c"]], trio["adjudicator"])
        pyramid_consensus.start(trio["a"], trio["b"], trio["adjudicator"])
    with django_assert_max_num_queries(len(one)):
        listed = client.get("/api/pyramids/").json()
    merged = [p["merged_from"] for p in listed["results"] if p["merged_from"]]
    assert len(merged) == 7
    assert len([p for p in first["results"] if p["merged_from"]]) == 1
    assert merged.count([trio["a"].pk, trio["b"].pk, trio["c"].pk]) == 4


@pytest.mark.parametrize("path", ["/api/pyramids/consensus/", "/api/peer-annotations/consensus/"])
def test_a_body_that_is_not_a_json_object_is_refused_and_nothing_is_started(client, pair, path):
    """Issue 16: one rule for every write of the API, said the same way."""
    client.force_login(pair["adjudicator"])
    answer = client.post(path, '"a"', content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {"detail": "The body must be a JSON object of fields, not a string."}
    assert not PyramidMerge.objects.exists()
