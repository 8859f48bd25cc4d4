"""The promoter's release schedule (PaceRule): at most N of a class handed out in each hour or
day of the event, so that a three-day promotion's 状元 prizes do not all go on day one.

Pacing works on the stock only, never on a roll: allot.answer() grants a bowl no more of a paced
class than the period still allows, i.e. the sum of every bowl's cumulative grant of class c stays
<= (awards of c the desk received before this period began) + N. Stock granted earlier and still
on a bowl counts against the period, so the bowls together can never pay more than N in it. A
bowl with none of a class left pays what its profile's own rule for a missing prize says
(RULES.md §4 when_exhausted: the kiosk's lower_tier, or nothing), as it does when the event's
stock is all gone; its dice, its commitments and their checks stay what they were."""

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from bobing import outbox, profiles
from host_sim.analysis import plan

from .models import Allot, Award, Bowl, Event, PaceRule
from .schedule import PER, PER_WORDS, PaceError, class_order, parse  # noqa: F401  (parse: Django-free)

def set_pace(event_name, schedule):
    """The event's schedule changed per parse()'s dict (None: that class unpaced). PaceError for
    an event without stock (nothing changed)."""
    outbox.check_name("event", event_name)
    with transaction.atomic():
        ev = Event.objects.filter(name=event_name).first()
        if ev is None:
            raise PaceError("活动 event %s 还没有库存 has no stock yet: set it first with `python -m host_sim.desk "
                            "stock --event %s CLASS=N ...`" % (event_name, event_name))
        for c, rule in schedule.items():
            if rule is None:
                PaceRule.objects.filter(event=ev, cls=c).delete()
            else:
                PaceRule.objects.update_or_create(event=ev, cls=c, defaults={"n": rule[0], "per": rule[1]})
    return ev


def period_start(per, now):
    """The start of the desk's local hour or day that holds `now`."""
    local = timezone.localtime(now)
    if per == "hour":
        start = local.replace(minute=0, second=0, microsecond=0)
    else:
        start = local.replace(hour=0, minute=0, second=0, microsecond=0)
    return timezone.make_aware(start.replace(tzinfo=None))


def _event_awards(ev, cls, since, until):
    bowls = Allot.objects.filter(event=ev).values("bowl")
    return (Award.objects.filter(bowl__in=bowls, cls=cls, seen__gte=since, seen__lt=until)
            .aggregate(n=Count("id"))["n"])


def caps(ev, now):
    """{class: (the most the bowls' grants of it may sum to now, the most one raise may give)} for
    the event's paced classes. A raise is at most the period's release over the bowls (at least 1),
    so the first bowl to ask does not take the whole hour's release and leave the others empty."""
    import math
    bowls = max(1, Bowl.objects.count())  # as allot.steps() divides the stock
    out = {}
    for r in PaceRule.objects.filter(event=ev):
        out[r.cls] = (_event_awards(ev, r.cls, ev.started, period_start(r.per, now)) + r.n,
                      max(1, math.ceil(r.n / bowls)))
    return out


def rows(ev, now=None):
    """The schedule for the pages and the workbook: [{cls, n, per, words, start, handed}] with the
    awards of the class in the current period so far, highest class first."""
    now = now or timezone.now()
    pos = class_order()
    out = []
    for r in sorted(PaceRule.objects.filter(event=ev), key=lambda r: pos.get(r.cls, len(pos))):
        start = period_start(r.per, now)
        out.append({"cls": r.cls, "n": r.n, "per": r.per, "words": PER_WORDS[r.per], "start": start,
                    "handed": _event_awards(ev, r.cls, start, start + PER[r.per])})
    return out


def demand_per_customer(profile_name):
    """{class: prizes of it a customer's shakes win on average, by the rules' odds} for a kiosk
    profile (the rolls that rank for the class, before any missing-prize rule moves them)."""
    from bobing import game
    t = game.Table(profiles.Profile(profile_name))
    wins = {}
    for (rank, bonus), k in plan.roll_odds(t.rules).items():
        for r in (rank, bonus):
            c = t.class_of(r) if r else None
            if c:
                wins[c] = wins.get(c, 0) + k
    shakes = t.profile.options["kiosk_shakes"] if t.kiosk else 1
    return {c: shakes * k / 46656 for c, k in wins.items()}


def against_demand(event_name, profile_name, rate, bowls):
    """The schedule beside the expected demand: [{cls, n, per, words, demand}] with demand = the
    prizes of the class `bowls` bowls' customers would win in one period at `rate` customers an
    hour each (the forecast page's rate). [] without an event or a schedule."""
    ev = Event.objects.filter(name=event_name).first()
    if ev is None:
        return []
    per_customer = demand_per_customer(profile_name)
    out = []
    for r in rows(ev):
        hours = PER[r["per"]].total_seconds() / 3600
        r["demand"] = per_customer.get(r["cls"], 0.0) * rate * hours * bowls
        r["short"] = r["demand"] > r["n"]
        out.append(r)
    return out
