# micropython: yes
# The rules core, exhaustively: every one of the 6**6 rolls, for every preset
# and every value of every rule option. Runs under pytest and on the unix port.
from array import array

from bobing import profiles, rules
from rules_oracle import oracle

ALL = 6 ** 6


def all_rolls():
    """Every roll, as one list changed in place: roll n's die i is digit i of n in base 6, plus 1
    (an odometer, die 0 fastest: a carry only every sixth roll)."""
    roll = [1] * 6
    for _ in range(ALL):
        yield roll
        i = 0
        while i < 6 and roll[i] == 6:
            roll[i] = 1
            i += 1
        if i < 6:
            roll[i] += 1


# RULES.md §8: exact counts, default profile.
EXPECTED_DEFAULT = {
    "none": 14300, "yixiu": 17400, "erju": 9300, "sijin": 1875, "sanhong": 2500,
    "duitang": 720, "sihong": 360, "wuzi": 150, "wuhong": 30, "heiliubo": 4,
    "biandijin": 1, "liubohong": 1, "chajinhua": 15,
}


def counts(r):
    c = {}
    for roll in all_rolls():
        k = rules.RANK_IDS[rules.rank_of(r.evaluate(roll))]
        c[k] = c.get(k, 0) + 1
    return c


def test_default_counts_match_rules_md():
    assert counts(rules.Rules()) == EXPECTED_DEFAULT


def test_tongan_counts():
    # 同安: two triples (none of them 444) are 对堂: C(5,2) face pairs x 6!/(3!3!) = 200;
    # 123456 falls back to 一秀 (+720), and those 200 were 'none' before.
    c = counts(rules.Rules("tongan"))
    exp = dict(EXPECTED_DEFAULT)
    exp["duitang"] = 200
    exp["yixiu"] += 720
    exp["none"] -= 200
    assert c == exp


def test_as_heiliubo_counts():
    c = counts(rules.Rules(profiles.Profile("xiamen", {"biandijin": "as_heiliubo"})))
    exp = dict(EXPECTED_DEFAULT)
    del exp["biandijin"]
    exp["heiliubo"] = 5
    assert c == exp


def test_three_pairs_counts():
    # three faces twice each: C(6,3) x 6!/(2!2!2!) = 20 x 90 = 1800; those holding 44 were 二举
    # (C(5,2) x 90 = 900), the rest were 'none' (900).
    c = counts(rules.Rules(profiles.Profile("xiamen", {"duitang_patterns": "straight+three_pairs"})))
    exp = dict(EXPECTED_DEFAULT)
    exp["duitang"] += 1800
    exp["erju"] -= 900
    exp["none"] -= 900
    assert c == exp


def option_variants():
    """Every preset, then every value of every ranking option (one at a time),
    every non-empty set of 对堂 patterns, and combinations where options meet."""
    out = [profiles.Profile(p) for p in sorted(profiles.presets())]
    for name in profiles.RANK_OPTIONS:
        allowed = profiles.options()[name][1]
        if allowed[0] == "+":
            vals = allowed[1]
            values = []
            for mask in range(1, 1 << len(vals)):
                values.append("+".join(vals[i] for i in range(len(vals)) if mask >> i & 1))
        else:
            values = allowed
        for v in values:
            out.append(profiles.Profile("xiamen", {name: v}))
    # where options meet: every six-of-a-kind equal with 遍地锦 as one of them; no
    # tie-break under another 状元 order and a 五子 key that would otherwise decide
    for combo in ({"heiliubo_key": "equal", "biandijin": "as_heiliubo"},
                  {"zhuangyuan_tiebreak": "off", "zhuangyuan_order": "liubo_top", "wuzi_key": "kicker_then_face",
                   "sihong_key": "high_then_low", "biandijin": "as_heiliubo"},
                  {"combined": "sijin_only", "sihong_key": "high_then_low", "heiliubo_key": "equal"}):
        out.append(profiles.Profile("xiamen", combo))
    return out


