# Runs only on the MicroPython unix port: a notice, an error screen or a kiosk's
# claim code loads the console's screens (bobing/panels.py) and draws them, but
# neither the menus (menu.py) nor the settings (settings.py), which a bowl that
# never opens a menu keeps out of its heap.
import sys

import framebuf

from bobing import console, game
from bobing import screen as scr


class _Shown:
    # what panels.draw reads of the console
    def __init__(self, view, arg, table=None, lang="zh", page=0):
        self.view, self.arg, self.table, self.lang, self.page = view, arg, table, lang, page


def _kiosk_claim():
    # customer 1's second shake is a 三红: one claim code
    t = game.Table("kiosk", 1, bowl_id="mall-3", secret=b"panels load test", game_no=17)
    t.next_customer()
    t.roll([1, 2, 3, 5, 6, 6])
    out = t.roll([4, 4, 4, 1, 2, 3])
    cls = out.won[0][0]
    return t, (cls, out.claims[0], t.game_no, t.award_no, "%d-%d" % (t.game_no, t.award_no), t.bowl_id)


def test_a_notice_or_a_claim_loads_neither_menu_nor_settings():
    for m in ("bobing.panels", "bobing.menu", "bobing.settings"):
        if m in sys.modules:
            raise AssertionError("%s was loaded before the test" % m)
    from bobing import panels
    s = scr.Screen(framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB))
    t, claim = _kiosk_claim()
    for lang in ("zh", "en"):
        s.set_lang(lang)
        for shown in (_Shown(console.V_NOTICE, (console.N_FLASH, "journal"), lang=lang),
                      _Shown(console.V_NOTICE, (console.N_BATTERY, "3.52 V"), lang=lang),
                      _Shown(console.V_NOTICE, (console.N_JOURNAL, "bad tail"), lang=lang),
                      _Shown(console.V_CLAIM, claim, t, lang),
                      _Shown(console.V_CLAIM, claim, t, lang, page=1)):  # (its QR code)
            panels.draw(s, shown)
    loaded = [m for m in ("bobing.menu", "bobing.settings") if m in sys.modules]
    assert not loaded, "drawing notices and a claim loaded %s" % ", ".join(loaded)
