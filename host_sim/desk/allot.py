"""The event's shared stock on the desk (firmware/PROTOCOL.md, "Shared stock
without over-awarding"): the totals per class, and THE allotment function,
answer(), which raises one bowl's cumulative grant.

Safety: a grant only ever grows, and only inside one database transaction that
first takes SQLite's write lock (settings: transaction_mode IMMEDIATE, so BEGIN
is BEGIN IMMEDIATE) and then checks, per class, that the sum of every bowl's
current grant stays <= the event's total. Two listeners, a listener and the
`stock` command, or two desks on one database file therefore queue for the
lock and never both hand out the same prize. The grant is published (by
bus.py) only after the commit; a grant committed but never published is
republished on the bowl's next ask and at every listener start.

Policy (per class c): a bowl whose stock of c is low (at most a quarter of the
step; for a step under 4: none left) gets min(step_c, total_c - granted_c)
more; step_c is the event's setting or ceil(total_c / (2 * bowls)), at least
1. A bowl's stock is what it says in its ask, plus what the desk granted it
since the grant that ask was based on (a stale or replayed ask does not look
low because of a grant still on its way), but never less than the desk's own
record says: its grant minus the awards the desk received from it since the
event started (an ask claiming empty stock without awards to show for it
raises nothing)."""
import math

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from bobing import outbox

from .models import Allot, Award, Bowl, Event, EventClass
from .schedule import class_order


class StockError(ValueError):
    """A stock setting or an ask the desk refuses; str() says why."""




def unknown_classes(classes):
    """The names among classes that are no prize class of the firmware's (a message that
    names one is refused: it would be stored and shown)."""
    pos = class_order()
    return [c for c in classes if c not in pos]


def as_list(d):
    """{class: n} -> [[class, n], ...], highest class first, zeros left out."""
    pos = class_order()
    return [[c, n] for c, n in sorted(d.items(), key=lambda x: (pos.get(x[0], len(pos)), x[0])) if n]


def current(event):
    """{bowl id: (seq, {class: cumulative n})}: each bowl's highest grant."""
    out = {}
    for bowl_id, seq, grant in (Allot.objects.filter(event=event).order_by("seq")
                                .values_list("bowl__bowl_id", "seq", "grant")):
        out[bowl_id] = (seq, dict(grant))
    return out


def awarded(ev, bowl):
    """{class: awards of the bowl the desk has, seen since the event started} (as the
    bowls page counts them)."""
    return dict(Award.objects.filter(bowl=bowl, seen__gte=ev.started).values_list("cls").annotate(n=Count("id")))


def granted(cur):
    """current() -> {class: sum over bowls of their cumulative grant}."""
    tot = {}
    for _seq, g in cur.values():
        for c, n in g.items():
            tot[c] = tot.get(c, 0) + n
    return tot


def steps(event):
    """{class: (total, step)} with the default step filled in."""
    bowls = max(1, Bowl.objects.count())
    return {ec.cls: (ec.total, ec.step or max(1, math.ceil(ec.total / (2 * bowls))))
            for ec in EventClass.objects.filter(event=event)}


def set_stock(name, totals, step=None):
    """Set the event's totals ({class: n}) and steps ({class: n}, 0 = default),
    creating the event on first use. StockError (nothing changed) for an
    unknown class, or a total below what the bowls were already granted."""
    outbox.check_name("event", name)
    pos = class_order()
    step = step or {}
    for c in list(totals) + list(step):
        if c not in pos:
            raise StockError("prize class %r: not one of the firmware's classes (%s)"
                             % (c, " ".join(sorted(pos, key=pos.get))))
    with transaction.atomic():  # BEGIN IMMEDIATE: no grant can slip in between the check and the write
        ev = Event.objects.filter(name=name).first()
        if ev is None:
            ev = Event.objects.create(name=name, started=timezone.now())
        have = granted(current(ev))
        for c, n in totals.items():
            if n < have.get(c, 0):
                raise StockError("%s=%d: the bowls were already granted %d of it; a total can only be set to "
                                 "%d or more" % (c, n, have[c], have[c]))
        for c in set(totals) | set(step):
            ec = EventClass.objects.filter(event=ev, cls=c).first() or EventClass(event=ev, cls=c, total=0)
            if c in totals:
                ec.total = totals[c]
            if c in step:
                ec.step = step[c]
            ec.save()
    return ev


