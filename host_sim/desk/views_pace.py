"""The release schedule on the forecast page (host_sim/desk/pacing.py): each paced class of the
event beside the prizes of it the event's bowls' customers would win in one period at the page's
rate, so the promoter sees which classes the schedule holds back and by how much."""
from .models import Allot, Event
from .pacing import against_demand


def forecast_context(request, game, rate):
    """{"pace": rows, "pace_event", "pace_bowls"} for the forecast of `game` at `rate` customers an
    hour: the event named by ?event=, else the one whose stock the bowl was granted last."""
    name = request.GET.get("event", "")[:32]
    ev = Event.objects.filter(name=name).first() if name else None
    if ev is None:
        a = Allot.objects.filter(bowl=game.bowl).order_by("-at").select_related("event").first()
        ev = a.event if a is not None else Event.objects.order_by("-started").first()
    if ev is None:
        return {}
    bowls = max(1, Allot.objects.filter(event=ev).values("bowl").distinct().count())
    return {"pace": against_demand(ev.name, game.profile, rate, bowls), "pace_event": ev.name, "pace_bowls": bowls}
