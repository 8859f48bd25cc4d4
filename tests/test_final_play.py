# micropython: yes
# 状元王中王 on the bowl (bobing/final_play.py): started from the admin menu,
# played through the console's state machine with scripted dice (the OK button
# rolls on a bowl without a sensor), written before it is shown, resumed after
# a power cut, a failed write or a damaged file. On CPython in a temporary
# folder; on the MicroPython unix port in a real littlefs on a RAM flash.
import os

from bobing import console as C
from bobing import vocab
from bobing import final_play as F
from bobing import game
from bobing.final import Final
from ramflash import fresh_root

NONE = (1, 2, 3, 5, 6, 6)  # no 状元
SIHONG_12 = (4, 4, 4, 4, 1, 2)
SIHONG_13 = (4, 4, 4, 4, 1, 3)  # beats SIHONG_12 (RULES.md §7: the best 状元)


def _root():
    """A fresh, empty folder (the previous one goes)."""
    return fresh_root("data")


class Urandom:
    def __init__(self):
        self.n = 0

    def __call__(self, k):
        out = bytearray(k)
        for i in range(k):
            self.n += 1
            out[i] = (self.n * 97 + 13) & 255
        return bytes(out)


class Dice:
    """Scripted dice in place of dice.Dice: roll() hands out the next of `rolls`."""

    failed = None

    def __init__(self, rolls):
        self.rolls = list(rolls)

    def roll(self, buf):
        d = self.rolls.pop(0)
        for i in range(6):
            buf[i] = d[i]
        return buf

    def absorb(self, *a):
        pass


def console(root, rolls=(), t=1000):
    c = C.Console(root, t, Urandom(), has_sensor=False)
    c.dice = Dice(rolls)
    return c


def press(c, *bs):
    for b in bs:
        c.press(b, C.PRESS, c.now * 1000)


def admin(c):
    """MENU, the admin list (PIN 1234, the default)."""
    press(c, C.B_MENU)
    items = c.arg[1]
    for _ in range(items.index("admin")):
        press(c, C.B_NEXT)
    press(c, C.B_OK)
    for d in "1234":
        for _ in range(int(d)):
            press(c, C.B_NEXT)
        press(c, C.B_OK)
    if c.view != C.V_MENU or c.arg[0] != "admin":
        raise AssertionError("not in the admin list: view %s" % vocab.VIEW_IDS[c.view])


def choose(c, item):
    for _ in range(c.arg[1].index(item)):
        press(c, C.B_NEXT)
    press(c, C.B_OK)


def enter(c, digits):
    for d in digits:
        cur = c.arg[1][c.arg[2]] - 48
        for _ in range((int(d) - cur) % 10):
            press(c, C.B_NEXT)
        press(c, C.B_OK)


def start_final(c, n):
    admin(c)
    choose(c, "final")
    assert c.view == C.V_DIGITS and c.arg[0] == "champions"
    enter(c, "%02d" % n)
    assert c.view == C.V_CONFIRM and c.arg == "start_final"
    press(c, C.B_OK)


def roll(c):
    """OK rolls (no sensor); -> the final's outcome on show; OK again goes on."""
    assert c.view == C.V_FINAL and c.final.phase == F.P_TURN, (vocab.VIEW_IDS[c.view], c.final and c.final.phase)
    press(c, C.B_OK)
    assert c.final.phase == F.P_RESULT
    out = c.final.out
    press(c, C.B_OK)
    return out


def on_flash(root):
    with open(root + "/" + F.FILE, "rb") as f:
        return F.decode(f.read())


def test_a_final_from_the_admin_menu_to_its_winner():
    root = _root()
    c = console(root, [NONE, NONE, NONE, SIHONG_12, SIHONG_12, NONE, SIHONG_13, SIHONG_12])
    table_game = c.j.game_id
    start_final(c, 3)
    assert c.view == C.V_FINAL and c.final.players == 3 and c.final.phase == F.P_TURN
    assert on_flash(root)[1:] == (3, "xiamen", [])
    seen = []
    for i in range(8):
        turn = c.final.final.turn
        out = roll(c)
        seen.append((out.seat, out.round, c.final.msg))
        assert len(on_flash(root)[3]) == i + 1  # every roll on flash
        assert out.seat == turn
    # round 1 without a 状元: everyone again; round 2: 1 and 2 tie, 3 nothing; round 3: 1 beats 2
    assert seen == [(1, 1, F.M_NEXT), (2, 1, F.M_NEXT), (3, 1, F.M_NO_ZY), (1, 2, F.M_NEXT),
                    (2, 2, F.M_NEXT), (3, 2, F.M_TIE), (1, 3, F.M_NEXT), (2, 3, F.M_WIN)]
    f = c.final.final
    assert f.ended and f.winner == 1 and f.winner_dice == SIHONG_13 and c.final.phase == F.P_OVER
    assert "final" in vocab.VIEW_IDS[c.view]
    # OK on the winner: confirm, and the bowl is back at its table game; the final's file is kept
    press(c, C.B_OK)
    assert c.view == C.V_CONFIRM and c.arg == "end_final"
    press(c, C.B_OK)
    assert c.final is None and c.view == C.V_TURN and c.j.game_id == table_game
    names = os.listdir(root)
    assert F.FILE not in names and "final.old" in names


