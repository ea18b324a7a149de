"""Schockclub settings: one file, configured by environment variables (see .env.example).

Developer defaults need nothing running: SQLite in the project folder, Celery tasks run
eagerly, an in-memory cache. With DATABASE_URL and REDIS_URL set, PostgreSQL (psycopg 3)
and Redis (Celery broker, result backend and cache) are used. With DEBUG off, a missing
SECRET_KEY stops the start-up loudly.
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from csp.constants import NONE as CSP_NONE
from csp.constants import SELF as CSP_SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from redis.backoff import NoBackoff
from redis.retry import Retry

BASE_DIR = Path(__file__).resolve().parent.parent


TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """A yes/no setting from the environment. A word that is neither (a typo such as
    DEBUG=flase) stops the start with a clear message instead of silently meaning no."""
    value = os.environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is neither yes nor no: use one of {sorted(TRUE_WORDS | FALSE_WORDS)}."
    )


DEBUG = env_bool("DEBUG", True)
# `manage.py demo` creates logins with a known password: only where DEBUG is on as the
# environment sets it (the test runner switches DEBUG itself off, not this), or forced.
DEMO_ALLOWED = DEBUG
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if h.strip()
]
if DEBUG:
    ALLOWED_HOSTS += ["testserver"]

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
    "knox",  # API tokens that expire, several per login
    "axes",  # lockout after repeated failed logins
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files served by us, no CDN
    "django_filters",
    "simple_history",
    "league",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Which database a request reads (league/club/replica.py): only with a replica.
    "league.club.replica.ReadYourWritesMiddleware",
    "csp.middleware.CSPMiddleware",
    "schockclub.static_files.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Under /api/, a 404 of no route and a 405 of no API view in the API's JSON shape.
    "league.club.middleware.ApiErrorsMiddleware",
    # Before the CSRF check, which reads a page's form: a body past its bound is refused
    # unread (league/club/body_limits.py).
    "league.club.body_limits.RequestBodyLimitMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every request in its club's scope (django-scopes; league/club/scoping.py): a query of
    # a club-owned model outside one raises. SCOPES_DISABLED is never set here, in no
    # environment: a forgotten scope must fail loudly, not show another club's rows.
    "league.club.middleware.ClubScopeMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: turns a locked-out login into our 429 answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "schockclub.urls"

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
                "django.template.context_processors.i18n",
                "league.club.context_processors.membership",
            ],
        },
    },
]

WSGI_APPLICATION = "schockclub.wsgi.application"

# Connections persist in production: a new PostgreSQL connection per request costs more
# than most reads of the app. With DEBUG off each process keeps its connection for
# CONN_MAX_AGE seconds (default 60) and checks it before reuse (a restarted database costs
# one failed check, not a 500); the developer's runserver opens one per request.
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0" if DEBUG else "60")),
        conn_health_checks=True,
    )
}
# PostgreSQL through Django's backend with the club-owned tables' GROUP BY
# (schockclub/postgresql/base.py: their primary key is (id, club_id)).
POSTGRESQL_ENGINE = "schockclub.postgresql"
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = POSTGRESQL_ENGINE
# Connections (README "Scaling"): DATABASE_POOL_MAX_SIZE=n gives each process a psycopg
# pool of up to n connections (PostgreSQL; Django then needs CONN_MAX_AGE 0). Behind
# PgBouncer in transaction mode set DATABASE_PGBOUNCER=true (no server-side cursors) and
# leave the pool off.
DATABASE_POOL_MAX_SIZE = int(os.environ.get("DATABASE_POOL_MAX_SIZE", "0"))
if DATABASE_POOL_MAX_SIZE and DATABASES["default"]["ENGINE"] == POSTGRESQL_ENGINE:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "pool": {
            "min_size": int(os.environ.get("DATABASE_POOL_MIN_SIZE", "1")),
            "max_size": DATABASE_POOL_MAX_SIZE,
            "timeout": int(os.environ.get("DATABASE_POOL_TIMEOUT", "10")),
        },
    }
if env_bool("DATABASE_PGBOUNCER", False):
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True

# A read replica (README "Scaling: a read replica"): DATABASE_REPLICA_URL names a hot
# standby of the primary (PostgreSQL streaming replication). Pages and API reads of a
# client that has not written in the last REPLICA_READ_YOUR_WRITES_SECONDS seconds go
# there; writes, transactions, tasks and commands stay on the primary
# (league/club/replica.py). In tests the alias mirrors the primary's test database.
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = {
        **dj_database_url.parse(
            DATABASE_REPLICA_URL,
            conn_max_age=DATABASES["default"]["CONN_MAX_AGE"],
            conn_health_checks=True,
        ),
        "TEST": {"MIRROR": "default"},
    }
    if DATABASES["replica"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["replica"]["ENGINE"] = POSTGRESQL_ENGINE
    for _key in ("OPTIONS", "DISABLE_SERVER_SIDE_CURSORS"):
        if _key in DATABASES["default"]:
            DATABASES["replica"][_key] = DATABASES["default"][_key]
DATABASE_ROUTERS = ["league.club.replica.ReplicaRouter"]
REPLICA_READ_YOUR_WRITES_SECONDS = int(os.environ.get("REPLICA_READ_YOUR_WRITES_SECONDS", "10"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Django's four validators; scripts and factories that call set_password
# are not checked, the password forms (change, reset) and the API's password change are.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-axes first: it refuses a locked-out login before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend, reading a session's login with its person and club in one query.
    "league.club.accounts.backends.LoginBackend",
]

# Lockout after repeated failed logins on the login page, the admin and the API's token
# endpoint: per login name AND address, so a wrong guess from one pub's
# Wi-Fi does not lock the whole club out. Attempts live in the database (axes' access log
# in the admin); the answer is league.club.accounts.lockout (429, German).
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "league.club.accounts.lockout.lockout_response"
AXES_HTTP_RESPONSE_CODE = 429
# The address a login comes from (django-axes through django-ipware): with
# AXES_IPWARE_PROXY_COUNT=n proxies of our own in front (README "Production": the TLS
# proxy, so 1 by default when DEBUG is off; 0 with `make run`), the n-th address from the
# right of X-Forwarded-For, the one our outermost proxy appended; what a client wrote there
# itself stays to the left and is never believed. With 0, REMOTE_ADDR. ipware counts only
# the proxies listed in the header after the client (the nearest proxy is REMOTE_ADDR), so
# it is given n - 1, left-most, and not strict: a chain longer than ours (a client's own
# entries) is read from the right instead of being thrown away. REMOTE_ADDR (our proxy)
# is not asked then: ipware would prefer a public proxy address to a client's private one.
PROXIES_IN_FRONT = int(os.environ.get("AXES_IPWARE_PROXY_COUNT", "0" if DEBUG else "1"))
if PROXIES_IN_FRONT > 0:
    AXES_IPWARE_PROXY_COUNT = PROXIES_IN_FRONT - 1
    AXES_IPWARE_PROXY_ORDER = "left-most"
    AXES_IPWARE_META_PRECEDENCE_ORDER: tuple[str, ...] = ("HTTP_X_FORWARDED_FOR",)
    IPWARE_STRICT = False
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ("REMOTE_ADDR",)

# API tokens (django-rest-knox): stored hashed, several per login, expire after
# SCHOCKCLUB_TOKEN_DAYS days (30 by default); revoked on logout and password change.
SCHOCKCLUB_TOKEN_DAYS = int(os.environ.get("SCHOCKCLUB_TOKEN_DAYS", "30"))
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=SCHOCKCLUB_TOKEN_DAYS),
    "AUTH_HEADER_PREFIX": "Token",
}

# The site's address as people reach it (links in e-mails, `manage.py club_create`'s
# invitation): e.g. https://schock.example.org
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# Clubs sign up themselves at /registrieren/ only with SIGNUP_OPEN=true (else 404):
# the secretary's link holds SIGNUP_LINK_HOURS hours; at most SIGNUP_MAX_PER_EMAIL requests
# per e-mail address and SIGNUP_MAX_PER_ADDRESS per client address in an hour.
SIGNUP_OPEN = env_bool("SIGNUP_OPEN", False)
SIGNUP_LINK_HOURS = int(os.environ.get("SIGNUP_LINK_HOURS", "48"))
SIGNUP_MAX_PER_EMAIL = int(os.environ.get("SIGNUP_MAX_PER_EMAIL", "3"))
SIGNUP_MAX_PER_ADDRESS = int(os.environ.get("SIGNUP_MAX_PER_ADDRESS", "10"))

# E-mail (the password reset): printed to the console unless EMAIL_HOST
# names an SMTP server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "schockclub@localhost")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link holds for a day

# The club's language for everyone, whatever a browser asks for. The pages are translated
# through Django's i18n (English source strings, locale/de), so adding LocaleMiddleware is
# all it takes to let another language follow.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
# One German catalogue, locale/de/LC_MESSAGES/django.po (tests/test_locale.py holds it so).
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES: dict[str, dict] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names (after collectstatic), kept a year by browsers (schockclub/static_files.py).
    "staticfiles": {"BACKEND": "schockclub.static_files.HashedStaticFilesStorage"},
}
# Static URLs without a hash (none of the pages' links after collectstatic): seconds kept.
WHITENOISE_MAX_AGE = int(os.environ.get("WHITENOISE_MAX_AGE", "0" if DEBUG else "60"))
# Media (the season report PDFs) on object storage when several hosts share them (README
# "Scaling"): MEDIA_STORAGE=s3 with django-storages (`pip install '.[s3]'`) and S3_BUCKET,
# optionally S3_ENDPOINT_URL (MinIO, Ceph, ...), S3_REGION, S3_ACCESS_KEY, S3_SECRET_KEY.
if os.environ.get("MEDIA_STORAGE", "filesystem") == "s3":
    if not os.environ.get("S3_BUCKET"):
        raise ImproperlyConfigured("MEDIA_STORAGE=s3 needs S3_BUCKET.")
    STORAGES["default"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ["S3_BUCKET"],
            "endpoint_url": os.environ.get("S3_ENDPOINT_URL") or None,
            "region_name": os.environ.get("S3_REGION") or None,
            "access_key": os.environ.get("S3_ACCESS_KEY") or None,
            "secret_key": os.environ.get("S3_SECRET_KEY") or None,
            "file_overwrite": False,
            "querystring_auth": True,
        },
    }
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "media/"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

REDIS_URL = os.environ.get("REDIS_URL", "")
# The cache is an accelerator, never a dependency: when Redis is down or cut off, a cache
# call fails within two seconds (1 s a try, one immediate retry for a connection Redis
# dropped) and the caller computes or reads from the database instead, leaving the cache
# alone for a few seconds (league.club.caching.GuardedCache).
REDIS_CACHE_OPTIONS = {
    "socket_connect_timeout": 1,
    "socket_timeout": 1,
    "retry": Retry(NoBackoff(), 1),
}


def _next_redis_database(url: str) -> str:
    """`url` with the next database number (modulo 16): the cache's default database."""
    parts = urlsplit(url)
    database = (int(parts.path.strip("/") or 0) + 1) % 16
    return urlunsplit(parts._replace(path=f"/{database}"))


