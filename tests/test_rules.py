# micropython: yes
# The rules core, exhaustively: every one of the 6**6 rolls, for every preset
# and every value of every rule option. Runs under pytest and on the unix port.
from bobing import profiles, rules
from rules_oracle import oracle

ALL = 6 ** 6


def all_rolls():
    roll = [1] * 6
    for n in range(ALL):
        x = n
        for i in range(6):
            roll[i] = x % 6 + 1
            x //= 6
        yield roll


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
    """Every preset, then every value of every rule option (one at a time), and
    every non-empty set of 对堂 patterns."""
    out = [profiles.Profile(p) for p in sorted(profiles.PRESETS)]
    rule_opts = ("zhuangyuan_order", "wuzi_key", "biandijin", "duitang_patterns", "combined")
    for name in rule_opts:
        allowed = profiles.OPTIONS[name][1]
        if allowed[0] == "+":
            vals = allowed[1]
            values = []
            for mask in range(1, 1 << len(vals)):
                values.append("+".join(vals[i] for i in range(len(vals)) if mask >> i & 1))
        else:
            values = allowed
        for v in values:
            out.append(profiles.Profile("xiamen", {name: v}))
    return out


def test_every_option_value_matches_oracle_on_every_roll():
    for prof in option_variants():
        r = rules.Rules(prof)
        for roll in all_rolls():
            v = r.evaluate(roll)
            rank, bonus, order = oracle(roll, prof.options)
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
    assert len(rules.RANK_ZH) == len(rules.RANK_PINYIN) == len(rules.RANK_EN) == n
    assert rules.RANK_ZH[rules.CHAJINHUA] == "状元插金花"
    assert rules.rank_code("chajinhua") == rules.CHAJINHUA
    assert rules.TIER_IDS[rules.tier(rules.CHAJINHUA)] == "zhuangyuan"
    assert rules.TIER_IDS[rules.tier(rules.DUITANG)] == "duitang"
