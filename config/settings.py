"""Valvoja settings.

Every value comes from the environment (django-environ) with an embedded default that runs on a
developer machine without any service: a SQLite file, no broker (Celery tasks run in-process), local
files. Production sets at least DEBUG=false, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL (PostgreSQL) and
CELERY_BROKER_URL (Redis or RabbitMQ); see README.md.
"""

import base64
import datetime as dt
import hashlib
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"  # runtime files of the embedded defaults (SQLite, media); git-ignored

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env")  # optional; a missing file is ignored

# Settings fail closed: DEBUG is off unless the environment turns it on (the Makefile's developer
# targets and the test run do, see config/pytest_env.py). Off, it turns on the HTTPS settings below
# and requires SECRET_KEY and the identifier keys.
DEBUG = env.bool("DEBUG", default=False)
# seed_demo creates accounts with a published password, so only a developer machine may run it. Kept
# apart from DEBUG because the test runner switches DEBUG off while the suite still loads demo data.
DEMO_DATA_ALLOWED = DEBUG

_DEV_SECRET_KEY = "dev-only-insecure-key-never-use-in-production-0000000000000000"
SECRET_KEY = env("SECRET_KEY", default=_DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false.")

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "csp",
    "compliance",
    "players",
    "lottery",
    "casino",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.AuditRequestMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "compliance.otp.StaffSecondFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "config.middleware.SecurityHeadersMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks: it turns a lockout into its page
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
                "config.context_processors.navigation",
            ],
        },
    },
]

# Database: a SQLite file by default; production sets DATABASE_URL=postgres://...
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'valvoja.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False  # services own their transactions
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when the transaction starts, so two writers never deadlock on upgrade,
    # and readers wait instead of failing at once with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"
# django-axes checks every sign-in (staff pages and the Django admin, which signs in through the same
# page) before the password is looked at; a sign-in without a request cannot be checked and is refused.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

# Lockout (django-axes): after AXES_FAILURE_LIMIT failed sign-ins for one user name, from whatever
# address (a password guessed from many hosts), and separately from one address, whatever the names
# (one host trying many accounts), sign-in is refused for AXES_LOCKOUT_MINUTES. The counts live in
# the database, so every web process shares them. The lockout runs from the attempt that reached the
# limit: attempts during it are refused and audited but do not extend it. An Administrator lifts it
# early with `python manage.py axes_reset_username USER`.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env.int("AXES_LOCKOUT_MINUTES", default=30))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "compliance.signin.locked_out_response"
AXES_SENSITIVE_PARAMETERS = ["password", "otp_token"]
# The address is REMOTE_ADDR, as in the audit trail: the web server must pass the client's address
# there (not the proxy's), or every client behind the proxy shares one per-address count.

# Second factor (django-otp, TOTP) for every user of the staff UI and the Django admin: after the
# password, enrolment (first time) or a 6-digit code; API token clients are not affected. On unless
# the environment says STAFF_OTP_REQUIRED=false (`make run` does; the test suite does, except the tests
# of this feature). `python manage.py otp_reset USER --by ADMIN` removes a lost device (audited).
OTP_REQUIRED = env.bool("STAFF_OTP_REQUIRED", default=True)
OTP_TOTP_ISSUER = env("OTP_TOTP_ISSUER", default="Valvoja")

# Cache: throttling counts (and anything else cached) live here. The default is per process; in
# production use Redis (CACHE_URL=redis://...) so that the API limits hold across every process and host.
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://valvoja")}

# Staff sessions end with the browser and after two idle hours (back-office workstations are shared).
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=2 * 60 * 60)
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_SAVE_EVERY_REQUEST = True

# Languages of the staff UI and the reports.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fi", _("Finnish")), ("sv", _("Swedish"))]
LOCALE_PATHS = [BASE_DIR / "config" / "locale"]
USE_I18N = True

