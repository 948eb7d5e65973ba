"""/healthz/: 200 when the database answers and every migration is applied, 503 otherwise; for
anyone, without a session or a cookie, never cached."""

import pytest
from django.contrib.sessions.models import Session
from django.db import OperationalError, connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_migrated_database_is_healthy_for_anyone_and_no_session_is_made():
    client = Client()
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    assert "max-age=0" in response["Cache-Control"]
    # Neither the session nor the user was read: no cookie, no Vary: Cookie, no session row.
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")
    assert not Session.objects.exists()
    assert client.head("/healthz/").status_code == 200


def test_a_logged_in_user_gets_the_same_answer_and_keeps_the_session_untouched(demo):
    client = Client()
    client.force_login(demo["annotator"])
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert not response.cookies


def test_an_unapplied_migration_is_503():
    recorder = MigrationRecorder(connection)
    app, name = (
        recorder.migration_qs.filter(app="annotator")
        .order_by("-id")
        .values_list("app", "name")
        .first()
    )
    recorder.record_unapplied(
        app, name
    )  # as if `migrate` had not run it yet (rolled back after the test)
    response = Client().get("/healthz/")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "reason": "migrations not applied",
        "pending_migrations": 1,
    }


def test_a_database_that_does_not_answer_is_503(monkeypatch):
    def refused(*args, **kwargs):
        raise OperationalError('connection to server at "db" failed: Connection refused')

    monkeypatch.setattr(connection, "cursor", refused)
    response = Client().get("/healthz/")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "reason": "the database does not answer",
    }  # no host named


def test_only_reading_is_allowed():
    assert Client().post("/healthz/").status_code == 405