def test_commit_before_reveal():
    root = _root()
    c = console(root, [SIHONG_12])
    start_final(c, 2)
    seen = []
    real = F.FinalPlay.save

    def save(fp):
        seen.append((fp.phase, len(fp.events)))
        real(fp)

    F.FinalPlay.save = save
    try:
        press(c, C.B_OK)
    finally:
        F.FinalPlay.save = real
    assert seen == [(F.P_TURN, 1)] and c.final.phase == F.P_RESULT  # written while the turn showed


def test_a_power_cut_mid_final_loses_no_roll():
    root = _root()
    rolls = [NONE, SIHONG_12, SIHONG_12, SIHONG_13, NONE, SIHONG_12]
    c = console(root, rolls[:3])
    start_final(c, 3)
    roll(c)
    roll(c)
    press(c, C.B_OK)  # the third roll is on the screen when the power goes
    assert c.final.phase == F.P_RESULT
    before = (c.final.final.turn, c.final.final.round, list(c.final.log))
    c2 = console(root, rolls[3:])  # boot
    assert c2.view == C.V_FINAL and c2.final.phase == F.P_TURN
    assert (c2.final.final.turn, c2.final.final.round, c2.final.log) == before
    # round 2: 2 and 3 tied, so they roll again; 2's 带3 beats 3's 带2
    assert c2.final.final.contenders == [2, 3] and c2.final.final.turn == 2
    roll(c2)
    roll(c2)
    assert c2.final.final.ended and c2.final.final.winner == 2
    # the same final as one played without the cut
    ref = Final("xiamen", 3)
    for d in rolls[:3] + rolls[3:5]:
        ref.roll(d)
    assert ref.ended and ref.winner == 2 and on_flash(root)[3] == [(game.EV_ROLL, d) for d in rolls[:5]]


def test_a_failed_write_shows_nothing_and_resumes_from_flash():
    root = _root()
    c = console(root, [SIHONG_12, SIHONG_13])
    start_final(c, 2)
    real = F.FinalPlay.save

    def broken(fp):
        raise OSError(28)  # ENOSPC

    F.FinalPlay.save = broken
    try:
        press(c, C.B_OK)
    finally:
        F.FinalPlay.save = real
    assert c.view == C.V_NOTICE and c.arg[0] == C.N_FLASH
    assert c.final.events == [] and c.final.final.turn == 1  # the roll never was
    press(c, C.B_OK)
    assert c.view == C.V_FINAL
    roll(c)
    assert len(on_flash(root)[3]) == 1


def test_a_spill_is_void_and_the_same_champion_rolls_again():
    root = _root()
    c = console(root, [SIHONG_12])
    start_final(c, 2)
    F.shake_event(c, 4)  # shake.EV_SPILL
    assert c.final.phase == F.P_RESULT and c.final.out.kind == game.EV_SPILL
    press(c, C.B_OK)
    assert c.final.final.turn == 1 and on_flash(root)[3] == [(game.EV_SPILL, None)]
    assert roll(c).seat == 1


def test_a_damaged_final_is_set_aside_and_the_table_game_goes_on():
    root = _root()
    c = console(root, [SIHONG_12])
    start_final(c, 2)
    roll(c)
    with open(root + "/" + F.FILE, "rb") as f:
        data = bytearray(f.read())
    data[data.find(b"r 4") + 2] = ord("5")  # a flipped bit: the CRC no longer matches
    with open(root + "/" + F.FILE, "wb") as f:
        f.write(data)
    c2 = console(root)
    assert c2.final is None and c2.view == C.V_NOTICE and c2.arg == (C.N_JOURNAL, vocab.J_FINAL_BAD)
    assert "final.bad" in os.listdir(root) and F.FILE not in os.listdir(root)
    press(c2, C.B_OK)
    assert c2.view == C.V_TURN


