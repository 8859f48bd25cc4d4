# 状元王中王 across tables on the event network (firmware/PROTOCOL.md): each
# table bowl reports its table's 状元 (the champion), the bowl that plays the
# final reports the final's state and every roll. The message formats live here,
# one place for both sides (the desk decodes with the decode_* functions what the
# bowl encodes); the device glue that sends them is bowl/net.py (Net.send_news).
#
# Everything is read from what is on flash: the table game is the journal's
# (con.j.table, which only moves when an event is durable), the final is
# final_play's (written before it is shown). The Reporter keeps in RAM what the
# broker acknowledged; after a reboot it sends again, and the desk counts a roll
# once by its identity (bowl, final id, event number) and keeps the newest
# state of the retained topics.
from micropython import const

from bobing import journal, outbox, rules
from bobing.vocab import V_SHAKING

MAX_FINAL_ID = const(0xFFFFFF)
MAX_EVENTS = const(4000)  # final_play.MAX_EVENTS


def table_champion(t):
    """A table's 状元 winner so far (RULES.md §4, §7) -> (seat, dice, rank code), seat 0 =
    none. With a provisional 状元 class (the standard spec) the holder of the 状元
    standing; when every class is first come (the corporate spec), the seat holding
    the 状元 class's prize (its dice are not kept: None, rank 0)."""
    if t.holder:
        return t.holder, t.holder_dice, t.holder_rank
    if t.kiosk or not t.classes:
        return 0, None, 0
    top = t.classes[0]
    if t._prov < 0 and rules.is_zhuangyuan(_lowest_rank(t, 0)):
        for s in range(1, t.seats + 1):
            if t.awards[s][top] > 0:
                return s, None, 0
    return 0, None, 0


def _lowest_rank(t, ci):
    """The lowest rank code class index ci pays (0 if none)."""
    for code in range(len(rules.RANK_IDS)):
        if t._rank_cls[code] == ci:
            return code
    return 0


def _dice(d):
    return "[%d,%d,%d,%d,%d,%d]" % tuple(d)


def champion_payload(game_no, t):
    """The retained champion of a table game: {"v":1,"g":17,"seat":3,"dice":[...],
    "rank":"sihong","end":0}; seat 0 (no 状元 yet, or none at the end) has no dice
    nor rank, a first-come 状元 has no dice."""
    seat, dice, rank = table_champion(t)
    extra = ""
    if seat and dice is not None:
        extra = ',"dice":%s,"rank":"%s"' % (_dice(dice), rules.RANK_IDS[rank])
    return ('{"v":%d,"g":%d,"seat":%d%s,"end":%d}'
            % (outbox.VERSION, game_no, seat, extra, 1 if t.ended else 0)).encode()


def final_payload(fp):
    """The retained state of a final_play.FinalPlay: {"v":1,"id":4711,"n":8,"round":2,
    "turn":3,"ev":12,"win":0}; once won "win":5 with its "dice" and "rank"."""
    f = fp.final
    extra = ""
    if f.ended:
        extra = ',"dice":%s,"rank":"%s"' % (_dice(f.winner_dice), rules.RANK_IDS[f.winner_rank])
    return ('{"v":%d,"id":%d,"n":%d,"round":%d,"turn":%d,"ev":%d,"win":%d%s}'
            % (outbox.VERSION, fp.fid, fp.players, f.round, f.turn, len(fp.events), f.winner, extra)).encode()


def roll_payload(fp, i):
    """Event i (1-based) of a final: {"v":1,"id":4711,"i":7,"k":3,"r":2,"dice":[...],
    "rank":"sihong"}, or a spill {"v":1,"id":4711,"i":8,"k":3,"r":2,"spill":1}
    (k: the champion, r: the round)."""
    k, r, dice, rank = fp.log[i - 1]
    if dice is None:
        extra = ',"spill":1'
    else:
        extra = ',"dice":%s,"rank":"%s"' % (_dice(dice), rules.RANK_IDS[rank])
    return ('{"v":%d,"id":%d,"i":%d,"k":%d,"r":%d%s}' % (outbox.VERSION, fp.fid, i, k, r, extra)).encode()


