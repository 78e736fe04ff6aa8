"""Backscore settings: one module, read from the environment.

With no environment at all this runs locally with nothing installed but Python: SQLite, Celery
tasks run eagerly in-process and a local-memory cache. `DATABASE_URL` switches to PostgreSQL and
`REDIS_URL` to real Celery workers and a Redis cache. docs/deploy.md lists every variable.
"""

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from kombu.entity import Exchange, Queue
from redis.backoff import NoBackoff
from redis.maint_notifications import MaintNotificationsConfig
from redis.retry import Retry

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# Off unless the environment turns it on: `make run` does (Makefile), and so do the tests
# (pyproject.toml, pytest-env); a server started with no DEBUG in its environment is production.
DEBUG = env.bool("DEBUG", default=False)
# With DEBUG on, a fixed development key keeps sessions across restarts of `make run`; otherwise
# one must be set (startup fails without it).
SECRET_KEY = env.str("SECRET_KEY", default="dev-insecure-key-for-local-use-only" if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "Set SECRET_KEY in the environment: it is required when DEBUG is off."
    )
# The HTTP benchmarks' baseline, /bench/plain (config/plain.py): mounted only when they ask for it
# (bench/run.py, and the servers the benchmarks start).
BENCH_PLAIN = env.bool("BENCH_PLAIN", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
TIME_ZONE = env.str("TIME_ZONE", default="Europe/London")
USE_TZ = True
USE_I18N = True
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("it", "Italiano")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and times as each language writes them ("1 dicembre 2026"; "7:02 AM"): config/formats.
FORMAT_MODULE_PATH = ["config.formats"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "simple_history",
    "csp",
    "axes",
    "clubs",
    "games",
    "scoring.standings",
    "config.apps.SiteConfig",
]

MIDDLEWARE = [
    # First: every answer to a signed-in user, an API token or a table code is private, no-store.
    "config.middleware.PrivateAnswersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Django's and django-csp's, doing only the work that changes the answer (config/lean.py).
    "config.lean.SecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.lean.LeanSessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # After LocaleMiddleware: a club page speaks the club's language unless the visitor chose.
    "config.middleware.ClubLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "config.lean.LeanAuthenticationMiddleware",
    "config.lean.LeanMessageMiddleware",
    # Before any view or error page reads a form (config/middleware.py).
    "config.middleware.FormEncodingMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last: sees the exceptions of the views (DB down -> 503) and axes' lockout flag.
    "config.middleware.DatabaseUnavailableMiddleware",
    "axes.middleware.AxesMiddleware",
    # Last: every 404 varies on the cookie, hidden or missing alike (docs/security.md).
    "config.middleware.NotFoundVariesOnCookieMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"  # `make run`; production serves config/asgi.py

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
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A new connection per request cut throughput 4x (STACK.md): connections are kept, in a pool
    # shared by the process's threads when DATABASE_POOL_MAX_SIZE is set (the ASGI web processes,
    # config/asgi.py, where each request runs in a thread of its own), else one per thread.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if pool_size := env.int("DATABASE_POOL_MAX_SIZE", default=0):
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them
        # The pool's check retries a broken connection with a back-off of seconds: a restarted
        # database would hold requests that long. Unchecked, a broken one fails its request
        # with the clean 503 (config/middleware.py) and the pool drops it.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
        # Django's backend, with a 503 at once while the database is down (its docstring).
        DATABASES["default"]["ENGINE"] = "config.postgresql"
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(2, pool_size),
            "max_size": pool_size,
            # How long a request waits for a free connection before its 503: as long as one
            # waited for a sync worker (a database that is down answers at once instead).
            "timeout": env.float("DATABASE_POOL_TIMEOUT", default=30.0),
        }
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    if env.bool("DATABASE_PREPARED_STATEMENTS", default=True):
        # Parameters bound by the server, and a statement run a fifth time on a connection
        # prepared there (psycopg's prepare_threshold): it is then neither parsed nor planned
        # again. Planning was most of PostgreSQL's time in the common reads and the deal's write
        # (docs/benchmarks.md). Off for a pooler that cannot keep prepared statements
        # (PgBouncer in transaction mode before 1.21, docs/deploy.md).
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=5
        )
else:
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The push channel (games/push): how often an open stream checks again that who holds it may
# still read it (a change checks at once), its heartbeat, and the base of the reconnection
# delay it tells clients (each event adds a random jitter up to as much again).
PUSH_RECHECK_SECONDS = env.float("PUSH_RECHECK_SECONDS", default=300.0)
PUSH_HEARTBEAT_SECONDS = env.float("PUSH_HEARTBEAT_SECONDS", default=25.0)
PUSH_RETRY_MS = env.int("PUSH_RETRY_MS", default=2000)

