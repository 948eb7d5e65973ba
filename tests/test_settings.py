"""Production defaults: DEBUG off unless asked for; no start without a SECRET_KEY."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def settings_check(**env):
    environment = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE")}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=environment, capture_output=True, text=True
    )


def test_refuses_to_start_without_a_secret_key_in_production():
    result = settings_check()
    assert result.returncode != 0 and "SECRET_KEY is not set" in result.stderr


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
