"""/api/collections/ and /api/docsets/ and /api/summaries/: read, create, filter, paginate."""

import pytest

from annotator.models import Collection, Docset
from tests.helpers import NUL, record_counts, refuses_nul

pytestmark = pytest.mark.django_db


def test_create_a_collection_then_a_docset_and_summaries(client, demo):
    client.force_login(demo["admin"])
    collection = client.post(
        "/api/collections/",
        {"name": "TAC 2008", "weight_convention": "models"},
        content_type="application/json",
    ).json()
    assert collection["weight_convention"] == "models"
    assert collection["average_rounding"] == "half_up"
    docset = client.post(
        "/api/docsets/",
        {"collection": collection["id"], "name": "D0801"},
        content_type="application/json",
    )
    assert docset.status_code == 201
    summary = {"docset": docset.json()["id"], "kind": "model", "author": "A", "text": "A model."}
    assert (
        client.post("/api/summaries/", summary, content_type="application/json").status_code == 201
    )
    again = client.post("/api/summaries/", summary, content_type="application/json")
    assert again.status_code == 400
    assert "already has a model summary by A" in again.content.decode()
    peer = {
        "docset": docset.json()["id"],
        "kind": "peer",
        "author": "06",
        "text": "Line one.\r\nLine two.",
    }
    stored = client.post("/api/summaries/", peer, content_type="application/json").json()
    assert (stored["author"], stored["text"]) == (
        "6",
        "Line one.\nLine two.",
    )  # the same record as every path stores


def test_lists_are_paginated_and_filtered(client, demo):
    client.force_login(demo["organizer"])
    listing = client.get(f"/api/summaries/?docset={demo['pyramid'].docset_id}&kind=peer").json()
    assert listing["count"] == 3
    assert [s["author"] for s in listing["results"]] == ["1", "2", "3"]
    assert set(listing) == {"count", "next", "previous", "results"}


def test_summaries_cannot_be_changed(client, demo):
    client.force_login(demo["admin"])
    peer = demo["annotations"]["1"].peer_id
    response = client.patch(
        f"/api/summaries/{peer}/", {"text": "Changed."}, content_type="application/json"
    )
    assert response.status_code == 405


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("patch", "collections/{collection}/"),
        ("put", "collections/{collection}/"),
        ("patch", "docsets/{docset}/"),
        ("post", "collections/"),
        ("post", "docsets/"),
        ("post", "summaries/"),
    ],
)
@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("null", "not null"),
        ("[]", "not a list"),
        ('["name"]', "not a list"),
        ('"TAC 2008"', "not a string"),
        ("7", "not a number"),
        ("true", "not true or false"),
    ],
)
def test_a_body_that_is_not_a_json_object_is_refused_and_nothing_changes(
    client, demo, method, path, body, said
):
    """A write takes a JSON object of fields (issue 16): anything else answers 400 saying so."""
    client.force_login(demo["admin"])
    before = record_counts(), list(Collection.objects.values()), list(Docset.objects.values())
    url = "/api/" + path.format(collection=demo["collection"].pk, docset=demo["pyramid"].docset_id)
    answer = getattr(client, method)(url, body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {"detail": f"The body must be a JSON object of fields, {said}."}
    assert (
        record_counts(),
        list(Collection.objects.values()),
        list(Docset.objects.values()),
    ) == before


@pytest.mark.parametrize("path", ["collections/{collection}/", "docsets/{docset}/"])
@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("", "application/json"),
        ("{}", "application/json"),
        ("", "application/x-www-form-urlencoded"),
    ],
)
def test_a_patch_with_no_field_is_refused(client, demo, path, body, content_type):
    """An empty PATCH answered 200 changing nothing (issue 16): it names no field to change."""
    client.force_login(demo["admin"])
    url = "/api/" + path.format(collection=demo["collection"].pk, docset=demo["pyramid"].docset_id)
    answer = client.patch(url, body, content_type=content_type)
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "The body names no field to change: send a JSON object of the fields to change."
    }
    assert (
        client.patch(url, {"name": "Renamed"}, content_type="application/json").status_code == 200
    )  # a field: fine


def test_a_nul_character_in_a_field_is_refused_by_the_serializer_and_nothing_is_stored(
    client, demo
):
    """DRF's text fields refuse NUL (issue 16): 400 naming the field."""
    client.force_login(demo["admin"])
    answer = client.patch(
        f"/api/collections/{demo['collection'].pk}/",
        {"description": f"Changed{NUL}"},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert answer.json() == {"description": ["Null characters are not allowed."]}
    created = client.post(
        "/api/collections/", {"name": f"TAC{NUL}2008"}, content_type="application/json"
    )
    assert created.status_code == 400
    assert created.json() == {"name": ["Null characters are not allowed."]}
    assert list(Collection.objects.values_list("name", "description")) == [
        (demo["collection"].name, demo["collection"].description)
    ]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("summaries/?author=A%00", "author"),
        ("summaries/?docset=%00", "docset"),
        ("collections/?name=%00", "name"),
        ("docsets/?ordering=name%00", "ordering"),
    ],
)
def test_a_nul_character_in_a_filter_is_refused_as_bad_input(client, demo, query, field):
    """Filters are looked up in the database: a NUL was a 500 (issue 16). 400, as JSON naming it."""
    client.force_login(demo["admin"])
    answer = client.get(f"/api/{query}")
    assert refuses_nul(answer, field)
    assert list(answer.json()) == [field]


@pytest.mark.parametrize(
    ("author", "text"),
    [
        ("42", "First line.\r\nSecond line."),
        (" 042 ", "\r\n  Old Mac.\rText.\r\n\r\n"),
        ("Z", "Tab\tand\u00a0space\r\nkept."),
    ],
)
def test_a_summary_through_the_api_is_stored_as_the_form_stores_it(client, demo, author, text):
    """One record whichever way a summary comes in: line breaks as LF, no blank space around it,
    a peer's number without leading zeros."""
    from django.urls import reverse

    from annotator.models import Docset, Summary

    client.force_login(demo["admin"])
    page_docset = demo["pyramid"].docset
    api_docset = Docset.objects.create(collection=demo["collection"], name="DEMO02")
    fields = {"kind": "peer", "author": author, "name": "", "text": text}
    client.post(reverse("summary-create", args=[page_docset.pk]), fields)
    answer = client.post(
        "/api/summaries/", {**fields, "docset": api_docset.pk}, content_type="application/json"
    )
    assert answer.status_code == 201
    by_page = Summary.objects.get(docset=page_docset, author=answer.json()["author"])
    by_api = Summary.objects.get(pk=answer.json()["id"])
    assert (by_api.author, by_api.text, by_api.name) == (by_page.author, by_page.text, by_page.name)
    assert "\r" not in by_api.text


def test_a_summary_already_there_is_refused_by_both_with_one_message(client, demo):
    from django.urls import reverse

    client.force_login(demo["admin"])
    docset = demo["pyramid"].docset
    fields = {"kind": "peer", "author": "01", "name": "", "text": "Again."}
    page = client.post(reverse("summary-create", args=[docset.pk]), fields).content.decode()
    answer = client.post(
        "/api/summaries/", {**fields, "docset": docset.pk}, content_type="application/json"
    )
    assert answer.status_code == 400
    said = "Docset DEMO01 already has a peer summary by 1."
    assert said in page
    assert answer.json() == {"non_field_errors": [said]}
