"""Settings, read from the environment.

DATABASE_URL  PostgreSQL in production and CI (postgres://user@host:5432/name); unset = a SQLite
              file next to manage.py, the zero-setup default for trying the app.
SECRET_KEY    required with PostgreSQL unless DEBUG is on; on SQLite without it, a random key is
              made once and kept in .secret-key (so the README's commands run against the demo
              database).
DEBUG         off unless set to 1/true/yes.
ALLOWED_HOSTS comma-separated; defaults to localhost only.
TASKS_BACKEND "database" (PostgreSQL is the queue; run `python manage.py db_worker`) or "immediate"
              (tasks run inside the request). Default: database on PostgreSQL, immediate on SQLite.
MAX_UPLOAD_MB largest upload accepted, in megabytes (default 100).
JOB_LEASE_SECONDS, JOB_MAX_ATTEMPTS  how soon a job whose worker died is resumed (60 s), and how
              many interrupted runs it gets before it fails with a Resume button (3).
EMAIL_URL     or EMAIL_HOST (EMAIL_PORT, EMAIL_HOST_USER, …), DEFAULT_FROM_EMAIL: password reset
              emails (see "Email" below); none: no email, and no password reset offered.
LOGIN_FAILURE_LIMIT, LOGIN_ADDRESS_FAILURE_LIMIT, LOGIN_COOLOFF_MINUTES  login throttling (5, 20,
              15).
SECURE_COOKIES  "false" for plain HTTP on purpose (see the production block below).
DATABASE_PREPARED_STATEMENTS  "false" behind a pooler in transaction mode (PgBouncer); default on.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
import dj_email_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG")

ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
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
    # before django_tasks_db: its `db_worker` command is annotator's (it reconnects, resumes jobs)
    "annotator",
    "scoring",
    "django_tasks",
    "django_tasks_db",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header on every answer (see CONTENT_SECURITY_POLICY below).
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, compressed ahead of time
    # Pages compressed on the way out (a builder page is ~140 KB of HTML, ~15 KB gzipped). Django
    # pads compressed answers against BREACH-style attacks on the CSRF token.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # a NUL in a query or a form: 400, never a database error
    "annotator.web.bad_input.RefuseNulMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Vary: HX-Request, so that Back never shows a table htmx fetched as the whole page
    "annotator.web.vary.VaryOnHtmxMiddleware",
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
                "annotator.accounts.context_processors.roles",
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
        # A kept connection is checked before each request reuses it: after a database restart the
        # first request reconnects instead of failing (issue 16).
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A database that accepts connections but never answers must not hold a request until gunicorn
    # kills it (a 500 after 30 s): give up connecting after this long, and answer the 503 page.
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = int(
        os.environ.get("DATABASE_CONNECT_TIMEOUT", "5")
    )
    # Parameters bound by the server, and each query's plan prepared from its second run on the
    # connection (psycopg): about half of PostgreSQL's CPU per action (issue 32). Off for a pooler
    # that hands a connection's statements to other clients (PgBouncer in transaction mode).
    if env_flag("DATABASE_PREPARED_STATEMENTS", default=True):
        DATABASES["default"]["OPTIONS"].update(
            {"server_side_binding": True, "prepare_threshold": 2}
        )
elif DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The demo's SQLite holds one writer at a time: an edit and the page's activity report sent at
    # once failed with "database is locked" when a transaction that had read tried to write. Each
    # transaction takes the write lock as it begins, waiting for it up to `timeout` seconds.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )


def local_secret_key(path: Path) -> str:
    """The key of this checkout's SQLite database, made once (random, readable by its owner only).

    So that commands run against the demo database as the README writes them, with neither DEBUG nor
    SECRET_KEY set. Never used with PostgreSQL: app servers sharing a database need one key, given.
    """
    from django.core.management.utils import get_random_secret_key

    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        key = get_random_secret_key()
        file.write(key + "\n")
    return key


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG:
        SECRET_KEY = "insecure-development-key-do-not-use-in-production"
    elif DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        SECRET_KEY = local_secret_key(BASE_DIR / ".secret-key")
    else:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it in the environment (or set DEBUG=1 for local "
            "development)."
        )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's cache holds what is costly to make and the same for every process: the suggestions'
# prepared index of each pyramid version (annotator.assist). On PostgreSQL it is the database's own
# table (annotator migration 0022 makes it), shared by every worker of every app server: a worker's
# first suggestion no longer prepares what another made (issue 32). The SQLite demo is one process.
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "django_cache",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    }

# Background work (large imports) goes through Django's Tasks API (the django-tasks backport). Its
# database backend makes PostgreSQL the queue: no broker to run, and any number of app servers
# and workers share it. On the SQLite demo tasks run inside the request instead.
_on_sqlite = DATABASES["default"]["ENGINE"].endswith("sqlite3")
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "immediate" if _on_sqlite else "database")
if TASKS_BACKEND not in {"database", "immediate"}:
    raise ImproperlyConfigured(
        f"TASKS_BACKEND must be 'database' or 'immediate', not {TASKS_BACKEND!r}"
    )
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend"
        if TASKS_BACKEND == "database"
        else "django_tasks.backends.immediate.ImmediateBackend"
    }
}

# Leases on background jobs (annotator.transfer.leases): a running job's worker beats every sixth of
# a lease; a job whose beat is lost for a whole lease is resumed by another worker, and fails (with
# a Resume button) after JOB_MAX_ATTEMPTS interrupted runs.
JOB_LEASE_SECONDS = float(os.environ.get("JOB_LEASE_SECONDS", "60"))
JOB_MAX_ATTEMPTS = int(os.environ.get("JOB_MAX_ATTEMPTS", "3"))

# Uploads: Django spools large files to a temporary file while the request lasts; the import job
# then keeps the bytes in the database, so that whichever worker runs it can read them.
MAX_UPLOAD_BYTES = int(os.environ.get("MAX_UPLOAD_MB", "100")) * 1024 * 1024

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes), two limits (issue 16):
# - LOGIN_FAILURE_LIMIT (5) failed attempts for one user name from one address lock that pair out;
# - LOGIN_ADDRESS_FAILURE_LIMIT (20) failed attempts from one address, whatever the names, lock
#   the address out: guessing many names once each is throttled too, while a room of people behind
#   one address who mistype their password once or twice is not.
# Both for LOGIN_COOLOFF_MINUTES (15). Axes compares one limit with the largest count of its lockout
# parameters, so annotator.accounts.login_throttle.TwoLimitHandler holds each count to its own
# limit. Axes' backend comes first, so it sees every attempt.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "annotator.accounts.backends.ModelBackendInOneQuery",  # Django's, in one query
]
AXES_HANDLER = "annotator.accounts.login_throttle.TwoLimitHandler"
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT", "20"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
# In this order: the handler reads the per-name count first, then the per-address count.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = (
    True  # a log-in clears that name's failures from that address (only: see the handler)
)
# templates/registration/locked_out.html, 429
AXES_LOCKOUT_CALLABLE = "annotator.accounts.login_throttle.lockout_response"
# Behind a proxy, the client's address is read from X-Forwarded-For: BEHIND_PROXY, at the end.

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
# what each user may read and change is checked per object (annotator.campaigns.access), as on the
# pages.
REST_FRAMEWORK = {
    # documents 400, 401, 403, 404 everywhere
    "DEFAULT_SCHEMA_CLASS": "annotator.api.schema.RefusalsAutoSchema",
    # "SCUs", "PSE": the records' names, not "Scu List"
    "VIEW_NAME_FUNCTION": "annotator.api.names.view_name",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: its WWW-Authenticate header makes an anonymous request a 401, not a 403.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "annotator.api.renderers.BrowsableAPIRenderer",  # DRF's, under the Content-Security-Policy
    ],
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
        "The REST API of the Pyramid annotator: the records of Pyramid evaluations of summaries "
        "(collections, docsets, summaries, pyramids, SCUs, contributors, spans, peer annotations, "
        "PSEs, assignments, the histories of pyramids and peer annotations, human judgments; the "
        "coverage judgments' unit sets, units, judgment tasks and judgments), their scores, a "
        "collection's DUCView files and archives, and import jobs. Authenticate "
        "with the site's session (log in, as in a browser) or a token: the header `Authorization: "
        "Token <key>`, the key made by `python manage.py drf_create_token USER`. Permissions are "
        "the pages': what a user may not see answers 404, what their role may not change 403."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": [
        "rest_framework.permissions.IsAuthenticated"
    ],  # anonymous users see the login page only
    "SWAGGER_UI_DIST": "SIDECAR",  # served from our own static files: no CDN
    # Our templates (templates/api/) take Redoc, its fonts and the pages' icon from
    # static/vendor/redoc, static/vendor/fontsource and static/favicon.*; these two only keep CDN
    # addresses out of the pages' context.
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "WorkStatusEnum": "annotator.models.WorkStatus",  # Pyramid.Status and PeerAnnotation.Status
        "AssignmentStatusEnum": "annotator.models.Assignment.Status",
        "SummaryKindEnum": "annotator.models.Summary.Kind",
        # export or restore (annotator.transfer.archive)
        "ArchiveJobKindEnum": "annotator.models.ArchiveJob.Kind",
        # summaries, DUCView files or unit sets (annotator.transfer.jobs)
        "ImportJobKindEnum": "annotator.models.ImportJob.Kind",
        # the unit sets' file formats, as `import_units --format` (issue 21)
        "UnitFormatEnum": "annotator.coverage.import_form.FORMAT_CHOICES",
        "JobStatusEnum": "annotator.models.ImportJob.Status",  # import and archive jobs alike
    },
}

if not DEBUG:
    SECURE_COOKIES = env_flag("SECURE_COOKIES", True)
    SESSION_COOKIE_SECURE = SECURE_COOKIES
    CSRF_COOKIE_SECURE = SECURE_COOKIES
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    # TLS usually ends at a proxy in front of gunicorn: opt in to these where it does.
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS")
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD")
    if env_flag("BEHIND_TLS_PROXY"):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

    # Plain HTTP on purpose (issue 16): SECURE_COOKIES=false with no HTTPS setting at all (no
    # redirect, no HSTS, no TLS proxy) is how docker-compose runs by default. There, HSTS (W004),
    # the HTTPS redirect (W008) and secure-only cookies (W012, W016) cannot apply — a browser on
    # plain HTTP would drop secure cookies and no log-in would work — so `check --deploy` does not
    # warn about them. Any HTTPS setting turned on makes this no longer plain HTTP, and then every
    # one of these warnings is shown again (HTTPS on half-way is worth a warning).
    SERVING_PLAIN_HTTP = not (
        SECURE_COOKIES or SECURE_SSL_REDIRECT or SECURE_HSTS_SECONDS or env_flag("BEHIND_TLS_PROXY")
    )
    if SERVING_PLAIN_HTTP:
        SILENCED_SYSTEM_CHECKS = [
            "security.W004",
            "security.W008",
            "security.W012",
            "security.W016",
        ]

# Email (issue 16): what sends password reset links. EMAIL_URL (smtp://user:password@host:587/?tls=true,
# submission://…, console://; parsed by dj-email-url), or else Django's own EMAIL_HOST, EMAIL_PORT,
# EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL; DEFAULT_FROM_EMAIL either way.
# In development (DEBUG) with neither, messages are printed to the console. With no email at all,
# nothing is sent (not even tried on localhost:25), and EMAIL_ENABLED is False: the login page
# offers no password reset and the reset page says to ask an administrator (who resets it in the
# admin).
EMAIL_TIMEOUT = 10  # seconds: a mail server that does not answer cannot hold a request for long
if os.environ.get("EMAIL_URL"):
    _email = dj_email_url.parse(os.environ["EMAIL_URL"])
    if "EMAIL_BACKEND" not in _email:
        raise ImproperlyConfigured(
            f"EMAIL_URL: unknown kind {os.environ['EMAIL_URL'].split(':', 1)[0]!r} (smtp, "
            "submission, console, …)"
        )
    _email["EMAIL_TIMEOUT"] = (
        _email["EMAIL_TIMEOUT"] or EMAIL_TIMEOUT
    )  # unless ?timeout= says otherwise
    globals().update(
        _email
    )  # EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, … (as dj-email-url advises)
elif os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_USE_SSL = env_flag("EMAIL_USE_SSL")
    EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS")
    EMAIL_PORT = int(
        os.environ.get("EMAIL_PORT", "465" if EMAIL_USE_SSL else "587" if EMAIL_USE_TLS else "25")
    )
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
if os.environ.get("DEFAULT_FROM_EMAIL"):
    DEFAULT_FROM_EMAIL = os.environ["DEFAULT_FROM_EMAIL"]
EMAIL_ENABLED = EMAIL_BACKEND != "django.core.mail.backends.dummy.EmailBackend"

# Content Security Policy (issue 16; django-csp): scripts, styles, fonts and connections from our
# own origin only — no inline script or style attribute, no eval (htmx's eval-based features and its
# injected indicator styles are turned off in base.html) —, images also as data: URIs (the empty
# favicon, Swagger UI's icons), no plugins, no framing, forms posting only to us. Redoc and DRF's
# browsable API loosen it for styles where their libraries need it (annotator/api/docs.py,
# renderers.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Server errors (django.request, level ERROR, with their traceback) and failed background jobs
# (annotator.transfer.jobs) go to the console, where gunicorn and docker collect them. Pages never
# show a traceback unless DEBUG is on: users get templates/500.html.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    # While the database is away, one line per failed request instead of a traceback each; and
    # one line per refused request (4xx), which is no fault of the server's.
    "filters": {
        "database_away": {"()": "annotator.web.database.DatabaseAwayFilter"},
        "refusals_on_one_line": {"()": "annotator.web.refusal_logs.RefusalsOnOneLine"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["database_away", "refusals_on_one_line"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own console handler (DEBUG only) printed every record a second time, beside ours.
    "loggers": {
        "django": {"handlers": [], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    },
}

# --- Behind the reverse proxy (deploy/: nginx in front of the app servers; issue 16) ---
# BEHIND_PROXY=1 where every request comes through nginx (deploy/stack.sh and docker-compose.yml set
# it): nginx writes the client's address into X-Forwarded-For (replacing whatever the client sent),
# and REMOTE_ADDR is nginx's own, so login throttling (django-axes) must read the header or it would
# count every user's failures against one address (config/proxy.py; axes' own META precedence
# setting needs django-ipware, which is not installed). Never set it where clients reach gunicorn
# directly: they could then choose the address they are throttled by. BEHIND_TLS_PROXY implies it.
BEHIND_PROXY = env_flag("BEHIND_PROXY") or env_flag("BEHIND_TLS_PROXY")
if BEHIND_PROXY:
    AXES_CLIENT_IP_CALLABLE = "config.proxy.client_address"
# Where `collectstatic` writes and nginx serves /static/ from (default: staticfiles/ in the
# checkout).
if os.environ.get("STATIC_ROOT"):
    STATIC_ROOT = Path(os.environ["STATIC_ROOT"])
# Where `build_guide` writes the user guide (MkDocs, from docs/) and /guide/ serves it from
# (default: site/ in the checkout; point it elsewhere for a read-only checkout, as STATIC_ROOT).
GUIDE_ROOT = Path(os.environ.get("GUIDE_ROOT") or BASE_DIR / "site")