# Time is stored in UTC and shown and scheduled in the operator's zone (DESIGN §2).
USE_TZ = True
TIME_ZONE = env("OPERATOR_TIME_ZONE", default="Europe/Helsinki")

# Money: integer cents in this currency (DESIGN §2).
OPERATOR_CURRENCY = env("OPERATOR_CURRENCY", default="EUR")

# Players (docs/players.md). National identifiers are never stored in clear: a keyed hash is the
# look-up key (people and registry entries), so this key must never change once data exists. With
# DEBUG off it is required and independent of SECRET_KEY (system check valvoja.E001; rotating
# SECRET_KEY must never silently stop exclusion matches). Only a developer machine (DEBUG on) falls
# back to a key derived from SECRET_KEY.
PLAYER_ID_HASH_KEY = env("PLAYER_ID_HASH_KEY", default="")
# The identifier is also kept encrypted (Fernet) for display to authorised staff; rotating this key
# needs re-encryption. Required with DEBUG off (valvoja.E002); same dev-only fallback.
PLAYER_ID_ENCRYPTION_KEY = env("PLAYER_ID_ENCRYPTION_KEY", default="")
if DEBUG:
    PLAYER_ID_HASH_KEY = PLAYER_ID_HASH_KEY or hashlib.sha256(
        f"valvoja:player-id-hash:{SECRET_KEY}".encode()
    ).hexdigest()
    PLAYER_ID_ENCRYPTION_KEY = PLAYER_ID_ENCRYPTION_KEY or base64.urlsafe_b64encode(
        hashlib.sha256(f"valvoja:player-id-encryption:{SECRET_KEY}".encode()).digest()
    ).decode()

# Audit trail (docs/compliance.md, "Audit trail"). The chain is sealed with HMAC-SHA256 under a key
# kept outside the database, so a database writer cannot recompute the seals of rows they rewrite.
# `id:hexkey` pairs (32+ bytes each), newest first: rotation lists a new key first and keeps the old
# ones for verifying. Required with DEBUG off (valvoja.E004); independent of SECRET_KEY, like the
# identifier keys; a developer machine derives a fixed key from SECRET_KEY.
AUDIT_HMAC_KEYS = env.list("AUDIT_HMAC_KEYS", default=[])
if DEBUG and not AUDIT_HMAC_KEYS:
    AUDIT_HMAC_KEYS = ["dev:" + hashlib.sha256(f"valvoja:audit-hmac:{SECRET_KEY}".encode()).hexdigest()]
# Signed checkpoints of the chain, written outside the database every few minutes: a file path
# (append-only JSON lines) or `storage:<alias>[/<prefix>]` for a Django storage in STORAGES. Production
# should use an object store with write-once retention (S3 Object Lock), so that nobody who can write
# the database can also remove the checkpoints that reveal deleted events.
AUDIT_CHECKPOINT_STORE = env("AUDIT_CHECKPOINT_STORE", default=str(VAR_DIR / "audit" / "checkpoints.jsonl"))
# Look-ups by national identifier per staff user and hour (each one audited): enough for a service desk,
# far too few to recover an identifier by trying the ~1,000 individual numbers of a birth date.
PLAYER_ID_SEARCHES_PER_HOUR = env.int("PLAYER_ID_SEARCHES_PER_HOUR", default=20)
# A game account may hold at most 20,000 euros (PR §2); an operator may only lower this.
PLAYER_BALANCE_CAP_CENTS = min(env.int("PLAYER_BALANCE_CAP_CENTS", default=2_000_000), 2_000_000)
# Minimum age per jurisdiction: 18 under the Finnish rules, 21 under 004-billionaire (the code
# raises a lower value to the statutory minimum). Format: FI=18,UA=21.
PLAYER_MIN_AGE = {k: int(v) for k, v in env.dict("PLAYER_MIN_AGE", default={"FI": "18", "UA": "21"}).items()}
PLAYER_DEFAULT_JURISDICTION = env("PLAYER_DEFAULT_JURISDICTION", default="FI")  # where new players register
# Raising or removing a player's own limit waits this long, so it is not raised in the heat of play.
PLAYER_LIMIT_COOLING_OFF_HOURS = env.int("PLAYER_LIMIT_COOLING_OFF_HOURS", default=24)
# An open play session without activity for this long counts as ended (play time stops counting).
PLAYER_SESSION_IDLE_MINUTES = env.int("PLAYER_SESSION_IDLE_MINUTES", default=30)

