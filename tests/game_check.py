# Drive a game.Table and the independent reference (game_ref.Ref) with the same
# random events and check, after every event, the engine against the reference
# and against the invariants of the game contract (firmware/README.md):
#   - prizes conserved: pool + awarded + grabbed = initial, in every class;
#   - no count below zero;
#   - the game ends exactly when the rules say (the reference) and never before;
#   - the 状元 holder is the best standing roll, recomputed here from the log
#     of 状元 rolls: each seat's LATEST 状元 stands, the earlier roll wins ties.
# Shared by tests/test_game.py (hypothesis, CPython) and tests/test_game_mp.py
# (a seeded sample on the MicroPython unix port), so no CPython-only code here.
from bobing import claim, game, profiles, rules
from game_ref import Ref

# Rolls worth seeing often (fair dice give a 状元 about once in 80 rolls).
SPECIAL = (
    (4, 4, 4, 4, 1, 1), (4, 4, 4, 4, 4, 4), (1, 1, 1, 1, 1, 1), (6, 6, 6, 6, 6, 6), (2, 2, 2, 2, 2, 2),
    (4, 4, 4, 4, 4, 6), (4, 4, 4, 4, 4, 1), (5, 5, 5, 5, 5, 4), (3, 3, 3, 3, 3, 6), (1, 2, 3, 4, 5, 6),
    (4, 4, 4, 4, 5, 6), (4, 4, 4, 4, 1, 2), (4, 4, 4, 4, 3, 3), (4, 4, 4, 4, 2, 4), (4, 4, 4, 4, 6, 6),
    (2, 2, 2, 2, 4, 4), (5, 5, 5, 5, 4, 1), (4, 4, 4, 1, 2, 3), (2, 2, 2, 5, 5, 5), (1, 1, 5, 5, 6, 6),
    (6, 5, 4, 3, 2, 1), (4, 4, 4, 4, 3, 5), (4, 4, 4, 4, 2, 6),
)

GAME_OPTIONS = ("when_exhausted", "chase_tiers", "liuhong_effect", "heiliubo_effect", "direction",
                "spill_penalty", "time_limit", "prizes", "mode", "kiosk_shakes")


