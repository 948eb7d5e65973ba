"""Production settings: `check --deploy` is clean with the documented HTTPS environment and with
docker-compose's own defaults (plain HTTP), still warns when HTTPS is on half-way; a server error
shows no traceback but is logged."""

import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


SECRET = "x" * 60 + "-a-long-random-production-key"
HTTPS = {
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def compose_environments() -> dict[str, dict[str, str]]:
    """The environment of each docker-compose.yml service that runs the app (its environment sets
    SECRET_KEY: app servers, workers, the release step), as compose fills it in when only
    SECRET_KEY is given: each `${VAR:-default}` its default (plain HTTP: SECURE_COOKIES=false)."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())[
        "services"
    ]  # anchors merged
    given = {"SECRET_KEY": SECRET}

    def fill(match):
        name, default = match.group(1), match.group(3) or ""
        return given.get(name, default if match.group(2) in (":-", "-") else "")

    environments = {}
    for name, service in services.items():
        environment = service.get("environment") or {}
        if isinstance(environment, list):
            environment = dict(item.split("=", 1) for item in environment)
        if "SECRET_KEY" in environment:
            environments[name] = {
                key: re.sub(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}", fill, str(value))
                for key, value in environment.items()
            }
    assert environments, "no service of docker-compose.yml runs the app"
    return environments


COMPOSE = compose_environments()
COMPOSE_DEFAULTS = next(iter(COMPOSE.values()))  # one app service's, for the half-way cases below
SETTINGS_FROM_ENVIRONMENT = (
    "DEBUG",
    "SECRET_KEY",
    "SECURE_COOKIES",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "BEHIND_TLS_PROXY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DJANGO_SETTINGS_MODULE",
)


# What the test session itself sets, which production never does: the browser tests' Playwright
# keeps an event loop in the test process (tests/conftest.py, playwright_session).
TEST_SESSION_ONLY = ("DJANGO_ALLOW_ASYNC_UNSAFE",)


def check_deploy(**env) -> subprocess.CompletedProcess:
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in SETTINGS_FROM_ENVIRONMENT and k not in TEST_SESSION_ONLY
    }
    environment.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )


def warnings_of(result) -> set[str]:
    return set(re.findall(r"\((security\.W\d+)\)", result.stdout + result.stderr))


def test_check_deploy_is_clean_with_the_documented_environment():
    result = check_deploy(SECRET_KEY=SECRET, **HTTPS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_is_clean_with_docker_composes_defaults():
    # Plain HTTP chosen on purpose (SECURE_COOKIES=false): HSTS, the HTTPS redirect and secure-only
    # cookies cannot apply, and their warnings (W004, W008, W012, W016) are silenced for that
    # reason.
    environments = {
        tuple(sorted(env.items())): name for name, env in COMPOSE.items()
    }  # each different one once
    for environment, service in environments.items():
        result = check_deploy(**dict(environment))
        assert result.returncode == 0, service + ": " + result.stdout + result.stderr
        assert "no issues (4 silenced)" in result.stdout, service + ": " + result.stdout


def test_check_deploy_still_warns_when_https_is_on_half_way():
    # Secure cookies (the default) without HTTPS redirect or HSTS: the HTTPS warnings stay.
    assert warnings_of(check_deploy(SECRET_KEY=SECRET)) == {"security.W004", "security.W008"}
    # Plain-HTTP cookies while redirecting to HTTPS, or sending HSTS: the cookie warnings come back.
    assert warnings_of(check_deploy(**{**COMPOSE_DEFAULTS, **HTTPS})) == {
        "security.W012",
        "security.W016",
    }
    assert warnings_of(check_deploy(**{**COMPOSE_DEFAULTS, "SECURE_HSTS_SECONDS": "3600"})) >= {
        "security.W008",
        "security.W012",
        "security.W016",
    }
    # Behind a TLS proxy the site is HTTPS: nothing is silenced either.
    assert warnings_of(check_deploy(**{**COMPOSE_DEFAULTS, "BEHIND_TLS_PROXY": "1"})) == {
        "security.W004",
        "security.W008",
        "security.W012",
        "security.W016",
    }


@pytest.mark.django_db
def test_a_server_error_shows_our_page_and_is_logged(demo, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("annotator.campaigns.views.home.work_rows", broken)
    client = Client(raise_request_exception=False)
    client.force_login(demo["annotator"])
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(reverse("home"))
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong on our side" in page
    assert "Traceback" not in page
    assert "the database went away" not in page
    assert any(
        record.exc_info and "the database went away" in str(record.exc_info[1])
        for record in caplog.records
    )
