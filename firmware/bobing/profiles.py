# Rule options and named presets: the one place where an option's name, its
# allowed values and its default live (RULES.md §1-7). A profile is a preset
# name plus overrides, validated here so that no module downstream ever sees
# an option value it does not understand.
#
# The tables below are text, decoded when asked (option(), preset(),
# prize_spec()): as tuples and dicts they took some 16 KB of heap on the
# MicroPython unix port, as text about 2. options(), presets() and prizes()
# build them as dicts for tools and tests, a new one each call. Each table
# starts with a newline, so every line is found as "\n" + its first word.

# Options, one a line: name, default, then what is allowed:
#   v1 v2 ...        one of these values
#   + v1 v2 ...      a "+"-joined, non-empty set of them (kept in this order)
#   int lo hi        a whole number in lo..hi
_OPTIONS = (
    "\n"
    # RULES.md §1-3: how a roll is ranked
    "zhuangyuan_order chajinhua_top chajinhua_top liuhong_top liubo_top\n"
    # RULES.md §2 and §9: the tie-break inside a 状元 sub-rank
    "sihong_key sum sum high_then_low\n"
    "wuzi_key face_then_kicker face_then_kicker kicker kicker_then_face\n"
    "heiliubo_key face face equal\n"
    "zhuangyuan_tiebreak on on off\n"
    "biandijin own_rank own_rank as_heiliubo\n"
    "duitang_patterns straight + straight three_pairs two_triples\n"
    # RULES.md §3 and §9: sijin_only = 四进 keeps its bonus, 五子 with a 4 earns no 一秀
    "combined on on off sijin_only\n"
    # RULES.md §5: a shake whose peak passes this many g counts as a spill (shake.spill_mg)
    "spill_detect off off 3g 4g 6g 8g 12g\n"
    # RULES.md §4-6: how a table plays (the game engine, bobing/game.py)
    "when_exhausted nothing nothing chase lower_tier down_then_up\n"
    "chase_tiers duitang + yixiu erju sijin sanhong duitang\n"
    "liuhong_effect take_all take_all zhuangyuan_and_duitang\n"
    "heiliubo_effect rank rank grab\n"
    "direction clockwise clockwise counterclockwise\n"
    "spill_penalty skip_next skip_next void_only\n"
    "time_limit 0 int 0 240\n"  # minutes, 0 = none
    # RULES.md §7: which prize classes, and a table or a kiosk
    "prizes standard standard corporate capped kiosk\n"
    "mode table table kiosk\n"
    "kiosk_shakes 3 int 1 9\n"  # shakes per kiosk customer
)

# Presets, one a line: the name, then only the OPTION=VALUE that differ from
# the defaults (the defaults ARE xiamen).
_PRESETS = (
    "\n"
    "xiamen\n"
    # 同安: only two triples make a 对堂; 123456 is then a plain 一秀.
    "tongan duitang_patterns=two_triples\n"
    # seed 001's friendly custom: 六勃红 takes only the 状元 and the 对堂 left
    # ("一般友好相处，得主只拿状元和对堂"); a spill only voids the roll ("到下轮继续参与").
    "friendly liuhong_effect=zhuangyuan_and_duitang spill_penalty=void_only\n"
    # seed 003 漳州 方法一: an exhausted 对堂 is chased (追) from the nearest holder.
    "zhangzhou when_exhausted=chase chase_tiers=duitang\n"
    # RULES.md §7 corporate simple: 10/5/2/1 by the number of 4s, all first come.
    "corporate_simple prizes=corporate liuhong_effect=zhuangyuan_and_duitang\n"
    # RULES.md §7 capped classes: 3 shakes a person, 15/5/2 caps, down then up
    # when a class is full; one prize per shake.
    "capped_classes prizes=capped mode=kiosk kiosk_shakes=3 when_exhausted=down_then_up combined=off"
    " spill_penalty=void_only\n"
    # RULES.md §7 mall kiosk: k shakes per customer, every award paid at once
    # from stock with a claim code; an exhausted class pays the next lower one.
    "kiosk prizes=kiosk mode=kiosk kiosk_shakes=3 when_exhausted=lower_tier spill_penalty=void_only"
    " liuhong_effect=zhuangyuan_and_duitang\n"
)

# Prize classes (RULES.md §4, §7) are data: a named spec lists its classes
# highest first. A roll's rank (and its combined-award bonus rank) is paid by
# the class that lists it; a rank no class lists wins nothing. A spec is a
# line "name provisional sweep", then one indented line per class: class id,
# Chinese name, count, the rank ids it pays. "provisional": the class of the
# 状元 that is only handed over at the end of a table game (RULES.md §4), or
# "-" when every class is first come, first served. "sweep": the class whose
# remaining prizes 状元插金花 (and 六勃红 under zhuangyuan_and_duitang) also
# takes, never to be chased, or "-". prize_spec() gives a spec as a dict:
# {"classes": ((id, zh, count, "rank rank ..."), ...), "provisional": id or
# None, "sweep": id or None}.
_PRIZES = (
    "\n"
    # the 会饼 of 63: one class per tier (RULES.md §1)
    "standard zhuangyuan duitang\n"
    " zhuangyuan 状元 1 sihong wuzi wuhong heiliubo biandijin liubohong chajinhua\n"
    " duitang 对堂 2 duitang\n"
    " sanhong 三红 4 sanhong\n"
    " sijin 四进 8 sijin\n"
    " erju 二举 16 erju\n"
    " yixiu 一秀 32 yixiu\n"
    # seed 000 博饼规则(附精美图片): classes by the number of 4s, "先到先得，拿完为止"
    # (the 状元 too). Ranks with no 4 pay nothing; a combined-award bonus pays
    # its own class (四进 with one 4 -> 进士, with two 4s -> 探花); 123456 holds one 4.
    "corporate - -\n"
    " zhuangyuan 状元 1 sihong wuhong liubohong chajinhua\n"
    " bangyan 榜眼 2 sanhong\n"
    " tanhua 探花 5 erju\n"
    " jinshi 进士 10 yixiu duitang\n"
    # seed 002 博饼活动规则及获奖登记表: three capped classes; 一秀 pays nothing
    "capped - -\n"
    " yideng 一等奖 2 sihong wuzi wuhong heiliubo biandijin liubohong chajinhua\n"
    " erdeng 二等奖 5 sanhong duitang\n"
    " sandeng 三等奖 15 sijin erju\n"
    # a mall kiosk: one class per tier, each with stock (set on the bowl's admin menu)
    "kiosk - -\n"
    " zhuangyuan 状元 2 sihong wuzi wuhong heiliubo biandijin liubohong chajinhua\n"
    " duitang 对堂 5 duitang\n"
    " sanhong 三红 10 sanhong\n"
    " sijin 四进 20 sijin\n"
    " erju 二举 40 erju\n"
    " yixiu 一秀 80 yixiu\n"
)

