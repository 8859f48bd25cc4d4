"""The stock forecast: at the current rate of customers, when does each class
of a bowl run out? The exact planner (host_sim/analysis/plan.py) gives the rolls until
each class is empty from the stock left, while its pool is small enough to
answer in well under 2 s (EXACT_STATES); a larger stock (a bowl allows up to
99,999 of each class) is estimated from the same odds by simulating the
planner's counting model (RUNS runs). The rate turns rolls into a clock."""
import datetime
import functools

import numpy as np
from django.utils import timezone

from bobing import game, profiles
from host_sim.analysis import plan

from .models import Import

DEFAULT_RATE = 30.0  # customers an hour, until two imports of a game measure it
MIN_SPAN = datetime.timedelta(minutes=5)
# The dense planner's time grows with the pool's states (about 5 s at its 10^6
# limit on this machine): above this many it is estimated (bench/desk_bench.py).
EXACT_STATES = 10000
RUNS = 300  # simulated runs of an estimate: p50/p90 within a few per cent
GRID = 600  # points in time per run: a quarter spaced geometrically, the rest where classes run out
CHUNK = 50  # grid times drawn at once (RUNS x CHUNK x roll kinds integers)


class NoForecast(ValueError):
    """This game cannot be forecast: str() says why, in plain words."""


def measured_rate(game):
    """Customers an hour between the first and the last import of this game
    (None: fewer than two imports 5 minutes apart, or no customer between)."""
    imps = Import.objects.filter(ok=True, bowl_id=game.bowl.bowl_id, game_no=game.game_no).order_by("at")
    first, last = imps.first(), imps.last()
    if first is None or last.at - first.at < MIN_SPAN or last.customers <= first.customers:
        return None
    return (last.customers - first.customers) / ((last.at - first.at).total_seconds() / 3600)


def _states(counts):
    n = 1
    for c in counts:
        n *= c + 1
    return n


