"""What needs no database: the firmware's prize classes in order, and a release schedule as the
promoter writes it (`pace`, `event-demo --pace`): read here, before anything starts."""
import datetime

from bobing import profiles

PER = {"hour": datetime.timedelta(hours=1), "day": datetime.timedelta(days=1)}
PER_WORDS = {"hour": "每小时 an hour", "day": "每天 a day"}
MAX_N = 100000


class PaceError(ValueError):
    """A schedule the desk refuses: str() says what was wrong and what is allowed."""


def class_order():
    """Every prize class the firmware knows, highest first (the order of the
    firmware's prize specs), -> {class: position} (made once; do not change it)."""
    if _ORDER:
        return _ORDER
    order = {}
    for name in profiles.prize_names():
        for cid, _zh, _n, _ranks in profiles.prize_spec(name)["classes"]:
            order.setdefault(cid, len(order))
    _ORDER.update(order)
    return _ORDER


_ORDER = {}


def parse(items):
    """["zhuangyuan=1/day", "yixiu=20/hour", "duitang=off"] -> {class: (n, per) or None (off)}."""
    pos = class_order()
    out = {}
    for item in items:
        c, sep, rest = item.partition("=")
        n, slash, per = rest.partition("/")
        if not sep or not c:
            raise PaceError("%r: 写成 write CLASS=N/hour or CLASS=N/day (e.g. zhuangyuan=1/day), or CLASS=off" % item)
        if c not in pos:
            raise PaceError("%r: 奖项 prize class %s is not one of the firmware's classes (%s)"
                            % (item, c, " ".join(sorted(pos, key=pos.get))))
        if c in out:
            raise PaceError("%r: 奖项 class %s 给了两次 given twice" % (item, c))
        if rest == "off":
            out[c] = None
            continue
        if not slash or per not in PER or not n.isdigit() or not n.isascii() or not 0 <= int(n) <= MAX_N:
            raise PaceError("%r: 写成 write CLASS=N/hour or CLASS=N/day, N a whole number 0..%d (e.g. "
                            "zhuangyuan=1/day), or CLASS=off" % (item, MAX_N))
        out[c] = (int(n), per)
    return out
