"""Settings from the environment: DEBUG off unless asked for; no start without a SECRET_KEY; email
(EMAIL_URL or Django's own EMAIL_* settings); the login limits."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def settings_check(**env):
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE")
    }
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )


POSTGRES = "postgres://postgres@127.0.0.1:5432/never-connected"


def test_refuses_to_start_without_a_secret_key_in_production():
    result = settings_check(DATABASE_URL=POSTGRES)
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_on_sqlite_without_a_secret_key_a_random_key_is_made_once_and_kept(tmp_path, monkeypatch):
    """The README's commands run against the demo database with neither DEBUG nor SECRET_KEY: the
    key is random, made on first use, readable by its owner only, and the same on every later
    run."""
    from config import settings

    key_file = tmp_path / ".secret-key"
    first = settings.local_secret_key(key_file)
    assert len(first) >= 50
    assert first != "insecure-development-key-do-not-use-in-production"
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert settings.local_secret_key(key_file) == first
    assert settings.local_secret_key(tmp_path / "another") != first

    database = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    assert settings_check(DATABASE_URL=database).returncode == 0


def test_starts_with_a_secret_key_or_in_debug():
    assert settings_check(SECRET_KEY="a" * 60).returncode == 0
    assert settings_check(DEBUG="1").returncode == 0


def test_debug_is_off_by_default():
    from config.settings import env_flag

    assert env_flag("SOME_UNSET_FLAG_FOR_THIS_TEST") is False
    os.environ["SOME_FLAG_FOR_THIS_TEST"] = "yes"
    try:
        assert env_flag("SOME_FLAG_FOR_THIS_TEST") is True
    finally:
        del os.environ["SOME_FLAG_FOR_THIS_TEST"]


def settings_values(names, **env):
    """The values of settings `names` as the app computes them from `env` (production: no DEBUG,
    no SECRET_KEY, unless given)."""
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE") and not k.startswith("EMAIL_")
    }
    environment.update({"SECRET_KEY": "k" * 60, "DJANGO_SETTINGS_MODULE": "config.settings", **env})
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{name: getattr(settings, name, None) for name in {names!r}}}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


EMAIL = [
    "EMAIL_ENABLED",
    "EMAIL_BACKEND",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "DEFAULT_FROM_EMAIL",
]
SMTP = "django.core.mail.backends.smtp.EmailBackend"


def test_email_from_an_email_url():
    values = settings_values(
        EMAIL,
        EMAIL_URL="smtp://mailer:s%40cret@mail.example.org:587/?tls=true",
        DEFAULT_FROM_EMAIL="pyramids@example.org",
    )
    assert values == {
        "EMAIL_ENABLED": True,
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "mailer",
        "EMAIL_HOST_PASSWORD": "s@cret",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "DEFAULT_FROM_EMAIL": "pyramids@example.org",
    }


def test_email_from_djangos_own_settings():
    values = settings_values(
        EMAIL,
        EMAIL_HOST="mail.example.org",
        EMAIL_PORT="465",
        EMAIL_HOST_USER="mailer",
        EMAIL_HOST_PASSWORD="secret",
        EMAIL_USE_SSL="1",
    )
    assert values["EMAIL_ENABLED"] is True
    assert values["EMAIL_BACKEND"] == SMTP
    assert (
        values["EMAIL_HOST"],
        values["EMAIL_PORT"],
        values["EMAIL_USE_SSL"],
        values["EMAIL_USE_TLS"],
    ) == ("mail.example.org", 465, True, False)
    assert (values["EMAIL_HOST_USER"], values["EMAIL_HOST_PASSWORD"]) == ("mailer", "secret")


def test_no_email_configured_means_none_is_sent():
    values = settings_values(EMAIL)
    assert values["EMAIL_ENABLED"] is False
    assert (
        values["EMAIL_BACKEND"] == "django.core.mail.backends.dummy.EmailBackend"
    )  # never SMTP to localhost


def test_the_console_backend_in_development():
    values = settings_values(EMAIL, DEBUG="1")
    assert values["EMAIL_ENABLED"] is True
    assert values["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"


def test_an_email_url_of_an_unknown_kind_is_refused():
    result = settings_check(SECRET_KEY="k" * 60, EMAIL_URL="smpt://mail.example.org")
    assert result.returncode != 0
    assert "EMAIL_URL" in result.stderr


def test_login_limits_from_the_environment():
    values = settings_values(
        ["AXES_FAILURE_LIMIT", "LOGIN_ADDRESS_FAILURE_LIMIT", "AXES_LOCKOUT_PARAMETERS"],
        LOGIN_FAILURE_LIMIT="3",
        LOGIN_ADDRESS_FAILURE_LIMIT="42",
    )
    assert values == {
        "AXES_FAILURE_LIMIT": 3,
        "LOGIN_ADDRESS_FAILURE_LIMIT": 42,
        "AXES_LOCKOUT_PARAMETERS": [["username", "ip_address"], "ip_address"],
    }
    defaults = settings_values(["AXES_FAILURE_LIMIT", "LOGIN_ADDRESS_FAILURE_LIMIT"])
    assert defaults == {"AXES_FAILURE_LIMIT": 5, "LOGIN_ADDRESS_FAILURE_LIMIT": 20}


def test_sqlite_transactions_take_the_write_lock_as_they_begin_and_wait_for_it():
    # Two requests at once (an edit and the page's activity report) failed with "database is
    # locked" on the demo's SQLite (found by a tester).
    url = "sqlite:////tmp/demo.sqlite3"
    values = settings_values(["DATABASES"], DATABASE_URL=url)["DATABASES"]["default"]
    assert values["OPTIONS"] == {"transaction_mode": "IMMEDIATE", "timeout": 20}


def test_postgresql_connections_give_up_connecting_and_are_checked_before_reuse():
    """A database that accepts connections and never answers held requests until gunicorn killed
    them (a 500 after 30 s): connecting gives up after DATABASE_CONNECT_TIMEOUT, then the 503
    page."""
    url = "postgres://someone@127.0.0.1:5432/somewhere"
    values = settings_values(["DATABASES"], DATABASE_URL=url)["DATABASES"]["default"]
    assert values["OPTIONS"]["connect_timeout"] == 5
    assert values["CONN_HEALTH_CHECKS"] is True
    values = settings_values(["DATABASES"], DATABASE_URL=url, DATABASE_CONNECT_TIMEOUT="2")[
        "DATABASES"
    ]["default"]
    assert values["OPTIONS"]["connect_timeout"] == 2
    values = settings_values(
        ["DATABASES", "JOB_LEASE_SECONDS", "JOB_MAX_ATTEMPTS"],
        DATABASE_URL=url,
        JOB_LEASE_SECONDS="20",
        JOB_MAX_ATTEMPTS="5",
    )
    assert (values["JOB_LEASE_SECONDS"], values["JOB_MAX_ATTEMPTS"]) == (20, 5)


def test_postgresql_binds_parameters_and_prepares_plans_unless_told_not_to():
    """Issue 32: about half of PostgreSQL's CPU per action goes to parsing and planning the same
    statements again; a pooler in transaction mode (PgBouncer) cannot keep them, so it can be
    turned off."""
    url = "postgres://someone@127.0.0.1:5432/somewhere"
    options = settings_values(["DATABASES"], DATABASE_URL=url)["DATABASES"]["default"]["OPTIONS"]
    assert (options["server_side_binding"], options["prepare_threshold"]) == (True, 2)
    options = settings_values(
        ["DATABASES"], DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="false"
    )["DATABASES"]["default"]["OPTIONS"]
    assert "server_side_binding" not in options
    assert "prepare_threshold" not in options
    sqlite = settings_values(["DATABASES"], DATABASE_URL="sqlite:////tmp/demo.sqlite3")
    assert "server_side_binding" not in sqlite["DATABASES"]["default"]["OPTIONS"]


def test_the_test_database_prepares_statements_as_production_does(db):
    """So that every test runs its queries the way PostgreSQL then runs them (parameters bound by
    the server)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: SQLite binds its own parameters")
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::int + 1", [41])
        assert cursor.fetchone() == (42,)
    assert connection.connection.prepare_threshold == 2
    assert type(connection.connection.cursor()).__name__ == "ServerBindingCursor"
