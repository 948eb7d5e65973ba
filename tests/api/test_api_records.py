"""/api/scus/, /api/contributors/, /api/spans/, /api/pses/: the pyramid and its matches,
read-only."""

import pytest

from annotator.models import SCU

pytestmark = pytest.mark.django_db


def test_scus_carry_their_weight_contributors_and_spans(
    client, demo, django_assert_max_num_queries
):
    client.force_login(demo["organizer"])
    with django_assert_max_num_queries(12):
        scus = client.get(f"/api/scus/?pyramid={demo['pyramid'].pk}").json()["results"]
    first = next(s for s in scus if s["uid"] == 1)
    assert first["weight"] == 4
    assert len(first["contributors"]) == 4
    assert all(c["spans"] for c in first["contributors"])
    assert (
        client.put(f"/api/scus/{first['id']}/", {}, content_type="application/json").status_code
        == 405
    )


def test_spans_give_the_words_they_cover(client, demo):
    client.force_login(demo["organizer"])
    scu = SCU.objects.get(pyramid=demo["pyramid"], uid=1)
    spans = client.get(f"/api/spans/?contributor__scu={scu.pk}").json()["results"]
    span = next(s for s in spans if s["text"] == "in July 1969")
    contributor = client.get(f"/api/contributors/{span['contributor']}/").json()
    assert len(contributor["spans"]) == 2  # model C's discontinuous contributor


def test_the_browsable_api_names_the_records_as_the_method_does(client, demo):
    """Issue 17: DRF named the pages from the class names: "Scu List", "Pse Instance", "Api Root";
    its filter forms said "Scu"."""
    import re

    client.force_login(demo["organizer"])
    scu = SCU.objects.filter(pyramid=demo["pyramid"]).first()

    def heading(url):
        page = client.get(url, HTTP_ACCEPT="text/html").content.decode()
        return re.search(r"<h1>(.*?)</h1>", page).group(1), page

    assert heading("/api/scus/")[0] == "SCUs"
    assert heading(f"/api/scus/{scu.pk}/")[0] == "SCU"
    title, page = heading("/api/pses/")
    assert title == "PSEs"
    assert ">SCU:</label>" in page
    assert "Scu" not in page
    assert heading("/api/peer-annotations/")[0] == "Peer annotations"
    assert heading("/api/")[0] == "API Root"
    assert client.options("/api/scus/").json()["name"] == "SCUs"
