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
}

# Presets only name what differs from the defaults (the defaults ARE xiamen).
PRESETS = {
    "xiamen": {},
    # 同安: only two triples make a 对堂; 123456 is then a plain 一秀.
    "tongan": {"duitang_patterns": "two_triples"},
}

DEFAULT_PRESET = "xiamen"


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