def answer(event_name, bowl_id, s, left, first=False, now=None):
    """A bowl asks (ask message, or first=True: its first status "on":1) with s =
    the highest grant it applied and left = {class: its stock now}. -> (raised:
    True if a new grant was made; what was done, for the log; the bowl's current
    allot payload to publish after this commit, or None). Raises StockError
    (nothing changed) for a bowl or event the desk does not know, or an s the
    desk never granted. now: the desk's clock (the release schedule's hour and day: pacing.py)."""
    from . import pacing
    now = now or timezone.now()
    ev = Event.objects.filter(name=event_name).first()
    if ev is None:
        raise StockError("event %r has no stock at this desk: set it with `python -m host_sim.desk stock "
                         "--event %s CLASS=N ...`" % (event_name, event_name))
    bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
    if bowl is None:
        raise StockError("bowl %r is not known here" % bowl_id)
    with transaction.atomic():  # BEGIN IMMEDIATE: the write lock before anything is read
        cur = current(ev)
        seq, mine = cur.get(bowl_id, (0, {}))
        if s > seq:
            raise StockError("ask s=%d, but the desk granted bowl %s only up to s=%d (a desk database older "
                             "than the bowl's?): nothing raised" % (s, bowl_id, seq))
        if first and seq:
            return False, "already granted s=%d" % seq, None
        based = {}
        if 0 < s < seq:
            a = Allot.objects.filter(event=ev, bowl=bowl, seq=s).first()
            based = dict(a.grant) if a is not None else mine
        elif s == seq:
            based = mine
        have = granted(cur)
        paid = awarded(ev, bowl)
        new = dict(mine)
        raised = {}
        paced = pacing.caps(ev, now)  # the schedule bounds the stock granted, never a roll
        for c, (total, step) in steps(ev).items():
            said = left.get(c, 0) + mine.get(c, 0) - based.get(c, 0)  # plus grants still on their way
            # the desk's own record bounds the claim: a bowl cannot have paid awards the desk never
            # received (its awards go out before its asks, on one connection, in order)
            stock = max(said, mine.get(c, 0) - paid.get(c, 0))
            more = min(step, total - have.get(c, 0))
            if c in paced:  # the release schedule: this period's ceiling, a share of it per raise
                more = min(more, paced[c][0] - have.get(c, 0), paced[c][1])
            if more > 0 and stock <= step // 4:
                new[c] = mine.get(c, 0) + more
                raised[c] = more
                if have.get(c, 0) + more > total:  # the invariant, checked where it is kept
                    raise StockError("internal: %s would exceed its total" % c)
        if not raised:
            what = "nothing to raise (not low, or the stock is all granted)"
            if not seq:
                return False, what, None
            return False, what + "; republished s=%d" % seq, outbox.allot_payload(seq, as_list(mine))
        payload = outbox.allot_payload(seq + 1, as_list(new))  # before the commit: never a grant it cannot send
        Allot.objects.create(event=ev, bowl=bowl, seq=seq + 1, grant=as_list(new), at=now)
    return (True, "raised %s to s=%d" % (" ".join("%s+%d" % tuple(x) for x in as_list(raised)), seq + 1),
            payload)


def republish(event_name):
    """[(bowl id, allot payload)] of every bowl's current grant (listener start)."""
    ev = Event.objects.filter(name=event_name).first()
    if ev is None:
        return []
    return [(b, outbox.allot_payload(seq, as_list(g))) for b, (seq, g) in sorted(current(ev).items())]


def overview(event):
    """The event's totals per class for the page: [{cls, total, step, granted, not_granted}]."""
    have = granted(current(event))
    pos = class_order()
    rows = []
    for c, (total, step) in sorted(steps(event).items(), key=lambda x: pos.get(x[0], len(pos))):
        rows.append({"cls": c, "total": total, "step": step, "granted": have.get(c, 0),
                     "not_granted": total - have.get(c, 0)})
    return rows
