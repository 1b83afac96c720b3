"""ClusterBuy settings: one module, read from the environment with safe dev defaults.

Every variable is listed in `.env.example` and documented in README.md.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else default


# Development is the default (`make run`, tests); production sets DEBUG=0 and must then
# provide SECRET_KEY, or the site refuses to start.
DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-insecure-only-for-local-development-" + "x" * 24

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    # Our apps, in dependency order: clusterbuy <- sizing <- tco <- vendors.
    "clusterbuy",
    "sizing",
    "tco",
    "vendors",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "clusterbuy.middleware.ControlCharacterPathMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "clusterbuy.middleware.ContentSecurityPolicyMiddleware",
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# How many reverse proxies we run in front of the app, each appending to
# X-Forwarded-For. 0: the header is ignored (clients can write anything into it) and
# the peer address is the client. N: the N-th entry from the right is the client.
# Rate limits and the login lockout both key on that address (clusterbuy.client_address).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more.")

# Login brute-force protection (django-axes): 5 failures for one username from one
# client address lock that pair out for 15 minutes. The pair, never the username
# alone, so nobody elsewhere can lock a user out by failing on purpose.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "clusterbuy.client_address.client_address"
AXES_LOCKOUT_TEMPLATE = "registration/lockout.html"
AXES_RESET_ON_SUCCESS = True

ROOT_URLCONF = "clusterbuy.urls"
WSGI_APPLICATION = "clusterbuy.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clusterbuy.context_processors.membership",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default has tasks write (progress, heartbeat, result) from threads
    # while requests read and write: WAL lets readers go on during a write, IMMEDIATE
    # transactions wait for the write lock (up to ``timeout`` s) instead of failing
    # with "database is locked" when a read transaction turns into a write.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=20,
        transaction_mode="IMMEDIATE",
        init_command="PRAGMA journal_mode=WAL;",
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A shared cache (Redis) makes API rate limits hold across all web processes; without
# CACHE_URL each process counts on its own (fine for one process). Give it its own
# Redis database or instance, never the broker's (docs/deployment.md, "Cache"): it
# degrades when Redis is down (clusterbuy.cache) and its database may be cleared.
CACHE_URL = env_str("CACHE_URL", "")
CACHES = {
    "default": (
        {
            "BACKEND": "clusterbuy.cache.ResilientRedisCache",
            "LOCATION": CACHE_URL,
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# While the shared cache is down, rate limits count per process: each allows this
# share of the budget (gunicorn reads the same variable for its worker count).
RATE_LIMIT_PROCESSES = env_int("WEB_CONCURRENCY", 1)
# The built vendor comparison is cached only in a cache shared by every web process.
COMPARISON_CACHE_ENABLED = env_bool("COMPARISON_CACHE", bool(CACHE_URL))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "procurement-list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = env_str("LANGUAGE_CODE", "zh-hans")
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True
# zh-Hans pages group thousands with "," (clusterbuy/formats); inputs stay ungrouped.
FORMAT_MODULE_PATH = ["clusterbuy.formats"]
USE_THOUSAND_SEPARATOR = False

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", not DEBUG)
            and (BASE_DIR / "staticfiles" / "staticfiles.json").exists()
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = True
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024

# E-mail (RFP invitations): printed to the console unless EMAIL_HOST names an SMTP
# server to send through.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT_S", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "ClusterBuy <noreply@localhost>")

# Security: production values come on when DEBUG is off.
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "clusterbuy.api_errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "clusterbuy.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "clusterbuy.throttling.AnonThrottle",
        "clusterbuy.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "600/min"),
        "user": env_str("API_THROTTLE_USER", "6000/min"),
    },
    # Our throttles key on clusterbuy.client_address; this makes any throttle class
    # that keeps DRF's get_ident read X-Forwarded-For the same way.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
}
# The supplier portal (vendors.portal): requests per signed link and per client
# address (clusterbuy.client_address), read at request time so tests can change them;
# the largest file a vendor may upload (workbook or evidence) and how many evidence
# files one invitation may keep.
PORTAL_THROTTLE_RATES = {
    "token": env_str("PORTAL_THROTTLE_TOKEN", "60/min"),
    "address": env_str("PORTAL_THROTTLE_ADDRESS", "120/min"),
}
PORTAL_UPLOAD_MAX_BYTES = env_int("PORTAL_UPLOAD_MAX_BYTES", 10 * 1024 * 1024)
PORTAL_EVIDENCE_MAX_FILES = env_int("PORTAL_EVIDENCE_MAX_FILES", 10)
# Workbooks are checked by a background task (vendors.portal.checking), never by a
# web worker: at most this many versions may wait for their check per link and per
# procurement (a further submit answers 429 "still checking" until one is done).
PORTAL_CHECKS_PENDING_PER_LINK = env_int("PORTAL_CHECKS_PENDING_PER_LINK", 2)
PORTAL_CHECKS_PENDING_PER_PROCUREMENT = env_int(
    "PORTAL_CHECKS_PENDING_PER_PROCUREMENT", 10
)
# What the portal may store (workbooks and evidence, removed files included: they are
# kept), per link, per vendor (all its invitations) and per procurement. 50 MB holds
# five full-size workbooks per link; 200 MB a vendor's four RFPs; 500 MB ten vendors.
PORTAL_STORAGE_MAX_BYTES_PER_LINK = env_int(
    "PORTAL_STORAGE_MAX_BYTES_PER_LINK", 50 * 1024 * 1024
)
PORTAL_STORAGE_MAX_BYTES_PER_VENDOR = env_int(
    "PORTAL_STORAGE_MAX_BYTES_PER_VENDOR", 200 * 1024 * 1024
)
PORTAL_STORAGE_MAX_BYTES_PER_PROCUREMENT = env_int(
    "PORTAL_STORAGE_MAX_BYTES_PER_PROCUREMENT", 500 * 1024 * 1024
)
# JSON API bodies (clusterbuy.parsers): larger or deeper ones answer 400. 2 MB holds a
# bid with thousands of line items and a long proposal; 32 levels is several times
# the deepest body the API defines.
API_BODY_MAX_BYTES = env_int("API_BODY_MAX_BYTES", 2 * 1024 * 1024)
API_JSON_MAX_DEPTH = env_int("API_JSON_MAX_DEPTH", 32)
SPECTACULAR_SETTINGS = {
    "TITLE": "ClusterBuy API",
    "DESCRIPTION": "GPU cluster procurement: sizing, TCO and vendor evaluation.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "ENUM_NAME_OVERRIDES": {
        "StageEnum": "clusterbuy.models.Stage.choices",
        "AvailabilityEnum": "sizing.models.Availability.choices",
        "EcosystemEnum": "sizing.models.Ecosystem.choices",
        # a bid line's category and the categories its scope covers: one set
        "LineCategoryEnum": "vendors.models.LineCategory.choices",
        # what a document proves: a bid's attachment, and the subset a vendor
        # attaches before the deadline
        "EvidencePurposeEnum": "vendors.models.EvidencePurpose.choices",
        "SubmissionPurposeEnum": "vendors.models.evidence.SUBMISSION_PURPOSE_CHOICES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "clusterbuy.schema.add_error_responses",
    ],
}

# Celery: with no broker configured, tasks run in threads of the web process (the
# embedded default, clusterbuy/task_runner.py).
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
# Tests keep tasks in-process by default (CELERY_TASK_ALWAYS_EAGER=1) even with a broker
# configured; the worker fixture switches a test over to the real worker.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
# Where tasks run: "celery" (a broker and workers), "thread" (a pool of threads of
# the web process, after the request has answered) or "eager" (inside the request).
# Default: celery with a broker; without one, eager when CELERY_TASK_ALWAYS_EAGER is
# set (tests), else thread.
CLUSTERBUY_TASK_RUNNER = env_str("CLUSTERBUY_TASK_RUNNER") or (
    "celery"
    if CELERY_BROKER_URL
    else "eager"
    if env_bool("CELERY_TASK_ALWAYS_EAGER")
    else "thread"
)
if CLUSTERBUY_TASK_RUNNER not in ("celery", "thread", "eager"):
    raise ImproperlyConfigured(
        "CLUSTERBUY_TASK_RUNNER must be celery, thread or eager."
    )
if CLUSTERBUY_TASK_RUNNER == "celery" and not CELERY_BROKER_URL:
    raise ImproperlyConfigured("CLUSTERBUY_TASK_RUNNER=celery needs CELERY_BROKER_URL.")
# Threads of the "thread" runner: runs that can progress at once per web process.
CLUSTERBUY_TASK_THREADS = env_int("CLUSTERBUY_TASK_THREADS", 2)
# Under the thread runner, the web process runs the beat schedule (the sweep of stuck
# runs) from its first request and then every this many seconds; 0: never.
CLUSTERBUY_EMBEDDED_BEAT_S = env_int("CLUSTERBUY_EMBEDDED_BEAT_S", 60)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "clusterbuy")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 600)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 540)
CELERY_RESULT_BACKEND = None  # results live in our own models
CELERY_TASK_IGNORE_RESULT = True
# Reliability bounds (docs/deployment.md, "Reliability"). With acks_late, Redis
# redelivers the message of a task whose whole worker died once the visibility
# timeout has passed (default: the hard time limit plus 5 minutes, 900 s). Keep it
# above the longest hard time limit, or a task still running is delivered twice
# (harmless for TCO runs, which are claimed, but wasted work). Workers look for such
# messages every 10 s (unacked_restore_interval; unacked_restore_throttle 1 scans
# each time, the default only every tenth).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int(
        "CELERY_VISIBILITY_TIMEOUT_S", CELERY_TASK_TIME_LIMIT + 300
    ),
    "unacked_restore_throttle": 1,
    # An unreachable broker fails a publish in seconds instead of hanging the web
    # request: the run stays queued and the user is told it will start.
    "socket_connect_timeout": 2,
    "socket_timeout": 10,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker never gives up on the broker (the default is 100 tries, about 45 minutes).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
