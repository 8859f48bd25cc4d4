"""Every screen the bowl can show, as named cases: the PNG command, the golden
tests and the benchmark all draw exactly these.

Plain Python that also runs on the MicroPython unix port (the pixel-identity
test and bench/screen_bench.py draw them there, importing this file as
`screen_cases` with host_sim/portable on sys.path, as on CPython), so: no CPython-only imports.

The states are real game.Table objects brought there by scripted rolls (a
screen shows what the engine says, not what a fake says). CASES is a list of
(name, lang, method, args); draw(screen, method, args) draws one frame. The
states are built once, here, so drawing them allocates nothing.
"""
from bobing import console, final_play, game, journal, menu, panels, profiles, vocab
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


def _sold_out():
    # the 会饼's four 三红 all won, then a fifth wins nothing: the screen says why
    return table(rolls=("444123",) * 5)


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
        # the winner rolls last
        ("final_result_win", "final", (final(3, ("444412", "444412", NOTHING, "444412", "444413")), 0)),
        ("final_over", "final", (final(3, ("444412", NOTHING, "123456"), F.P_OVER), 3)),
    ]


class Shown:
    """What panels.draw reads of a console: the view and its argument, the
    language, the settings, the table, the time. The arguments are made as
    the console makes them (menu.py's lists, digits and notices)."""

    def __init__(self, view, arg, lang="zh", table=None, page=0, menu_=None, settings=None):
        self.view = view
        self.arg = arg
        self.lang = lang
        self.table = table
        self.page = page
        self.menu = menu.MenuState()
        self.menu.list = menu_
        self.settings = settings or console.Settings()
        self.root = ""
        self.now = 17000  # 17 s into the minute's lock: 0:43 left


def _panel_cases(kiosk, kiosk_out):
    V = vocab
    st = console.Settings()
    st.mode = "kiosk"
    st.bowl_id = "0042"
    st.secret = "00112233445566778899aabbccddeeff"
    main = ["main", menu.main_items(Shown(0, None, settings=st, table=kiosk)), 2]
    fam = console.Settings()
    fam_main = ["main", ("new", "seats", "profile", "mode", "lang", "sound", "admin", "back"), 6]
    stock = ["stock", tuple([k[0] for k in profiles.Profile("kiosk").prizes["classes"]]) + ("back",), 4]
    code = kiosk_out.claims[0]
    cls = kiosk_out.won[0][0]
    ref = "%d-%d" % (kiosk.game_no, kiosk.award_no)
    claim = (cls, code, kiosk.game_no, kiosk.award_no, ref, kiosk.bowl_id)
    codes = ["codes", (claim, ("yixiu", "J75G7W19", 17, 1, "17-1", "mall-3"), "back"), 0]
    named = console.Settings()
    named.seats = 4
    named.names[:] = NAMES
    names = ["names", ("1", "2", "3", "4", "back"), 2]  # seat 3 under the cursor: 奶奶
    title = ["title", ("none",) + vocab.TITLES, 2, 3]  # seat 3's name: the list, 奶奶 chosen
    out = []
    for name, view, arg, m, sett in (
            ("menu_kiosk", V.V_MENU, main, main, st),
            ("menu_family", V.V_MENU, fam_main, fam_main, fam),
            ("menu_stock", V.V_MENU, stock, stock, st),
            ("menu_codes", V.V_MENU, codes, codes, st),
            ("menu_names", V.V_MENU, names, names, named),
            ("menu_title", V.V_MENU, title, title, named),
            ("pin_entry", V.V_DIGITS, ["enter_pin", bytearray(b"1200"), 2], None, st),
            ("pin_new", V.V_DIGITS, ["new_pin2", bytearray(b"5000"), 0], None, st),
            ("stock_entry", V.V_DIGITS, ["stock:sanhong", bytearray(b"010"), 1], stock, st),
            ("confirm_new", V.V_CONFIRM, "confirm_new", None, fam),
            ("secret", V.V_SECRET, st.secret, None, st),
            ("notice_wrong_pin", V.V_NOTICE, (V.N_PIN, "2"), None, st),
            ("notice_locked", V.V_NOTICE, (V.N_LOCKED, 60000), None, st),  # the lock ends at 60 s
            ("notice_pin_done", V.V_NOTICE, (V.N_DONE, "pin"), None, st),
            ("notice_pin_diff", V.V_NOTICE, (V.N_PIN_DIFF, ""), None, st),
            ("notice_pin_lost", V.V_NOTICE, (V.N_PIN_LOST, ""), None, st),
            ("notice_pin_default", V.V_NOTICE, (V.N_PIN_DEFAULT, ""), None, st),
            ("notice_settings", V.V_NOTICE, (V.N_SETTINGS, "mode pin claim.key"), None, st),
            ("notice_flash", V.V_NOTICE, (V.N_FLASH, "PIN not checked"), None, st),
            ("notice_battery", V.V_NOTICE, (V.N_BATTERY, "3.52 V"), None, st),
            ("gate", V.V_GATE, None, None, st),
            ("seed", V.V_SEED, None, None, st),  # a fair event kiosk: the desk's value not come yet
            ("claim_qr", V.V_CLAIM, claim, None, st),
            ("sleep", V.V_SLEEP, None, None, st)):
        page = 1 if name == "claim_qr" else 0
        out.append((name, "panel", (Shown(view, arg, table=kiosk, page=page, menu_=m, settings=sett),)))
    return out


