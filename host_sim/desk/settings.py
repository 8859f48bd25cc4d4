"""Django settings of the prize desk. Everything that differs between a laptop at
the counter and a test comes from the environment:

  BOBING_DESK_DIR    the desk's folder (mode 0700): desk.sqlite3 (one file, WAL
                     mode; it and its WAL 0600: they hold the bowls' secrets) and
                     secret_key (made from os.urandom on first start). Default:
                     data/desk in the repository (git-ignored; `make clean` keeps it).
  BOBING_DESK_HOSTS  host names the desk answers to, comma-separated. Default:
                     this computer's own names (localhost, its host name); `serve`
                     adds the address it listens on (every address of this
                     computer for 0.0.0.0). Any other Host header is refused.
"""
import os
import secrets

from host_sim.desk.paths import data_dir


DATA_DIR = data_dir(os.environ)
DB_PATH = os.path.join(DATA_DIR, "desk.sqlite3")


def _private_files():
    """The folder 0700 and the database made 0600 before SQLite opens it: SQLite gives
    its -wal and -shm files the database file's mode (os_unix.c, findCreateFileMode)."""
    os.makedirs(DATA_DIR, mode=0o700, exist_ok=True)
    try:
        os.chmod(DATA_DIR, 0o700)
    except OSError:
        pass  # not ours (a shared folder named by BOBING_DESK_DIR): the files still are
    os.close(os.open(DB_PATH, os.O_WRONLY | os.O_CREAT, 0o600))
    for suffix in ("", "-wal", "-shm"):  # an older desk's 0644 files
        try:
            os.chmod(DB_PATH + suffix, 0o600)
        except FileNotFoundError:
            pass


def _secret_key():
    """Signs sessions and CSRF tokens: real entropy, kept beside the database."""
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


def _own_hosts():
    import socket
    names = ["localhost", "127.0.0.1", "[::1]"]
    try:
        names.append(socket.gethostname())
    except OSError:
        pass
    return names


_private_files()
SECRET_KEY = _secret_key()
DEBUG = False  # never a traceback on a page
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("BOBING_DESK_HOSTS", "").split(",") if h.strip()] or _own_hosts()

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "host_sim.desk",
    "axes",  # logins limited and logged (logins.py)
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # static/ (the counter's QR reader, the receipt's MicroPython) by WhiteNoise, before the login
    # check: public, as the login page needs them
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the page's language (see the i18n block)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "host_sim.desk.middleware.attendant_language",  # a logged-in attendant's own language
    "host_sim.desk.middleware.too_large",  # an oversized upload: a page, its body unread
    "django.contrib.auth.middleware.LoginRequiredMiddleware",  # every page but the login
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "host_sim.desk.headers.Headers",  # no-store for logged-in pages, the CSP
    "axes.middleware.AxesMiddleware",  # a locked-out login's page (views_login.py)
]
# axes' backend first: a locked-out address is refused before any password is hashed
AUTHENTICATION_BACKENDS = ["host_sim.desk.logins.Backend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = 10
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = "host_sim.desk.logins.lockout_parameters"  # per address, and per name (logins.py)
AXES_CLIENT_IP_CALLABLE = "host_sim.desk.logins.client_ip"
AXES_LOCKOUT_CALLABLE = "host_sim.desk.views_login.locked_out"
AXES_RESET_ON_SUCCESS = False  # one's own login must not buy guesses at another's password
AXES_ENABLE_ADMIN = False
AXES_SENSITIVE_PARAMETERS = []  # the log names the user and the address (never the password)
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
        "NAME": DB_PATH,
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


def https_settings():
    """What serving over HTTPS changes (`serve --https`, or BOBING_DESK_HTTPS=1 for
    `check --deploy`): cookies only over TLS, HSTS (a browser that saw the desk over HTTPS
    never tries it in plain HTTP again), any plain request redirected."""
    return {"SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True, "LANGUAGE_COOKIE_SECURE": True,
            "SECURE_HSTS_SECONDS": 365 * 24 * 3600, "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
            "SECURE_SSL_REDIRECT": True}


HTTPS = os.environ.get("BOBING_DESK_HTTPS", "") == "1"
if HTTPS:
    globals().update(https_settings())
# HSTS preload asks browsers' makers to hard-wire a public domain: a counter's laptop on a LAN
# address never is one
SILENCED_SYSTEM_CHECKS = ["security.W021"]

# A journal is a few KB (11 + config + 6 bytes an event); anything far larger is refused.
MAX_JOURNAL_BYTES = 1 << 20
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_JOURNAL_BYTES + 65536
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_JOURNAL_BYTES + 65536

# i18n: Chinese first, English beside it. The page's language is the logged-in
# attendant's own (the switch, used while logged in, stores it: models.AttendantLanguage),
# else this browser's choice (the switch on every page sets the django_language cookie,
# a year long), else the browser's Accept-Language, else zh-Hans. The catalogue is
# host_sim/desk/locale/zh_Hans/LC_MESSAGES/django.po; its compiled .mo is committed
# (`make desk-messages` remakes it with Debian's gettext).
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Strict"
USE_I18N = True
STATIC_URL = "/static/"
# served as they are in the tree (no collectstatic: the desk's few files are committed, not built)
STATIC_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
USE_TZ = True
TIME_ZONE = os.environ.get("BOBING_DESK_TZ", "Asia/Shanghai")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # what users typed is escaped: one record, one line (logs.py)
    "formatters": {"plain": {"()": "host_sim.desk.logs.OneLine",
                             "format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "host_sim.desk.logs.Stderr", "formatter": "plain"}},
    # each line once: one handler, the root's (so waitress's logging.basicConfig() adds none);
    # our loggers pass their lines up to it and have none of their own
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        "desk": {"level": "INFO"},
        "axes": {"level": "WARNING"},  # each failed login, each lockout
        "django.request": {"level": "ERROR"},
    },
}
