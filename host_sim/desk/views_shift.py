"""/shift: the hand-over at a change of shift (host_sim/desk/shift.py). Any logged-in attendant
records one; a supervisor sees the open differences and closes them."""
import logging

from django.contrib import messages
from django.contrib.auth import authenticate
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from . import shift
from .ingest import supervisor

log = logging.getLogger("desk")


@require_http_methods(["GET", "POST"])
def page(request):
    ev = shift.event_of(request.POST.get("event", "")[:32] if request.method == "POST" else "")
    if ev is None:
        return render(request, "desk/message.html", {"title": _("No shift hand-over"), "text": _(
            "No event has stock at this desk yet: a hand-over compares the shelf with the event's stock."),
            "back": "/stock"}, status=404)
    classes = list(shift.expected(ev))
    status, done = 200, None
    typed = {c: request.POST.get("count_" + c, "") for c in classes}
    if request.method == "POST":
        on = request.POST.get("on_by", "")[:150]
        other = authenticate(request, username=on, password=request.POST.get("on_password", ""))
        try:
            if other is None:
                raise shift.ShiftError(_("The attendant coming on (%s): name or password wrong. Nothing was "
                                         "recorded.") % on)
            done = shift.record(ev, request.user, other, typed)
        except shift.ShiftError as e:
            messages.error(request, str(e))
            status = 400
        else:
            log.info("shift: hand-over %d from %s to %s, differences %s", done.pk, request.user, other,
                     {c.cls: c.diff for c in done.counts.all() if c.diff})
    return render(request, "desk/shift.html", {
        "event": ev, "classes": [(c, typed.get(c, "") if status == 400 else "") for c in classes],
        "done": done, "counts": list(done.counts.all()) if done else [],
        "boss": supervisor(request.user), "open": shift.open_differences() if supervisor(request.user) else []},
        status=status)


@require_POST
def close(request):
    if not supervisor(request.user):
        messages.error(request, _("Only a supervisor closes a difference."))
        return redirect("shift")
    try:
        text = request.POST.get("count", "")
        c = shift.close(int(text) if text.isdigit() and text.isascii() else 0,
                        request.user.get_username(), request.POST.get("note", "")[:200])
    except shift.ShiftError as e:
        messages.error(request, str(e))
    else:
        log.info("shift: difference %d (%s %+d) closed by %s: %s", c.pk, c.cls, c.diff, request.user, c.close_note)
        messages.success(request, _("Difference closed."))
    return redirect("shift")
