"""A change of shift at the counter: the attendant going off counts the shelf per class and
enters it blind (the page does not show what the desk expects: a count is a count, not a copy);
the desk compares it with what should be there, i.e. what the event granted to its bowls minus the
prizes handed over at the counter since the event started, and records both attendants, the time,
each class's expected and counted number. The one coming on confirms with his own password (the
one going off cannot name a colleague who was not there). A difference stays open until a
supervisor closes it with a note; the workbook lists them all."""
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from .allot import class_order, current, granted
from .models import Allot, Event, Handover, HandoverCount, Redemption

MAX_COUNT = 100000


class ShiftError(ValueError):
    """A hand-over the desk refuses (nothing recorded): str() says what was wrong."""


def expected(ev):
    """{class: granted to the event's bowls minus handed over since the event started}, every
    class the event has stock of, highest first."""
    have = granted(current(ev))
    bowls = Allot.objects.filter(event=ev).values("bowl")
    handed = dict(Redemption.objects.filter(bowl__in=bowls, at__gte=ev.started).values_list("cls")
                  .annotate(n=Count("id")))
    pos = class_order()
    classes = sorted(set(ev.classes.values_list("cls", flat=True)) | set(have), key=lambda c: pos.get(c, len(pos)))
    return {c: have.get(c, 0) - handed.get(c, 0) for c in classes}


def record(ev, off_by, on_by, counts):
    """The hand-over -> Handover (its counts with the desk's expected numbers). counts: {class:
    the number as typed}; ShiftError for an unknown class, a missing or bad number, or the same
    attendant on both sides."""
    if on_by is None or on_by.pk == off_by.pk:
        raise ShiftError("接班人须是另一位服务员 the attendant coming on must be another attendant than "
                         "the one going off")
    with transaction.atomic():  # BEGIN IMMEDIATE: no hand-over recorded between the count and the expected
        want = expected(ev)
        got = {}
        for c in want:
            text = str(counts.get(c, "")).strip()
            if not text.isdigit() or not text.isascii() or int(text) > MAX_COUNT:
                raise ShiftError("%s: 点数须是 0..%d 的整数 the count must be a whole number 0..%d, not %r"
                                 % (c, MAX_COUNT, MAX_COUNT, text[:20]))
            got[c] = int(text)
        extra = sorted(set(counts) - set(want))
        if extra:
            raise ShiftError("奖项 class %s: 本活动没有 not in this event's stock" % ", ".join(extra))
        h = Handover.objects.create(event=ev, at=timezone.now(), off_by=off_by, on_by=on_by)
        HandoverCount.objects.bulk_create([HandoverCount(handover=h, cls=c, expected=want[c], counted=got[c])
                                           for c in want])
    return h


def open_differences():
    """Every class of every hand-over whose count differs and that no supervisor closed, oldest first."""
    return [c for c in HandoverCount.objects.select_related("handover__event", "handover__off_by",
                                                            "handover__on_by").filter(closed_by="")
            .order_by("handover__at", "id") if c.diff]


def close(count_id, by, note):
    """A supervisor closes a difference with a note (why: found, broken, miscounted)."""
    note = note.strip()
    if not note:
        raise ShiftError("写明原因 write why the difference is closed (found, broken, miscounted ...)")
    with transaction.atomic():
        c = HandoverCount.objects.filter(pk=count_id, closed_by="").first()
        if c is None:
            raise ShiftError("没有这条未结差异 no such open difference (closed already?)")
        c.closed_by, c.closed_at, c.close_note = by, timezone.now(), note[:200]
        c.save()
    return c


def event_of(name=""):
    """The event named, else the latest one; None without any."""
    if name:
        return Event.objects.filter(name=name).first()
    return Event.objects.order_by("-started").first()