# Draw pipeline (docs/draws.md). Settlement writes winners in chunks of this many line ids, one
# transaction each (a rerun resumes after the last committed chunk).
LOTTERY_SETTLEMENT_CHUNK_LINES = env.int("LOTTERY_SETTLEMENT_CHUNK_LINES", default=500_000)
# Worker connections of a settlement on PostgreSQL (docs/draws.md, "Settlement"): they read the
# chunks with path B while path A counts, then write the winners, each its share of the chunks.
# 1 reads and writes the chunks one after the other on the worker's own connection.
LOTTERY_SETTLEMENT_WORKERS = env.int("LOTTERY_SETTLEMENT_WORKERS", default=2)
# Processes that verify a batch of casino rounds on PostgreSQL (docs/casino-operations.md,
# "Verification"): the job's own and CASINO_VERIFY_PROCESSES - 1 it forks, sharing the chunks. The
# engines are Python: one process per core is what the work can use. 1 verifies in the job's process.
CASINO_VERIFY_PROCESSES = env.int("CASINO_VERIFY_PROCESSES", default=2)
# A payout at or above this many cents waits for its own approval by a second user after the
# settlement's approval (large wins get a second look before the money moves).
LOTTERY_LARGE_WIN_CENTS = env.int("LOTTERY_LARGE_WIN_CENTS", default=10_000_000)
# A jackpot above this (cents) is set only when a second person approves it: an operator mistyping a
# digit would otherwise change every top prize of the round.
LOTTERY_JACKPOT_APPROVAL_CENTS = env.int("LOTTERY_JACKPOT_APPROVAL_CENTS", default=2_000_000_000)
# No jackpot is ever set above this (cents), by anyone, approved or not: the jackpots of the games
# that have one (Lotto, Jokeri; Milli's is capped at 2 M€, §31) stay well below it, and it stops a
# mistyped or hostile figure (9.2 × 10^18 cents fitted the column) before it reaches the prizes.
# 50 M€ by default: above LOTTERY_JACKPOT_APPROVAL_CENTS, so that between the two a jackpot is set
# only with a second person's approval, and above it not at all.
LOTTERY_JACKPOT_MAX_CENTS = env.int("LOTTERY_JACKPOT_MAX_CENTS", default=5_000_000_000)
# A running settlement whose worker has not beaten for this long is presumed dead and may be claimed
# by another worker. Run as a job its claim is refreshed every JOBS_HEARTBEAT_SECONDS by the job's
# heartbeat thread (not only between chunks), so this need only outlast a few missed beats.
LOTTERY_SETTLEMENT_STALE_SECONDS = env.int("LOTTERY_SETTLEMENT_STALE_SECONDS", default=30)

# A retail or register import whose worker has not written for this long is presumed dead. In a job
# the job's heartbeat keeps the import's fresh (compliance.file_jobs.claim_for_job), and a job sent
# again meanwhile waits for this limit; an import run by a command beats only with its progress, so
# this is longer than any single step of an import of 10,000,000 lines.
LOTTERY_IMPORT_STALE_SECONDS = env.int("LOTTERY_IMPORT_STALE_SECONDS", default=120)
REGISTRY_IMPORT_STALE_SECONDS = env.int("REGISTRY_IMPORT_STALE_SECONDS", default=120)
# Uploads are hashed (SHA-256) while they arrive: the import is named and stored by its content
# without reading a big file once more inside the request (compliance/file_jobs.py).
FILE_UPLOAD_HANDLERS = [
    "compliance.file_jobs.HashingMemoryFileUploadHandler",
    "compliance.file_jobs.HashingTemporaryFileUploadHandler",
]