class Lcg:
    """A small seeded PRNG: rnd(n) -> 0..n-1 (the same numbers on both interpreters)."""

    def __init__(self, seed):
        self.x = seed

    def __call__(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def holder_from_log(zlog):
    """zlog: [(seat, order key, event number)] of every 状元 roll -> the holder seat."""
    latest = {}
    for seat, key, n in zlog:
        latest[seat] = (key, n)
    best = 0
    for seat in latest:
        if best == 0:
            best = seat
            continue
        k, n = latest[seat]
        bk, bn = latest[best]
        if k > bk or (k == bk and n < bn):
            best = seat
    return best


def check_invariants(t, zlog, last):
    for c in t.classes:
        total = t.pool[c] + t.grabbed[c]
        if t.pool[c] < 0 or t.grabbed[c] < 0:
            raise AssertionError("negative count in %s: pool %d grabbed %d" % (c, t.pool[c], t.grabbed[c]))
        for s in t.awards:
            n = t.awards[s][c]
            if n < 0:
                raise AssertionError("seat %d holds %d of %s" % (s, n, c))
            total += n
        if total != t.initial[c]:
            raise AssertionError("class %s not conserved: %d != %d" % (c, total, t.initial[c]))
    if t.provisional is None:
        want = 0
    elif t.reason == "heiliubo_grab":
        want = 0
    elif t.reason == "liubohong":
        want = last.seat  # take_all: the 六勃红 roller takes the 状元
    else:
        want = holder_from_log(zlog)
    if t.holder != want:
        raise AssertionError("holder %d, recomputed from standings %d (log %r)" % (t.holder, want, zlog))
    if t.holder and t.standing(t.holder)[0] != t.holder_dice:
        raise AssertionError("holder_dice %r is not the holder's standing roll" % (t.holder_dice,))


def compare(t, ref, out, res, what):
    got = (out.seat, out.won, out.skipped, out.ended, out.reason, out.zhuangyuan_to)
    want = (res["seat"], res["won"], res["skipped"], res["ended"], res["reason"], res["to"])
    if got != want:
        raise AssertionError("%s: engine %r, reference %r" % (what, got, want))
    if t.pool != ref.pool or t.grabbed != ref.grabbed:
        raise AssertionError("%s: pool/grabbed %r %r, reference %r %r"
                             % (what, t.pool, t.grabbed, ref.pool, ref.grabbed))
    for s in range(1, t.seats + 1):
        if t.awards[s] != ref.awards(s):
            raise AssertionError("%s: seat %d awards %r, reference %r" % (what, s, t.awards[s], ref.awards(s)))
    if t.holder != ref.holder()[0]:
        raise AssertionError("%s: holder %d, reference %d" % (what, t.holder, ref.holder()[0]))
    if t.turn != ref.turn() or t.ended != ref.ended or t.reason != ref.reason:
        raise AssertionError("%s: turn/ended/reason %r, reference %r"
                             % (what, (t.turn, t.ended, t.reason), (ref.turn(), ref.ended, ref.reason)))
    if not t.kiosk and not t.ended and t.round != ref.round:
        raise AssertionError("%s: round %d, reference %d" % (what, t.round, ref.round))


GAME_NO = 7  # the journal's game number a kiosk's claim codes sign


def new_pair(options, seats, counts=None, secret=None):
    prof = profiles.Profile("xiamen", options)
    t = game.Table(prof, seats, counts=counts, bowl_id="B1", secret=secret, game_no=GAME_NO)
    ref = Ref(prof.options, prof.prizes, seats, counts)
    return t, ref


def play(t, ref, rnd, p_spill=50, p_special=150, p_timeup=5, max_events=800, start=None, secret=None):
    """Play random events (probabilities in per mille) until the end or
    max_events; check everything after every event. rnd(n) -> 0..n-1.
    Returns the number of events applied."""
    zlog = []
    awards_made = 0
    if not t.kiosk:
        if start is None:
            start = (game.EV_START_SEAT, rnd(t.seats) + 1) if rnd(2) else (game.EV_START_TOTAL, rnd(11) + 2)
        out = t.apply(start[0], start[1])
        res = ref.start(start[1]) if start[0] == game.EV_START_SEAT else ref.start_total(start[1])
        compare(t, ref, out, res, "start %r" % (start,))
    n = 0
    while not t.ended and n < max_events:
        what = None
        if t.kiosk and not t.shakes_left:
            out = t.apply(game.EV_CUSTOMER)
            res = ref.customer()
            what = "customer"
        else:
            x = rnd(1000)
            if x < p_timeup and t.time_limit:
                out = t.apply(game.EV_TIMEUP)
                res = ref.timeup()
                what = "timeup"
            elif x < p_timeup + p_spill:
                out = t.apply(game.EV_SPILL)
                res = ref.spill()
                what = "spill"
            else:
                if rnd(1000) < p_special:
                    dice = SPECIAL[rnd(len(SPECIAL))]
                else:
                    dice = (rnd(6) + 1, rnd(6) + 1, rnd(6) + 1, rnd(6) + 1, rnd(6) + 1, rnd(6) + 1)
                out = t.apply(game.EV_ROLL, dice)
                res = ref.roll(dice)
                what = "roll %r" % (dice,)
                if t.provisional is not None and rules.is_zhuangyuan(out.rank):
                    zlog.append((out.seat, rules.key_of(t.rules.evaluate(dice)), n))
        n += 1
        compare(t, ref, out, res, "event %d (%s)" % (n, what))
        check_invariants(t, zlog, out)
        if t.kiosk and secret is not None:
            if len(out.claims) != len(out.won):
                raise AssertionError("%d prizes but %d claim codes" % (len(out.won), len(out.claims)))
            for i in range(len(out.claims)):
                awards_made += 1
                if not claim.verify(secret, "B1", GAME_NO, awards_made, out.won[i][0], out.claims[i]):
                    raise AssertionError("claim code %r does not verify" % out.claims[i])
    if t.ended:
        try:
            t.apply(game.EV_ROLL, (1, 2, 3, 4, 5, 6))
        except ValueError:
            pass
        else:
            raise AssertionError("an event after the end was accepted")
    return n


def random_options(rnd):
    """A random value of every game option and every ranking option."""
    o = {}
    for name in GAME_OPTIONS + profiles.RANK_OPTIONS:
        allowed = profiles.options()[name][1]
        if allowed[0] == "int":
            o[name] = allowed[1] + rnd(min(allowed[2] - allowed[1], 5) + 1)
        elif allowed[0] == "+":
            vals = allowed[1]
            mask = rnd((1 << len(vals)) - 1) + 1
            o[name] = "+".join([vals[i] for i in range(len(vals)) if mask >> i & 1])
        else:
            o[name] = allowed[rnd(len(allowed))]
    return o


def random_counts(t_classes, rnd):
    """Small prize counts, so that classes run out and exhaustion rules matter."""
    c = {}
    for cls in t_classes:
        c[cls] = rnd(4)
    return c
