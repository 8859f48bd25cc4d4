# What the screens say, read as text (host_sim/sim/player.py's reading of the
# firmware's own drawing): the start roll shows its dice's total, no "seat 0"
# while seat 1 shakes for the start, every "no prize" says why, menus show
# three whole rows, Chinese screens carry no English, the stock entry names its
# class, and the English wording reads as English.
import re

import screen_cases
from host_sim.sim.player import _TextFrame, _TextScreen, screen_lines


def _draw(name):
    s = _TextScreen(_TextFrame())
    for n, lang, method, args in screen_cases.CASES:
        if n == name:
            s.set_lang(lang)
            screen_cases.draw(s, method, args)
            return "\n".join(screen_lines(s.fb.items)), s.fb.items
    raise KeyError(name)


def test_the_start_roll_shows_its_total_and_who_begins():
    text, _ = _draw("result_start")
    assert "共7点" in text and "3号先摇" in text
    text, _ = _draw("result_start_en")
    assert "Total 7" in text and "Seat 3 starts" in text


def test_no_seat_0_while_seat_1_shakes_for_the_start():
    for name in ("shaking_start", "shaking_start_en"):
        text, _ = _draw(name)
        assert "0号" not in text and "Seat 0" not in text and ("摇碗定先手" in text or "Shake to start" in text)


def test_no_prize_says_why():
    text, _ = _draw("result_sold_out")
    assert "三红已派完" in text
    text, _ = _draw("result_sold_out_en")
    assert "No prize" in text and "San Hong all won" in text


def test_menus_show_three_whole_rows():
    for name in ("menu_kiosk", "menu_family", "menu_stock", "menu_codes"):
        text, items = _draw(name)
        assert len(text.split("\n")) == 4, text  # the title and three rows
        for centre, x, t, w in items:
            assert centre + 8 <= 64, (name, t, centre)  # no row cut off at the bottom


def test_chinese_screens_have_no_english_and_the_stock_entry_names_its_class():
    for name in ("confirm_new", "pin_entry", "stock_entry", "secret", "notice_wrong_pin", "notice_locked",
                 "gate", "menu_kiosk"):
        text, _ = _draw(name)
        words = [w for w in re.findall(r"[A-Za-z]{2,}", text) if not re.fullmatch(r"[0-9a-f]+", w)]
        assert not words, (name, words, text)
    text, _ = _draw("stock_entry")
    assert text.startswith("三红")


def test_english_wording():
    text, _ = _draw("idle_en")
    assert "Seat 3 to\nshake" in text and "Champion: seat 5" in text and "Turn of" not in text
    text, _ = _draw("result_none_en")
    assert "No prize" in text and "Wu" not in text and "Nothing" not in text


def test_a_4_red_that_does_not_take_the_zhuangyuan_says_why():
    from bobing import screen as scr
    s = _TextScreen(_TextFrame())
    for name, want in (("result_tie_stays", "同分先到者得"), ("result_sihong_stays", "未胜过5号"),
                       ("result_tie_stays_en", "Tie: first keeps"),
                       ("result_sihong_stays_en", "does not beat Seat 5")):
        case = [c for c in screen_cases.CASES if c[0] == name][0]
        s.set_lang(case[1])
        t, out = case[3][0], case[3][1]
        pages = []
        for pg in range(s.result_pages(t, out)):
            s.result(t, out, pg)
            pages.append("\n".join(screen_lines(s.fb.items)))
        assert [p for p in pages if want in p.replace("\n", " ")], (name, pages)
    assert scr