# The cache (kept reads, which may be evicted) lives in a Redis database of its own, apart
# from the Celery broker's queue (never evicted): README "Cache memory".
REDIS_CACHE_URL = os.environ.get("REDIS_CACHE_URL", "") or (
    _next_redis_database(REDIS_URL) if REDIS_URL else ""
)
# Django's Redis backend, with its Redis client built once instead of on every call
# (schockclub/redis_cache.py).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "schockclub.redis_cache.KeptClientRedisCache",
            "LOCATION": REDIS_CACHE_URL,
            "OPTIONS": REDIS_CACHE_OPTIONS,
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND: str | None = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = None
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ACKS_LATE = True
# Payment reminders (league/banking/tasks.py), run daily by
# `celery -A schockclub beat`: each member is mailed at most once per month (a unique row),
# however often the task runs.
CELERY_IMPORTS = ["league.banking.tasks"]
CELERY_BEAT_SCHEDULE = {
    "payment-reminders": {
        "task": "league.banking.tasks.send_payment_reminders",
        "schedule": 60 * 60 * 24,  # daily: the task itself sends once per month
    },
    # The reminders by e-mail and web push (league/banking/notifications.py): hourly, so
    # that what the quiet hours held back goes out in the first run after they end; each
    # person hears of each kind at most once a week (a unique row).
    "notifications": {
        "task": "league.banking.tasks.send_notifications",
        "schedule": 60 * 60,
    },
}
# Web push (pywebpush): the VAPID key pair of the site (the private key as the base64url
# text of its raw 32 bytes or a PEM; the public key, base64url, is what the browser's
# pushManager.subscribe() takes) and the contact the push services may write to. Without
# the private key no push message is sent (e-mail still is).
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:schockclub@localhost")
# The browser push services a subscription's endpoint may name (its host, or a host under
# it on a dot boundary): the worker POSTs every reminder to the endpoint, so any other
# address (the host's own network, localhost) is refused. Google FCM (Chrome, Edge on
# Android), Mozilla autopush (Firefox), Microsoft WNS (Edge on Windows), Apple (Safari).
# Comma-separated in the environment to replace the list.
PUSH_SERVICE_HOSTS = [
    host.strip().lower()
    for host in os.environ.get(
        "PUSH_SERVICE_HOSTS",
        "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com",
    ).split(",")
    if host.strip()
]
# How many browsers a person may keep subscribed; a new one replaces the oldest.
PUSH_SUBSCRIPTIONS_PER_PERSON = 10
# Quiet hours of the reminders (the club's local hours, Europe/Berlin): nothing is sent
# from NOTIFY_QUIET_FROM o'clock to NOTIFY_QUIET_UNTIL o'clock; what falls due meanwhile
# is held and sent in the first run after.
# Where the site is reached, for the links of messages sent without a request (the
# reminders' page links and one-tap unsubscribe links).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
NOTIFY_QUIET_FROM = int(os.environ.get("NOTIFY_QUIET_FROM", "22"))
NOTIFY_QUIET_UNTIL = int(os.environ.get("NOTIFY_QUIET_UNTIL", "8"))
# Worker faults. A task is acknowledged only when it has finished; a worker
# process that dies (kill -9, out of memory) gives its task back instead of dropping it, and
# a worker reserves one task at a time, so a dying worker holds no others hostage.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A whole worker that is killed cannot give anything back: Redis hands its unacknowledged
# task to another worker once BROKER_VISIBILITY_TIMEOUT seconds have passed since delivery,
# looked for every 5 s. The report build's hard time limit stays below it, so a build that
# is still running is never handed out twice. Killed mid-build, the report is ready again
# after at most 75 + 5 s plus one build (3.5 s for 45 evenings): within two minutes.
REPORT_BUILD_TIME_LIMIT = int(os.environ.get("REPORT_BUILD_TIME_LIMIT", "60"))
BROKER_VISIBILITY_TIMEOUT = int(os.environ.get("BROKER_VISIBILITY_TIMEOUT", "75"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": BROKER_VISIBILITY_TIMEOUT,
    "unacked_restore_interval": 5,
    "unacked_restore_throttle": 1,
}
CELERY_TIMEZONE = TIME_ZONE
# The queue tasks are sent to and `make worker` listens on (the worker test uses its own).
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
# Queues apart (README "Workers: one per queue"): the season reports, the mail (payment
# reminders) and the club-book imports each have a queue of their own, served by a worker
# of its own, so a slow PDF never delays a reminder (schockclub.celery.task_route).
QUEUE_REPORTS = os.environ.get("QUEUE_REPORTS", "reports")
QUEUE_MAIL = os.environ.get("QUEUE_MAIL", "mail")
QUEUE_IMPORTS = os.environ.get("QUEUE_IMPORTS", "imports")
CELERY_TASK_ROUTES = ["schockclub.celery.task_route"]

# The largest request body (bytes): a JSON body of the API, a form of a page; views that
# take files name their own bound (league/club/body_limits.py). The largest game entered by
# rounds (1,000 throws attempt by attempt) is about 150 KB.
API_MAX_BODY_BYTES = int(os.environ.get("API_MAX_BODY_BYTES", str(256 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_BODY_BYTES

# REST API (owner: API). Token first, so that an anonymous request is a 401 with
# `WWW-Authenticate: Token`; every refusal is `{code, message, field}` (league.club.api_common).
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "league.club.accounts.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Logged in, and from there in the scope of the login's club (league/club/scoping.py).
    "DEFAULT_PERMISSION_CLASSES": ["league.club.api_login.ClubLogin"],
    # drf-spectacular's, adding the 401/403/404/409/429/304 every endpoint can answer.
    "DEFAULT_SCHEMA_CLASS": "league.club.api_schema.ClubAutoSchema",
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "rest_framework.filters.OrderingFilter",
    ],
    # JSON only: the API is strict; the token endpoint keeps its form parsers.
    "DEFAULT_PARSER_CLASSES": ["league.club.parsers.BoundedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "league.club.api_common.ApiPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "league.club.api_common.api_exception_handler",
    # Requests per login and per client address (league/club/throttles.py): past either
    # rate, 429 `throttled` with Retry-After.
    "DEFAULT_THROTTLE_CLASSES": ["league.club.throttles.ApiThrottle"],
}
# The throttles' rates ("n/s", "n/min", "n/hour", "n/day"), read on each request: a phone
# syncing an evening sends a few dozen requests at once; a pub's Wi-Fi puts the whole club
# behind one address. Tests raise both (tests/conftest.py).
API_THROTTLE_RATES = {
    "user": os.environ.get("API_THROTTLE_USER", "300/min"),
    "address": os.environ.get("API_THROTTLE_ADDRESS", "1200/min"),
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Schockclub API",
    "DESCRIPTION": "The books of a Schocken club: evenings, games, Schock-Aus, standings, "
    "dues and Runden. Rules: docs/rules.md. Log in with a session or send "
    "`Authorization: Token <key>` (POST /api/v1/auth/token/). A member reads the own club; "
    "the club's secretary also writes it; another club's data answers 404. Every refusal "
    "is `{code, message, field}`; changes of evenings and games need the version last read "
    "(412 when stale, 428 when missing).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Anonymous visitors see nothing but the login: the docs need a login too.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.IsAuthenticated"],
    "COMPONENT_SPLIT_REQUEST": True,
    # The views' querysets name their models across clubs (league/club/scoping.py).
    "DEFAULT_GENERATOR_CLASS": "league.club.api_schema.ClubSchemaGenerator",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name per choice set (check --deploy runs drf-spectacular's schema check).
    "ENUM_NAME_OVERRIDES": {
        "RulePresetEnum": "league.club.models.RULE_PRESET_CHOICES",
        "MemberKindEnum": "league.club.models.Member.Kind",
    },
}

# Database sessions; a malformed session cookie is no session rather than a server error.
# With Redis, read through the cache and written to both (README "Scaling": any host serves
# any session, and a Redis restart logs nobody out).
SESSION_ENGINE = "league.club.session_store_cached" if REDIS_URL else "league.club.session_store"
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
# A failed CSRF check: a German page that passes the CSP (Django's is English, inline style).
CSRF_FAILURE_VIEW = "league.club.views.csrf_failure"

# Production security: with DEBUG off, `manage.py check --deploy` is clean
# (tests/test_deploy.py). The app runs behind a proxy that ends TLS and says so in
# X-Forwarded-Proto; each value can be changed from the environment (.env.example).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# A load balancer's probe may ask over plain http inside the network.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("SECURE_PROXY_SSL_HEADER", not DEBUG) else None
)
# HSTS: a year by default in production. Preload only tells browsers' preload lists they may
# take the domain; SECURE_HSTS_PRELOAD=false leaves it out.
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
# Origins a form may be posted from besides the host itself, e.g. https://schock.example.org
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]
# Content-Security-Policy (django-csp 4): scripts and styles only from our own files, no
# inline script, no style attribute (templates/ carry none; tests/test_deploy.py checks).
# Images may be data: URLs (Swagger UI's icons); nothing may frame the pages.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [CSP_SELF],
        "script-src": [CSP_SELF],
        "style-src": [CSP_SELF],
        "img-src": [CSP_SELF, "data:"],
        "font-src": [CSP_SELF],
        "connect-src": [CSP_SELF],
        "object-src": [CSP_NONE],
        "base-uri": [CSP_SELF],
        "form-action": [CSP_SELF],
        "frame-ancestors": [CSP_NONE],
    },
}
# GET /health/ (schockclub/health.py): fails when the disk under MEDIA_ROOT is this full
# (percent) or the last worker heartbeat is older than this (seconds). Workers beat every
# 15 s (schockclub/celery.py): a killed worker is reported within 60 s of its death.
HEALTH_DISK_MAX_PERCENT = float(os.environ.get("HEALTH_DISK_MAX_PERCENT", "90"))
HEALTH_WORKER_MAX_AGE = int(os.environ.get("HEALTH_WORKER_MAX_AGE", "60"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django's own default gives the "django" logger a console handler of its own while
    # DEBUG is on, and lets it propagate to the root's too: every line came out twice.
    # Its records go to the root's handler alone (and its "django.server" lines stay as
    # Django writes them).
    "loggers": {"django": {"handlers": [], "propagate": True}},
}

# The audit trail is read, never replayed: a "revert" in the admin would write rows past
# the services (and past the books-changed event).
SIMPLE_HISTORY_REVERT_DISABLED = True