def estimate(chain, counts, seed=0):
    """When each class runs out, estimated: RUNS runs of the planner's counting
    model (module header of host_sim/analysis/plan.py: under lower_tier the stock left in
    classes 0..k after demands Z is max(0, max over m <= k of C_m - Z_m), so only
    how many demands each class got matters, not their order). A run's demands
    after n rolls are drawn exactly (multinomial increments between the grid's
    times); a class counts as empty at the first grid time it is. chain: the
    planner's Chain of this profile (its odds and classes; any counts), counts:
    the stock per class in chain.classes' order. -> the same dict as plan.runout."""
    ch = chain
    total = 46656
    if any(ch.ends_at_once(rank) for (rank, _b) in ch.odds):
        raise NoForecast("a roll can end this game at once")
    k = len(ch.classes)
    kinds = {}
    for (rank, bonus), n in ch.odds.items():
        d = [0] * k
        if ch.cls_of[rank] >= 0:
            d[ch.cls_of[rank]] += 1
        if bonus and ch.cls_of[bonus] >= 0:
            d[ch.cls_of[bonus]] += 1
        kinds[tuple(d)] = kinds.get(tuple(d), 0) + n
    D = np.array(list(kinds), dtype=np.int64)  # roll kinds x classes: the demands a roll makes
    p = np.array(list(kinds.values()), dtype=float) / total
    C = np.cumsum(counts)  # C_m: the stock of classes 0..m
    rate = np.cumsum(p @ D)  # demands per roll on classes 0..m
    if any(C[m] > 0 and rate[m] == 0 for m in range(k)):
        raise NoForecast("no roll pays some class that has stock: it never runs out")
    mean_end = max(C[m] / rate[m] for m in range(k) if C[m] > 0) if C[-1] else 0
    horizon = int(mean_end * 1.5) + 100
    rng = np.random.default_rng(seed)
    coarse = np.geomspace(1, horizon, GRID // 4)
    # a first, small pass finds when each class runs out; the second spends its
    # grid there (geometric spacing alone is 2 % coarse at 10^7 rolls)
    first = _simulate(coarse, RUNS // 4, D, p, C, counts, rng)
    fine = [coarse]
    for j in range(k + 1):
        # (a pass-1 time is the grid time at or after the run-out: start a grid step before)
        lo = coarse[max(0, np.searchsorted(coarse, first[:, j].min() - 0.5) - 1)]
        hi = first[:, j].max()
        pad = (hi - lo) / 4
        fine.append(np.linspace(max(1, lo - pad), hi + pad, GRID // (k + 1)))
    out = _simulate(np.concatenate(fine), RUNS, D, p, C, counts, rng)

    def pct(col):
        return int(np.percentile(col, 50, method="higher")), int(np.percentile(col, 90, method="higher"))
    return {"rolls_per_customer": ch.period, "states": _states(counts), "estimated": True,
            "classes": {c: pct(out[:, j]) for j, c in enumerate(ch.classes)}, "all": pct(out[:, k])}


def _simulate(times, runs, D, p, C, counts, rng):
    """-> runs x (classes + 1): the first of `times` (rolls) at which each class
    (and, last, the whole stock) is empty in each run."""
    k = len(counts)
    times = np.unique(np.round(times).astype(np.int64))
    step = max(1, int(times[-1]) // GRID)
    Z = np.zeros((runs, k), dtype=np.int64)
    out = np.full((runs, k + 1), -1, dtype=np.int64)
    out[:, :k][:, np.array(counts) == 0] = 0
    if C[-1] == 0:
        out[:, k] = 0
    prev = 0
    i = 0
    while (out < 0).any():
        if i == len(times):  # a slow run: go on beyond the horizon
            times = np.concatenate([times, times[-1] + np.arange(1, GRID + 1) * step])
        t = times[i:i + CHUNK]
        i += len(t)
        steps = np.diff(t, prepend=prev)
        prev = int(t[-1])
        # every run's demands at each of these times: one draw of the rolls between them
        Zt = Z[None] + np.cumsum(rng.multinomial(steps[:, None], p, size=(len(t), runs)) @ D, axis=0)
        Z = Zt[-1]
        S = np.maximum(np.maximum.accumulate(C - np.cumsum(Zt, axis=2), axis=2), 0)
        own = np.diff(S, axis=2, prepend=0)  # each class's own stock left
        empty = np.concatenate([own == 0, S[:, :, -1:] == 0], axis=2)
        first = np.where(empty.any(axis=0), t[np.argmax(empty, axis=0)], -1)  # the first time empty
        out = np.where(out < 0, first, out)
    return out


@functools.lru_cache(maxsize=8)
def _model(profile, options):
    """The planner's Chain of a profile, for its odds and classes (one stock of
    each class: building it evaluates all 46,656 rolls once per profile)."""
    prof = profiles.Profile(profile, dict(options))
    ch = plan.Chain(game.Table(prof, 1, counts=dict.fromkeys(game.Table(prof, 1).classes, 1)))
    if not ch.kiosk:
        raise NoForecast("a stock forecast is for a kiosk")
    return prof, ch


@functools.lru_cache(maxsize=16)
def _runout(profile, options, left):
    try:
        prof, ch = _model(profile, options)
        counts = [dict(left).get(c, 0) for c in ch.classes]
        states = _states(counts) * (2 if ch.need_zy else 1)
        if states <= EXACT_STATES or (not ch.by_counts() and states <= plan.MAX_STATES):
            r = plan.runout(prof, dict(left))
            r["estimated"] = False
            return r
    except ValueError as e:  # plan.PlanError, or a stock the rules refuse
        raise NoForecast(str(e))
    if not ch.by_counts():
        raise NoForecast("its stock is too large for the exact planner (%d pool states, at most %d) and "
                         "its rules are not the kiosk's lower_tier that can be estimated" % (states, plan.MAX_STATES))
    return estimate(ch, counts, seed=sum(counts))


def forecast(game, rate):
    """-> rows [{cls, left, p50, p90 (customers), at50, at90 (local times)}], the
    same for the whole stock, and whether it was estimated (else exact); p50/p90
    None for a class not planned on its own. NoForecast if the game cannot be
    forecast (why, in plain words)."""
    r = _runout(game.profile, tuple(sorted(game.options.items())), tuple((c, n) for c, n in game.left))
    per = r["rolls_per_customer"]
    now = timezone.localtime()

    def when(rolls):
        customers = -(-rolls // per)
        hours = customers / rate
        # beyond what a clock can show (99,999 of a class at one customer an hour)
        at = now + datetime.timedelta(hours=hours) if hours < 24 * 365 * 1000 else None
        return customers, at, hours

    rows = []
    for cls, n in game.left:
        row = {"cls": cls, "left": n, "p50": None, "p90": None}
        got = r["classes"].get(cls)
        if got is not None:
            row["p50"], row["at50"], row["h50"] = when(got[0])
            row["p90"], row["at90"], row["h90"] = when(got[1])
        rows.append(row)
    whole = {"cls": "all", "left": sum(n for _c, n in game.left)}
    whole["p50"], whole["at50"], whole["h50"] = when(r["all"][0])
    whole["p90"], whole["at90"], whole["h90"] = when(r["all"][1])
    return rows, whole, r["estimated"]