def test_champions_out_of_range_start_nothing():
    for n in ("01", "65", "00"):
        root = _root()
        c = console(root)
        admin(c)
        choose(c, "final")
        enter(c, n)
        assert c.view == C.V_NOTICE and c.arg[0] == vocab.N_SETTINGS and c.final is None, n
        assert F.FILE not in os.listdir(root)


def test_the_menu_ends_a_running_final():
    root = _root()
    c = console(root, [SIHONG_12])
    start_final(c, 5)
    roll(c)
    press(c, C.B_MENU)
    press(c, C.B_MENU)  # out of the menu: back to the final
    assert c.view == C.V_FINAL
    admin(c)
    choose(c, "final")
    assert c.view == C.V_CONFIRM and c.arg == "end_final"
    press(c, C.B_MENU)  # no: the final goes on
    assert c.view == C.V_FINAL and c.final is not None
    admin(c)
    choose(c, "final")
    press(c, C.B_OK)
    assert c.final is None and F.FILE not in os.listdir(root)


def test_the_file_codec_refuses_bad_data():
    good = F.encode(77, 3, "xiamen", [(game.EV_ROLL, SIHONG_12), (game.EV_SPILL, None)])
    assert F.decode(good) == (77, 3, "xiamen", [(game.EV_ROLL, SIHONG_12), (game.EV_SPILL, None)])
    bad = [b"", b"crc 0000\n", good[:-3], good.replace(b"BBF 1", b"BBF 2"),
           F.encode(77, 1, "xiamen", []), F.encode(77, 65, "xiamen", []), F.encode(0, 3, "xiamen", [])]
    body = good[:good.find(b"crc ")].replace(b"r 444412", b"r 44441")
    from bobing import journal
    bad.append(body + ("crc %04x\n" % journal.crc16(body)).encode())
    for data in bad:
        try:
            F.decode(data)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % (data,))


def test_low_battery_is_said_between_the_final_s_rolls():
    root = _root()
    c = console(root, [SIHONG_12])
    start_final(c, 2)
    c.battery(c.now, 3500)
    assert c.view == C.V_NOTICE and c.arg[0] == C.N_BATTERY
    press(c, C.B_OK)
    assert c.view == C.V_FINAL and roll(c).seat == 1


def test_after_a_notice_the_ring_shows_the_final_s_phase_again():
    from bobing import leds
    c = console(_root(), [SIHONG_12])
    start_final(c, 2)
    assert c.led == leds.P_IDLE
    c.battery(c.now, 3500)
    assert c.view == C.V_NOTICE and c.led == leds.P_BATTERY
    press(c, C.B_OK)
    assert c.view == C.V_FINAL and c.led == leds.P_IDLE  # whose turn: idle, not the notice's warning


def test_the_final_sounds_as_the_table_game_does():
    # the dice's rattle while shaken, no-prize, the 状元's fanfare, the end's tune,
    # a spill: bobing/sound.py's, at the sound setting's volume, none when off
    from bobing import shake, sound
    for level in sound.LEVELS:
        c = console(_root(), [NONE, SIHONG_12])
        c.settings.sound = level
        start_final(c, 2)
        del c.beeps[:]
        F.shake_event(c, shake.EV_SPILL)
        assert c.beeps == ([] if level == "off" else sound.steps(sound.SPILL)), level
        press(c, C.B_OK)
        del c.beeps[:]
        F.shake_event(c, shake.EV_SHAKE)
        clicks = []
        for _ in range(50):  # a second of shaking, the app's 20 ms rounds playing what is queued
            c.tick(c.now + 20)
            clicks += c.beeps
            del c.beeps[:]
        if level == "off":
            assert clicks == []
        else:
            assert len(clicks) >= 5 and all(k in sound.CLICKS for k in clicks), (level, clicks)
        F.shake_event(c, shake.EV_ROLLED)  # champion 1: no 状元
        assert c.final.phase == F.P_RESULT
        assert c.beeps == ([] if level == "off" else sound.steps(sound.NO_PRIZE)), level
        press(c, C.B_OK)
        press(c, C.B_OK)  # champion 2: the only 状元 wins the final
        assert c.final.msg == F.M_WIN
        assert c.beeps == ([] if level == "off" else sound.steps(sound.ZHUANGYUAN) + sound.steps(sound.GAME_END))
        assert c.duty == sound.DUTY[sound.LEVELS.index(level)]
