"""Every screen the bowl can show, as named cases: the PNG command, the golden
tests and the benchmark all draw exactly these.

Plain Python that also runs on the MicroPython unix port (the pixel-identity
test and bench/screen_bench.py draw them there, importing this file as
`screen_cases` with host_sim/ on sys.path), so: no CPython-only imports.

The states are real game.Table objects brought there by scripted rolls (a
screen shows what the engine says, not what a fake says). CASES is a list of
(name, lang, method, args); draw(screen, method, args) draws one frame. The
states are built once, here, so drawing them allocates nothing.
"""
from bobing import final_play, game, panels, profiles
from bobing import screen as scr


def _dice(text):
    return [int(c) for c in text]


def table(profile="xiamen", seats=10, first=1, rolls=(), **kw):
    """A real game.Table started at `first`, after `rolls` (six-digit strings
    or "spill"), one per turn; returns (table, outcome of the last event)."""
    t = game.Table(profile, seats, **kw)
    out = t.start_seat(first)
    for r in rolls:
        out = t.spill() if r == "spill" else t.roll(_dice(r))
    return t, out


NOTHING = "123566"  # no 4, no four of a kind: wins nothing
YIXIU = "412366"  # one 4
# Round 1 from seat 1: seat 5 rolls a 四红 (the 状元 so far), others small prizes.
ROUND1 = (YIXIU, "441235", NOTHING, "222213", "444426", YIXIU, "123456", "444123", YIXIU, NOTHING)


def _mid(extra=()):
    # round 2, seats 1 and 2 have rolled: seat 3's turn
    return table(rolls=ROUND1 + ("441253", YIXIU) + tuple(extra))


def _full_game():
    # 插金花 by seat 7 first (it sweeps both 对堂), then every other prize of
    # tiers 1-5; the game ends when that round is played out (RULES.md §6)
    rolls = ["414414"] + ["444123"] * 4 + ["222213"] * 8 + ["441235"] * 16 + [YIXIU] * 32
    t = game.Table("xiamen", 10)
    t.start_seat(7)
    for i in range(200):
        t.roll(_dice(rolls[i] if i < len(rolls) else NOTHING))
        if t.ended:
            return t
    raise ValueError("the scripted game did not end")


def _time_up():
    t, out = table(profiles.Profile("xiamen", {"time_limit": 30}), rolls=(NOTHING, YIXIU))
    t.time_up()
    for _ in range(20):
        t.roll(_dice(NOTHING))
        if t.ended:
            return t
    raise ValueError("time up did not end the game")


def _time_up_called():
    t, _ = table(profiles.Profile("xiamen", {"time_limit": 30}), rolls=(NOTHING, YIXIU, NOTHING))
    return t, t.time_up(), 0


def _kiosk():
    # a mall kiosk: customer 1 has shaken twice (the second a 三红) of his 3
    t = game.Table("kiosk", 1, bowl_id="mall-3", secret=b"screen cases only", game_no=17)
    t.next_customer()
    t.roll(_dice(NOTHING))
    out = t.roll(_dice("444123"))
    return t, out


def _capped():
    # seed 002's three capped classes: a customer's shakes won two 三等奖 and an 二等奖
    t = game.Table("capped_classes", 1)
    t.next_customer()
    for r in ("441235", "222213", "444123"):
        t.roll(_dice(r))
    return t


def final(players, rolls=(), phase=None):
    """A 状元王中王 on a bowl (bobing/final_play.FinalPlay, no file) after `rolls`
    (six-digit strings or "spill"), in the phase its console would show."""
    fp = final_play.FinalPlay("", 1, players, "xiamen")
    for r in rolls:
        fp.apply(game.EV_SPILL, None) if r == "spill" else fp.apply(game.EV_ROLL, tuple(_dice(r)))
    fp.phase = phase if phase is not None else (final_play.P_RESULT if rolls else final_play.P_TURN)
    return fp


def _final_cases():
    F = final_play
    return [
        ("final_turn", "final", (final(12), 0)),
        ("final_shaking", "final", (final(3, phase=F.P_SHAKING), 5)),
        ("final_result_next", "final", (final(3, ("444412",)), 0)),
        ("final_result_no_zhuangyuan", "final", (final(2, (NOTHING, NOTHING)), 0)),
        ("final_result_tie", "final", (final(3, ("444412", "444412", NOTHING)), 0)),
        ("final_result_spill", "final", (final(3, (NOTHING, "spill")), 0)),
        ("final_result_win", "final", (final(3, ("444412", "444412", NOTHING, "444412", "444413")), 0)),  # the winner rolls last
        ("final_over", "final", (final(3, ("444412", NOTHING, "123456"), F.P_OVER), 3)),
    ]


