"""The stock forecast: at the current rate of customers, when does each class
of a bowl run out? The exact planner (host_sim/plan.py) gives the rolls until
each class is empty from the stock left; the rate turns rolls into a clock."""
import datetime
import functools

from django.utils import timezone

from bobing import profiles
from host_sim import plan

from .models import Import

DEFAULT_RATE = 30.0  # customers an hour, until two imports of a game measure it
MIN_SPAN = datetime.timedelta(minutes=5)


def measured_rate(game):
    """Customers an hour between the first and the last import of this game
    (None: fewer than two imports 5 minutes apart, or no customer between)."""
    imps = Import.objects.filter(ok=True, bowl_id=game.bowl.bowl_id, game_no=game.game_no).order_by("at")
    first, last = imps.first(), imps.last()
    if first is None or last.at - first.at < MIN_SPAN or last.customers <= first.customers:
        return None
    return (last.customers - first.customers) / ((last.at - first.at).total_seconds() / 3600)


@functools.lru_cache(maxsize=16)
def _runout(profile, options, left):
    return plan.runout(profiles.Profile(profile, dict(options)), dict(left))


def forecast(game, rate):
    """-> rows [{cls, left, p50, p90 (customers), at50, at90 (local times)}], the
    same for the whole stock, and the pool's states; p50/p90 None for a class
    not planned on its own (the two lowest of a pool too large for the dense table)."""
    r = _runout(game.profile, tuple(sorted(game.options.items())), tuple((c, n) for c, n in game.left))
    per = r["rolls_per_customer"]
    now = timezone.localtime()

    def when(rolls):
        customers = -(-rolls // per)
        return customers, now + datetime.timedelta(hours=customers / rate)

    rows = []
    for cls, n in game.left:
        row = {"cls": cls, "left": n, "p50": None, "p90": None}
        got = r["classes"].get(cls)
        if got is not None:
            row["p50"], row["at50"] = when(got[0])
            row["p90"], row["at90"] = when(got[1])
        rows.append(row)
    whole = {"cls": "all", "left": sum(n for _c, n in game.left)}
    whole["p50"], whole["at50"] = when(r["all"][0])
    whole["p90"], whole["at90"] = when(r["all"][1])
    return rows, whole, r["states"]