STATIC_URL = "static/"
STATIC_ROOT = Path(env("STATIC_ROOT", default=str(VAR_DIR / "static")))
STATICFILES_DIRS = [BASE_DIR / "config" / "static"]
MEDIA_ROOT = Path(env("MEDIA_ROOT", default=str(VAR_DIR / "media")))
MEDIA_URL = "media/"
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

# HTTPS hardening is on whenever DEBUG is off; a TLS-terminating proxy must set X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): no inline script or style anywhere; every script and style
# sheet is a static file (config/static/valvoja/). The Swagger UI page relaxes style-src for itself
# only (config/urls.py says why). Permissions-Policy, Referrer-Policy and no-store on pages of signed-in
# users come from config.middleware.SecurityHeadersMiddleware.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    }
}
SECURE_REFERRER_POLICY = "same-origin"

# API for sales channels and integrations: token or staff session, permission checked per view.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "knox.auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["compliance.access.HasRequiredPermission"],
    # Every error as {"code", "detail", "fields"} through one handler; the schema declares each
    # operation's error answers with that body (compliance/api_errors.py).
    "EXCEPTION_HANDLER": "compliance.api_errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "compliance.api_errors.ErrorsAutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer"],
    "DEFAULT_VERSIONING_CLASS": None,
    # Throttling (compliance/throttle.py): per user (a sales channel is a user, so per channel), a low
    # rate for unauthenticated calls, and named scopes that views opt into with `throttle_scope`.
    # The counts live in the cache (CACHE_URL), which must be shared (Redis) in production.
    "DEFAULT_THROTTLE_CLASSES": [
        "compliance.throttle.AnonRateThrottle",
        "compliance.throttle.UserRateThrottle",
        "compliance.throttle.ScopedRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env("API_THROTTLE_USER", default="600/min"),
        "anon": env("API_THROTTLE_ANON", default="30/min"),
        # Look-ups by national identifier (API and staff page, compliance.throttle.hit): few per hour,
        # so that the search cannot be used to recover identifiers by trying candidates.
        "identifier_search": env("API_THROTTLE_IDENTIFIER_SEARCH", default="20/hour"),
    },
}
# API tokens are stored as digests (knox) and expire; `python manage.py api_token` issues and rotates
# them. The header stays `Authorization: Token <key>`.
REST_KNOX = {
    "TOKEN_TTL": dt.timedelta(days=env.int("API_TOKEN_TTL_DAYS", default=90)),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
    "TOKEN_LIMIT_PER_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Valvoja API",
    "DESCRIPTION": "Back-office and compliance API of the operator: for sales channels and integrations.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",  # self-hosted: no CDN
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_PERMISSIONS": ["compliance.access.HasRequiredPermission"],
    # Choice sets that share a field name get stable names in the schema.
    "ENUM_NAME_OVERRIDES": {
        "LedgerEntryKindEnum": "players.models.LedgerEntry.Kind",
        "LimitKindEnum": "players.models.LimitKind",
        "DrawStateEnum": "lottery.models.DrawState",
        "SettlementRunStateEnum": "lottery.models.RunState",
        "RetailImportStateEnum": "lottery.models.RetailImport.State",
        "RetailImportPhaseEnum": "lottery.models.RetailImport.Phase",
        "DrawResultStatusEnum": "lottery.models.ResultStatus",
    },
}