def _cases():
    mid, _ = _mid()
    after_yixiu = _mid(("423566",))
    after_none = _mid((NOTHING,))
    after_cjh = table(rolls=(YIXIU, "441235", "414414"))  # seat 3: both 对堂, and the 状元
    after_sijin = _mid(("222244",))
    stays = table(rolls=ROUND1 + (YIXIU, "444412"))  # seat 2's 四红 of 3 < seat 5's of 8
    # RULES.md §9 variants: no tie-break inside a 状元 sub-rank, so seat 2's 四红 带12 only ties
    # seat 1's 带3 and the earlier stands; a 五子 with a 4 earns no 一秀 under combined=sijin_only
    tie = table(profiles.Profile("xiamen", {"zhuangyuan_tiebreak": "off"}), rolls=("444412", "444466"))
    wuzi4 = table(profiles.Profile("xiamen", {"combined": "sijin_only"}), rolls=(NOTHING, "555554"))
    # 漳州: 对堂 exhausted by seats 2 and 3, chased (追) by seat 8 from the nearest holder
    chase = table("zhangzhou", rolls=(NOTHING, "123456", "654321") + (NOTHING,) * 4 + ("162534",))
    spill = _mid(("spill",))
    # seat 3 spilled in round 2: when round 3 comes round, seat 2's roll is followed by 3 sitting out
    skip = table(rolls=ROUND1 + ("441253", YIXIU, "spill") + (NOTHING,) * 7 + (NOTHING, NOTHING))
    ended = _full_game()
    grab, _ = table(profiles.Profile("xiamen", {"heiliubo_effect": "grab"}), rolls=(NOTHING, "222222"))
    kiosk, kiosk_out = _kiosk()
    kiosk_done = game.Table("kiosk", 1)
    kiosk_done.next_customer()
    for r in (NOTHING, NOTHING, YIXIU):
        kiosk_done.roll(_dice(r))
    seat12, _ = table(seats=12, first=12)
    return [
        ("idle_new", "idle", (game.Table("xiamen", 10),)),
        ("idle", "idle", (mid,)),
        ("idle_seat12", "idle", (seat12,)),
        ("idle_kiosk", "idle", (kiosk,)),
        ("idle_kiosk_next", "idle", (kiosk_done,)),
        ("shaking_f0", "shaking", (mid, 0)),
        ("shaking_f7", "shaking", (mid, 7)),
        ("result_yixiu", "result", after_yixiu + (0,)),
        ("result_yixiu_p1", "result", after_yixiu + (1,)),
        ("result_none", "result", after_none + (0,)),
        ("result_chajinhua", "result", after_cjh + (0,)),
        ("result_chajinhua_p1", "result", after_cjh + (1,)),
        ("result_chase", "result", chase + (0,)),
        ("result_sijin_bonus", "result", after_sijin + (0,)),
        ("result_sijin_bonus_p1", "result", after_sijin + (1,)),
        ("result_sihong_stays", "result", stays + (0,)),
        ("result_tie_stays", "result", tie + (0,)),
        ("result_wuzi4_sijin_only", "result", wuzi4 + (0,)),
        ("result_spill", "result", spill + (0,)),
        ("result_skip", "result", skip + (0,)),
        ("result_time_up", "result", _time_up_called()),
        ("result_kiosk", "result", (kiosk, kiosk_out, 0)),
        ("result_kiosk_p1", "result", (kiosk, kiosk_out, 1)),
        ("pool", "pool", (mid, 0)),
        ("pool_corporate", "pool", (table("corporate_simple", rolls=(YIXIU, "441235", YIXIU))[0], 0)),
        ("pool_capped", "pool", (_capped(), 0)),
        ("pool_kiosk", "pool", (kiosk, 0)),
        ("game_over", "game_over", (ended, 0)),
        ("game_over_f3", "game_over", (ended, 3)),
        ("game_over_reason", "game_over", (ended, 40)),
        ("game_over_grab", "game_over", (grab, 0)),
        ("game_over_no_zhuangyuan", "game_over", (_time_up(), 0)),
        ("claim", "claim", (kiosk, kiosk_out.claims[0], kiosk_out.won[0][0], "%d-%d" % (kiosk.game_no, kiosk.award_no))),
        ("error_sensor", "error", (panels.ERR_SENSOR, "MPU6050 0x68 ?")),
        ("error_rng", "error", (panels.ERR_RNG, "repetition count")),
        ("error_journal", "error", (panels.ERR_JOURNAL, "kept 41, g7.bad")),
        ("wait_stock", "wait", (kiosk,)),
    ] + _final_cases()


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
    elif method == "claim":  # the console's screens (bobing/panels.py) on the same Screen
        panels.claim(s, a[0], a[1], a[2], a[3])
    elif method == "error":
        panels.error(s, a[0], a[1])
    elif method == "final":  # the 状元王中王's screens (bobing/final_play.py)
        final_play.draw_final(s, a[0], a[1])
    elif method == "wait":  # an event kiosk out of stock, waiting for the prize desk's grant
        panels.wait(s, a[0])
    else:
        raise ValueError("no screen method %r" % method)


# (name, lang, method, args): every case in Chinese, then for visitors ("_en")
CASES = []
for _name, _method, _args in _cases():
    for _lang in scr.LANGS:
        CASES.append((_name if _lang == "zh" else _name + "_en", _lang, _method, _args))
