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
table (MAX_STATES; say which counts to lower) unless the counting model below
applies.

Large kiosks (the shipped `kiosk` preset: 3*6*11*21*41*81 = 13.8M pool
states) are planned from demand counts instead of pool states. Under
lower_tier a prize of class i is taken from the first class i, i+1, ... that
has stock: each award is a "demand" on a suffix of the classes, and suffixes
are nested, so the greedy takings depend only on how many demands each class
got, not on their order: with C_m = the stock of classes 0..m and Z_m = the
demands for classes 0..m so far, the stock left in classes 0..k is
max(0, max over m <= k of (C_m - Z_m)) (checked against the engine in
tests/test_plan.py). A kiosk ends when every class is empty,
i.e. when Z_m >= C_m for every m. After n rolls the roll kinds' counts are
multinomial; the chance of that event is summed class group by class group
(stick-breaking: the rolls of group m are Binomial(rolls left, its share of
what is left)), carrying the rolls used u and the combined-award bonuses
waiting for the two lowest classes; those two classes' rolls are summed in
closed form (table G below). Once the two lowest classes are surely empty
(both binomial bounds < 1e-22, counted in mass_dropped) the rest of the tail
is the upper classes' own chain, small enough for the dense table. The kiosk
preset plans in about 4 s of CPU this way (make bench: bench/plan_bench.py),
agreeing with the dense chain to 5e-13 where both can run (tests/test_plan.py).

