"""Attendants' logins, limited by django-axes (pinned): every failed login is
recorded in the database (lockouts survive a restart) and logged; after
settings.AXES_FAILURE_LIMIT failures from one address (10) it is locked out
until settings.AXES_COOLOFF_TIME (15 min) has passed since its last try. The lockout is decided by
axes' backend before Django's backend hashes the password, so a locked-out
guesser costs no Argon2 work and cannot slow the code checks of the others.
A supervisor lifts a lockout early: `python -m host_sim.desk axes_reset_ip ADDRESS`."""
import logging

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.shortcuts import render
from django.utils.translation import gettext as _

log = logging.getLogger("desk")


def client_ip(request):
    """The TCP peer's address (waitress's REMOTE_ADDR): never a header a client can write."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def locked_out(request, response=None, credentials=None, *args, **kw):
    log.warning("login locked out: %s (user %r)", client_ip(request),
                (credentials or {}).get("username", "")[:40])
    return render(request, "desk/message.html", {
        "title": _("Too many wrong passwords"),
        "text": _("Logins from this device are locked for %(minutes)d minutes after %(n)d wrong passwords. "
                  "Wait, or ask a supervisor to lift the lock.") % {
                      "minutes": round(settings.AXES_COOLOFF_TIME * 60), "n": settings.AXES_FAILURE_LIMIT},
    }, status=429)


class Backend(AxesStandaloneBackend):
    """axes' check on every login through a page (the login view passes its request);
    a login without one never comes from the network (the desk's own commands, a test's
    client.login()): nothing to limit there."""

    def authenticate(self, request=None, username=None, password=None, **kw):
        if request is None:
            return None
        return super().authenticate(request, username, password, **kw)