def dice_sets():
    """The 462 sets of six dice (faces sorted) and, in all_rolls() order, each roll's set:
    -> (sets, array of set indices). The oracle reads a roll only as sorted(dice) (its first
    line), so its answer for a set is its answer for every order of it: asked once a set, not
    once a roll (the firmware still evaluates every one of the 6**6 rolls)."""
    index, sets = {}, []
    of = array("H", bytes(2 * ALL))  # one allocation (growing it in steps fragments the heap)
    for n, roll in enumerate(all_rolls()):
        s = tuple(sorted(roll))
        i = index.get(s)
        if i is None:
            i = index[s] = len(sets)
            sets.append(s)
        of[n] = i
    return sets, of


def test_every_option_value_matches_oracle_on_every_roll():
    sets, of = dice_sets()
    assert len(sets) == 462 and len(of) == ALL  # C(6 + 6 - 1, 6) sets: every one reached
    for prof in option_variants():
        r = rules.Rules(prof)
        answers = [oracle(list(s), prof.options) for s in sets]
        for n, roll in enumerate(all_rolls()):
            v = r.evaluate(roll)
            rank, bonus, order = answers[of[n]]
            got = rules.RANK_IDS[rules.rank_of(v)]
            b = rules.bonus_of(v)
            got_bonus = [rules.RANK_IDS[b]] if b else []
            parts = rules.key_parts(rules.key_of(v))
            assert (got, got_bonus) == (rank, bonus), (prof, roll, got, got_bonus, rank, bonus)
            # the order key compares exactly as the oracle's tuple (pad it to 3)
            assert tuple(parts) == tuple(order) + (0,) * (3 - len(order)), (prof, roll, parts, order)


def test_zhuangyuan_order_tables():
    # RULES.md §2, one example roll per sub-rank, lowest to highest.
    ex = {"sihong": [4, 4, 4, 4, 6, 6], "wuzi": [6, 6, 6, 6, 6, 5], "wuhong": [4, 4, 4, 4, 4, 6],
          "heiliubo": [6, 6, 6, 6, 6, 6], "biandijin": [1] * 6, "liubohong": [4] * 6,
          "chajinhua": [4, 4, 4, 4, 1, 1]}
    tables = {
        "chajinhua_top": ["sihong", "wuzi", "wuhong", "heiliubo", "biandijin", "liubohong", "chajinhua"],
        "liuhong_top": ["sihong", "wuzi", "wuhong", "heiliubo", "biandijin", "chajinhua", "liubohong"],
        "liubo_top": ["sihong", "wuzi", "wuhong", "chajinhua", "heiliubo", "biandijin", "liubohong"],
    }
    best_below = rules.Rules().evaluate([1, 2, 3, 4, 5, 6]) >> 8
    for name, table in tables.items():
        r = rules.Rules(profiles.Profile("xiamen", {"zhuangyuan_order": name}))
        keys = [r.evaluate(ex[k]) >> 8 for k in table]
        assert keys == sorted(keys) and len(set(keys)) == len(keys), (name, keys)
        assert keys[0] > best_below


def test_tie_breaks():
    r = rules.Rules()
    k = lambda d: r.evaluate(d) >> 8
    # 四红: the sum of the other two, 带12最大, 带3最小; equal sums are equal
    assert k([4, 4, 4, 4, 6, 6]) > k([4, 4, 4, 4, 5, 6]) > k([4, 4, 4, 4, 1, 2])
    assert k([4, 4, 4, 4, 3, 5]) == k([4, 4, 4, 4, 2, 6])
    # 五子: face first, then the sixth die (a 4 kicker counts as 4)
    assert k([6, 6, 6, 6, 6, 1]) > k([5, 5, 5, 5, 5, 6]) > k([5, 5, 5, 5, 5, 4]) > k([5, 5, 5, 5, 5, 3])
    rk = rules.Rules(profiles.Profile("xiamen", {"wuzi_key": "kicker"}))
    assert rk.evaluate([1, 1, 1, 1, 1, 6]) >> 8 > rk.evaluate([6, 6, 6, 6, 6, 5]) >> 8
    assert rk.evaluate([1, 1, 1, 1, 1, 6]) >> 8 == rk.evaluate([2, 2, 2, 2, 2, 6]) >> 8
    # 五红: the sixth die, 6>5>3>2>1
    assert k([4, 4, 4, 4, 4, 6]) > k([4, 4, 4, 4, 4, 5]) > k([4, 4, 4, 4, 4, 3]) > k([4, 4, 4, 4, 4, 1])
    # 黑六勃: the face
    assert k([6] * 6) > k([5] * 6) > k([3] * 6) > k([2] * 6)


