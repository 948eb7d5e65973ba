"""/api/scores/: the rows export_scores writes, for the collection's readers, a page at a time."""

import pytest

from annotator.models import PeerAnnotation
from annotator.peer_annotation import editing as peer_editing
from scoring.scores.records import score_collection
from tests.helpers import refuses_nul

pytestmark = pytest.mark.django_db


def all_rows(client, url: str) -> list[dict]:
    """Every row of /api/scores/, page after page (the `next` links)."""
    rows = []
    while url:
        page = client.get(url)
        assert page.status_code == 200, page.content
        rows += page.json()["results"]
        url = page.json()["next"]
    return rows


def test_scores_equal_export_scores(client, demo):
    client.force_login(demo["organizer"])
    rows = client.get(f"/api/scores/?collection={demo['collection'].pk}").json()["results"]
    expected = [row.as_dict() for row in score_collection(demo["collection"])]
    assert rows == expected


def more_annotations(
    demo, how_many: int, complete: bool = True, prefix: str = "x"
) -> list[PeerAnnotation]:
    """`how_many` more annotations of the demo peers (by annotators `prefix`00, `prefix`01, ...),
    each with a PSE, marked complete (or not)."""
    peers = [a.peer for a in demo["annotations"].values()]
    made = []
    for i in range(how_many):
        annotation = PeerAnnotation.objects.create(
            pyramid=demo["pyramid"], peer=peers[i % 3], annotator_code=f"{prefix}{i:02}"
        )
        peer_editing.assign(annotation.pk, demo["admin"], annotation.version, [(0, 6)], 1)
        if complete:
            peer_editing.complete(annotation.pk, demo["admin"], annotation.version + 1)
        made.append(annotation)
    return made


def test_scores_are_paginated_like_every_list_in_the_order_of_export_scores(client, demo):
    """The page is cut in the database and only its rows are scored (issue 16: the whole list was
    226 KB and 109 ms for 462 rows); `count`, `next` and `previous` as every list of the API."""
    more_annotations(demo, 4)
    client.force_login(demo["organizer"])
    base = f"/api/scores/?collection={demo['collection'].pk}"
    first = client.get(base + "&page_size=3").json()
    assert set(first) == {"count", "next", "previous", "results"}
    assert first["count"] == 7
    assert len(first["results"]) == 3
    assert first["previous"] is None
    assert "page=2" in first["next"]
    assert "page_size=3" in first["next"]
    expected = [row.as_dict() for row in score_collection(demo["collection"])]
    assert all_rows(client, base + "&page_size=3") == expected == client.get(base).json()["results"]
    assert client.get(base + "&page=9").status_code == 404


def test_a_page_is_at_most_the_cap_whatever_is_asked(client, demo, monkeypatch):
    more_annotations(demo, 2)
    monkeypatch.setattr("scoring.scores.api.ScorePagination.max_page_size", 4)
    client.force_login(demo["organizer"])
    base = f"/api/scores/?collection={demo['collection'].pk}"
    assert len(client.get(base + "&page_size=1000").json()["results"]) == 4
    assert (
        len(client.get(base + "&page_size=nonsense").json()["results"]) == 5
    )  # the default page (100)


def test_a_page_takes_the_same_queries_whatever_its_number_of_rows(
    client, demo, django_assert_max_num_queries
):
    client.force_login(demo["organizer"])
    url = f"/api/scores/?collection={demo['collection'].pk}"
    # The session, the user and their permissions (2), the collection and the role, then the count,
    # the page, and its SCU weights, model counts and PSEs: 11, however many rows.
    with django_assert_max_num_queries(11):
        assert len(client.get(url).json()["results"]) == 3
    more_annotations(demo, 30)
    with django_assert_max_num_queries(11):
        assert len(client.get(url).json()["results"]) == 33


def test_the_collection_is_required(client, demo):
    client.force_login(demo["organizer"])
    missing = client.get("/api/scores/")
    # Shaped as every validation error of the API (and as the schema's BadRequest): lists of
    # messages.
    assert missing.status_code == 400
    assert missing.json() == {"collection": ["Give the collection's id."]}


