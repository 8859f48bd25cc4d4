"""Monte Carlo of whole games over the real game.Table: what the bowl's own
engine does when fed many games of fair dice.

Dice come from Python's `random.Random(seed)` (Mersenne Twister; one
randrange(46656) per roll, decoded to six faces): fast and reproducible from
the seed, which is printed with the results. This tests the game, not the
dice path (host_sim dice-stats audits that). Seat 1 rolls two dice for the
start (RULES.md §5), so each game's first seat is random as at a real table.
Nobody spills. With a time_limit the clock is the planner's: each roll takes
--seconds-per-roll and time runs out after ceil(limit*60 / X) rolls
(host_sim/analysis/plan.py), so the two can be compared.
"""
import math
import random

from bobing import game, rules
import dice_stats
from host_sim.analysis import plan

def play_game(profile, seats, rng, counts=None, seconds_per_roll=plan.SECONDS_PER_ROLL):
    """One whole game on a fresh game.Table -> (table, rolls, rank list, bonus
    list, the seat handed the provisional 状元 prize at the end or 0)."""
    faces = plan.all_rolls()
    t = game.Table(profile, seats, counts=counts)
    limit = t.profile.options["time_limit"]
    n_t = math.ceil(limit * 60 / seconds_per_roll - 1e-9) if limit else -1
    ranks = []
    bonuses = []
    rolls = 0
    out = None
    if not t.kiosk:
        t.start_total(rng.randint(1, 6) + rng.randint(1, 6))
    while not t.ended:
        if rolls == n_t:
            out = t.time_up()
            n_t = -1
            continue
        if t.kiosk and not t.shakes_left:
            out = t.next_customer()
            continue
        out = t.roll(faces[rng.randrange(46656)])
        ranks.append(out.rank)
        bonuses.append(out.bonus)
        rolls += 1
    return t, rolls, ranks, bonuses, out.zhuangyuan_to if out else 0


def run(profile, seats, games, seed=None, counts=None, seconds_per_roll=plan.SECONDS_PER_ROLL,
        progress=False):
    """Play `games` games; -> a dict of plain data (JSON-ready except "rolls"/"rounds" lists)."""
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    probe = game.Table(profile, seats, counts=counts)
    classes = list(probe.classes)
    seat_ids = list(range(1, probe.seats + 1))
    rank_n = [0] * len(rules.RANK_IDS)
    bonus_n = [0] * len(rules.RANK_IDS)
    per_seat = {s: {c: 0 for c in classes} for s in seat_ids}
    grabbed = {c: 0 for c in classes}
    left = {c: 0 for c in classes}
    reasons = {}
    zy_to = {s: 0 for s in seat_ids}
    rolls_l = []
    rounds_l = []
    it = range(games)
    if progress:
        from tqdm import tqdm
        it = tqdm(it, desc="games", unit="game", disable=None)  # stderr; off when not a terminal
    for _ in it:
        t, n, ranks, bonuses, zto = play_game(profile, seats, rng, counts, seconds_per_roll)
        for r in ranks:
            rank_n[r] += 1
        for b in bonuses:
            bonus_n[b] += 1
        for s in seat_ids:
            a = t.awards[s]
            for c in classes:
                per_seat[s][c] += a[c]
        for c in classes:
            grabbed[c] += t.grabbed[c]
            left[c] += t.pool[c]
        reasons[t.reason] = reasons.get(t.reason, 0) + 1
        if zto:
            zy_to[zto] += 1
        rolls_l.append(n)
        rounds_l.append(t.round)
    total = sum(rank_n)
    exact = dice_stats.exact_rank_counts(probe.rules)
    ranks = []
    for k in range(len(rules.RANK_IDS)):
        ranks.append({"rank": rules.RANK_IDS[k], "zh": rules.rank_names("zh")[k], "observed": rank_n[k],
                      "expected": total * exact[k] / 46656, "exact_p": exact[k] / 46656})
    probs = [e / 46656 for e in exact]
    chi = dice_stats.chisquare(rank_n, probs, list(rules.RANK_IDS)) if total else None
    return {
        "profile": probe.profile.name,
        "options": dict(probe.profile.options),
        "mode": "kiosk" if probe.kiosk else "table",
        "seats": probe.seats,
        "games": games,
        "seed": seed,
        "seconds_per_roll": seconds_per_roll,
        "classes": classes,
        "initial": dict(probe.initial),
        "rolls": rolls_l,
        "rounds": rounds_l,
        "total_rolls": total,
        "rank_frequencies": ranks,
        "rank_chi2": None if chi is None else {"chi2": chi["chi2"], "df": chi["df"], "p": chi["p"]},
        "bonus_counts": {rules.RANK_IDS[k]: bonus_n[k] for k in range(1, len(rules.RANK_IDS)) if bonus_n[k]},
        "prizes_per_seat": {str(s): {c: per_seat[s][c] / games for c in classes} for s in seat_ids},
        "zhuangyuan_to_seat": {str(s): zy_to[s] / games for s in seat_ids},
        "grabbed_per_game": {c: grabbed[c] / games for c in classes},
        "left_in_pool_per_game": {c: left[c] / games for c in classes},
        "end_reasons": reasons,
    }


def describe(xs):
    """mean, sd, min, p50, p90, p99, max of a list of numbers."""
    n = len(xs)
    s = sorted(xs)
    mean = sum(s) / n
    var = sum((x - mean) ** 2 for x in s) / (n - 1) if n > 1 else 0.0

    def pct(p):  # the smallest value with at least p of the games at or below it
        return s[max(0, math.ceil(p * n) - 1)]

    return {"mean": mean, "sd": math.sqrt(var), "min": s[0], "p50": pct(0.5), "p90": pct(0.9),
            "p99": pct(0.99), "max": s[-1]}
