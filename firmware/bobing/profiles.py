# Rule options and named presets: the one place where an option's name, its
# allowed values and its default live (RULES.md §1-7). A profile is a preset
# name plus overrides, validated here so that no module downstream ever sees
# an option value it does not understand.
#
# Kinds of option:
#   a tuple of strings  -> one of them
#   ("+", values)       -> a "+"-joined, non-empty set of them (kept in the
#                          canonical order of `values`)
#   ("int", lo, hi)     -> a whole number in lo..hi

# Prize classes (RULES.md §4, §7) are data: a named spec lists its classes
# highest first as (class id, Chinese name, count, the rank ids it pays).
# A roll's rank (and its combined-award bonus rank) is paid by the class that
# lists it; a rank no class lists wins nothing. "provisional": the class of the
# 状元 that is only handed over at the end of a table game (RULES.md §4), or
# None when every class is first come, first served. "sweep": the class whose
# remaining prizes 状元插金花 (and 六勃红 under zhuangyuan_and_duitang) also
# takes, never to be chased, or None.
_ZY_RANKS = "sihong wuzi wuhong heiliubo biandijin liubohong chajinhua"
PRIZES = {
    # the 会饼 of 63: one class per tier (RULES.md §1)
    "standard": {
        "classes": (
            ("zhuangyuan", "状元", 1, _ZY_RANKS),
            ("duitang", "对堂", 2, "duitang"),
            ("sanhong", "三红", 4, "sanhong"),
            ("sijin", "四进", 8, "sijin"),
            ("erju", "二举", 16, "erju"),
            ("yixiu", "一秀", 32, "yixiu"),
        ),
        "provisional": "zhuangyuan",
        "sweep": "duitang",
    },
    # seed 000 博饼规则(附精美图片): classes by the number of 4s, "先到先得，拿完为止"
    # (the 状元 too). Ranks with no 4 pay nothing; a combined-award bonus pays
    # its own class (四进 with one 4 -> 进士, with two 4s -> 探花); 123456 holds one 4.
    "corporate": {
        "classes": (
            ("zhuangyuan", "状元", 1, "sihong wuhong liubohong chajinhua"),
            ("bangyan", "榜眼", 2, "sanhong"),
            ("tanhua", "探花", 5, "erju"),
            ("jinshi", "进士", 10, "yixiu duitang"),
        ),
        "provisional": None,
        "sweep": None,
    },
    # seed 002 博饼活动规则及获奖登记表: three capped classes; 一秀 pays nothing
    "capped": {
        "classes": (
            ("yideng", "一等奖", 2, _ZY_RANKS),
            ("erdeng", "二等奖", 5, "sanhong duitang"),
            ("sandeng", "三等奖", 15, "sijin erju"),
        ),
        "provisional": None,
        "sweep": None,
    },
    # a mall kiosk: one class per tier, each with stock (set on the bowl's admin menu)
    "kiosk": {
        "classes": (
            ("zhuangyuan", "状元", 2, _ZY_RANKS),
            ("duitang", "对堂", 5, "duitang"),
            ("sanhong", "三红", 10, "sanhong"),
            ("sijin", "四进", 20, "sijin"),
            ("erju", "二举", 40, "erju"),
            ("yixiu", "一秀", 80, "yixiu"),
        ),
        "provisional": None,
        "sweep": None,
    },
}

# name: (default, allowed)
OPTIONS = {
    # RULES.md §1-3: how a roll is ranked
    "zhuangyuan_order": ("chajinhua_top", ("chajinhua_top", "liuhong_top", "liubo_top")),
    "wuzi_key": ("face_then_kicker", ("face_then_kicker", "kicker")),
    "biandijin": ("own_rank", ("own_rank", "as_heiliubo")),
    "duitang_patterns": ("straight", ("+", ("straight", "three_pairs", "two_triples"))),
    "combined": ("on", ("on", "off")),
    # RULES.md §5: a shake whose peak passes this many g counts as a spill (shake.spill_mg)
    "spill_detect": ("off", ("off", "3g", "4g", "6g", "8g", "12g")),
    # RULES.md §4-6: how a table plays (the game engine, bobing/game.py)
    "when_exhausted": ("nothing", ("nothing", "chase", "lower_tier", "down_then_up")),
    "chase_tiers": ("duitang", ("+", ("yixiu", "erju", "sijin", "sanhong", "duitang"))),
    "liuhong_effect": ("take_all", ("take_all", "zhuangyuan_and_duitang")),
    "heiliubo_effect": ("rank", ("rank", "grab")),
    "direction": ("clockwise", ("clockwise", "counterclockwise")),
    "spill_penalty": ("skip_next", ("skip_next", "void_only")),
    "time_limit": (0, ("int", 0, 240)),  # minutes, 0 = none
    # RULES.md §7: which prize classes, and a table or a kiosk
    "prizes": ("standard", ("standard", "corporate", "capped", "kiosk")),
    "mode": ("table", ("table", "kiosk")),
    "kiosk_shakes": (3, ("int", 1, 9)),  # shakes per kiosk customer
}

