# micropython: yes
# Every screen of host_sim/portable/screen_cases.py, drawn by the firmware's screen module,
# hashed (SHA-256 of the frame's 1024 bytes) and compared with the golden hashes
# in tests/data/screens/hashes.json. Under pytest the frame is host_sim's
# FrameBuffer stand-in; on the unix port it is the REAL framebuf, so passing on
# both proves the host draws pixel for pixel what the bowl draws.
# Regenerate (after a deliberate change; look at the PNGs):
#     python -m host_sim screens --out tests/data/screens
import binascii
import hashlib
import json
import sys

import framebuf

if sys.implementation.name == "micropython":
    sys.path.append("host_sim/portable")  # the unix-port runner starts in the repo root
    import screen_cases
else:
    import screen_cases

from bobing import game, panels
from bobing import screen as scr

_DATA = __file__.replace("\\", "/").rsplit("/", 1)[0] + "/data/screens/"


def _golden():
    with open(_DATA + "hashes.json") as f:
        return json.load(f)


def _screen():
    buf = bytearray(1024)
    return buf, scr.Screen(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))


def test_every_screen_matches_its_golden_hash():
    golden = _golden()
    buf, s = _screen()
    bad = []
    names = []
    for name, lang, method, args in screen_cases.CASES:
        s.set_lang(lang)
        screen_cases.draw(s, method, args)
        names.append(name)
        h = binascii.hexlify(hashlib.sha256(buf).digest()).decode()
        if golden.get(name) != h:
            bad.append(name)
    assert not bad, "screens differ from tests/data/screens/hashes.json: %s" % ", ".join(bad)
    assert sorted(names) == sorted(golden.keys()), "hashes.json lists other screens than screen_cases"


def test_a_screen_is_the_same_drawn_twice_and_clears_the_last():
    buf, s = _screen()
    case = screen_cases.CASES[0]
    screen_cases.draw(s, case[2], case[3])
    first = bytes(buf)
    for _, lang, method, args in screen_cases.CASES:  # draw everything else in between
        s.set_lang(lang)
        screen_cases.draw(s, method, args)
    s.set_lang(case[1])
    screen_cases.draw(s, case[2], case[3])
    assert bytes(buf) == first


def test_animation_frames_move():
    buf, s = _screen()
    t, _ = screen_cases.table(first=3)
    seen = []
    for f in range(12):
        s.shaking(t, f)
        seen.append(bytes(buf))
    assert len(set(seen)) == 12  # every frame of the tumble differs
    s.shaking(t, 12 * 840)  # the motion repeats: any frame number works
    ended = screen_cases._full_game()
    s.game_over(ended, 0)
    a = bytes(buf)
    s.game_over(ended, 1)
    assert bytes(buf) != a  # the border marches


def test_result_pages_say_each_thing_once():
    buf, s = _screen()
    pages = {}
    for name, lang, method, args in screen_cases.CASES:
        if method == "result" and lang == "zh":
            pages[name] = s.result_pages(args[0], args[1])
    # yixiu: won, next | none: next | chajinhua: 对堂 x2 (one page), new 状元, next |
    # sijin+erju: two prizes, next | sihong below the holder: stays, next | skip: 3 sits out, next |
    # kiosk: won, shakes left | time up: next
    assert pages["result_yixiu"] == 2 and pages["result_none"] == 1
    assert pages["result_chajinhua"] == 3 and pages["result_sijin_bonus"] == 3
    assert pages["result_sihong_stays"] == 3 and pages["result_skip"] == 2
    assert pages["result_kiosk"] == 2 and pages["result_time_up"] == 1
    # a page number past the end wraps round
    for name, lang, method, args in screen_cases.CASES:
        if name == "result_chajinhua":
            s.result(args[0], args[1], 1)
            a = bytes(buf)
            s.result(args[0], args[1], 4)
            assert bytes(buf) == a


def test_dice_faces_are_drawn_as_dice():
    # count lit pixels inside each die of a result: the filled (red) faces 1 and 4
    # are mostly lit, the others mostly dark; pips differ by face
    buf, s = _screen()
    fb = s.fb
    lit = []
    for face in range(1, 7):
        t, out = screen_cases.table(rolls=(str(face) * 6,))
        s.result(t, out, 0)
        n = 0
        for y in range(1, 16):
            for x in range(4, 19):  # inside the first die
                n += fb.pixel(x, y)
        lit.append(n)
    # faces 2, 3, 5, 6: pips of 9 pixels each, plus nothing else inside the border
    assert [lit[1], lit[2], lit[4], lit[5]] == [18, 27, 45, 54]
    # faces 1 and 4 are lit dice with dark pips: 225 minus the pips
    assert lit[3] == 225 - 4 * 9
    assert lit[0] == 225 - 21  # one big round pip of 21 pixels


def test_bad_arguments_say_what_is_allowed():
    buf, s = _screen()
    for bad in (lambda: s.set_lang("fr"), lambda: panels.error(s, 9, None),
                lambda: panels.claim(s, game.Table(), "X" * 17, "yixiu", "1-1")):
        try:
            bad()
            ok = False
        except ValueError as e:
            ok = len(str(e)) > 10
        assert ok


def test_a_shaking_frame_drawn_after_the_last_is_the_frame_drawn_afresh():
    # the next frame of a shake redraws only the bowl (the header's text is kept): the
    # frame must still be exactly what the whole screen drawn anew gives
    for lang in ("zh", "en"):
        for first in (1, 3, 10):
            t, _ = screen_cases.table(first=first)
            for unverified in (False, True):
                buf, s = _screen()
                s.set_lang(lang)
                for f in range(40):
                    s.shaking(t, f, unverified)
                    fresh, s2 = _screen()
                    s2.set_lang(lang)
                    s2.shaking(t, f, unverified)
                    assert bytes(buf) == bytes(fresh), (lang, first, unverified, f)
