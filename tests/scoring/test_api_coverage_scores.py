"""/api/coverage-scores/: the coverage judgments' scores (issue 21), for the collection's readers
as /api/scores/, a page at a time; documented in the OpenAPI schema."""

import pytest

from tests.scoring.coverage_scores import (
    ROWS,
    SYSTEMS,
    close,
    coverage_collection,
    more_judged_peers,
)
from tests.scoring.test_api_scores import all_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def judged(demo):
    made = coverage_collection(demo)
    return {**demo, "demo02": made["second"]}


def base(demo) -> str:
    return f"/api/coverage-scores/?collection={demo['collection'].pk}"


def test_each_peers_scores_against_each_unit_set(client, judged):
    client.force_login(judged["organizer"])
    answer = client.get(base(judged)).json()
    assert answer["count"] == len(ROWS)
    first = answer["results"][0]
    assert first == {
        "collection": judged["collection"].name,
        "docset": "DEMO01",
        "unit_set": "Lite",
        "method": "presence",
        "peer": "1",
        "judges": 2,
        "units": 4,
        "in_progress": 0,
        "presence": 0.5,
        "presence_weighted": 5 / 7,
        "see_coverage": None,
    }
    found = {
        (r["docset"], r["unit_set"], r["peer"]): (
            r["presence"],
            r["presence_weighted"],
            r["see_coverage"],
        )
        for r in answer["results"]
    }
    assert close(found, ROWS)


def test_each_systems_means_with_view_systems(client, judged):
    client.force_login(judged["admin"])
    systems = client.get(base(judged) + "&view=systems").json()["results"]
    assert [s["peer"] for s in systems] == ["2", "1", "3"]
    found = {
        s["peer"]: (s["docsets"], s["presence"], s["presence_weighted"], s["see_coverage"])
        for s in systems
    }
    assert close(found, SYSTEMS)


def test_one_docset_and_work_in_progress_when_asked_for(client, judged):
    client.force_login(judged["organizer"])
    rows = client.get(base(judged) + "&docset=DEMO02").json()["results"]
    assert [(r["peer"], r["presence"]) for r in rows] == [("1", 0.5), ("2", 1.0)]
    by_id = client.get(base(judged) + f"&docset={judged['demo02'].pk}").json()["results"]
    assert by_id == rows
    rows = client.get(base(judged) + "&docset=DEMO02&include=in-progress").json()["results"]
    assert [(r["peer"], r["in_progress"], r["presence"]) for r in rows] == [
        ("1", 0, 0.5),
        ("2", 0, 1.0),
        ("3", 1, 1.0),
    ]
    systems = client.get(base(judged) + "&view=systems&include=in-progress").json()["results"]
    peer_3 = next(s for s in systems if s["peer"] == "3")
    assert (peer_3["docsets"], peer_3["in_progress"], peer_3["presence"]) == (2, 1, 0.5)


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("&include=all", "include"),
        ("&view=rows", "view"),
        ("&docset=NONE", "docset"),
    ],
)
def test_a_wrong_parameter_answers_400_naming_it(client, judged, query, field):
    client.force_login(judged["organizer"])
    answer = client.get(base(judged) + query)
    assert answer.status_code == 400
    assert list(answer.json()) == [field]
    missing = client.get("/api/coverage-scores/")
    assert missing.status_code == 400
    assert missing.json() == {"collection": ["Give the collection's id."]}


@pytest.mark.parametrize(("who", "status"), [("annotator", 403), ("outsider", 404)])
def test_an_annotator_is_refused_and_an_outsider_sees_nothing(client, judged, who, status):
    """As /api/scores/: an annotator sees the collection for their own work, not its scores (403);
    a user with no role in it does not see it at all (404)."""
    client.force_login(judged[who])
    for view in ("", "&view=systems"):
        answer = client.get(base(judged) + view)
        assert answer.status_code == status
        assert "results" not in answer.json()
    assert client.get("/api/scores/?collection=99999").status_code == 404


def test_anonymous_is_asked_to_authenticate(client, judged):
    assert client.get(base(judged)).status_code == 401


def test_pages_as_every_list(client, judged):
    client.force_login(judged["organizer"])
    first = client.get(base(judged) + "&page_size=3").json()
    assert set(first) == {"count", "next", "previous", "results"}
    assert len(first["results"]) == 3
    assert "page=2" in first["next"]
    assert (
        all_rows(client, base(judged) + "&page_size=3")
        == client.get(base(judged)).json()["results"]
    )
    assert client.get(base(judged) + "&page=9").status_code == 404


def test_the_same_queries_whatever_the_number_of_rows(
    client, judged, django_assert_max_num_queries
):
    client.force_login(judged["organizer"])
    # The session, the user and their permissions (2), the collection and the role; then the
    # tasks, their answers and the units' weights: 9, however many rows.
    with django_assert_max_num_queries(9) as few:
        assert client.get(base(judged)).status_code == 200
    more_judged_peers(judged, 20)
    with django_assert_max_num_queries(len(few)):
        assert client.get(base(judged) + "&page_size=1000").json()["count"] == len(ROWS) + 40


def test_the_schema_documents_the_endpoint(client, judged):
    client.force_login(judged["organizer"])
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/coverage-scores/"]["get"]
    parameters = {p["name"]: p for p in operation["parameters"]}
    assert parameters["collection"]["required"] is True
    assert parameters["view"]["schema"]["enum"] == ["systems"]
    assert parameters["include"]["schema"]["enum"] == ["in-progress"]
    assert "docset" in parameters
    pages = operation["responses"]["200"]["content"]["application/json"]["schema"]
    components = schema["components"]["schemas"]
    names = {ref["$ref"].rpartition("/")[2] for ref in components["CoverageScores"]["oneOf"]}
    assert names == {"CoverageRowPage", "CoverageSystemPage"}
    assert pages["$ref"].endswith("/CoverageScores")
    row = components["CoverageRow"]["properties"]
    assert {"presence", "presence_weighted", "see_coverage", "unit_set", "judges"} <= set(row)
    assert row["see_coverage"]["nullable"] is True
    root = client.get("/api/", HTTP_ACCEPT="application/json").json()
    assert root["coverage-scores"] == "http://testserver/api/coverage-scores/"