REDIS_URL = env.str("REDIS_URL", default="")
#: What every Redis client of ours is made with: no maintenance notifications (a managed
#: cluster's; redis-py tries them on each new connection, a round trip that Redis 7 refuses,
#: and the step where a publish under load once failed: docs/deploy.md).
REDIS_CLIENT_OPTIONS: dict[str, Any] = {
    "maint_notifications_config": MaintNotificationsConfig(enabled=False)
}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {
                # A dead cache must not take entry down with it.
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 1,
                "SOCKET_TIMEOUT": 1,
                "CONNECTION_POOL_KWARGS": REDIS_CLIENT_OPTIONS,
            },
        }
    }
    # Throttle counts (config/cache.py): in Redis, in this process's memory while it is down.
    CACHES["throttle"] = {
        "BACKEND": "config.cache.FallbackRedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": {
            "SOCKET_CONNECT_TIMEOUT": 0.25,
            "SOCKET_TIMEOUT": 0.25,
            "CONNECTION_POOL_KWARGS": {"retry": Retry(NoBackoff(), 0), **REDIS_CLIENT_OPTIONS},
        },
    }
else:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
        "throttle": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "throttle",
        },
    }
DJANGO_REDIS_IGNORE_EXCEPTIONS = True

# Celery: eager in-process without a broker (the embedded default), real workers with Redis.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
# Workers keep their database connection between tasks, as web processes do between requests
# (config/celery.py closes a failed or aged one around each task, like Django per request).
CELERY_DB_REUSE_MAX = env.int("CELERY_DB_REUSE_MAX", default=1000)
CELERY_RESULT_EXPIRES = 3600
CELERY_TIMEZONE = TIME_ZONE
# Entry must never wait on a dead broker: fail fast when publishing (STACK.md).
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {
    "max_retries": 0,
    "socket_connect_timeout": 1,
    "socket_timeout": 2,
}
if REDIS_URL:
    # An idle worker waits on Redis's BRPOP this many seconds at a time (kombu's default is 1):
    # a queued task still wakes it at once. Redis only: the in-memory transport would sleep
    # between its polls for as long (docs/deploy.md).
    CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] = env.float(
        "CELERY_BROKER_POLLING_INTERVAL", default=10.0
    )
CELERY_TASK_PUBLISH_RETRY = False
# Two queues, and a worker started without `-Q` consumes both: refreshes (and the rest) on
# "celery", the nightly rebuild's chunks on "bulk". Redis hands a worker its queues in turn, so a
# refresh queued during the rebuild waits for one chunk at most, not for every chunk queued
# before it (docs/standings.md). Each queue has its own exchange: nothing is delivered twice.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = (
    Queue("celery", Exchange("celery"), routing_key="celery"),
    Queue("bulk", Exchange("bulk"), routing_key="bulk"),
)
CELERY_TASK_ROUTES = {
    "scoring.tasks.rebuild_all_standings": {"queue": "bulk"},
    "scoring.tasks.rebuild_standings_chunk": {"queue": "bulk"},
    "scoring.tasks.finish_standings_rebuild": {"queue": "bulk"},
}
# The nightly standings rebuild and the minute sweep that catches up (docs/standings.md): a
# session the rebuild queued and no computation stored within the grace (its chunk died with a
# worker) is refreshed by the next sweep.
STANDINGS_REBUILD_CHUNK = env.int("STANDINGS_REBUILD_CHUNK", default=200)
STANDINGS_REBUILD_GRACE = env.int("STANDINGS_REBUILD_GRACE", default=300)
STANDINGS_SWEEP_SECONDS = env.int("STANDINGS_SWEEP_SECONDS", default=60)
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {"task": "scoring.tasks.record_heartbeat", "schedule": 60},
    # Catch-up for refreshes a dead broker or a killed worker lost (docs/standings.md).
    "refresh-stale-standings": {
        "task": "scoring.tasks.refresh_stale_standings",
        "schedule": STANDINGS_SWEEP_SECONDS,
    },
    # Results mail a dead broker or a killed worker left waiting (docs/deploy.md, "E-mail").
    "send-waiting-results-mail": {
        "task": "scoring.tasks.send_waiting_results_mail",
        "schedule": env.int("RESULTS_MAIL_SWEEP_SECONDS", default=300),
    },
    # Fanned out over the workers, a chunk of sessions per task (docs/standings.md).
    # At night in TIME_ZONE (CELERY_TIMEZONE), when no club is playing; 03:30 by default.
    "nightly-standings-rebuild": {
        "task": "scoring.tasks.fan_out_standings_rebuild",
        "schedule": crontab(
            hour=env.int("STANDINGS_REBUILD_HOUR", default=3),
            minute=env.int("STANDINGS_REBUILD_MINUTE", default=30),
        ),
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a check: Django tells validators when a password changed, which revokes API tokens.
    {"NAME": "config.auth.RevokeApiTokensOnPasswordChange"},
]
# django-axes first: it refuses a locked-out sign-in before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# E-mail (docs/deploy.md): SMTP from `EMAIL_URL` (smtp://, smtp+tls://, smtp+ssl://) or from
# `EMAIL_HOST` and its companions; with neither, mail is printed on the console (`make run`).
EMAIL_URL = env.str("EMAIL_URL", default="")
EMAIL_HOST = env.str("EMAIL_HOST", default="")
if EMAIL_URL:
    _email = env.email_url_config(EMAIL_URL)
    EMAIL_BACKEND = _email["EMAIL_BACKEND"]
    EMAIL_HOST = _email["EMAIL_HOST"] or ""
    EMAIL_PORT = _email["EMAIL_PORT"] or 25
    EMAIL_HOST_USER = _email["EMAIL_HOST_USER"] or ""
    EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"] or ""
    EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS", False))
    EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL", False))
