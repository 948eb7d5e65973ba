"""handler500 (annotator.web.errors): a 503 with Retry-After while the database is unreachable,
the plain 500 page for anything else; JSON for the API. Nothing of it touches the database."""

import psycopg
import pytest
from django.db import OperationalError

pytestmark = pytest.mark.django_db


def database_gone(*args, **kwargs):
    # What Django raises when PostgreSQL is away: psycopg's error, with no server code, wrapped.
    try:
        raise psycopg.OperationalError(
            "connection to server at 127.0.0.1, port 5432 failed: Connection refused"
        )
    except psycopg.OperationalError as error:
        raise OperationalError(*error.args) from error


@pytest.fixture
def no_database(monkeypatch, client, demo):
    client.force_login(demo["admin"])
    client.raise_request_exception = False
    monkeypatch.setattr(
        "django.contrib.sessions.backends.db.SessionStore._get_session_from_db", database_gone
    )
    return client


def test_a_page_says_the_site_is_back_soon_while_the_database_is_away(
    no_database, django_assert_num_queries
):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("a lost connection is told by PostgreSQL's error codes")
    with django_assert_num_queries(0):
        response = no_database.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    page = response.content.decode()
    assert "Its database is not answering" in page
    assert "Your saved work is safe" in page


def test_the_api_answers_503_in_json(no_database):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("a lost connection is told by PostgreSQL's error codes")
    response = no_database.get("/api/collections/")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json()["detail"].startswith("The database is not answering")


def test_any_other_error_is_the_plain_500_page(client, demo, monkeypatch):
    client.force_login(demo["admin"])
    client.raise_request_exception = False

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr("annotator.campaigns.views.home.render", broken)
    response = client.get("/")
    assert response.status_code == 500
    assert "Retry-After" not in response
    assert "Something went wrong on our side" in response.content.decode()


def test_while_the_database_is_away_each_request_logs_one_line_not_a_traceback(no_database):
    """An operator saw 15 tracebacks for 6 requests during an outage."""
    import logging

    from django.db import connection

    from annotator.web.database import DatabaseAwayFilter

    if connection.vendor != "postgresql":
        pytest.skip("a lost connection is told by PostgreSQL's error codes")
    try:
        database_gone()
    except OperationalError:
        import sys

        record = logging.LogRecord(
            "django.request",
            logging.ERROR,
            __file__,
            1,
            "Internal Server Error: %s",
            ("/",),
            sys.exc_info(),
        )
    assert DatabaseAwayFilter().filter(record)
    assert record.exc_info is None
    assert record.getMessage().startswith(
        "Internal Server Error: /: the database is unreachable (connection to server"
    )
    assert record.getMessage().endswith("; answered 503")
    other = logging.LogRecord(
        "django.request",
        logging.ERROR,
        __file__,
        1,
        "boom",
        (),
        (ValueError, ValueError("x"), None),
    )
    assert DatabaseAwayFilter().filter(other)
    assert other.exc_info is not None


@pytest.mark.django_db
def test_an_api_address_no_route_matches_answers_404_in_json(client, demo):
    """/api/collections/-1/archive/ matches no route (ids are positive): the API's 404 is JSON, as
    its documentation says, not the site's HTML page (schemathesis found it)."""
    client.force_login(demo["admin"])
    for path in ("/api/collections/-1/archive/", "/api/no-such-endpoint/"):
        response = client.post(path)
        assert response.status_code == 404, path
        assert response["Content-Type"] == "application/json", path
        assert response.json() == {"detail": "Not found."}, path


@pytest.mark.django_db
def test_a_page_address_no_route_matches_is_the_sites_404_page(client, demo):
    client.force_login(demo["admin"])
    response = client.get("/collections/-1/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert "Not found" in response.content.decode()
