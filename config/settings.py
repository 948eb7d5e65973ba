"""Settings, read from the environment.

DATABASE_URL  PostgreSQL in production and CI (postgres://user@host:5432/name); unset = a SQLite
              file next to manage.py, the zero-setup default for trying the app.
SECRET_KEY    required unless DEBUG is on.
DEBUG         off unless set to 1/true/yes.
ALLOWED_HOSTS comma-separated; defaults to localhost only.
TASKS_BACKEND "database" (PostgreSQL is the queue; run `python manage.py db_worker`) or "immediate"
              (tasks run inside the request). Default: database on PostgreSQL, immediate on SQLite.
MAX_UPLOAD_MB largest upload accepted, in megabytes (default 100).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it in the environment (or set DEBUG=1 for local development)."
        )
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip() for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if origin.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tasks",
    "django_tasks_db",
    "axes",
    "annotator",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, compressed ahead of time
    # Pages compressed on the way out (a builder page is ~140 KB of HTML, ~15 KB gzipped). Django
    # pads compressed answers against BREACH-style attacks on the CSRF token.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "annotator.context_processors.roles",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
    )
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Background work (large imports) goes through Django's Tasks API (the django-tasks backport). Its
# database backend makes PostgreSQL the queue: no broker to run, and any number of app servers
# and workers share it. On the SQLite demo tasks run inside the request instead.
_on_sqlite = DATABASES["default"]["ENGINE"].endswith("sqlite3")
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "immediate" if _on_sqlite else "database")
if TASKS_BACKEND not in {"database", "immediate"}:
    raise ImproperlyConfigured(f"TASKS_BACKEND must be 'database' or 'immediate', not {TASKS_BACKEND!r}")
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend"
        if TASKS_BACKEND == "database"
        else "django_tasks.backends.immediate.ImmediateBackend"
    }
}

# Uploads: Django spools large files to a temporary file while the request lasts; the import job
# then keeps the bytes in the database, so that whichever worker runs it can read them.
MAX_UPLOAD_BYTES = int(os.environ.get("MAX_UPLOAD_MB", "100")) * 1024 * 1024

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes): after 5 failed attempts for one user name from one address, that
# pair waits 15 minutes. Axes' backend comes first, so it sees every attempt.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Behind a proxy, the client's address is in X-Forwarded-For (see BEHIND_TLS_PROXY below).
AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if env_flag("BEHIND_TLS_PROXY") else ["REMOTE_ADDR"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The REST API: session (the browser) or token authentication (`manage.py drf_create_token USER`);
# what each user may read and change is checked per object (annotator.access), as on the pages.
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: its WWW-Authenticate header makes an anonymous request a 401, not a 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pyramid annotator API",
    "DESCRIPTION": (
        "The records of Pyramid evaluations (collections, docsets, summaries, pyramids, SCUs, "
        "contributors, spans, peer annotations, PSEs, assignments, the histories of pyramids and peer "
        "annotations, human judgments), their scores, and a collection's DUCView files. Authenticate "
        "with a session or a token (header `Authorization: Token <key>`)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],  # anonymous users see the login page only
    "SWAGGER_UI_DIST": "SIDECAR",  # served from our own static files: no CDN
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "WorkStatusEnum": "annotator.models.Pyramid.Status",  # pyramids and peer annotations alike
        "AssignmentStatusEnum": "annotator.models.Assignment.Status",
        "SummaryKindEnum": "annotator.models.Summary.Kind",
        "ArchiveJobKindEnum": "annotator.models.ArchiveJob.Kind",  # export or restore (annotator.archive)
        "ImportJobKindEnum": "annotator.models.ImportJob.Kind",  # summaries or DUCView files (annotator.jobs)
        "JobStatusEnum": "annotator.models.ImportJob.Status",  # import and archive jobs alike
    },
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_flag("SECURE_COOKIES", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    # TLS usually ends at a proxy in front of gunicorn: opt in to these where it does.
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS")
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD")
    if env_flag("BEHIND_TLS_PROXY"):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Server errors (django.request, level ERROR, with their traceback) and failed background jobs
# (annotator.jobs) go to the console, where gunicorn and docker collect them. Pages never show a
# traceback unless DEBUG is on: users get templates/500.html.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