elif EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env.int("EMAIL_PORT", default=25)
    EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
    EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
# A dead mail server must not hold a worker for long; the reset mail is sent by a task.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Backscore <noreply@localhost>")
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
# The site's address as its visitors reach it, for the links in mail a worker sends with no
# request to take a host from: each player's results mail (docs/deploy.md, "E-mail").
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# How long a reset link works (Django's default is three days); a director's link too.
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT_HOURS", default=72) * 3600

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# How many proxies stand between the clients and gunicorn (docs/deploy.md): 0 trusts the socket
# alone; N takes the client's address from the Nth entry from the end of X-Forwarded-For. The
# throttles and the login lockout read it through `config.throttling.client_address`.
NUM_PROXIES = env.int("NUM_PROXIES", default=0)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # knox's, reading the token and its user in one query (config/tokens.py).
        "config.tokens.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # DRF's own, but a body nested too deeply is a 400 (config/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": None,
    # Writes are throttled per user (reads are not); sign-in per client address (docs/security.md).
    "DEFAULT_THROTTLE_CLASSES": ["config.throttling.WriteRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "writes": env.str("THROTTLE_WRITES", default="600/min"),
        "sign-in": env.str("THROTTLE_SIGN_IN", default="10/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "NUM_PROXIES": NUM_PROXIES,
}
# API tokens (django-rest-knox, docs/security.md): stored as SHA-512 hashes, sent as
# `Authorization: Token <key>`. They live as long as Django's browser sessions (two weeks) by
# default: a club's app signs in once a fortnight, and a token lost with a phone stops working
# by itself within two weeks. Revoked by DELETE /api/v1/auth/token/ and by a password change.
REST_KNOX = {
    "TOKEN_TTL": timedelta(hours=env.int("API_TOKEN_TTL_HOURS", default=336)),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Backscore API",
    "DESCRIPTION": "Rubber-bridge scoring, sessions and standings for clubs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "SessionKindEnum": "clubs.models.Session.Kind",
        "AccountEntryKindEnum": "scoring.standings.ledger.AccountEntry.Kind",
        "PaymentKindEnum": "scoring.standings.ledger.PAYMENT_KINDS",
    },
    # Swagger UI and Redoc from drf-spectacular-sidecar's static files: /api/docs/ works offline
    # and loads nothing from another origin (docs/security.md).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Production hardening: on whenever DEBUG is off, so `check --deploy` is clean.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True

# Content Security Policy (django-csp 4): no inline script or style anywhere; pages load their
# own static files only, /api/docs/ included (its Swagger UI is a static file too).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Login lockout (django-axes): after AXES_FAILURE_LIMIT failed sign-ins for one username from
# one address, that pair is refused (HTTP 429) until the cool-off ends. Keying on the pair stops
# a stranger from locking a whole club (one shared address) out by guessing.
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.throttling.client_address"
# The username axes records, cut to its column's 255 characters: the sign-in page and the admin
# do not bound a name's length (config/sign_in.py).
AXES_USERNAME_CALLABLE = "config.sign_in.username"
# What the counters (throttles, failed sign-ins per address, table-code misses) count: an IPv6
# client by its /64.
CLIENT_KEY_CALLABLE = "config.throttling.client_key"
AXES_RESET_ON_SUCCESS = True
# And failed sign-ins per client address, whatever the usernames (config/sign_in.py): at
# SIGN_IN_FAILURES_PER_ADDRESS in one window of SIGN_IN_FAILURE_WINDOW_MINUTES, every sign-in from
# that address (page, admin, API) is refused until the window ends. Generous, because a whole
# club behind one NAT address shares it (docs/security.md).
AXES_HANDLER = "config.sign_in.SignInHandler"
AXES_LOCKOUT_CALLABLE = "config.sign_in.lockout_response"
SIGN_IN_FAILURES_PER_ADDRESS = env.int("SIGN_IN_FAILURES_PER_ADDRESS", default=20)
SIGN_IN_FAILURE_WINDOW_MINUTES = env.int("SIGN_IN_FAILURE_WINDOW_MINUTES", default=10)
# No start-up banner on every manage.py command; failures are still logged.
AXES_VERBOSE = False

# The admin shows a deal's and a session's history but never reverts to an old version: a deal
# changes only through Deal.correct (locked, rescored, noted in the history; docs/rules.md).
SIMPLE_HISTORY_REVERT_DISABLED = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "INFO"}},
}

# How often a live pad or console asks whether it changed (an ETag poll) while no push event
# reaches it: the fallback when the push channel is down (static/js/backscore.js).
LIVE_POLL_MS = env.int("LIVE_POLL_MS", default=5000)
