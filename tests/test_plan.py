# The exact planner (host_sim/analysis/plan.py) against closed forms and against Monte
# Carlo of the real game engine (game.Table via host_sim/stats.play_game).
#
# Sampling error: each configuration plays N games with a fresh random seed
# (printed on failure; BOBING_TEST_SEED=... replays it) and checks
#   - mean rolls within 5 standard errors (sd from the planner): P(false fail) 5.7e-7
#   - mean rounds within 5 standard errors (sd from the planner):    5.7e-7
#   - sup_m |F_sample(m) - F_plan(m)| <= sqrt(ln(2/1e-6) / 2N) (DKW): <= 1e-6
# so below 2.2e-6 per configuration and below 2e-5 for the whole file.
# Short games with many seats make the round play-out a big effect (a planner
# that forgot it would be off by tens of standard errors).
import json
import math
import os
import random

import pytest

from bobing import game, profiles
from host_sim import cli
from host_sim.analysis import plan
from host_sim.analysis import stats

DKW_ALPHA = 1e-6
Z = 5.0
SMALL = {"duitang": 1, "sanhong": 2, "sijin": 3, "erju": 4, "yixiu": 6}


def _seed():
    s = os.environ.get("BOBING_TEST_SEED")
    return int(s) if s else random.SystemRandom().randrange(1 << 32)


def _check_against_monte_carlo(profile, seats, games, counts=None, spr=plan.SECONDS_PER_ROLL):
    p = plan.plan(profile, seats, spr, counts=counts)
    seed = _seed()
    rng = random.Random(seed)
    rolls = []
    rounds = []
    for _ in range(games):
        t, n, _r, _b, _z = stats.play_game(profile, seats, rng, counts, spr)
        rolls.append(n)
        rounds.append(t.round)
    where = "profile %r seats %d counts %r seed %d" % (profile, seats, counts, seed)
    se = p["sd_rolls"] / math.sqrt(games)
    mean = sum(rolls) / games
    assert abs(mean - p["mean_rolls"]) <= Z * se, "%s: mean rolls %.2f vs exact %.2f (se %.2f)" % (
        where, mean, p["mean_rolls"], se)
    mr = sum(rounds) / games
    assert abs(mr - p["mean_rounds"]) <= Z * p["sd_rounds"] / math.sqrt(games), \
        "%s: mean rounds %.3f vs exact %.3f" % (where, mr, p["mean_rounds"])
    cdf = p["cdf"]
    hi = max(max(rolls) + 1, len(cdf))
    hist = [0] * hi
    for n in rolls:
        hist[n] += 1
    eps = math.sqrt(math.log(2 / DKW_ALPHA) / (2 * games))
    acc = 0
    worst = (0.0, 0)
    for m in range(hi):
        acc += hist[m]
        exact = cdf[m] if m < len(cdf) else 1.0
        d = abs(acc / games - exact)
        if d > worst[0]:
            worst = (d, m)
    assert worst[0] <= eps, "%s: CDF off by %.4f at %d rolls (DKW bound %.4f)" % (where, worst[0], worst[1], eps)
    return p


def test_default_game_matches_the_engine():
    p = _check_against_monte_carlo("xiamen", 10, 2500)
    assert 200 < p["mean_rolls"] < 260  # sanity: ~231 rolls


@pytest.mark.parametrize("name,overrides,seats,counts", [
    # every first-come class small and 12 seats: the round play-out dominates
    ("xiamen", {}, 12, SMALL),
    # 黑六勃 grab and a clock: ends at once, and time-up after ceil(5*60/10) = 30 rolls
    ("xiamen", {"heiliubo_effect": "grab", "time_limit": 5}, 7, SMALL),
    ("friendly", {"when_exhausted": "down_then_up"}, 5, SMALL),
    ("zhangzhou", {}, 4, SMALL),  # chase: the pool empties as with nothing
    ("tongan", {"when_exhausted": "lower_tier", "combined": "off"}, 9, SMALL),
    ("corporate_simple", {}, 8, None),  # no provisional 状元: prizes out ends the round
    ("capped_classes", {}, 1, None),  # kiosk, down_then_up, 3 shakes a customer
    ("kiosk", {}, 1, {"zhuangyuan": 1, "duitang": 1, "sanhong": 2, "sijin": 2, "erju": 3, "yixiu": 4}),
    # a 3-minute clock (18 rolls) against a small stock: both endings happen
    ("kiosk", {"time_limit": 3, "liuhong_effect": "take_all"}, 1,
     {"zhuangyuan": 0, "duitang": 0, "sanhong": 1, "sijin": 1, "erju": 2, "yixiu": 3}),
])
def test_options_match_the_engine(name, overrides, seats, counts):
    _check_against_monte_carlo(profiles.Profile(name, overrides), seats, 1500, counts)


