"""/api/judgments/: human judgments of summaries, read-only, filtered by collection, docset,
summary, kind and criterion, readable by whoever reads the summary judged."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotator.models import Collection, Docset, HumanJudgment, Membership, Role, Summary

pytestmark = pytest.mark.django_db


def get(client, path, status=200):
    response = client.get(path)
    assert response.status_code == status, response.content[:300]
    return response.json()


def peer(demo, author):
    return demo["annotations"][author].peer


@pytest.fixture
def judged(demo):
    """The demo's content responsiveness of its three peers, a linguistic quality of peer 1 by two
    judges, and a judgment in another collection."""
    for judge, value in [("J1", 4.0), ("J2", 3.5)]:
        HumanJudgment.objects.create(
            summary=peer(demo, "1"), criterion="linguistic quality 1", judge=judge, value=value
        )
    other = Docset.objects.create(collection=Collection.objects.create(name="Other"), name="D0001")
    summary = Summary.objects.create(docset=other, kind="peer", author="7", text="Another peer.")
    HumanJudgment.objects.create(summary=summary, criterion="content responsiveness", value=1)
    return {"other_collection": other.collection, "other_docset": other}


def test_every_judgment_with_its_summary(client, demo, judged):
    client.force_login(demo["organizer"])
    page = get(client, "/api/judgments/")
    assert page["count"] == 5  # the demo collection's only
    first = page["results"][0]
    assert first == {
        "id": first["id"],
        "collection": demo["collection"].pk,
        "docset": demo["pyramid"].docset_id,
        "summary": peer(demo, "1").pk,
        "kind": "peer",
        "author": "1",
        "criterion": "content responsiveness",
        "judge": "",
        "value": 5.0,
    }
    assert [(j["author"], j["criterion"], j["judge"]) for j in page["results"]][:3] == [
        ("1", "content responsiveness", ""),
        ("1", "linguistic quality 1", "J1"),
        ("1", "linguistic quality 1", "J2"),
    ]
    assert get(client, f"/api/judgments/{first['id']}/") == first


def test_filters(client, demo, judged):
    client.force_login(demo["admin"])  # reads both collections

    def authors(query):
        return sorted(
            (j["author"], j["criterion"], j["value"])
            for j in get(client, "/api/judgments/?" + query)["results"]
        )

    assert len(authors("")) == 6
    assert authors(f"collection={judged['other_collection'].pk}") == [
        ("7", "content responsiveness", 1.0)
    ]
    assert len(authors(f"collection={demo['collection'].pk}")) == 5
    assert len(authors(f"docset={demo['pyramid'].docset_id}")) == 5
    assert authors(f"summary={peer(demo, '2').pk}") == [("2", "content responsiveness", 3.0)]
    assert authors("criterion=linguistic%20quality%201") == [
        ("1", "linguistic quality 1", 3.5),
        ("1", "linguistic quality 1", 4.0),
    ]
    assert authors("criterion=linguistic%20quality%201&judge=J2") == [
        ("1", "linguistic quality 1", 3.5)
    ]
    assert authors(f"docset={demo['pyramid'].docset_id}&criterion=content%20responsiveness") == [
        ("1", "content responsiveness", 5.0),
        ("2", "content responsiveness", 3.0),
        ("3", "content responsiveness", 2.0),
    ]
    assert authors("kind=model") == []
    assert [
        j["value"]
        for j in get(client, "/api/judgments/?criterion=content%20responsiveness&ordering=-value")[
            "results"
        ]
    ] == [5.0, 3.0, 2.0, 1.0]


def test_who_reads_which_judgments(client, demo, judged, django_user_model):
    """The permissions of the summaries judged: readers of a collection all of its judgments; an
    annotator those of the peers assigned to them; anyone else none (404 for one)."""
    adjudicator = django_user_model.objects.create_user("adjudicator")
    Membership.objects.create(
        collection=demo["collection"], user=adjudicator, role=Role.ADJUDICATOR
    )
    other_judgment = HumanJudgment.objects.get(summary__docset=judged["other_docset"])
    peer_2 = HumanJudgment.objects.get(summary=peer(demo, "2"))
    expected = {
        "admin": 6,
        "organizer": 5,
        "adjudicator": 5,
        "annotator": 3,
        "other_annotator": 1,
        "outsider": 0,
    }
    users = {**demo, "adjudicator": adjudicator}
    for who, count in expected.items():
        client.force_login(users[who])
        listed = get(client, "/api/judgments/")["results"]
        assert len(listed) == count, who
        readable = {
            "admin": True,
            "organizer": True,
            "adjudicator": True,
            "other_annotator": True,
        }.get(who, False)
        assert client.get(f"/api/judgments/{peer_2.pk}/").status_code == (
            200 if readable else 404
        ), who
        assert client.get(f"/api/judgments/{other_judgment.pk}/").status_code == (
            200 if who == "admin" else 404
        ), who
    client.force_login(demo["annotator"])
    assert {j["author"] for j in get(client, "/api/judgments/")["results"]} == {"1"}


def test_anonymous_callers_are_refused_and_nothing_is_written(client, demo):
    assert client.get("/api/judgments/").status_code == 401
    client.force_login(demo["admin"])
    judgment = HumanJudgment.objects.first()
    assert (
        client.post(
            "/api/judgments/",
            {"summary": judgment.summary_id, "criterion": "x", "value": 1},
            content_type="application/json",
        ).status_code
        == 405
    )
    assert client.delete(f"/api/judgments/{judgment.pk}/").status_code == 405


def test_unknown_filter_values_are_refused(client, demo):
    client.force_login(demo["admin"])
    assert client.get("/api/judgments/?collection=999999").status_code == 400
    assert client.get("/api/judgments/?kind=draft").status_code == 400


@pytest.mark.parametrize("who", ["organizer", "annotator"])
def test_the_same_queries_whatever_the_number_of_judgments(
    client, demo, who, django_assert_max_num_queries
):
    client.force_login(demo[who])

    def count():
        with CaptureQueriesContext(connection) as captured, django_assert_max_num_queries(6):
            assert client.get("/api/judgments/").status_code == 200
        return len(captured)

    few = count()
    HumanJudgment.objects.bulk_create(
        HumanJudgment(summary=summary, criterion=f"linguistic quality {i}", value=i)
        for summary in Summary.objects.filter(kind="peer")
        for i in range(1, 6)
    )
    assert count() == few


def test_documented_in_the_schema(client, demo):
    client.force_login(demo["admin"])
    schema = client.get("/api/schema/?format=json").json()
    listing = schema["paths"]["/api/judgments/"]["get"]
    assert {p["name"] for p in listing["parameters"]} >= {
        "collection",
        "docset",
        "summary",
        "kind",
        "criterion",
        "page",
    }
    assert listing["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "PaginatedJudgmentList"
    )
    assert set(schema["paths"]["/api/judgments/{id}/"]) == {"get"}