def test_combined_awards():
    r = rules.Rules()
    b = lambda d: rules.RANK_IDS[rules.bonus_of(r.evaluate(d))]
    assert b([5, 5, 5, 5, 5, 4]) == "yixiu"
    assert b([2, 2, 2, 2, 4, 4]) == "erju"
    assert b([2, 2, 2, 2, 4, 1]) == "yixiu"
    assert b([1, 2, 3, 4, 5, 6]) == "none"
    off = rules.Rules(profiles.Profile("xiamen", {"combined": "off"}))
    assert rules.bonus_of(off.evaluate([2, 2, 2, 2, 4, 4])) == 0


def expect_error(fn, arg, *words):
    try:
        fn(arg)
    except ValueError as e:
        msg = str(e)
        for w in words:
            assert w in msg, (msg, w)
        return
    raise AssertionError("no error for %r" % (arg,))


def test_bad_rolls_are_clear_errors():
    r = rules.Rules()
    expect_error(r.score, [1, 2, 3], "six dice", "3")
    expect_error(r.score, [1, 2, 3, 4, 5, 7], "1..6", "7")
    expect_error(r.score, [0, 2, 3, 4, 5, 6], "1..6")
    expect_error(r.score, "444411", "1..6")
    expect_error(r.score, None, "six dice")
    expect_error(rules.parse_roll, "44441", "six dice")
    expect_error(rules.parse_roll, "44441x", "not a face")
    expect_error(rules.parse_roll, "", "empty")
    assert rules.parse_roll("4 4 4,4 1 1") == [4, 4, 4, 4, 1, 1]
    assert rules.parse_roll(" 123456 ") == [1, 2, 3, 4, 5, 6]


def test_bad_options_are_clear_errors():
    expect_error(lambda v: profiles.Profile("xiamen", {"nope": "x"}), None, "unknown option", "zhuangyuan_order")
    expect_error(lambda v: profiles.Profile("xiamen", {"wuzi_key": "x"}), None, "wuzi_key", "face_then_kicker")
    expect_error(lambda v: profiles.Profile("xiamen", {"duitang_patterns": "straight+x"}), None, "three_pairs")
    expect_error(lambda v: profiles.Profile("nowhere"), None, "unknown profile", "xiamen")
    expect_error(profiles.parse_setting, "combined", "OPTION=VALUE")
    assert profiles.parse_setting("duitang_patterns=two_triples+straight") == (
        "duitang_patterns", "straight+two_triples")


def test_names_for_every_rank():
    n = len(rules.RANK_IDS)
    assert n == 13
    assert len(rules.rank_names("zh")) == len(rules.rank_names("pinyin")) == len(rules.rank_names("en")) == n
    assert rules.rank_names("zh")[rules.CHAJINHUA] == "状元插金花"
    assert rules.rank_code("chajinhua") == rules.CHAJINHUA
    assert rules.TIER_IDS[rules.tier(rules.CHAJINHUA)] == "zhuangyuan"
    assert rules.TIER_IDS[rules.tier(rules.DUITANG)] == "duitang"


# ---- RULES.md §9's variants ------------------------------------------------------

ZY_IDS = ("sihong", "wuzi", "wuhong", "heiliubo", "biandijin", "liubohong", "chajinhua")


def census(r):
    """One pass over every roll: rolls per rank, bonuses per rank id, and per
    rank the number of rolls under each order key."""
    ranks, bonus, keys = {}, {}, {}
    for roll in all_rolls():
        v = r.evaluate(roll)
        k = rules.RANK_IDS[rules.rank_of(v)]
        ranks[k] = ranks.get(k, 0) + 1
        b = rules.RANK_IDS[rules.bonus_of(v)]
        bonus[b] = bonus.get(b, 0) + 1
        per = keys.setdefault(k, {})
        key = rules.key_of(v)
        per[key] = per.get(key, 0) + 1
    return ranks, bonus, keys


def key_sizes(keys, rank):
    """How many rolls share each of the rank's keys, as a sorted list."""
    return sorted(keys[rank].values())