Numerics: float64; after each roll the tail of the state table whose entries
are all below 1e-24 is dropped (the total dropped mass is reported, ~1e-18);
the chain is pushed until P(no trigger yet) < 1e-13.
"""
import math

import numpy as np

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
        self.n_states = n
        self.table = t
        self.progress = None  # fn(rolls pushed, P(not yet over)), called as the chain is pushed
        self.when = o["when_exhausted"]
        self.take_all = o["liuhong_effect"] == "take_all"
        self.grab = o["heiliubo_effect"] == "grab"
        sweep = t.profile.prizes["sweep"]
        self.sweep = self.classes.index(sweep) if sweep in self.classes else -1
        self.cls_of = [self._axis(t.class_of(k)) for k in range(len(rules.RANK_IDS))]
        self.odds = roll_odds(t.rules)
        if n > MAX_STATES and not self.by_counts():
            raise PlanError("the pool has %d states (%s), more than the planner's %d: lower some counts "
                            "with --count CLASS=N" % (n, ", ".join("%s=%d" % (c, k) for c, k in
                                                                   zip(self.classes, self.counts)), MAX_STATES))
        self._dec = None

    @property
    def _decoded(self):
        if self._dec is None:
            self._dec = self._decode()
        return self._dec

    def by_counts(self):
        """Can the counting model (module header) plan this game? A lower_tier kiosk
        with no 状元 held to the end, no sweep, and combined-award bonuses paid only
        by the two lowest classes to rolls of the classes above them."""
        if not self.kiosk or self.when != "lower_tier" or self.need_zy or self.sweep >= 0:
            return False
        k = len(self.classes)
        if k < 3:
            return False
        for (rank, bonus), _n in self.odds.items():
            if self.ends_at_once(rank) or not bonus or self.cls_of[bonus] < 0:
                continue
            p, b = self.cls_of[rank], self.cls_of[bonus]
            if b < k - 2 or p < 0 or p >= k - 2:
                return False
        return True

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

    def survival(self, horizon=MAX_ROLLS, counting=None, runout=None):
        """-> (F, q, dropped): F[n] = P'(no trigger within n rolls) for n = 0..len-1
        under rolls that never end the game at once, until F < 1e-13 or `horizon`.
        counting: use the counting model (None: when the pool is too big for the
        dense table). runout: a dict that gets, per class, E[n] = P'(that class is
        empty after n rolls) (dense table only)."""
        if runout is not None and self.n_states > MAX_STATES:
            raise PlanError("when each class runs out needs the dense table: %d pool states, at most %d"
                            % (self.n_states, MAX_STATES))
        if counting is None:
            counting = self.n_states > MAX_STATES
        if counting:
            if not self.by_counts():
                raise PlanError("the counting model does not apply to this game")
            return _counting_survival(self, horizon)
        q, deltas = self.transitions()
        self._check_ends(deltas)
        order = sorted(deltas.items())
        P = np.zeros(self.n_states)
        P[-1] = 1.0  # full pool, no 状元 yet
        F = [1.0 if self.n_states > 1 else 0.0]
        dropped = 0.0
        h = self.n_states
        n = 0
        if runout is not None:
            empty = [self._decoded[2][k] == 0 for k in range(len(self.classes))]
            absorbed = 0.0
            for c, k in zip(self.classes, self.counts):
                runout[c] = [0.0 if k else 1.0]
        while F[-1] >= _TAIL and n < horizon:
            new = np.zeros(h)
            for dv, w in order:
                if dv < h:
                    new[:h - dv] += w[dv:h] * P[dv:h]
            if runout is not None:
                absorbed += float(new[0])  # every class empty (a kiosk) or the trigger fallen
            new[0] = 0.0  # absorbed: the trigger has fallen
            live = np.flatnonzero(new > _PRUNE)
            h2 = int(live[-1]) + 1 if len(live) else 1
            dropped += float(new[h2:].sum())
            P = new[:h2]
            h = h2
            n += 1
            F.append(float(P.sum()))
            if self.progress is not None:
                self.progress(n, F[-1])
            if runout is not None:
                for k, c in enumerate(self.classes):
                    runout[c].append(absorbed + float(P[empty[k][:h]].sum()))
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


_FAR = 1e-22  # the two lowest classes count as surely empty below this chance
_TINY = 1e-32  # binomial terms below this are not carried


class _Binomial:
    """Binomial probabilities from a table of log-factorials (numpy, no scipy)."""

    def __init__(self, nmax):
        self.lf = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, nmax + 1)))))

    def pmf(self, n, k, p):
        """P(Binomial(n, p) = k), n and k arrays (broadcast); 0 outside 0 <= k <= n."""
        n = np.asarray(n)
        k = np.asarray(k)
        ok = (k >= 0) & (k <= n)
        kk = np.where(ok, k, 0)
        nn = np.where(ok, n, 0)
        if p <= 0:
            return np.where(ok & (kk == 0), 1.0, 0.0)
        if p >= 1:
            return np.where(ok & (kk == nn), 1.0, 0.0)
        lg = self.lf[nn] - self.lf[kk] - self.lf[nn - kk] + kk * math.log(p) + (nn - kk) * math.log1p(-p)
        return np.where(ok, np.exp(lg), 0.0)

    def below(self, n, k, p):
        """P(Binomial(n, p) < k)."""
        if k <= 0:
            return 0.0
        return float(self.pmf(n, np.arange(min(k, n + 1)), p).sum())


def _kmax(binom, n, p):
    """The largest k with P(Binomial(n, p) = k) > _TINY (for fewer trials it is smaller still)."""
    if p <= 0 or n <= 0:
        return 0
    sd = math.sqrt(n * p * (1 - p))
    k = np.arange(int(min(n, math.ceil(n * p + 20 * sd + 60))) + 1)
    big = np.flatnonzero(binom.pmf(n, k, p) > _TINY)
    return int(big[-1]) if len(big) else 0


def _trim(S):
    """S without its trailing rows/columns along any axis that carry nothing."""
    cut = []
    for ax in range(S.ndim):
        other = tuple(i for i in range(S.ndim) if i != ax)
        live = np.flatnonzero(S.max(axis=other) > _TINY)
        if not len(live):
            return None
        cut.append(slice(0, live[-1] + 1))
    return S[tuple(cut)]


def _counting_survival(ch, horizon):
    """Chain.survival by the counting model (module header) -> (F, q, dropped)."""
    k = len(ch.classes)
    lo1, lo2 = k - 2, k - 1  # the two lowest classes
    cum = list(np.cumsum(ch.counts))  # C_m
    total = 46656
    q = sum(n for (rank, _), n in ch.odds.items() if ch.ends_at_once(rank)) / total
    # roll kinds by their class group: groups[m] = [(bonus axis or -1, chance), ...]
    groups = [dict() for _ in range(k)]
    for (rank, bonus), n in ch.odds.items():
        if ch.ends_at_once(rank):
            continue
        p = ch.cls_of[rank]
        b = ch.cls_of[bonus] if bonus else -1
        if p < 0:
            p, b = b, -1  # only the bonus pays (or nothing at all)
        if p < 0:
            continue
        groups[p][b] = groups[p].get(b, 0.0) + n / total / (1 - q)
    share = [sum(g.values()) for g in groups]
    below = [sum(share[:m + 1]) for m in range(k)]  # P(a roll's first demand is for classes 0..m)
    rest = 1.0 - sum(share[:lo1])
    if cum[lo2] == 0:
        n_far = 0
    else:
        n_far = None
    # the two lowest classes are surely empty from n_far on
    binom = _Binomial(max(horizon, cum[lo2]) + 1 if horizon < MAX_ROLLS else 200000)
    n = 0
    far = 0.0
    if n_far is None:
        n = cum[lo1]
        while True:
            far = binom.below(n, cum[lo1], below[lo1]) + binom.below(n, cum[lo2], below[lo2])
            if far < _FAR or n >= horizon:
                break
            n += max(1, n // 50)
        n_far = n
    n_far = min(n_far, horizon)
    # G table pieces: given M rolls outside the upper groups, N1 ~ its lo1 rolls,
    # N1 + N2 ~ its lo1 + lo2 rolls: G_M(a, b) = P(N1 >= a, N1 + N2 >= b).
    A, B = cum[lo1], cum[lo2]
    w_p = (share[lo1] + share[lo2]) / rest if rest > 0 else 0.0
    rho = share[lo1] / (share[lo1] + share[lo2]) if share[lo1] + share[lo2] > 0 else 0.0
    H = np.zeros((n_far + 1, A + 1))  # H[w, a] = P(Binomial(w, rho) >= a)
    for w in range(n_far + 1):
        pm = binom.pmf(w, np.arange(w + 1), rho)
        sv = np.cumsum(pm[::-1])[::-1]  # sv[a] = P(>= a), a <= w
        H[w, :min(w, A) + 1] = sv[:min(w, A) + 1]
    G = np.zeros((n_far + 1, B + 1, A + 1))  # G[M, b, a]
    for m in range(n_far + 1):
        pw = binom.pmf(m, np.arange(m + 1), w_p)
        cs = np.cumsum((pw[:, None] * H[:m + 1])[::-1], axis=0)[::-1]  # cs[b, a]: the sum over w >= b
        top = min(m, B)
        G[m, :top + 1] = cs[:top + 1]

    # Before the rolls can have made B demands at all (a roll makes 0, 1 or 2),
    # the game surely goes on: skip those n (their chance of an end is counted as dropped).
    per_roll = [0.0, 0.0, 0.0]
    for (rank, bonus), cnt in ch.odds.items():
        if not ch.ends_at_once(rank):
            d = (ch.cls_of[rank] >= 0) + (bool(bonus) and ch.cls_of[bonus] >= 0)
            per_roll[d] += cnt / total / (1 - q)
    made = np.array([1.0])
    F = [1.0]
    dropped = far
    exact = False
    for n in range(1, n_far + 1):
        if not exact:
            made = np.convolve(made, per_roll)
            early = float(made[B:].sum())
            if early < _FAR:
                F.append(1.0)
                dropped = max(dropped, early)
                continue
            exact = True
        F.append(1.0 - _ended_by(n, groups, cum, lo1, lo2, binom, G))
        if ch.progress is not None:
            ch.progress(n, F[-1])
    if n_far < horizon and F[-1] >= _TAIL:
        # from here on only the upper classes can still hold a prize: their own chain
        counts = dict(zip(ch.classes, ch.counts))
        counts[ch.classes[lo1]] = 0
        counts[ch.classes[lo2]] = 0
        up = Chain(game.Table(ch.table.profile, ch.table.seats, counts=counts))
        up.progress = ch.progress
        Fu, _q, d2 = up.survival(horizon, counting=False)
        dropped += d2
        F.extend(float(x) for x in Fu[n_far + 1:])
    return np.array(F), q, dropped


def _ended_by(n, groups, cum, lo1, lo2, binom, G):
    """P(every class empty after n rolls) by the counting model."""
    # S[i, e1, e2]: chance of u = u0 + i rolls in the groups so far, e1/e2 bonus
    # demands waiting for the classes lo1/lo2, and every class so far emptied.
    S = np.ones((1, 1, 1))
    u0 = 0
    left = 1.0  # chance of the roll kinds not yet summed
    for m in range(lo1):
        for b, p in sorted(groups[m].items()):
            r = min(1.0, p / left) if left > 0 else 0.0
            left -= p
            U = S.shape[0]
            kx = _kmax(binom, n - u0, r)
            i = np.arange(U)
            kk = np.arange(kx + 1)
            w = binom.pmf(n - u0 - i[:, None], kk[None, :], r)  # w[i, k]: k more rolls of this kind
            if b < 0:
                # S'[i + k] += S[i] w[i, k]: one matrix product
                T = np.zeros((U, U + kx))
                T[np.repeat(i, kx + 1), (i[:, None] + kk[None, :]).ravel()] = w.ravel()
                S = np.tensordot(T, S, axes=(0, 0))
            else:
                ax = 1 if b == lo1 else 2  # the bonus demands move along with the rolls
                shape = list(S.shape)
                shape[0] += kx
                shape[ax] += kx
                out = np.zeros(shape)
                tmp = np.empty_like(S)
                n1, n2 = S.shape[1], S.shape[2]
                for j in range(kx + 1):
                    wj = w[:, j]
                    if not wj.any():
                        continue
                    np.multiply(S, wj[:, None, None], out=tmp)
                    view = out[j:j + U, j:j + n1, :] if ax == 1 else out[j:j + U, :, j:j + n2]
                    view += tmp
                S = out
            S = _trim(S)
            if S is None:
                return 0.0
        if cum[m] > u0:  # classes 0..m not yet empty while Z_m = u < C_m
            S = S[cum[m] - u0:]
            u0 = cum[m]
            if not S.shape[0]:
                return 0.0
    A, B = cum[lo1], cum[lo2]
    u = u0 + np.arange(S.shape[0])[:, None, None]
    e1 = np.arange(S.shape[1])[None, :, None]
    e2 = np.arange(S.shape[2])[None, None, :]
    a = np.clip(A - u - e1, 0, A)
    bb = np.clip(B - u - e1 - e2, 0, B)
    return float((S * G[n - u, bb, a]).sum())


def runout(profile, left):
    """A kiosk's stock forecast: from the stock `left` ({class: n}), for each
    class the number of further rolls until it is empty (median and 90th
    percentile: P(empty) >= 0.5 / 0.9), and for all of it. -> {"classes":
    {class: (p50, p90) or None}, "all": (p50, p90)}. Rolls, not customers: a
    customer takes kiosk_shakes of them. A pool too large for the dense table is
    planned whole by counting; under lower_tier the classes above the two lowest
    are paid only by their own rolls (an empty class passes its prize down, never
    up), so their own chain gives when each of them runs out exactly; the two
    lowest get None."""
    t = game.Table(profile, 1, counts=left)
    if not t.kiosk:
        raise PlanError("a stock forecast is for a kiosk (mode=kiosk)")
    ch = Chain(t)
    out = {"rolls_per_customer": ch.period, "states": ch.n_states}
    per = {}
    if ch.n_states <= MAX_STATES:
        F, _q, _d = ch.survival(runout=per)
    else:
        F, _q, _d = ch.survival()
        upper = dict(zip(ch.classes, ch.counts))
        for c in ch.classes[-2:]:
            upper[c] = 0
        Chain(game.Table(profile, 1, counts=upper)).survival(runout=per)
        for c in ch.classes[-2:]:
            per[c] = None
    out["classes"] = {c: None if e is None else (_percentile(np.array(e), 0.5), _percentile(np.array(e), 0.9))
                      for c, e in per.items()}
    cdf = 1.0 - F
    out["all"] = (_percentile(cdf, 0.5), _percentile(cdf, 0.9))
    return out


def _percentile(cdf, p):
    return int(np.searchsorted(cdf, p - 1e-12))


def plan(profile, seats, seconds_per_roll=SECONDS_PER_ROLL, counts=None, minutes=MINUTES, progress=None):
    """The exact distribution of one game's length. Returns a dict (see cmd_plan).
    progress: fn(pool states, rolls pushed, P(not yet over)), called as it goes."""
    if not seconds_per_roll > 0:
        raise PlanError("seconds per roll must be > 0, got %r" % (seconds_per_roll,))
    t = game.Table(profile, seats, counts=counts)
    ch = Chain(t)
    if progress is not None:
        progress(ch.n_states, 0, 1.0)
        ch.progress = lambda n, f: progress(ch.n_states, n, f)
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
        "provisional_count": t.initial[t.provisional] if t.provisional else 0,
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

