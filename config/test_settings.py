"""Settings for the test suite: the real settings with a throwaway key and plain static storage."""

import os

os.environ.setdefault("SECRET_KEY", "insecure-test-key")

from .settings import *  # noqa: E402,F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