DEFAULT_PRESET = "xiamen"

# The options that change how a roll is ranked (bobing/rules.py reads them);
# the rest are how a table plays.
RANK_OPTIONS = ("zhuangyuan_order", "sihong_key", "wuzi_key", "heiliubo_key", "zhuangyuan_tiebreak",
                "biandijin", "duitang_patterns", "combined")


def _line(text, name, at=0):
    # the words of the line of `text` that starts with the word `name` (from
    # `at` on), or None; only that line is cut out (little garbage on the bowl)
    key = "\n" + name
    at = text.find(key, at)
    while at >= 0:
        end = at + len(key)
        if text[end] == " " or text[end] == "\n":
            return text[at + 1:text.find("\n", end)].split()
        at = text.find(key, end)
    return None


def _firsts(text):
    # the first word of every line of `text` that does not start with a space
    out = []
    at = 0
    while True:
        at = text.find("\n", at) + 1
        if not at or at == len(text):
            return out
        if text[at] != " ":
            out.append(text[at:text.find("\n", at)].split(" ", 1)[0])


def _allowed(w):
    # words of an _OPTIONS line -> (default, allowed) as options() has them
    if w[2] == "int":
        return int(w[1]), ("int", int(w[3]), int(w[4]))
    if w[2] == "+":
        return w[1], ("+", tuple(w[3:]))
    return w[1], tuple(w[2:])


def option_names():
    """Every option's name, in the table's order."""
    return _firsts(_OPTIONS)


def option(name):
    """(default, allowed) of option `name`; ValueError naming the options if unknown."""
    w = _line(_OPTIONS, name)
    if w is None:
        raise ValueError("unknown option %r; options are: %s" % (name, ", ".join(sorted(option_names()))))
    return _allowed(w)


def preset_names():
    """Every preset's name, in the table's order."""
    return _firsts(_PRESETS)


def preset(name):
    """{option: value} a preset sets (only what differs from the defaults), checked;
    ValueError if unknown."""
    w = _line(_PRESETS, name) if isinstance(name, str) else None
    if w is None:
        raise ValueError("unknown profile %r; profiles are: %s" % (name, ", ".join(sorted(preset_names()))))
    out = {}
    for kv in w[1:]:
        k, v = kv.split("=", 1)
        out[k] = check_option(k, v)
    return out


def prize_names():
    """Every prize spec's name, in the table's order."""
    return _firsts(_PRIZES)


def prize_spec(name):
    """The prize spec `name` as a dict (see _PRIZES); ValueError if unknown."""
    w = _line(_PRIZES, name)
    if w is None:
        raise ValueError("unknown prize spec %r; specs are: %s" % (name, ", ".join(prize_names())))
    t = _PRIZES
    at = t.find("\n" + name + " ") + 1
    classes = []
    while True:  # its classes: the indented lines that follow, cut up in place
        at = t.find("\n", at) + 1
        if at == 0 or at == len(t) or t[at] != " ":
            break
        a = t.find(" ", at + 1)
        b = t.find(" ", a + 1)
        c = t.find(" ", b + 1)
        e = t.find("\n", c)
        classes.append((t[at + 1:a], t[a + 1:b], int(t[b + 1:c]), t[c + 1:e]))
    return {"classes": tuple(classes), "provisional": None if w[1] == "-" else w[1],
            "sweep": None if w[2] == "-" else w[2]}


def options():
    """Every option as a new dict {name: (default, allowed)} (tools and tests:
    the firmware asks option())."""
    return dict([(n, option(n)) for n in option_names()])


def presets():
    """Every preset as a new dict {name: its options}."""
    return dict([(n, preset(n)) for n in preset_names()])


def prizes():
    """Every prize spec as a new dict {name: spec}."""
    return dict([(n, prize_spec(n)) for n in prize_names()])



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
    allowed = option(name)[1]
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
        sets = preset(name)
        self.name = name
        opts = {}
        t = _OPTIONS
        at = 1
        while at < len(t):  # every default, in one pass over the table
            a = t.find(" ", at)
            b = t.find(" ", a + 1)
            d = t[a + 1:b]
            opts[t[at:a]] = int(d) if t.startswith("int ", b + 1) else d
            at = t.find("\n", b) + 1
        for k, v in sets.items():
            opts[k] = v
        if overrides:
            for k, v in overrides.items():
                opts[k] = check_option(k, v)
        self.options = opts
        self.prizes = prize_spec(opts["prizes"])

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
