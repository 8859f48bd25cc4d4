"""The exact planner: how long a game lasts, by dynamic programming over the
prize pool (not by simulation), for an organiser sizing prize counts against a
time slot.

The model, and why it is exact:
- Dice are fair. The chance of every (rank, bonus) outcome of one roll comes
  from rules.Rules over all 6^6 = 46,656 rolls (exhaustive, per profile).
- A roll changes the pool only through what it pays, which game.Table decides
  from the pool alone (class_of(rank), when_exhausted, the sweep of
  状元插金花/六勃红, combined-award bonuses). So "pool counts of every
  first-come class + has a 状元 been rolled" is a Markov chain, and the number
  of rolls until the end condition is its absorption time. We push the exact
  distribution forward one roll at a time.
- End condition (RULES.md §6, as game.Table plays it): a table game ends when
  the round in which the trigger fell has been played out; the trigger is the
  roll that leaves every first-come class empty with a 状元 standing (or, with
  no provisional 状元 class, just empty), or the first 状元 after that. A
  kiosk ends at once when all stock is gone. 六勃红 under take_all and
  黑六勃/遍地锦 under grab end a game at once; we condition them out of the
  chain (P(end > m) = (1-q)^m * P'(no trigger by the round boundary before m),
  q their chance per roll), which is exact because they end the game whatever
  the pool holds.
- Seats take turns with no spills (spill probability 0), so roll n belongs to
  round ceil(n / seats): the round structure is arithmetic, not state. That is
  why the seat count costs nothing here.
- time_limit: rolls take --seconds-per-roll each; the clock is checked between
  rolls (the roll in progress when time runs out still counts), so time runs
  out after ceil(limit*60 / X) rolls and then the round (a kiosk: the
  customer's shakes) is played out.

Options: every rules option (through the exhaustive odds); when_exhausted
nothing and chase plan identically (a chase moves a prize from seat to seat and
never touches the pool, so it cannot change when the pool empties);
lower_tier and down_then_up change the pool state-dependently, which the chain
follows exactly; direction and spill_penalty change nothing when nobody
spills; liuhong_effect, heiliubo_effect, time_limit, mode (table or kiosk) and
kiosk_shakes are modelled as above. Not planned: spills (a spill-rate model
would need seat state for skip_next) and pools too large for the dense state
table (MAX_STATES; say which counts to lower).

Numerics: float64; after each roll the tail of the state table whose entries
are all below 1e-24 is dropped (the total dropped mass is reported, ~1e-18);
the chain is pushed until P(no trigger yet) < 1e-13.
"""
import math

import numpy as np

import host_sim  # noqa: F401  (the shim)
from bobing import game, rules

MAX_STATES = 1000000
MAX_ROLLS = 200000
_PRUNE = 1e-24
_TAIL = 1e-13

SECONDS_PER_ROLL = 10.0  # a shake, a look, the prize handed over, the bowl passed on
MINUTES = (15, 20, 30, 45, 60, 90, 120)


class PlanError(ValueError):
    pass


_ROLLS = []


def all_rolls():
    """All 46,656 rolls of six dice as tuples; roll i is the base-6 digits of i (built once)."""
    if not _ROLLS:
        for i in range(46656):
            d = []
            for _ in range(6):
                d.append(i % 6 + 1)
                i //= 6
            _ROLLS.append(tuple(d))
    return _ROLLS


def roll_odds(r):
    """{(rank code, bonus code): rolls out of 46,656} over every roll of six dice."""
    counts = {}
    for dice in all_rolls():
        v = r.evaluate(dice)
        key = (rules.rank_of(v), rules.bonus_of(v))
        counts[key] = counts.get(key, 0) + 1
    return counts