def test_odds_are_the_rules_odds():
    odds = plan.roll_odds(game.Table("xiamen", 10).rules)
    assert sum(odds.values()) == 46656
    by_rank = {}
    for (rank, _bonus), n in odds.items():
        by_rank[rank] = by_rank.get(rank, 0) + n
    # RULES.md §8
    assert [by_rank.get(k, 0) for k in range(13)] == [14300, 17400, 9300, 1875, 2500, 720, 360, 150, 30,
                                                       4, 1, 1, 15]
    assert odds[(3, 2)] == 75 and odds[(3, 1)] == 600 and odds[(7, 1)] == 30  # combined awards


def test_closed_form_when_only_the_zhuangyuan_is_awaited():
    # Empty first-come classes: the trigger is the first 状元 (561 of 46,656
    # rolls); 六勃红 (1 of them) ends the game at once; 3 seats play the round out.
    empty = {c: 0 for c in SMALL}
    p = plan.plan("xiamen", 3, counts=empty)
    q = 1 / 46656
    z = 560 / 46655  # a 状元 among rolls that are not 六勃红
    for m in range(0, 400):
        surv = (1 - q) ** m * (1 - z) ** (3 * (m // 3))
        assert abs((1 - p["cdf"][m]) - surv) < 1e-12, m
    one = plan.plan("xiamen", 1, counts=empty)
    assert abs(one["mean_rolls"] - 46656 / 561) < 1e-9


def test_chase_plans_like_nothing():
    a = plan.plan(profiles.Profile("xiamen", {"when_exhausted": "nothing"}), 10)
    b = plan.plan(profiles.Profile("xiamen", {"when_exhausted": "chase", "chase_tiers": "sanhong+duitang"}), 10)
    assert a["mean_rolls"] == b["mean_rolls"] and (a["cdf"] == b["cdf"]).all()


def test_seconds_per_roll_scales_minutes_only():
    a = plan.plan("xiamen", 10, 10)
    b = plan.plan("xiamen", 10, 20)
    assert a["mean_rolls"] == b["mean_rolls"]
    assert abs(b["mean_minutes"] - 2 * a["mean_minutes"]) < 1e-9
    assert a["p_over_within"]["60"] > b["p_over_within"]["60"]


def test_refuses_what_it_cannot_plan():
    with pytest.raises(plan.PlanError, match="--count"):
        # 13.8 million pool states, and down_then_up is beyond the counting model
        plan.plan(profiles.Profile("kiosk", {"when_exhausted": "down_then_up"}), 1)
    # a class that no roll can pay: the game could go on for ever
    prof = profiles.Profile("xiamen", {"biandijin": "as_heiliubo"})
    prof.prizes = {"classes": (("zhuangyuan", "状元", 1, "sihong wuzi wuhong heiliubo liubohong chajinhua"),
                               ("jin", "锦", 1, "biandijin"), ("yixiu", "一秀", 3, "yixiu")),
                   "provisional": "zhuangyuan", "sweep": None}
    with pytest.raises(plan.PlanError, match="for ever.*jin"):
        plan.plan(prof, 4)
    with pytest.raises(ValueError):
        plan.plan("xiamen", 10, 0)


def test_cli_json(capsys):
    assert cli.main(["plan", "--seats", "6", "--count", "yixiu=10", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    for k in ("mean_rolls", "p50_rolls", "p90_rolls", "p99_rolls", "mean_rounds"):
        assert k in r
    assert r["p50_rolls"] <= r["p90_rolls"] <= r["p99_rolls"]
    assert r["classes"]["yixiu"] == 10 and r["seats"] == 6
    assert cli.main(["plan", "--count", "nosuch=3"]) == 2
    assert "nosuch" in capsys.readouterr().err
    assert cli.main(["plan", "--seats", "10", "--within", "40"]) == 0
    out = capsys.readouterr().out
    assert "P(over within   40 min)" in out and "rolls" in out


def _dice_for(r):
    """{(rank, bonus): one roll that gets it}."""
    out = {}
    for d in plan.all_rolls():
        v = r.evaluate(d)
        out.setdefault((v & 15, (v >> 4) & 15), d)
    return out


@pytest.mark.parametrize("name,overrides,counts", [
    ("xiamen", {}, None),
    ("friendly", {"when_exhausted": "down_then_up"}, None),
    ("zhangzhou", {"liuhong_effect": "zhuangyuan_and_duitang"}, None),
    ("tongan", {"when_exhausted": "lower_tier", "duitang_patterns": "two_triples+three_pairs"}, None),
    ("corporate_simple", {"when_exhausted": "lower_tier"}, None),
    ("capped_classes", {}, None),
    ("kiosk", {}, {"zhuangyuan": 1, "duitang": 2, "sanhong": 2, "sijin": 3, "erju": 3, "yixiu": 4}),
])
def test_every_transition_is_the_engines(name, overrides, counts):
    # The planner's pool chain, state by state and outcome by outcome, against
    # a real game.Table started with that pool (counts=) and handed that roll.
    prof = profiles.Profile(name, overrides)
    t0 = game.Table(prof, 3, counts=counts)
    ch = plan.Chain(t0)
    rng = random.Random(1)
    states = list(range(ch.n_states)) if ch.n_states <= 300 else rng.sample(range(ch.n_states), 300)
    tried = 0
    for (rank, bonus), dice in sorted(_dice_for(t0.rules).items()):
        if ch.ends_at_once(rank):
            continue
        nxt = ch.after(rank, bonus)
        for i in states:
            pool, zy = ch.state(i)
            want, want_zy = ch.state(int(nxt[i]))
            full = dict(t0.initial)
            full.update(pool)
            t = game.Table(prof, 3, counts=full)
            if t.kiosk:
                t.next_customer()
                if t.ended:  # no stock at all: the absorbing state
                    assert not any(pool.values())
                    continue
            else:
                t.start_seat(1)
            t.roll(dice)
            got = {c: t.pool[c] for c in pool}
            assert got == want, "%s: pool %r, roll %r -> engine %r, planner %r" % (name, pool, dice, got, want)
            if not t.kiosk and t.provisional:
                assert want_zy == (zy or t.holder != 0)
            tried += 1
    assert tried > 1000


@pytest.mark.parametrize("overrides,counts", [
    ({}, {"zhuangyuan": 1, "duitang": 2, "sanhong": 3, "sijin": 4, "erju": 6, "yixiu": 10}),
    ({"kiosk_shakes": 2}, {"zhuangyuan": 2, "duitang": 0, "sanhong": 2, "sijin": 3, "erju": 0, "yixiu": 5}),
    ({"combined": "off"}, {"zhuangyuan": 1, "duitang": 3, "sanhong": 1, "sijin": 5, "erju": 4, "yixiu": 7}),
    ({"liuhong_effect": "take_all"}, {"zhuangyuan": 1, "duitang": 1, "sanhong": 2, "sijin": 2, "erju": 3, "yixiu": 4}),
])
def test_the_counting_model_is_the_dense_chain(overrides, counts):
    # The large-kiosk path (demand counts, plan.py's header) against the pool
    # chain itself, whose every transition is the engine's (test above).
    ch = plan.Chain(game.Table(profiles.Profile("kiosk", overrides), 1, counts=counts))
    assert ch.by_counts()
    fd, qd, _ = ch.survival(counting=False)
    fc, qc, dropped = ch.survival(counting=True)
    assert qd == qc and dropped < 1e-20
    n = min(len(fd), len(fc))
    assert abs(len(fd) - len(fc)) <= 1
    assert max(abs(a - b) for a, b in zip(fd[:n], fc[:n])) < 1e-11


def test_the_kiosk_preset_plans_and_matches_the_engine():
    # The shipped kiosk (13.8M pool states) by the counting model, against
    # Monte Carlo of the real engine; make bench times it (bench/plan_bench.py).
    p = _check_against_monte_carlo("kiosk", 1, 600)
    assert p["states"] == 3 * 6 * 11 * 21 * 41 * 81 and p["mass_dropped"] < 1e-20


def test_when_each_class_runs_out_matches_the_engine():
    # plan.runout's per-class chances (the prize desk's forecast) against the
    # rolls at which each class emptied in games played on the real engine.
    counts = {"zhuangyuan": 1, "duitang": 2, "sanhong": 2, "sijin": 3, "erju": 4, "yixiu": 6}
    ch = plan.Chain(game.Table("kiosk", 1, counts=counts))
    per = {}
    ch.survival(runout=per)
    seed = _seed()
    rng = random.Random(seed)
    faces = plan.all_rolls()
    games = 1500
    first_empty = {c: [] for c in counts}
    for _ in range(games):
        t = game.Table("kiosk", 1, counts=counts)
        rolls = 0
        seen = {}
        while not t.ended:
            if not t.shakes_left:
                t.next_customer()
                continue
            t.roll(faces[rng.randrange(46656)])
            rolls += 1
            for c in counts:
                if c not in seen and t.pool[c] == 0:
                    seen[c] = rolls
        for c in counts:
            first_empty[c].append(seen[c])
    eps = math.sqrt(math.log(2 / DKW_ALPHA) / (2 * games))
    for c, e in per.items():
        hist = sorted(first_empty[c])
        for m in range(0, max(hist) + 1, 5):
            got = sum(1 for x in hist if x <= m) / games
            want = e[m] if m < len(e) else 1.0
            assert abs(got - want) <= eps, "seed %d: %s empty by roll %d: %.4f vs exact %.4f" % (seed, c, m, got, want)
    r = plan.runout("kiosk", counts)
    assert r["classes"]["yixiu"][0] <= r["all"][0] and r["states"] == ch.n_states


def test_upper_classes_run_out_on_their_own_chain():
    # What plan.runout relies on for a pool too large for the dense table: under
    # lower_tier the classes above the two lowest run out exactly as in a game
    # whose two lowest classes hold nothing.
    counts = {"zhuangyuan": 1, "duitang": 2, "sanhong": 2, "sijin": 3, "erju": 4, "yixiu": 6}
    full = {}
    plan.Chain(game.Table("kiosk", 1, counts=counts)).survival(runout=full)
    upper = {}
    plan.Chain(game.Table("kiosk", 1, counts=dict(counts, erju=0, yixiu=0))).survival(runout=upper)
    for c in ("zhuangyuan", "duitang", "sanhong", "sijin"):
        n = min(len(full[c]), len(upper[c]))
        assert max(abs(a - b) for a, b in zip(full[c][:n], upper[c][:n])) < 1e-12, c
    r = plan.runout("kiosk", {})  # the shipped stock: 13.8M states
    assert r["classes"]["erju"] is None and r["classes"]["yixiu"] is None
    assert r["classes"]["sijin"][0] <= r["all"][0] and r["classes"]["zhuangyuan"][1] <= r["all"][1] + 3


def test_lower_tier_stock_left_depends_only_on_the_demand_counts():
    # The counting model's premise (plan.py's header), on the engine itself: after
    # every roll of random kiosk games, the stock left in classes 0..k is
    # max(0, max over m <= k of (C_m - Z_m)), Z_m = prizes asked of classes 0..m.
    rng = random.Random(7)
    faces = plan.all_rolls()
    counts = {"zhuangyuan": 1, "duitang": 2, "sanhong": 2, "sijin": 3, "erju": 4, "yixiu": 6}
    ch = plan.Chain(game.Table("kiosk", 1, counts=counts))
    checked = 0
    for _ in range(200):
        t = game.Table("kiosk", 1, counts=counts)
        asked = [0] * len(t.classes)
        while not t.ended:
            if not t.shakes_left:
                t.next_customer()
                continue
            out = t.roll(faces[rng.randrange(46656)])
            for r in (out.rank, out.bonus):
                if r and ch.cls_of[r] >= 0:
                    asked[ch.cls_of[r]] += 1
            stock = [t.initial[c] for c in t.classes]
            for k in range(len(t.classes)):
                left = sum(t.pool[c] for c in t.classes[:k + 1])
                want = max([0] + [sum(stock[:m + 1]) - sum(asked[:m + 1]) for m in range(k + 1)])
                assert left == want, (asked, dict(t.pool))
                checked += 1
    assert checked > 5000