# Presets only name what differs from the defaults (the defaults ARE xiamen).
PRESETS = {
    "xiamen": {},
    # 同安: only two triples make a 对堂; 123456 is then a plain 一秀.
    "tongan": {"duitang_patterns": "two_triples"},
    # seed 001's friendly custom: 六勃红 takes only the 状元 and the 对堂 left
    # ("一般友好相处，得主只拿状元和对堂"); a spill only voids the roll ("到下轮继续参与").
    "friendly": {"liuhong_effect": "zhuangyuan_and_duitang", "spill_penalty": "void_only"},
    # seed 003 漳州 方法一: an exhausted 对堂 is chased (追) from the nearest holder.
    "zhangzhou": {"when_exhausted": "chase", "chase_tiers": "duitang"},
    # RULES.md §7 corporate simple: 10/5/2/1 by the number of 4s, all first come.
    "corporate_simple": {"prizes": "corporate", "liuhong_effect": "zhuangyuan_and_duitang"},
    # RULES.md §7 capped classes: 3 shakes a person, 15/5/2 caps, down then up
    # when a class is full; one prize per shake.
    "capped_classes": {"prizes": "capped", "mode": "kiosk", "kiosk_shakes": 3,
                       "when_exhausted": "down_then_up", "combined": "off",
                       "spill_penalty": "void_only"},
    # RULES.md §7 mall kiosk: k shakes per customer, every award paid at once
    # from stock with a claim code; an exhausted class pays the next lower one.
    "kiosk": {"prizes": "kiosk", "mode": "kiosk", "kiosk_shakes": 3,
              "when_exhausted": "lower_tier", "spill_penalty": "void_only",
              "liuhong_effect": "zhuangyuan_and_duitang"},
}

DEFAULT_PRESET = "xiamen"


def check_prizes(spec, rank_ids):
    """Raise ValueError unless a prize spec is well formed: unique class ids,
    counts >= 0, each rank paid by at most one class, known rank ids, and
    "provisional"/"sweep" naming classes of the spec (or None)."""
    seen = []
    paid = []
    for c in spec["classes"]:
        cid, zh, n, ranks = c
        if cid in seen:
            raise ValueError("prize class %r is listed twice" % cid)
        seen.append(cid)
        if not isinstance(n, int) or n < 0:
            raise ValueError("prize class %s: count %r must be a whole number >= 0" % (cid, n))
        for r in ranks.split():
            if r not in rank_ids or r == "none":
                raise ValueError("prize class %s: unknown rank %r; ranks are: %s"
                                 % (cid, r, " ".join(rank_ids[1:])))
            if r in paid:
                raise ValueError("prize class %s: rank %s is already paid by another class" % (cid, r))
            paid.append(r)
    for key in ("provisional", "sweep"):
        if spec[key] is not None and spec[key] not in seen:
            raise ValueError("prize spec: %s=%r is not one of its classes %s" % (key, spec[key], seen))


def _allowed_text(allowed):
    if allowed[0] == "+":
        return "a '+'-joined set of " + ", ".join(allowed[1])
    if allowed[0] == "int":
        return "a whole number from %d to %d" % (allowed[1], allowed[2])
    return "one of " + ", ".join(allowed)


def check_option(name, value):
    """Return `value` in canonical form, or raise ValueError saying what is allowed."""
    if name not in OPTIONS:
        raise ValueError("unknown option %r; options are: %s" % (name, ", ".join(sorted(OPTIONS))))
    allowed = OPTIONS[name][1]
    if allowed[0] == "int":
        try:
            v = int(value)
        except (TypeError, ValueError):
            v = None
        if v is None or isinstance(value, bool) or not allowed[1] <= v <= allowed[2]:
            raise ValueError("option %s=%r: must be %s" % (name, value, _allowed_text(allowed)))
        return v
    if not isinstance(value, str):
        raise ValueError("option %s=%r: must be %s" % (name, value, _allowed_text(allowed)))
    if allowed[0] == "+":
        parts = value.split("+")
        for p in parts:
            if p not in allowed[1]:
                raise ValueError("option %s=%r: %r is not allowed; must be %s"
                                 % (name, value, p, _allowed_text(allowed)))
        return "+".join(v for v in allowed[1] if v in parts)
    if value not in allowed:
        raise ValueError("option %s=%r: must be %s" % (name, value, _allowed_text(allowed)))
    return value


def has(options, name, member):
    """True if the '+'-set option `name` holds `member`."""
    return member in options[name].split("+")


class Profile:
    """A preset name plus every option's (validated) value."""

    def __init__(self, name=DEFAULT_PRESET, overrides=None):
        if name not in PRESETS:
            raise ValueError("unknown profile %r; profiles are: %s" % (name, ", ".join(sorted(PRESETS))))
        self.name = name
        opts = {}
        for k in OPTIONS:
            opts[k] = OPTIONS[k][0]
        for k, v in PRESETS[name].items():
            opts[k] = check_option(k, v)
        if overrides:
            for k, v in overrides.items():
                opts[k] = check_option(k, v)
        self.options = opts
        self.prizes = PRIZES[opts["prizes"]]

    def __getitem__(self, name):
        return self.options[name]

    def __repr__(self):
        return "Profile(%r, %r)" % (self.name, self.options)


def parse_setting(text):
    """'OPTION=VALUE' -> (name, value), checked."""
    if "=" not in text:
        raise ValueError("setting %r: write it as OPTION=VALUE" % text)
    name, value = text.split("=", 1)
    name = name.strip()
    return name, check_option(name, value.strip())
