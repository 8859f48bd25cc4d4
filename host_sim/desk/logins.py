"""Attendants' logins, limited by django-axes (pinned): every failed login is
recorded in the database (lockouts survive a restart) and logged; after
settings.AXES_FAILURE_LIMIT failures from one address (10) it is locked out
until settings.AXES_COOLOFF_TIME (15 min) has passed since its last try. The lockout is decided by
axes' backend before Django's backend hashes the password, so a locked-out
guesser costs no Argon2 work and cannot slow the code checks of the others.

Per user name too, across every address (a guesser with a whole IPv6 /64 or a LAN
of free addresses has one budget per name), but only on devices that name has
not logged in on: a successful login leaves a signed cookie (DEVICE_COOKIE, a
year) naming who logged in on this browser, and a login under a name the
browser's cookie holds is limited per address only. So a stranger flooding
"amy" locks "amy" out of new devices for 15 min, never out of amy's own counter.
A supervisor lifts a lockout early: `python -m host_sim.desk axes_reset_ip ADDRESS`
or `axes_reset_username NAME`.

Hashing is bounded: one password hash at a time for names this browser knows,
one for the rest; a login arriving while its slot hashes is answered "busy" at
once (no hash, no thread held), so a flood makes the desk hash at most two
passwords at a time, whatever its size, and the counters' code checks keep
their threads and cores."""
import logging
import threading

from django.core import signing
from django.http import HttpRequest

from axes.backends import AxesStandaloneBackend

log = logging.getLogger("desk")


def client_ip(request):
    """The TCP peer's address (waitress's REMOTE_ADDR): never a header a client can write."""
    return request.META.get("REMOTE_ADDR") or "unknown"


class Backend(AxesStandaloneBackend):
    """axes' check on every login through a page (the login view passes its request);
    a login without one never comes from the network (the desk's own commands, a test's
    client.login()): nothing to limit there."""

    def authenticate(self, request=None, username=None, password=None, **kw):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kw)


DEVICE_COOKIE = "desk_device"
DEVICE_AGE = 365 * 24 * 3600
_SALT = "host_sim.desk.logins.device"
MAX_NAMES = 20  # a shared counter's browser: the attendants who logged in on it
_SLOTS = {True: threading.BoundedSemaphore(1), False: threading.BoundedSemaphore(1)}


def device_names(request):
    """The names that logged in on this browser (its signed cookie; nothing if forged or old)."""
    try:
        names = signing.loads(request.COOKIES.get(DEVICE_COOKIE, ""), salt=_SALT, max_age=DEVICE_AGE)
    except (signing.BadSignature, ValueError, TypeError):
        return []
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def lockout_parameters(request, credentials=None):
    """axes' lockout parameters for this login (settings.AXES_LOCKOUT_PARAMETERS): the
    address always; the user name too unless this browser has logged in under it."""
    name = (credentials or {}).get("username")
    if isinstance(request, HttpRequest) and name and name in device_names(request):
        return ["ip_address"]
    return ["ip_address", "username"]
