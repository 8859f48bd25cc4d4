"""Every screen the bowl can show, as named cases: the PNG command, the golden
tests and the benchmark all draw exactly these.

Plain Python that also runs on the MicroPython unix port (the pixel-identity
test and bench/screen_bench.py draw them there, importing this file as
`screen_cases` with host_sim/ on sys.path), so: no CPython-only imports.

CASES is a list of (name, lang, method, args); draw(screen, method, args) draws
one frame. The states are built once, here, so drawing them allocates nothing.
"""
from bobing import rules
from bobing import screen as scr

EV_START_TOTAL = 2
EV_ROLL = 3
EV_SPILL = 4

XIAMEN = (("zhuangyuan", "状元", 1), ("duitang", "对堂", 2), ("sanhong", "三红", 4),
          ("sijin", "四进", 8), ("erju", "二举", 16), ("yixiu", "一秀", 32))
CORPORATE = (("zhuangyuan", "状元", 1), ("bangyan", "榜眼", 2), ("tanhua", "探花", 5), ("jinshi", "进士", 10))
CAPPED = (("yideng", "一等奖", 2), ("erdeng", "二等奖", 5), ("sandeng", "三等奖", 15))


class State:
    """A table's state with the game contract's attribute names."""

    def __init__(self, classes=XIAMEN, seats=10, taken=None, **kw):
        self.seats = seats
        self.classes = tuple(c[0] for c in classes)
        self.class_zh = {}
        self.initial = {}
        self.pool = {}
        for cid, zh, n in classes:
            self.class_zh[cid] = zh
            self.initial[cid] = n
            self.pool[cid] = n - (taken or {}).get(cid, 0)
        self.awards = {}
        self.grabbed = {}
        self.turn = 1
        self.round = 1
        self.started = True
        self.ended = False
        self.reason = None
        self.holder = 0
        self.holder_dice = None
        self.holder_rank = 0
        for k in kw:
            setattr(self, k, kw[k])


class Out:
    """An outcome with the game contract's attribute names."""

    def __init__(self, kind=EV_ROLL, seat=1, dice=None, won=(), holder_before=0, holder_after=0,
                 skipped=(), ended=False, reason=None, claims=()):
        self.kind = kind
        self.seat = seat
        self.dice = tuple(dice) if dice else None
        v = rules.Rules().evaluate(dice) if dice else 0
        self.rank = rules.rank_of(v)
        self.bonus = rules.bonus_of(v)
        self.won = list(won)
        self.holder_before = holder_before
        self.holder_after = holder_after
        self.skipped = list(skipped)
        self.ended = ended
        self.reason = reason
        self.claims = list(claims)


def _cases():
    mid = State(taken={"duitang": 1, "sanhong": 2, "sijin": 3, "erju": 9, "yixiu": 8},
                turn=3, round=2, holder=5, holder_dice=(4, 4, 4, 4, 2, 6), holder_rank=rules.SIHONG)
    after = State(taken={"yixiu": 9, "erju": 4}, turn=4, round=2, holder=5)
    yixiu = Out(seat=3, dice=(4, 2, 3, 5, 6, 6), won=[("yixiu", 0)])
    cjh = Out(seat=3, dice=(4, 1, 4, 4, 1, 4), won=[("duitang", 0), ("duitang", 0)], holder_before=5, holder_after=3)
    spill = Out(kind=EV_SPILL, seat=3, skipped=[3])
    ended = State(taken={"duitang": 2, "sanhong": 4, "sijin": 8, "erju": 16, "yixiu": 32}, ended=True,
                  reason="prizes_out", turn=0, round=9, holder=7, holder_dice=(4, 1, 4, 4, 1, 4),
                  holder_rank=rules.CHAJINHUA)
    return [
        ("idle_new", "idle", (State(started=False, turn=0, round=0),)),
        ("idle", "idle", (mid,)),
        ("idle_seat12", "idle", (State(seats=12, turn=12, round=7),)),
        ("shaking_f0", "shaking", (mid, 0)),
        ("shaking_f7", "shaking", (mid, 7)),
        ("result_yixiu", "result", (after, yixiu, 0)),
        ("result_yixiu_p1", "result", (after, yixiu, 1)),
        ("result_none", "result", (after, Out(seat=3, dice=(1, 2, 3, 5, 6, 6)), 0)),
        ("result_chajinhua", "result", (after, cjh, 0)),
        ("result_chajinhua_p1", "result", (after, cjh, 1)),
        ("result_chase", "result", (after, Out(seat=8, dice=(1, 2, 3, 4, 5, 6), won=[("duitang", 5)]), 0)),
        ("result_sijin_bonus", "result", (after, Out(seat=10, dice=(2, 2, 2, 2, 4, 4),
                                                     won=[("sijin", 0), ("erju", 0)]), 0)),
        ("result_sihong_stays", "result", (after, Out(seat=2, dice=(4, 4, 4, 4, 1, 2),
                                                      holder_before=5, holder_after=5), 0)),
        ("result_spill", "result", (after, spill, 0)),
        ("result_spill_p1", "result", (after, spill, 1)),
        ("pool", "pool", (mid, 0)),
        ("pool_corporate", "pool", (State(CORPORATE, taken={"tanhua": 2, "jinshi": 7}), 0)),
        ("pool_capped", "pool", (State(CAPPED, taken={"sandeng": 6}), 0)),
        ("game_over", "game_over", (ended, 0)),
        ("game_over_f3", "game_over", (ended, 3)),
        ("game_over_reason", "game_over", (ended, 40)),
        ("game_over_grab", "game_over", (State(ended=True, reason="heiliubo_grab", turn=0), 0)),
        ("game_over_no_zhuangyuan", "game_over", (State(ended=True, reason="time_up", turn=0), 0)),
        ("claim", "claim", (State(), "7KQ2M9XD", "sanhong")),
        ("error_sensor", "error", (scr.ERR_SENSOR, "MPU6050 0x68 ?")),
        ("error_rng", "error", (scr.ERR_RNG, "repetition count")),
        ("error_journal", "error", (scr.ERR_JOURNAL, "kept 41, g7.bad")),
    ]


def draw(s, method, a):
    """Draw one case's screen on Screen s (explicit calls: nothing allocated here)."""
    if method == "idle":
        s.idle(a[0])
    elif method == "shaking":
        s.shaking(a[0], a[1])
    elif method == "result":
        s.result(a[0], a[1], a[2])
    elif method == "pool":
        s.pool(a[0], a[1])
    elif method == "game_over":
        s.game_over(a[0], a[1])
    elif method == "claim":
        s.claim(a[0], a[1], a[2])
    elif method == "error":
        s.error(a[0], a[1])
    else:
        raise ValueError("no screen method %r" % method)


# (name, lang, method, args): every case in Chinese, then for visitors ("_en")
CASES = []
for _name, _method, _args in _cases():
    for _lang in scr.LANGS:
        CASES.append((_name if _lang == "zh" else _name + "_en", _lang, _method, _args))
