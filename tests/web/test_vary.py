"""annotator.web.vary: every answer varies on HX-Request, so that a cache (the browser's, on Back)
never gives the table htmx fetched for the whole page at the same address."""

import pytest

pytestmark = pytest.mark.django_db


def varies_on(response) -> set[str]:
    return {name.strip().lower() for name in response.get("Vary", "").split(",")}


def test_the_progress_page_and_its_table_vary_on_hx_request(client, demo):
    client.force_login(demo["admin"])
    url = f"/collections/{demo['collection'].pk}/progress/"
    whole, table = client.get(url), client.get(url, headers={"HX-Request": "true"})
    assert whole.status_code == table.status_code == 200
    assert b"<html" in whole.content  # two answers at one address
    assert b"<html" not in table.content
    assert "hx-request" in varies_on(whole)
    assert "hx-request" in varies_on(table)
    assert "cookie" in varies_on(whole)  # what varied before still does


def test_any_answer_varies_on_it(client):
    assert "hx-request" in varies_on(client.get("/accounts/login/"))
