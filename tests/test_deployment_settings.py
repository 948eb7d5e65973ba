"""Production settings: `check --deploy` is clean, and a server error shows no traceback but is logged."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent


def test_check_deploy_is_clean_with_the_documented_environment():
    env = {**os.environ, "SECRET_KEY": "x" * 60 + "-a-long-random-production-key", "DEBUG": "",
           "SECURE_SSL_REDIRECT": "1", "SECURE_HSTS_SECONDS": "31536000", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
           "SECURE_HSTS_PRELOAD": "1", "DJANGO_SETTINGS_MODULE": "config.settings"}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db
def test_a_server_error_shows_our_page_and_is_logged(demo, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("annotator.views.pages.work_rows", broken)
    client = Client(raise_request_exception=False)
    client.force_login(demo["annotator"])
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(reverse("home"))
    page = response.content.decode()
    assert response.status_code == 500 and "Something went wrong on our side" in page
    assert "Traceback" not in page and "the database went away" not in page
    assert any(record.exc_info and "the database went away" in str(record.exc_info[1]) for record in caplog.records)
