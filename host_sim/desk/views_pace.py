"""The release schedule on the forecast page (host_sim/desk/pacing.py): each paced class of the
event beside the prizes of it the event's bowls' customers would win in one period at the page's
rate, so the promoter sees which classes the schedule holds back and by how much."""
from django.shortcuts import render

from . import forecast as fc
from .forms import RateForm
from .models import Allot, Event, Game
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


def event_page(request):
    """/forecast of a bowl without an imported journal (a networked kiosk), or ?event=NAME: the
    schedule against the demand at the entered rate, without the run-out forecast. None when the
    desk has no event (the caller then says there is nothing to forecast)."""
    name = request.GET.get("event", "")[:32]
    ev = Event.objects.filter(name=name).first() if name else Event.objects.order_by("-started").first()
    if ev is None:
        return None
    form = RateForm(request.GET if "rate" in request.GET else None)
    rate = form.cleaned_data["rate"] if form.is_bound and form.is_valid() else fc.DEFAULT_RATE
    if not form.is_bound:
        form = RateForm(initial={"rate": rate})
    bowls = max(1, Allot.objects.filter(event=ev).values("bowl").distinct().count())
    return render(request, "desk/pace.html", {"form": form, "rate": rate, "pace_event": ev.name, "pace_bowls": bowls,
                                              "pace": against_demand(ev.name, _profile(ev), rate, bowls)},
                  status=200 if not form.is_bound or form.is_valid() else 400)


def _profile(ev):
    """The profile the event's kiosks play: their latest game's known here, else the console's
    default kiosk profile (bobing/console.py: kiosk_profile)."""
    g = Game.objects.filter(bowl__in=Allot.objects.filter(event=ev).values("bowl")).order_by("-updated").first()
    return g.profile if g is not None else "kiosk"