def test_a_fractional_x_a_is_a_number(client, demo):
    """The demo pyramid's 25 contributors over 4 models, not rounded (PyrEval v2): X_a = 6.25, and
    Max(X_a) = the 6 heaviest SCUs (19) and a quarter of the next (a 2)."""
    demo["collection"].average_rounding = "fractional"
    demo["collection"].save()
    client.force_login(demo["organizer"])
    rows = client.get(f"/api/scores/?collection={demo['collection'].pk}").json()["results"]
    assert {(r["average_rounding"], r["average_scu_count"], r["max_modified"]) for r in rows} == {
        ("fractional", 6.25, 19.5)
    }
    assert rows[0]["modified"] == 19 / 19.5
    demo["collection"].average_rounding = "half_up"
    demo["collection"].save()
    whole = client.get(f"/api/scores/?collection={demo['collection'].pk}").json()["results"][0]
    assert isinstance(whole["average_scu_count"], int)
    assert isinstance(whole["max_modified"], int)


def test_the_docset_is_given_by_its_id_or_its_name_and_an_unknown_one_is_400(
    client, demo, django_user_model
):
    """One convention with every other endpoint (ids), names still accepted; an unknown value,
    or another collection's docset, answers 400 rather than an empty list (issue 15)."""
    from annotator.models import Collection, Docset

    client.force_login(demo["organizer"])
    base = f"/api/scores/?collection={demo['collection'].pk}"
    docset = demo["pyramid"].docset
    everything = client.get(base).json()
    assert everything["count"] == 3
    assert client.get(f"{base}&docset={docset.pk}").json() == everything
    assert client.get(f"{base}&docset={docset.name}").json() == everything
    other = Docset.objects.create(collection=Collection.objects.create(name="Other"), name="D9999")
    for unknown in ("NONE", str(other.pk), "D9999", "99999999", "99999999999999999999"):
        answer = client.get(f"{base}&docset={unknown}")
        assert answer.status_code == 400, unknown
        assert isinstance(answer.json()["docset"], list), unknown


def test_the_api_roots_links_are_the_apis(client, demo):
    """The root's `collections` pointed at the HTML page /collections/ (the router's names clashed
    with the pages'): every link of the root is under /api/."""
    client.force_login(demo["organizer"])
    root = client.get("/api/", HTTP_ACCEPT="application/json").json()
    assert root["collections"].endswith("/api/collections/")
    assert all("/api/" in link for link in root.values()), root
    assert (
        client.get(root["collections"], HTTP_ACCEPT="application/json").json()["results"][0]["name"]
        == demo["collection"].name
    )


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("&docset=DEMO01%00", "docset"),
        ("&adjudicated=true%00", "adjudicated"),
        ("&page=1%00", "page"),
        ("&include=in-progress%00", "include"),
    ],
)
def test_a_nul_character_in_the_query_is_refused_as_bad_input(client, demo, query, field):
    """The docset is looked up by name: a NUL was a 500 (issue 16). 400, as JSON naming the
    parameter."""
    client.force_login(demo["organizer"])
    answer = client.get(f"/api/scores/?collection={demo['collection'].pk}{query}")
    assert refuses_nul(answer, field)
    assert list(answer.json()) == [field]


# -- work in progress (issue 17) -----------------------------------------------------------------


def test_work_in_progress_only_with_include_in_progress_and_each_row_says_its_status(client, demo):
    """Rows in progress were listed with nothing to mark them (issue 17)."""
    made = more_annotations(demo, 2, complete=False)
    client.force_login(demo["organizer"])
    base = f"/api/scores/?collection={demo['collection'].pk}"
    default = client.get(base).json()
    assert default["count"] == 3
    assert {r["status"] for r in default["results"]} == {"submitted"}
    rows = all_rows(client, base + "&include=in-progress&page_size=2")
    assert len(rows) == 5
    assert sorted(r["annotation_id"] for r in rows if r["status"] == "in_progress") == [
        a.pk for a in made
    ]
    assert rows == [
        row.as_dict() for row in score_collection(demo["collection"], include_in_progress=True)
    ]
    for wrong in ("in_progress", "all", "submitted"):
        answer = client.get(f"{base}&include={wrong}")
        assert answer.status_code == 400, wrong
        assert list(answer.json()) == ["include"], wrong


def test_the_schema_documents_the_status_and_the_include_parameter(client, demo):
    client.force_login(demo["organizer"])
    schema = client.get("/api/schema/?format=json").json()
    (include,) = [
        p for p in schema["paths"]["/api/scores/"]["get"]["parameters"] if p["name"] == "include"
    ]
    assert include["schema"]["enum"] == ["in-progress"]
    assert "submitted annotations only" in include["description"]
    status = schema["components"]["schemas"]["ScoreRow"]["properties"]["status"]
    if "allOf" in status:  # a shared enum, by reference
        status = schema["components"]["schemas"][status["allOf"][0]["$ref"].rpartition("/")[2]]
    assert sorted(status["enum"]) == ["in_progress", "submitted"]