def ranks_in_key_order(keys):
    """The ranks sorted by their keys; each rank's keys must form one block
    (no rank's key falls between two keys of another)."""
    spans = sorted((min(k), max(k), r) for r, k in keys.items())
    for i in range(len(spans) - 1):
        assert spans[i][1] < spans[i + 1][0], (spans[i], spans[i + 1])
    return [r for _, _, r in spans]


DEFAULT_BONUS = {"none": ALL - 705, "yixiu": 630, "erju": 75}  # 五子+4: 30, 四进+4: 600, 四进+44: 75
DEFAULT_RANK_ORDER = ["none", "yixiu", "erju", "sijin", "sanhong", "duitang"] + list(ZY_IDS)


def test_default_census():
    ranks, bonus, keys = census(rules.Rules())
    assert ranks == EXPECTED_DEFAULT and bonus == DEFAULT_BONUS
    assert ranks_in_key_order(keys) == DEFAULT_RANK_ORDER
    # 四红 by the sum 3..12 of the other two (a pair in 15 rolls, two faces in 30): 3 = 1+2 (30),
    # 4 = 1+3, 2+2 (45), 5 = 2+3 (30), 6 = 1+5, 3+3 (45), 7 = 1+6, 2+5 (60), 8 = 2+6, 3+5 (60),
    # 9 = 3+6 (30), 10 = 5+5 (15), 11 = 5+6 (30), 12 = 6+6 (15); 1+1 is 插金花
    assert key_sizes(keys, "sihong") == sorted([30, 45, 30, 45, 60, 60, 30, 15, 30, 15])
    assert key_sizes(keys, "wuzi") == [6] * 25  # 5 faces x 5 other sixth dice, 6 places each
    assert key_sizes(keys, "wuhong") == [6] * 5
    assert key_sizes(keys, "heiliubo") == [1] * 4


def test_sihong_high_then_low():
    ranks, bonus, keys = census(rules.Rules(profiles.Profile("xiamen", {"sihong_key": "high_then_low"})))
    assert ranks == EXPECTED_DEFAULT and bonus == DEFAULT_BONUS
    assert ranks_in_key_order(keys) == DEFAULT_RANK_ORDER
    # every pair of the other two its own key: 4 doubles (15 rolls; 11 is 插金花), 10 mixed (30)
    assert key_sizes(keys, "sihong") == [15] * 4 + [30] * 10
    r = rules.Rules(profiles.Profile("xiamen", {"sihong_key": "high_then_low"}))
    k = lambda d: r.evaluate(d) >> 8
    assert k([4, 4, 4, 4, 6, 3]) > k([4, 4, 4, 4, 5, 5]) > k([4, 4, 4, 4, 5, 3]) > k([4, 4, 4, 4, 5, 2])
    assert k([4, 4, 4, 4, 6, 6]) > k([4, 4, 4, 4, 6, 5]) and k([4, 4, 4, 4, 3, 6]) == k([4, 4, 4, 4, 6, 3])
    assert k([4, 4, 4, 4, 2, 1]) < k([4, 4, 4, 4, 2, 2]) < k([4, 4, 4, 4, 3, 1])
    d = rules.Rules()  # the default still adds them up
    assert d.evaluate([4, 4, 4, 4, 5, 5]) >> 8 > d.evaluate([4, 4, 4, 4, 6, 3]) >> 8


def test_wuzi_kicker_then_face():
    prof = profiles.Profile("xiamen", {"wuzi_key": "kicker_then_face"})
    ranks, bonus, keys = census(rules.Rules(prof))
    assert ranks == EXPECTED_DEFAULT and bonus == DEFAULT_BONUS
    assert ranks_in_key_order(keys) == DEFAULT_RANK_ORDER
    assert key_sizes(keys, "wuzi") == [6] * 25
    r = rules.Rules(prof)
    k = lambda d: r.evaluate(d) >> 8
    assert k([2, 2, 2, 2, 2, 6]) > k([6, 6, 6, 6, 6, 5])  # RULES.md §9's examples
    assert k([6, 6, 6, 6, 6, 3]) > k([2, 2, 2, 2, 2, 3])
    assert k([1, 1, 1, 1, 1, 4]) > k([6, 6, 6, 6, 6, 3])  # a 4 as the sixth die counts as 4
    d = rules.Rules()
    assert d.evaluate([6, 6, 6, 6, 6, 5]) >> 8 > d.evaluate([2, 2, 2, 2, 2, 6]) >> 8
    _, _, kk = census(rules.Rules(profiles.Profile("xiamen", {"wuzi_key": "kicker"})))
    assert key_sizes(kk, "wuzi") == [24] * 5 + [30]  # sixth die 1,2,3,5,6: 4 faces x 6 places; a 4: 5 x 6