class Reporter:
    """What this bowl still has to tell: next(con) -> (topic, payload, retain, key) or
    None; sent(key) once the broker acknowledged it. Order: the final's events, its
    state, then the table's champion."""

    def __init__(self, event, bowl_id):
        self.event = outbox.check_name("event", event)
        self.bowl_id = outbox.check_name("bowl id", bowl_id)
        self._champ = None  # the champion last acknowledged: (game, seat, dice, ended)
        self._fid = 0  # the final whose events are acknowledged up to _acked
        self._acked = 0
        self._state = None  # the final's state last acknowledged: (id, events)

    def _topic(self, leaf):
        return outbox.topic(self.event, self.bowl_id, leaf)

    def next(self, con):
        fp = con.final
        if fp is not None:
            acked = self._acked if fp.fid == self._fid else 0
            if acked < len(fp.events):
                i = acked + 1
                return self._topic("finalroll"), roll_payload(fp, i), False, ("roll", fp.fid, i)
            key = (fp.fid, len(fp.events))
            if key != self._state:
                return self._topic("final"), final_payload(fp), True, ("final", key)
        j = con.j
        if j is not None and j.failed is None and not j.table.kiosk:
            t = j.table
            seat, dice, _rank = table_champion(t)
            key = (j.game_id, seat, dice, t.ended)
            if key != self._champ:
                return self._topic("champion"), champion_payload(j.game_id, t), True, ("champion", key)
        return None

    def sent(self, key):
        if key[0] == "roll":
            self._fid, self._acked = key[1], key[2]
        elif key[0] == "final":
            self._state = key[1]
        else:
            self._champ = key[1]


def busy(con):
    """True while somebody shakes (a table game's or the final's): nothing is sent then."""
    return con.stage == V_SHAKING  # (under V_FINAL: the final's phase)


# ---- the desk's side -------------------------------------------------------------

def _dice_field(d, need):
    x = d.get("dice")
    if x is None and not need:
        return None
    if not isinstance(x, list) or len(x) != 6:
        raise ValueError("field 'dice'=%r: a list of six faces 1..6" % (x,))
    for v in x:
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            raise ValueError("field 'dice'=%r: a list of six faces 1..6" % (x,))
    return x


def _rank_field(d):
    r = d.get("rank")
    if r not in rules.RANK_IDS:
        raise ValueError("field 'rank'=%r: one of %s" % (r, " ".join(rules.RANK_IDS)))
    return r


def decode_champion(event, topic_b, payload):
    """A champion message -> (bowl id, {"g", "seat", "dice" (list or None), "rank" (or
    None), "end" (0/1)}). ValueError saying what was wrong otherwise."""
    bowl_id, d = outbox.message(event, topic_b, payload, "champion")
    out = {"g": outbox.int_field(d, "g", 1, journal.MAX_GAME_ID), "seat": outbox.int_field(d, "seat", 0, 64),
           "end": outbox.int_field(d, "end", 0, 1), "dice": None, "rank": None}
    if out["seat"]:
        out["dice"] = _dice_field(d, False)
        if out["dice"] is not None:
            out["rank"] = _rank_field(d)
    return bowl_id, out


def decode_final(event, topic_b, payload):
    """A final's state -> (bowl id, {"id", "n", "round", "turn", "ev", "win", "dice",
    "rank"}); ValueError otherwise."""
    bowl_id, d = outbox.message(event, topic_b, payload, "final")
    n = outbox.int_field(d, "n", 2, 64)
    out = {"id": outbox.int_field(d, "id", 1, MAX_FINAL_ID), "n": n, "round": outbox.int_field(d, "round", 1, 0xFFFFFF),
           "turn": outbox.int_field(d, "turn", 0, n), "ev": outbox.int_field(d, "ev", 0, MAX_EVENTS),
           "win": outbox.int_field(d, "win", 0, n), "dice": None, "rank": None}
    if out["win"]:
        out["dice"] = _dice_field(d, True)
        out["rank"] = _rank_field(d)
    return bowl_id, out


def decode_roll(event, topic_b, payload):
    """A final's event -> (bowl id, {"id", "i", "k", "r", "dice" (None: a spill),
    "rank"}); ValueError otherwise."""
    bowl_id, d = outbox.message(event, topic_b, payload, "finalroll")
    out = {"id": outbox.int_field(d, "id", 1, MAX_FINAL_ID), "i": outbox.int_field(d, "i", 1, MAX_EVENTS),
           "k": outbox.int_field(d, "k", 1, 64), "r": outbox.int_field(d, "r", 1, 0xFFFFFF), "dice": None, "rank": None}
    if d.get("spill") != 1:
        out["dice"] = _dice_field(d, True)
        out["rank"] = _rank_field(d)
    return bowl_id, out