# Celery and jobs (docs/architecture.md, "Jobs"). The embedded default is a serverless transport:
# kombu's filesystem transport in var/jobs, served by the worker that `make run` starts. An empty
# CELERY_BROKER_URL runs tasks in-process (the test suite); production sets Redis or RabbitMQ.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="filesystem://localhost/")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
JOBS_DIR = Path(env("JOBS_DIR", default=str(VAR_DIR / "jobs")))
_default_backend = ""
CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    _default_backend = CELERY_BROKER_URL
    # kombu's Redis transport with the fix that keeps a worker alive when Redis drops mid-task.
    CELERY_BROKER_TRANSPORT = "config.kombu_redis:Transport"
    # A request never waits long for a broker that is down: connect and socket timeouts of seconds
    # (the job stays queued and the dispatcher sends it later); health checks find dead sockets.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 5,
                                       "health_check_interval": 10, "socket_keepalive": True}
elif CELERY_BROKER_URL.startswith(("amqp://", "amqps://", "pyamqp://")):
    _default_backend = "rpc://"
elif CELERY_BROKER_URL.startswith("filesystem://"):
    # The queue is a folder: no server. One host only (the web process, worker and beat share it).
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(JOBS_DIR / "queue"), "data_folder_out": str(JOBS_DIR / "queue"),
        "control_folder": str(JOBS_DIR / "control"), "store_processed": False,
    }
    for _folder in ("queue", "control"):
        (JOBS_DIR / _folder).mkdir(parents=True, exist_ok=True)
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", default=_default_backend) or None
CELERY_RESULT_EXPIRES = 24 * 60 * 60
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_ENABLE_UTC = True
# A task that runs away is stopped; long jobs (settlement, reports) set their own, longer limits.
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=300)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=360)
# Acknowledge after the task ran, so a worker killed mid-task leaves the message for another worker;
# every task is written to be safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Workers outlive the broker: they retry the connection for ever (startup included) and keep running
# the task they hold when it drops (its outcome is written to the job row, not to the broker).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Publishing from a request: a connect timeout of seconds, and no retry loop of its own (jobs are
# published with one quick retry by compliance.jobs.publish; the dispatcher does the rest).
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                                    "interval_max": 0.2}
# Beat: the database schedule, plus a heartbeat row for /healthz (compliance/beat.py); the beat
# process also runs the job dispatcher (JOBS_DISPATCHER_IN_BEAT).
CELERY_BEAT_SCHEDULER = "compliance.beat:Scheduler"
# Jobs: a running job beats every few seconds; one silent for JOBS_STALE_SECONDS is taken back and
# sent again (a dead worker's job resumes within a minute); a job sent but never started is sent
# again after JOBS_RESEND_SECONDS (doubling); connection errors are retried JOBS_MAX_ATTEMPTS times.
JOBS_HEARTBEAT_SECONDS = env.float("JOBS_HEARTBEAT_SECONDS", default=5)
JOBS_STALE_SECONDS = env.float("JOBS_STALE_SECONDS", default=30)
JOBS_RESEND_SECONDS = env.float("JOBS_RESEND_SECONDS", default=30)
JOBS_DISPATCH_SECONDS = env.float("JOBS_DISPATCH_SECONDS", default=2)
JOBS_MAX_ATTEMPTS = env.int("JOBS_MAX_ATTEMPTS", default=8)
JOBS_DISPATCHER_IN_BEAT = env.bool("JOBS_DISPATCHER_IN_BEAT", default=True)
JOBS_QUEUE = env("JOBS_QUEUE", default="")  # empty: Celery's default queue
# What /healthz requires (503 naming each one missing): with a broker, the broker, a live worker,
# beat and the dispatcher; in-process (eager) only the database.
HEALTHZ_REQUIRE = env.list(
    "HEALTHZ_REQUIRE",
    default=["database", "broker", "workers", "beat", "dispatcher"] if CELERY_BROKER_URL else ["database"],
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}

VAR_DIR.mkdir(exist_ok=True)
if str(STATIC_ROOT).startswith(str(VAR_DIR)):
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
DEMO_PASSWORD = env("DEMO_PASSWORD", default="valvoja-demo")  # seed_demo only; never a real account