def _start():
    # seat 1's start roll of 3 and 4 in a 4-seat game: 7 counts round to seat 3
    t = game.Table("xiamen", 4)
    out = t.start_total(7)
    out.dice = (3, 4)  # as the console keeps them for the screen
    return t, out


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
        ("claim", "claim", (kiosk, kiosk_out.claims[0], kiosk_out.won[0][0],
                            "%d-%d" % (kiosk.game_no, kiosk.award_no))),
        # a fair kiosk's turn rolled with the bowl's own dice (its desk did not answer in time)
        ("idle_kiosk_unverified", "idle", (kiosk, True)),
        ("shaking_unverified", "shaking", (kiosk, 7, True)),
        ("result_kiosk_unverified", "result", (kiosk, kiosk_out, 0, True)),
        ("result_kiosk_unverified_p2", "result", (kiosk, kiosk_out, 2, True)),
        ("claim_unverified", "claim", (kiosk, kiosk_out.claims[0], kiosk_out.won[0][0],
                                       "%d-%d" % (kiosk.game_no, kiosk.award_no), True)),
        ("error_sensor", "error", (panels.ERR_SENSOR, "MPU6050 0x68 ?")),
        ("error_rng", "error", (panels.ERR_RNG, "repetition count")),
        ("error_journal", "error", (panels.ERR_JOURNAL, "kept 41, g7.bad")),
        ("error_journal_full", "error", (panels.ERR_JOURNAL, journal.FLASH_FULL)),  # nothing set aside
        ("error_journal_in_play", "error", (panels.ERR_JOURNAL, vocab.J_IN_PLAY)),  # found after the boot
        ("error_journal_not_recovered", "error", (panels.ERR_JOURNAL, journal.NOT_RECOVERED)),  # kept; new game
        ("error_final_kept", "error", (panels.ERR_JOURNAL, vocab.J_FINAL_KEPT)),  # too large for the heap now
        ("error_final_bad", "error", (panels.ERR_JOURNAL, vocab.J_FINAL_BAD)),  # set aside as final.bad
        ("error_final_left", "error", (panels.ERR_JOURNAL, vocab.J_FINAL_LEFT)),  # damaged, could not be moved
        ("wait_stock", "wait", (kiosk,)),
        ("result_start", "result", _start() + (0,)),
        ("result_start_p1", "result", _start() + (1,)),
        ("result_sold_out", "result", _sold_out() + (0,)),
        ("shaking_start", "shaking", (game.Table("xiamen", 4), 3)),
        ("seat_prizes", "seat", (ended, 7)),
        ("seat_prizes_none", "seat", (mid, 3)),
        # a family that named its seats (Settings.names): the names where the numbers were
        ("idle_named", "named", (NAMES, "idle", (mid,))),  # seat 3 奶奶's turn, seat 5 爷爷 the 状元
        ("result_named", "named", (NAMES, "result", after_yixiu + (0,))),
        ("result_named_p1", "named", (NAMES, "result", after_yixiu + (1,))),
        ("game_over_named", "named", (NAMES, "game_over", (ended, 0))),
        ("seat_prizes_named", "named", (NAMES, "seat", (ended, 7))),
    ] + _final_cases() + _panel_cases(kiosk, kiosk_out)


# seat 3 奶奶, seat 4 外公, seat 5 爷爷, seat 7 妈妈 (1 + vocab.TITLES index), the others their numbers
NAMES = bytearray(game.MAX_SEATS)
for _seat, _title in ((3, "Nainai"), (4, "Waigong"), (5, "Yeye"), (7, "Mama")):
    NAMES[_seat - 1] = vocab.TITLES.index(_title) + 1


def draw(s, method, a):
    """Draw one case's screen on Screen s (explicit calls: nothing allocated here)."""
    if method == "idle":
        s.idle(a[0], len(a) > 1 and a[1])
    elif method == "shaking":
        s.shaking(a[0], a[1], len(a) > 2 and a[2])
    elif method == "result":
        s.result(a[0], a[1], a[2], len(a) > 3 and a[3])
    elif method == "pool":
        s.pool(a[0], a[1])
    elif method == "game_over":
        s.game_over(a[0], a[1])
    elif method == "claim":  # the console's screens (bobing/panels.py) on the same Screen
        panels.claim(s, a[0], a[1], a[2], a[3], unverified=len(a) > 4 and a[4])
    elif method == "error":
        panels.error(s, a[0], a[1])
    elif method == "final":  # the 状元王中王's screens (bobing/final_play.py)
        final_play.draw_final(s, a[0], a[1])
    elif method == "wait":  # an event kiosk out of stock, waiting for the prize desk's grant
        panels.wait(s, a[0])
    elif method == "seat":  # a family game's prizes of one seat
        panels.seat_prizes(s, a[0], a[1])
    elif method == "panel":  # the console's own screens, from the state a console holds
        a[0].lang = s.lang
        panels.draw(s, a[0])
    elif method == "named":  # a screen of a table whose seats have names (as bowl/app.py sets them)
        s.paint.names = a[0]
        try:
            draw(s, a[1], a[2])
        finally:
            s.paint.names = None
    else:
        raise ValueError("no screen method %r" % method)


# The console's menus, number entry, confirmations and notices are drawn once per key press, not
# per frame: their values are text made when drawn ("%d" of a stock). Every other screen allocates
# nothing once warmed up (tests/mp/test_screen_heap.py).
DRAWN_PER_KEY = ("menu_", "pin_", "stock_entry", "notice_", "confirm_", "secret")

# (name, lang, method, args): every case in Chinese, then for visitors ("_en")
CASES = []
for _name, _method, _args in _cases():
    for _lang in scr.LANGS:
        CASES.append((_name if _lang == "zh" else _name + "_en", _lang, _method, _args))
