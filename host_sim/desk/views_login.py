"""The login page and its refusals (logins.py has the rules: axes' limits, the device
cookie, the hashing slots): busy while the slot hashes, locked out after too many wrong passwords."""
import logging
import time

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core import signing
from django.shortcuts import render
from django.utils.translation import gettext as _

from .logins import _SALT, _SLOTS, DEVICE_AGE, DEVICE_COOKIE, MAX_NAMES, client_ip, device_names

log = logging.getLogger("desk")

COUNTER = "counter"  # the session's key: the counter the attendant named at his login (each hand-over's)
COUNTER_MAX = 32


def counter_name(text):
    """The login form's counter name -> it, cleaned, or ValueError saying what is allowed."""
    name = " ".join(text.split())
    if len(name) > COUNTER_MAX or any(ord(ch) < 32 or ch in "<>" for ch in name):
        raise ValueError(_("The counter's name: at most %(n)d characters, no < or >, e.g. 北门 A.")
                         % {"n": COUNTER_MAX})
    return name


def locked_out(request, response=None, credentials=None, *args, **kw):
    log.warning("login locked out: %s (user %r)", client_ip(request),
                (credentials or {}).get("username", "")[:40])
    return render(request, "desk/message.html", {
        "title": _("Too many wrong passwords"),
        "text": _("Logins from this device are locked for %(minutes)d minutes after %(n)d wrong passwords. "
                  "Wait, or ask a supervisor to lift the lock.") % {
                      "minutes": round(settings.AXES_COOLOFF_TIME * 60), "n": settings.AXES_FAILURE_LIMIT},
    }, status=429)


_busy = {"since": 0.0, "n": 0}


def busy(request):
    """A login refused unhashed: 429 (not a 5xx, which Django would log as an error each
    time); the log says it at most once a second, with the count (a flood's size)."""
    now = time.monotonic()
    _busy["n"] += 1
    if now - _busy["since"] >= 1.0:
        log.warning("login busy: %d refused unhashed in %.0f s (the latest from %s, user %r)", _busy["n"],
                    min(now - _busy["since"], 999), client_ip(request), request.POST.get("username", "")[:40])
        _busy["since"], _busy["n"] = now, 0
    return render(request, "desk/message.html", {
        "title": _("Busy"),
        "text": _("The desk is busy checking other logins: try again in a few seconds."), "back": "/login",
    }, status=429)


class Login(auth_views.LoginView):
    """Django's login page, with the hashing bound and the device cookie."""
    template_name = "desk/login.html"

    def post(self, request, *args, **kwargs):
        try:
            at = counter_name(request.POST.get(COUNTER, ""))
        except ValueError as e:  # (before any hashing: nothing is tried)
            form = self.get_form()
            return render(request, self.template_name, {"form": form, "counter_error": str(e),
                                                        "next": request.POST.get("next", "")}, status=400)
        known = request.POST.get("username", "") in device_names(request)
        slot = _SLOTS[known]
        if not slot.acquire(blocking=False):
            return busy(request)
        try:
            response = super().post(request, *args, **kwargs)
        finally:
            slot.release()
        if request.user.is_authenticated:
            request.session[COUNTER] = at
            name = request.user.get_username()
            names = [name] + [n for n in device_names(request) if n != name][:MAX_NAMES - 1]
            response.set_cookie(DEVICE_COOKIE, signing.dumps(names, salt=_SALT), max_age=DEVICE_AGE,
                                httponly=True, samesite="Strict", secure=request.is_secure())
        return response
