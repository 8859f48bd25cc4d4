"""Shakes granted at the counter (firmware/PROTOCOL.md "Shakes from the
counter"): the attendant checks a receipt and grants n shakes to a bowl; the
grant is a row (ShakeGrant) numbered per bowl, and the listener (bus.py)
publishes each bowl's oldest open grant, retained and signed with the bowl's
claim secret (bobing/grants.py: the bowl's own codec), one at a time: the
next only once the bowl has answered "used" or "no" (the bowl holds one
grant at a time). The bowl's answers (shaken) move the row's state."""
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from bobing import grants, outbox

from .models import Bowl, ShakeGrant

OPEN = ("new", "sent", "got")


class AlreadyGranted(ValueError):
    """The receipt was granted shakes in this event before: `first` is that grant."""

    def __init__(self, first):
        super().__init__("receipt %r was granted %d shakes on bowl %s by %s at %s"
                         % (first.ref, first.n, first.bowl.bowl_id, first.by, first.at.isoformat(timespec="seconds")))
        self.first = first


def receipt_key(ref):
    """A receipt as compared: R-88, r-88 and ' R-88 ' are one receipt."""
    return ref.strip().upper()


def _first(event, key):
    # rows of an older desk have no receipt key: their ref, compared the same way
    return (ShakeGrant.objects.filter(event=event).filter(Q(receipt=key) | Q(receipt="", ref__iexact=key))
            .select_related("bowl").order_by("at", "pk").first())


def grant(by, event, bowl_id, n, ref="", again_by=""):
    """Record a grant -> the ShakeGrant (ValueError saying what was wrong). A receipt
    is granted once per event, whichever counter and bowl: AlreadyGranted names the
    first grant, unless again_by names the supervisor who allows a second. One
    transaction (BEGIN IMMEDIATE: counters queue), and the table's constraint
    (one_grant_per_receipt) decides if two ever met anyway."""
    outbox.check_name("event", event)
    if not isinstance(n, int) or not 1 <= n <= grants.MAX_SHAKES:
        raise ValueError("shakes: a whole number 1..%d" % grants.MAX_SHAKES)
    grants._ref(ref)
    key = receipt_key(ref)
    try:
        with transaction.atomic():
            bowl = Bowl.objects.filter(bowl_id=bowl_id).first()
            if bowl is None:
                raise ValueError("bowl %r is not known here" % bowl_id)
            first = _first(event, key) if key else None
            if first is not None and not again_by:
                raise AlreadyGranted(first)
            last = ShakeGrant.objects.filter(bowl=bowl).aggregate(m=Max("gid"))["m"] or 0
            return ShakeGrant.objects.create(event=event, bowl=bowl, gid=last + 1, n=n, ref=ref, by=str(by),
                                             at=timezone.now(), receipt=key,
                                             again_by=str(again_by) if first is not None else "")
    except IntegrityError:
        first = _first(event, key) if key else None
        if first is None:
            raise
        raise AlreadyGranted(first)


def _current(event):
    """Each bowl's oldest open grant in this event."""
    out = {}
    for g in ShakeGrant.objects.filter(event=event, state__in=OPEN).select_related("bowl").order_by("gid"):
        out.setdefault(g.bowl_id, g)
    return out.values()


def to_publish(event, again=False):
    """-> [(row id, topic, payload)]: the grants to publish now (new ones; with
    again, those already in the broker too: a listener's start)."""
    return [(g.pk, outbox.topic(event, g.bowl.bowl_id, "shakes"),
             grants.payload(g.gid, g.n, g.ref))
            for g in _current(event) if g.state == "new" or again]


def published(ids):
    ShakeGrant.objects.filter(pk__in=ids, state="new").update(state="sent")


def acked(event, topic, payload):
    """A bowl's answer -> "shaken", or ValueError saying why it was refused."""
    bowl_id, gid, st, why = grants.decode_ack(event, topic, payload)
    with transaction.atomic():
        g = ShakeGrant.objects.filter(event=event, bowl__bowl_id=bowl_id, gid=gid).first()
        if g is None:
            raise ValueError("bowl %r answered %s for grant %d, which this desk never made" % (bowl_id, st, gid))
        if g.state in ("used", "no") or (st == "got" and g.state == "got"):
            return "shaken"  # an answer said again (a reconnect)
        g.state, g.why, g.acked = st, why[:200], timezone.now()
        g.save()
    return "shaken"