class Chain:
    """The pool chain of one profile and prize counts, as game.Table plays it."""

    def __init__(self, table):
        t = table
        o = t.profile.options
        self.kiosk = t.kiosk
        self.seats = t.seats
        self.period = o["kiosk_shakes"] if t.kiosk else t.seats  # rolls per round (kiosk: per customer)
        prov = t.provisional
        self.classes = [c for c in t.classes if c != prov]  # the state's axes, highest class first
        self.counts = [t.initial[c] for c in self.classes]
        self.need_zy = prov is not None  # the game waits for a 状元 to stand
        n = 2 if self.need_zy else 1
        for c in self.counts:
            n *= c + 1
        if n > MAX_STATES:
            raise PlanError("the pool has %d states (%s), more than the planner's %d: lower some counts "
                            "with --count CLASS=N" % (n, ", ".join("%s=%d" % (c, k) for c, k in
                                                                   zip(self.classes, self.counts)), MAX_STATES))
        self.n_states = n
        self.when = o["when_exhausted"]
        self.take_all = o["liuhong_effect"] == "take_all"
        self.grab = o["heiliubo_effect"] == "grab"
        sweep = t.profile.prizes["sweep"]
        self.sweep = self.classes.index(sweep) if sweep in self.classes else -1
        self.cls_of = [self._axis(t.class_of(k)) for k in range(len(rules.RANK_IDS))]
        self.odds = roll_odds(t.rules)
        self._decoded = self._decode()

    def _axis(self, cls):
        return self.classes.index(cls) if cls in self.classes else -1

    def ends_at_once(self, rank):
        return ((rank == rules.LIUBOHONG and self.take_all)
                or ((rank == rules.HEILIUBO or rank == rules.BIANDIJIN) and self.grab))

    # State index: the "no 状元 yet" bit (if any) is the least significant
    # digit, then the class counts, the class that is surely drained soonest
    # most significant. Every transition lowers a count or clears the bit, so
    # it never raises the index: mass only flows towards index 0, the
    # absorbing state, and the live states are always a prefix of the table,
    # which shrinks fast once the quick classes are surely gone.
    def _drain_order(self):
        """Class axes, slowest first: by the rolls after which the class alone
        would still hold a prize with chance < 1e-20 (binomial tail)."""
        pays = [0] * len(self.counts)
        for (rank, bonus), n in self.odds.items():
            for r in (rank, bonus):
                if r and self.cls_of[r] >= 0:
                    pays[self.cls_of[r]] += n
        sure = []
        for k in range(len(self.counts)):
            p, c = pays[k] / 46656, self.counts[k]
            if p == 0 or c == 0:
                sure.append(0 if c == 0 else MAX_ROLLS)
                continue
            left = np.zeros(c)  # P(j hits so far), j < c
            left[0] = 1.0
            n = 0
            while left.sum() > 1e-20 and n < MAX_ROLLS:
                left[1:] = left[1:] * (1 - p) + left[:-1] * p
                left[0] *= 1 - p
                n += 1
            sure.append(n)
        return sorted(range(len(self.counts)), key=lambda k: -sure[k])

    def _decode(self):
        idx = np.arange(self.n_states, dtype=np.int64)
        stride = 1
        if self.need_zy:
            nozy = idx % 2
            stride = 2
        else:
            nozy = np.zeros(self.n_states, dtype=np.int64)
        strides = [0] * len(self.counts)
        cnt = [None] * len(self.counts)
        for k in self._drain_order():  # slowest first: least significant
            strides[k] = stride
            cnt[k] = (idx // stride) % (self.counts[k] + 1)
            stride *= self.counts[k] + 1
        return idx, nozy, cnt, strides

    def _award(self, cnt, ci):
        """game.Table._award on every state at once: one prize of class axis ci."""
        has = cnt[ci] > 0
        cnt[ci] = cnt[ci] - has
        if self.when not in ("lower_tier", "down_then_up"):
            return  # nothing; chase takes from a seat, not from the pool
        need = ~has
        order = list(range(ci + 1, len(cnt)))  # the highest lower class with stock
        if self.when == "down_then_up":
            order += list(range(ci - 1, -1, -1))  # else the nearest higher one
        for j in order:
            h = need & (cnt[j] > 0)
            cnt[j] = cnt[j] - h
            need = need & ~h

    def after(self, rank, bonus):
        """The state index after a roll of (rank, bonus) that does not end the
        game at once, for every state index at once (as game.Table._pay does it)."""
        idx, nozy, cnt0, strides = self._decoded
        cnt = list(cnt0)
        ci = self.cls_of[rank]
        if ci >= 0:
            self._award(cnt, ci)
        if self.sweep >= 0 and (rank == rules.CHAJINHUA or rank == rules.LIUBOHONG):
            cnt[self.sweep] = cnt[self.sweep] * 0
        if bonus and self.cls_of[bonus] >= 0:
            self._award(cnt, self.cls_of[bonus])
        nxt = nozy * 0 if (self.need_zy and rules.is_zhuangyuan(rank)) else nozy
        for k in range(len(cnt)):
            nxt = nxt + cnt[k] * strides[k]
        return nxt

    def state(self, i):
        """State index -> ({class: count}, a 状元 stands)."""
        idx, nozy, cnt, _ = self._decoded
        return ({c: int(cnt[k][i]) for k, c in enumerate(self.classes)},
                not (self.need_zy and nozy[i]))

    def transitions(self):
        """-> (q, {delta: weight array}): q = chance per roll of an at-once end;
        weight[i] = chance that a roll (given no at-once end) moves state i to
        state i - delta."""
        idx = self._decoded[0]
        total = 46656
        q = sum(n for (rank, _), n in self.odds.items() if self.ends_at_once(rank)) / total
        if q >= 1:
            raise PlanError("every roll ends the game at once")
        deltas = {}
        for (rank, bonus), n in sorted(self.odds.items()):
            if self.ends_at_once(rank):
                continue
            p = n / total / (1 - q)
            d = idx - self.after(rank, bonus)
            for dv in np.unique(d):
                w = deltas.get(int(dv))
                if w is None:
                    w = deltas[int(dv)] = np.zeros(self.n_states)
                w[d == dv] += p
        return q, deltas

    def survival(self, horizon=MAX_ROLLS):
        """-> (F, q, dropped): F[n] = P'(no trigger within n rolls) for n = 0..len-1
        under rolls that never end the game at once, until F < 1e-13 or `horizon`."""
        q, deltas = self.transitions()
        self._check_ends(deltas)
        order = sorted(deltas.items())
        P = np.zeros(self.n_states)
        P[-1] = 1.0  # full pool, no 状元 yet
        F = [1.0 if self.n_states > 1 else 0.0]
        dropped = 0.0
        h = self.n_states
        n = 0
        while F[-1] >= _TAIL and n < horizon:
            new = np.zeros(h)
            for dv, w in order:
                if dv < h:
                    new[:h - dv] += w[dv:h] * P[dv:h]
            new[0] = 0.0  # absorbed: the trigger has fallen
            live = np.flatnonzero(new > _PRUNE)
            h2 = int(live[-1]) + 1 if len(live) else 1
            dropped += float(new[h2:].sum())
            P = new[:h2]
            h = h2
            n += 1
            F.append(float(P.sum()))
        return np.array(F), q, dropped

    def _check_ends(self, deltas):
        """Every reachable state must be able to reach the end, or the game may
        never end (a class no roll can pay): refuse rather than loop."""
        ok = np.zeros(self.n_states, dtype=bool)
        ok[0] = True
        while True:
            new = ok.copy()
            for dv, w in deltas.items():
                if dv > 0:
                    new[dv:] |= (w[dv:] > 0) & ok[:-dv]
            if (new == ok).all():
                break
            ok = new
        if not ok[-1]:
            stuck = [c for c, k in zip(self.classes, self.counts)
                     if k and not any(self.cls_of[r] == self.classes.index(c) for r, _ in self.odds)]
            raise PlanError("this game can go on for ever: no roll can empty the pool%s"
                            % (" (nothing pays %s)" % ", ".join(stuck) if stuck else ""))


def _percentile(cdf, p):
    return int(np.searchsorted(cdf, p - 1e-12))


def plan(profile, seats, seconds_per_roll=SECONDS_PER_ROLL, counts=None, minutes=MINUTES):
    """The exact distribution of one game's length. Returns a dict (see cmd_plan)."""
    if not seconds_per_roll > 0:
        raise PlanError("seconds per roll must be > 0, got %r" % (seconds_per_roll,))
    t = game.Table(profile, seats, counts=counts)
    ch = Chain(t)
    limit = t.profile.options["time_limit"]
    n_t = math.ceil(limit * 60 / seconds_per_roll - 1e-9) if limit else None
    horizon = MAX_ROLLS if n_t is None else n_t
    F, q, dropped = ch.survival(horizon)
    k = ch.period

    def trig(n):  # P'(no trigger within n rolls)
        return float(F[n]) if n < len(F) else 0.0

    # S[m] = P(the game lasts more than m rolls)
    surv = []
    m = 0
    while True:
        if ch.kiosk:
            s = trig(m) * (n_t is None or n_t > k * (m // k))
        else:
            mb = k * (m // k)  # the last round boundary at or before m
            s = (trig(mb) if mb else 1.0) * (n_t is None or n_t > mb)
        s *= (1 - q) ** m
        surv.append(s)
        if s < _TAIL or m > 4 * MAX_ROLLS:
            break
        m += 1
    S = np.array(surv)
    if S[-1] >= _TAIL:
        raise PlanError("games can last beyond %d rolls with probability %.3g: too long to plan"
                        % (len(S), S[-1]))
    cdf = 1.0 - S
    pmf = np.diff(np.concatenate(([1.0], S))) * -1.0
    rolls = np.arange(len(S))
    mean = float(S.sum())
    rounds_surv = S[::k]  # P(rounds > r) = P(rolls > r*k)
    mean_rounds = float(rounds_surv.sum())
    sd = math.sqrt(max(0.0, float((pmf * rolls * rolls).sum()) - mean * mean))
    rounds = -(-rolls // k)
    sd_rounds = math.sqrt(max(0.0, float((pmf * rounds * rounds).sum()) - mean_rounds * mean_rounds))
    spr = seconds_per_roll
    out = {
        "profile": t.profile.name,
        "mode": "kiosk" if ch.kiosk else "table",
        "seats": t.seats,
        "rolls_per_round": k,
        "classes": dict(zip(ch.classes, ch.counts)),
        "provisional": t.provisional,
        "seconds_per_roll": spr,
        "time_limit": limit,
        "mean_rolls": mean,
        "sd_rolls": sd,
        "p50_rolls": _percentile(cdf, 0.5),
        "p90_rolls": _percentile(cdf, 0.9),
        "p99_rolls": _percentile(cdf, 0.99),
        "max_rolls_planned": len(S) - 1,
        "mean_rounds": mean_rounds,
        "sd_rounds": sd_rounds,
        "p50_rounds": -(-_percentile(cdf, 0.5) // k),
        "p90_rounds": -(-_percentile(cdf, 0.9) // k),
        "p99_rounds": -(-_percentile(cdf, 0.99) // k),
        "mean_minutes": mean * spr / 60,
        "p50_minutes": _percentile(cdf, 0.5) * spr / 60,
        "p90_minutes": _percentile(cdf, 0.9) * spr / 60,
        "p99_minutes": _percentile(cdf, 0.99) * spr / 60,
        "p_over_within": {},
        # roll m+1 is played with chance S[m] and ends the game at once with chance q
        "p_ends_at_once": q * mean,
        "states": ch.n_states,
        "trigger_rolls_computed": len(F) - 1,
        "mass_dropped": dropped,
    }
    for mins in minutes:
        n = int(math.floor(mins * 60 / spr + 1e-9))
        out["p_over_within"]["%g" % mins] = float(cdf[n]) if n < len(cdf) else 1.0
    out["cdf"] = cdf  # P(rolls <= m), m = 0.. (numpy; dropped by --json)
    return out

