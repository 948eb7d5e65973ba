"""Settings for the test suite: the real settings with a throwaway key and plain static storage."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-test-key")

from config.settings import *  # noqa: E402,F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Live-server request threads must not keep connections open past the test database's life.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
# Background tasks run inside the request in tests (tests/transfer/test_jobs.py runs the database
# queue with a real worker).
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