def test_heiliubo_equal():
    prof = profiles.Profile("xiamen", {"heiliubo_key": "equal"})
    ranks, bonus, keys = census(rules.Rules(prof))
    assert ranks == EXPECTED_DEFAULT and bonus == DEFAULT_BONUS
    assert ranks_in_key_order(keys) == DEFAULT_RANK_ORDER
    assert key_sizes(keys, "heiliubo") == [4]  # 222222 333333 555555 666666 alike
    assert key_sizes(keys, "wuzi") == [6] * 25  # other sub-ranks keep their tie-breaks
    r = rules.Rules(prof)
    assert r.evaluate([2] * 6) >> 8 == r.evaluate([6] * 6) >> 8 < r.evaluate([1] * 6) >> 8  # 遍地锦 its own rank
    # 遍地锦 counted as a 黑六勃 is one of them too
    prof = profiles.Profile("xiamen", {"heiliubo_key": "equal", "biandijin": "as_heiliubo"})
    ranks, _, keys = census(rules.Rules(prof))
    assert ranks["heiliubo"] == 5 and "biandijin" not in ranks and key_sizes(keys, "heiliubo") == [5]


def test_zhuangyuan_tiebreak_off():
    prof = profiles.Profile("xiamen", {"zhuangyuan_tiebreak": "off"})
    ranks, bonus, keys = census(rules.Rules(prof))
    assert ranks == EXPECTED_DEFAULT and bonus == DEFAULT_BONUS
    assert ranks_in_key_order(keys) == DEFAULT_RANK_ORDER
    for zy in ZY_IDS:  # one key per sub-rank: every roll of it is equal
        assert key_sizes(keys, zy) == [EXPECTED_DEFAULT[zy]], zy
    for below in ("yixiu", "erju", "sijin", "sanhong", "duitang", "none"):
        assert len(keys[below]) == 1
    r = rules.Rules(prof)
    k = lambda d: r.evaluate(d) >> 8
    assert k([4, 4, 4, 4, 6, 6]) == k([4, 4, 4, 4, 1, 2])
    assert k([6, 6, 6, 6, 6, 5]) == k([1, 1, 1, 1, 1, 2]) > k([4, 4, 4, 4, 6, 6])  # sub-ranks still rank
    assert k([4, 4, 4, 4, 4, 6]) == k([4, 4, 4, 4, 4, 1])
    assert k([6] * 6) == k([2] * 6)


def test_combined_sijin_only():
    prof = profiles.Profile("xiamen", {"combined": "sijin_only"})
    ranks, bonus, keys = census(rules.Rules(prof))
    assert ranks == EXPECTED_DEFAULT
    assert bonus == {"none": ALL - 675, "yixiu": 600, "erju": 75}  # the 30 五子 with a 4 lose their 一秀
    r = rules.Rules(prof)
    b = lambda d: rules.RANK_IDS[rules.bonus_of(r.evaluate(d))]
    assert b([5, 5, 5, 5, 5, 4]) == "none" and b([1, 1, 1, 1, 4, 1]) == "none"
    assert b([2, 2, 2, 2, 4, 4]) == "erju" and b([2, 2, 2, 2, 4, 1]) == "yixiu"
    off = census(rules.Rules(profiles.Profile("xiamen", {"combined": "off"})))[1]
    assert off == {"none": ALL}


def test_defaults_of_the_new_options():
    # the defaults are RULES.md §1-3 as they were: every existing test and golden file stands
    for name, default in (("sihong_key", "sum"), ("wuzi_key", "face_then_kicker"), ("heiliubo_key", "face"),
                          ("zhuangyuan_tiebreak", "on"), ("combined", "on")):
        assert profiles.options()[name][0] == default
        assert profiles.Profile()[name] == default
    for p in profiles.presets().values():
        for name in ("sihong_key", "heiliubo_key", "zhuangyuan_tiebreak"):
            assert name not in p
