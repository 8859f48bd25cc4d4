"""Django settings of the prize desk. Everything that differs between a laptop at
the counter and a test comes from the environment:

  BOBING_DESK_DIR    the desk's folder: desk.sqlite3 (one file, WAL mode) and
                     secret_key (made from os.urandom on first start). Default:
                     build/desk in the repository.
  BOBING_DESK_HOSTS  host names the desk answers to, comma-separated (default "*":
                     it is reached by the laptop's address on the counter's network)
"""
import os
import secrets

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA_DIR = os.path.abspath(os.environ.get("BOBING_DESK_DIR") or os.path.join(ROOT, "build", "desk"))


def _secret_key():
    """Signs sessions and CSRF tokens: real entropy, kept beside the database."""
    os.makedirs(DATA_DIR, exist_ok=True)
    path = os.path.join(DATA_DIR, "secret_key")
    try:
        with open(path) as f:
            return f.read().strip()
    except FileNotFoundError:
        key = secrets.token_urlsafe(50)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(key)
        return key


SECRET_KEY = _secret_key()
DEBUG = False  # never a traceback on a page
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("BOBING_DESK_HOSTS", "*").split(",") if h.strip()]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "host_sim.desk",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the page's language (see the i18n block)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "host_sim.desk.middleware.too_large",  # an oversized upload: a page, its body unread
    "django.contrib.auth.middleware.LoginRequiredMiddleware",  # every page but the login
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "host_sim.desk.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.template.context_processors.i18n",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
WSGI_APPLICATION = "host_sim.desk.wsgi.application"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(DATA_DIR, "desk.sqlite3"),
        "OPTIONS": {
            # Two counters at once: writers take the lock at BEGIN (no upgrade
            # deadlock), wait up to 20 s for it; WAL lets pages read meanwhile;
            # synchronous=FULL: a redemption the page confirmed survives a power cut.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
        },
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Attendants' passwords: Argon2id first (memory-hard); PBKDF2 still reads older hashes.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "counter"
LOGOUT_REDIRECT_URL = "login"
SESSION_COOKIE_AGE = 12 * 3600  # one working day at the counter
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Strict"
CSRF_COOKIE_SAMESITE = "Strict"
CSRF_FAILURE_VIEW = "host_sim.desk.views.csrf_failure"
X_FRAME_OPTIONS = "DENY"

# A journal is a few KB (11 + config + 6 bytes an event); anything far larger is refused.
MAX_JOURNAL_BYTES = 1 << 20
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_JOURNAL_BYTES + 65536
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_JOURNAL_BYTES + 65536

# i18n: Chinese first, English beside it. The page's language is the attendant's
# choice (the switch on every page sets the django_language cookie, a year long),
# else the browser's Accept-Language, else zh-Hans. The catalogue is
# host_sim/desk/locale/zh_Hans/LC_MESSAGES/django.po; its compiled .mo is committed
# (`make desk-messages` remakes it with Debian's gettext).
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Strict"
USE_I18N = True
STATIC_URL = "/static/"
STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
USE_TZ = True
TIME_ZONE = os.environ.get("BOBING_DESK_TZ", "Asia/Shanghai")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {
        "desk": {"handlers": ["stderr"], "level": "INFO"},
        "django.request": {"handlers": ["stderr"], "level": "ERROR"},
    },
}
