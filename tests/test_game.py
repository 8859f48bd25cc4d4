"""The game engine (firmware/bobing/game.py): random games under every option
checked against the independent reference and the invariants (hypothesis),
then the contract, the errors and the corners one at a time."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import game_check as gc
from bobing import claim, final, game, profiles, rules


def _option_strategy(name):
    allowed = profiles.OPTIONS[name][1]
    if name == "time_limit":
        return st.sampled_from([0, 30])
    if allowed[0] == "int":
        return st.integers(allowed[1], min(allowed[2], allowed[1] + 5))
    if allowed[0] == "+":
        vals = allowed[1]
        return st.sets(st.sampled_from(vals), min_size=1).map(lambda s: "+".join(v for v in vals if v in s))
    return st.sampled_from(allowed)


OPTION_NAMES = gc.GAME_OPTIONS + profiles.RANK_OPTIONS
OPTIONS = st.fixed_dictionaries(dict((n, _option_strategy(n)) for n in OPTION_NAMES))


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seats=st.integers(1, 12),
       counts=st.one_of(st.none(), st.lists(st.integers(0, 3), min_size=6, max_size=6)),
       seed=st.integers(0, 2 ** 32 - 1), p_spill=st.integers(0, 250), p_special=st.integers(0, 600),
       p_timeup=st.integers(0, 25), secret=st.sampled_from([None, b"bowl-secret-16byte"]))
def test_random_games_keep_every_invariant(options, seats, counts, seed, p_spill, p_special, p_timeup, secret):
    spec = profiles.PRIZES[options["prizes"]]
    if counts is not None:
        counts = dict(zip([c[0] for c in spec["classes"]], counts))
    t, ref = gc.new_pair(options, seats, counts, secret)
    gc.play(t, ref, random.Random(seed).randrange, p_spill, p_special, p_timeup, secret=secret)


@settings(max_examples=100, deadline=None)
@given(preset=st.sampled_from(sorted(profiles.PRESETS)), seats=st.integers(2, 12),
       seed=st.integers(0, 2 ** 32 - 1), p_special=st.integers(0, 40))
def test_whole_games_of_every_preset(preset, seats, seed, p_special):
    # full prize counts, mostly fair dice: long games that run to their real end
    prof = profiles.Profile(preset)
    t, ref = gc.new_pair(dict(prof.options), seats)
    n = gc.play(t, ref, random.Random(seed).randrange, 20, p_special, 0, max_events=5000)
    assert t.ended, (preset, n, t.pool)


# ---- the contract ---------------------------------------------------------------

def test_contract_surface():
    assert (game.EV_START_SEAT, game.EV_START_TOTAL, game.EV_ROLL, game.EV_SPILL,
            game.EV_TIMEUP, game.EV_CUSTOMER) == (1, 2, 3, 4, 5, 6)
    t = game.Table("xiamen", 10)
    assert t.classes == ("zhuangyuan", "duitang", "sanhong", "sijin", "erju", "yixiu")
    assert [t.initial[c] for c in t.classes] == [1, 2, 4, 8, 16, 32]
    assert t.class_zh["zhuangyuan"] == "状元" and t.class_zh["duitang"] == "对堂"
    assert t.pool == t.initial and t.pool is not t.initial
    assert sorted(t.awards) == list(range(1, 11))
    assert all(sum(a.values()) == 0 for a in t.awards.values())
    assert (t.turn, t.round, t.started, t.ended, t.reason, t.holder, t.events) == (0, 0, False, False, None, 0, 0)
    assert isinstance(t.rules, rules.Rules) and t.seats == 10 and t.provisional == "zhuangyuan"
    out = t.start_seat(4)
    assert (out.kind, out.seat, t.turn, t.round, t.started, t.events) == (game.EV_START_SEAT, 4, 4, 1, True, 1)
    out = t.roll(bytes([4, 4, 4, 4, 1, 1]))
    assert out.kind == game.EV_ROLL and out.seat == 4 and out.dice == (4, 4, 4, 4, 1, 1)
    assert out.rank == rules.CHAJINHUA and out.bonus == 0
    assert out.won == [("duitang", 0), ("duitang", 0)]  # 插金花 sweeps the 对堂
    assert (out.holder_before, out.holder_after, t.holder) == (0, 4, 4)
    assert t.holder_dice == (4, 4, 4, 4, 1, 1) and t.holder_rank == rules.CHAJINHUA
    assert out.skipped == [] and out.claims == [] and not out.ended and out.reason is None
    assert t.turn == 5 and t.events == 2
    out = t.roll([5, 5, 5, 5, 5, 4])  # 五子 with a 4: the 一秀 at once, the 状元 only stands
    assert out.rank == rules.WUZI and out.bonus == rules.YIXIU and out.won == [("yixiu", 0)]
    assert t.holder == 4 and t.standing(5) == ((5, 5, 5, 5, 5, 4), rules.WUZI)
    assert t.class_of(rules.SIHONG) == "zhuangyuan" and t.class_of(rules.NONE) is None
    assert "roll" in repr(out)


def test_every_preset_has_valid_prizes_and_builds():
    for name in sorted(profiles.PRESETS):
        prof = profiles.Profile(name)
        profiles.check_prizes(prof.prizes, rules.RANK_IDS)
        t = game.Table(prof, 6)
        assert len(t.classes) >= 3 and all(t.class_zh[c] for c in t.classes)
    for spec in profiles.PRIZES.values():
        profiles.check_prizes(spec, rules.RANK_IDS)
    # RULES.md §7 counts
    corp = game.Table("corporate_simple", 10)
    assert [(c, corp.initial[c]) for c in corp.classes] == [
        ("zhuangyuan", 1), ("bangyan", 2), ("tanhua", 5), ("jinshi", 10)]
    capped = game.Table("capped_classes", 1)
    assert [(c, capped.class_zh[c], capped.initial[c]) for c in capped.classes] == [
        ("yideng", "一等奖", 2), ("erdeng", "二等奖", 5), ("sandeng", "三等奖", 15)]
    assert capped.kiosk and capped.kiosk_shakes == 3 and capped.provisional is None
    assert sum(game.Table("xiamen").initial.values()) == 63


def test_bad_prize_specs_are_refused():
    good = profiles.PRIZES["standard"]
    bad = [
        dict(good, classes=good["classes"] + (("yixiu", "一秀", 1, ""),)),
        dict(good, classes=(("a", "甲", -1, "yixiu"),), provisional=None, sweep=None),
        dict(good, classes=(("a", "甲", 1, "yixiu"), ("b", "乙", 1, "yixiu")), provisional=None, sweep=None),
        dict(good, classes=(("a", "甲", 1, "nope"),), provisional=None, sweep=None),
        dict(good, sweep="nope"),
    ]
    for spec in bad:
        with pytest.raises(ValueError):
            profiles.check_prizes(spec, rules.RANK_IDS)


def test_game_options_are_validated():
    with pytest.raises(ValueError, match="when_exhausted"):
        profiles.Profile("xiamen", {"when_exhausted": "never"})
    with pytest.raises(ValueError, match="zhuangyuan"):
        profiles.Profile("xiamen", {"chase_tiers": "zhuangyuan"})  # the 状元 is never chased
    with pytest.raises(ValueError, match="0 to 240"):
        profiles.Profile("xiamen", {"time_limit": "-5"})
    assert profiles.Profile("xiamen", {"time_limit": "30"})["time_limit"] == 30
    assert profiles.parse_setting("chase_tiers=duitang+sanhong") == ("chase_tiers", "sanhong+duitang")


# ---- start and turn order --------------------------------------------------------

@pytest.mark.parametrize("seats,total,direction,first", [
    (10, 6, "clockwise", 6), (10, 2, "clockwise", 2), (10, 12, "clockwise", 2),  # 1..10 then 1, 2
    (4, 6, "clockwise", 2), (4, 12, "clockwise", 4), (3, 3, "clockwise", 3),
    (10, 3, "counterclockwise", 9),  # 1, 10, 9
    (5, 4, "counterclockwise", 3),  # 1, 5, 4, 3
    (2, 7, "counterclockwise", 1),  # 1, 2, 1, 2, 1, 2, 1
])
def test_start_total_counts_the_roller_first(seats, total, direction, first):
    t = game.Table(profiles.Profile("xiamen", {"direction": direction}), seats)
    out = t.start_total(total)
    assert out.seat == first == t.turn == t.first


def test_turns_go_round_in_the_direction_of_play():
    for direction, want in (("clockwise", [3, 4, 5, 1, 2, 3]), ("counterclockwise", [3, 2, 1, 5, 4, 3])):
        t = game.Table(profiles.Profile("xiamen", {"direction": direction}), 5)
        t.start_seat(3)
        seen = []
        for _ in range(6):
            seen.append(t.roll([1, 2, 3, 5, 6, 6]).seat)
        assert seen == want and t.round == 2


def test_time_up_between_rounds_ends_at_once():
    # the round has just been played out: nothing is left to finish
    t = game.Table(profiles.Profile("xiamen", {"time_limit": 30}), 3)
    t.start_seat(1)
    for _ in range(3):
        t.roll([4, 4, 4, 4, 5, 6] if t.turn == 2 else [1, 2, 3, 5, 6, 6])
    out = t.time_up()
    assert out.ended and t.reason == "time_up" and out.zhuangyuan_to == 2 and t.awards[2]["zhuangyuan"] == 1


def test_time_up_twice_changes_nothing_more():
    t = game.Table(profiles.Profile("xiamen", {"time_limit": 30}), 3)
    t.start_seat(1)
    t.roll([1, 2, 3, 5, 6, 6])
    t.time_up()
    t.time_up()
    assert not t.ended
    t.roll([1, 2, 3, 5, 6, 6])
    out = t.roll([1, 2, 3, 5, 6, 6])
    assert out.ended and out.reason == "time_up" and out.zhuangyuan_to == 0
    assert t.pool["zhuangyuan"] == 1  # no 状元 was rolled: the prize stays


def test_everyone_spills():
    t = game.Table("xiamen", 3)
    t.start_seat(1)
    for _ in range(3):
        t.spill()
    # round 2: all three sit out; round 3: seat 1 rolls
    assert t.turn == 1 and t.round == 3
    t2 = game.Table("xiamen", 1)
    t2.start_seat(1)
    out = t2.spill()
    assert out.skipped == [1] and t2.turn == 1 and t2.round == 3


def test_grab_by_biandijin_and_as_heiliubo():
    for opts in ({"heiliubo_effect": "grab"}, {"heiliubo_effect": "grab", "biandijin": "as_heiliubo"}):
        t = game.Table(profiles.Profile("xiamen", opts), 2)
        t.start_seat(1)
        t.roll([4, 4, 4, 4, 6, 6])
        out = t.roll([1, 1, 1, 1, 1, 1])
        assert out.ended and out.reason == "heiliubo_grab" and t.holder == 0 and out.holder_after == 0
        assert t.grabbed["zhuangyuan"] == 1 and sum(t.pool.values()) == 0


def test_take_all_beats_a_standing_chajinhua():
    # RULES.md §4: take_all "the roller takes the 状元 and every prize still in the pool"
    t = game.Table("xiamen", 2)
    t.start_seat(1)
    t.roll([4, 4, 4, 4, 1, 1])
    out = t.roll([4, 4, 4, 4, 4, 4])
    assert out.ended and t.holder == 2 and t.awards[2]["zhuangyuan"] == 1 and t.awards[1]["duitang"] == 2
    assert ("zhuangyuan", 0) in out.won and len(out.won) == 61


def test_chase_outcome_names_the_seat():
    t = game.Table(profiles.Profile("zhangzhou"), 4, counts={"duitang": 1})
    t.start_seat(1)
    t.roll([1, 2, 3, 4, 5, 6])
    t.roll([1, 2, 3, 5, 6, 6])
    out = t.roll([6, 5, 4, 3, 2, 1])
    assert out.seat == 3 and out.won == [("duitang", 1)]
    assert t.awards[1]["duitang"] == 0 and t.awards[3]["duitang"] == 1 and t.chaseable(3, "duitang") == 1


# ---- errors: clear, and they change nothing ----------------------------------------

def snapshot(t):
    return (dict(t.pool), dict((s, dict(a)) for s, a in t.awards.items()), dict(t.grabbed), t.turn, t.round,
            t.started, t.ended, t.reason, t.holder, t.events, t.shakes_left, t.customer)


def refused(t, kind, arg, *words):
    before = snapshot(t)
    with pytest.raises(ValueError) as e:
        t.apply(kind, arg)
    for w in words:
        assert w in str(e.value), (str(e.value), w)
    assert snapshot(t) == before


def test_bad_events_are_clear_errors_and_change_nothing():
    t = game.Table("xiamen", 4)
    refused(t, game.EV_ROLL, [1, 2, 3, 4, 5, 6], "not started", "EV_START_SEAT")
    refused(t, game.EV_SPILL, None, "not started")
    refused(t, game.EV_TIMEUP, None, "not started")
    refused(t, game.EV_START_SEAT, 5, "1..4")
    refused(t, game.EV_START_SEAT, 0, "1..4")
    refused(t, game.EV_START_SEAT, True, "1..4")
    refused(t, game.EV_START_TOTAL, 1, "2..12")
    refused(t, game.EV_START_TOTAL, 13, "2..12")
    refused(t, game.EV_CUSTOMER, None, "kiosk")
    refused(t, 9, None, "unknown event")
    t.start_seat(2)
    refused(t, game.EV_START_SEAT, 1, "already started")
    refused(t, game.EV_START_TOTAL, 5, "already started")
    refused(t, game.EV_ROLL, [1, 2, 3], "six dice")
    refused(t, game.EV_ROLL, [1, 2, 3, 4, 5, 7], "1..6")
    refused(t, game.EV_ROLL, "444411", "1..6")
    refused(t, game.EV_ROLL, None, "six dice")
    refused(t, game.EV_TIMEUP, None, "time_limit")
    t.roll([4, 4, 4, 4, 4, 4])
    assert t.ended
    refused(t, game.EV_ROLL, [1, 2, 3, 4, 5, 6], "over", "liubohong")
    refused(t, game.EV_SPILL, None, "over")


def test_bad_tables_are_refused():
    for seats in (0, 13, "4", None, 2.0):
        with pytest.raises(ValueError, match="seats"):
            game.Table("xiamen", seats)
    with pytest.raises(ValueError, match="nope"):
        game.Table("nope", 4)
    with pytest.raises(ValueError, match="classes are"):
        game.Table("xiamen", 4, counts={"bangyan": 1})
    with pytest.raises(ValueError, match=">= 0"):
        game.Table("xiamen", 4, counts={"yixiu": -1})


# ---- kiosk -------------------------------------------------------------------

def test_kiosk_claims_verify_and_count():
    s = b"sixteen byte key"
    t = game.Table("kiosk", 1, counts={"yixiu": 2, "erju": 1}, bowl_id="MALL-3", secret=s, game_no=4)
    refused(t, game.EV_ROLL, [1, 2, 3, 5, 5, 4], "EV_CUSTOMER")
    refused(t, game.EV_START_SEAT, 1, "kiosk")
    assert t.customer == 0 and not t.started
    out = t.next_customer()
    assert out.customer == 1 and t.turn == 1 and t.shakes_left == 3
    refused(t, game.EV_CUSTOMER, None, "still has 3")
    out = t.roll([1, 2, 3, 5, 5, 4])
    assert out.won == [("yixiu", 0)] and len(out.claims) == 1
    assert claim.verify(s, "MALL-3", 4, 1, "yixiu", out.claims[0])
    out = t.roll([2, 2, 2, 2, 4, 4])  # 四进 (stock 20) + 二举: two prizes, two codes
    assert [w[0] for w in out.won] == ["sijin", "erju"] and len(out.claims) == 2
    assert claim.verify(s, "MALL-3", 4, 2, "sijin", out.claims[0])
    assert claim.verify(s, "MALL-3", 4, 3, "erju", out.claims[1])
    assert not claim.verify(s, "MALL-3", 4, 3, "sijin", out.claims[1])
    assert not claim.verify(s, "MALL-3", 3, 3, "erju", out.claims[1])  # another game's award 3
    out = t.roll([1, 2, 3, 5, 6, 6])
    assert out.won == [] and out.claims == [] and t.turn == 0 and t.award_no == 3
    # no secret: the same game, no codes
    t2 = game.Table("kiosk", 1)
    t2.next_customer()
    assert t2.roll([1, 2, 3, 5, 5, 4]).claims == []
    # a secret under 128 bits, or codes without the game's number: refused at the start,
    # not at the first award in the middle of a roll
    for kw in ({"secret": b"short", "game_no": 1}, {"secret": s}, {"secret": s, "game_no": -1}):
        with pytest.raises(ValueError):
            game.Table("kiosk", 1, bowl_id="MALL-3", **kw)


def test_kiosk_ignores_seats_and_has_no_holder():
    t = game.Table("kiosk", 10)
    assert t.seats == 1 and sorted(t.awards) == [1]
    t.next_customer()
    out = t.roll([4, 4, 4, 4, 5, 6])
    assert out.won == [("zhuangyuan", 0)] and t.holder == 0


# ---- 状元王中王 -------------------------------------------------------------------

def test_final_rounds_until_a_zhuangyuan():
    f = final.Final("xiamen", 3)
    for _ in range(3):
        f.roll([1, 2, 3, 5, 6, 6])
    assert not f.ended and f.round == 2 and f.turn == 1
    f.roll([4, 4, 4, 4, 2, 3])
    f.apply(game.EV_SPILL)  # void: champion 2 rolls again
    assert f.turn == 2
    f.roll([5, 5, 5, 5, 5, 1])
    out = f.roll([1, 2, 3, 4, 5, 6])
    assert out.ended and f.ended and f.winner == 2 and f.winner_rank == rules.WUZI
    assert f.winner_dice == (5, 5, 5, 5, 5, 1)
    with pytest.raises(ValueError, match="over"):
        f.roll([1, 2, 3, 4, 5, 6])


def test_final_exact_ties_roll_again():
    f = final.Final("xiamen", 4)
    f.roll([4, 4, 4, 4, 5, 6])  # 1
    f.roll([4, 4, 4, 4, 3, 1])  # 2: smaller
    f.roll([4, 4, 4, 4, 6, 5])  # 3: the same as 1
    f.roll([1, 1, 2, 2, 3, 5])  # 4
    assert not f.ended and f.contenders == [1, 3] and f.turn == 1 and f.round == 2
    f.roll([1, 2, 3, 5, 6, 6])
    out = f.roll([4, 4, 4, 4, 1, 2])
    assert out.ended and f.winner == 3
    with pytest.raises(ValueError):
        final.Final("xiamen", 1)
    with pytest.raises(ValueError):
        final.Final("xiamen", 3).apply(game.EV_CUSTOMER)
