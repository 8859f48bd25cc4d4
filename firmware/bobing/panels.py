# The console's own screens (bobing/console.py): menus, choices, number
# entry, confirmations, the kiosk's claim secret, notices that have no screen
# of their own in screen.py, and the sleep screen. Pure drawing on the same
# FrameBuffer-like object, built on screen.Screen's text machinery (Chinese
# from glyphs.py, ASCII in framebuf's 8x8 font), so it follows the language
# setting like every other screen.
from micropython import const

from bobing import console, screen

_W = const(128)
_ROWS = const(3)  # list rows under the title (16 px each)


class Panels(screen.Screen):
    """screen.Screen plus the console's screens."""

    def _title(self, s):
        fb = self.fb
        fb.fill(0)
        self._t(s, 0, 0)
        fb.hline(0, 16, _W, 1)

    def menu(self, c):
        """A list (menu or choice) with the cursor's row lit."""
        mid, items, cur = c.arg[0], c.arg[1], c.arg[2]
        self._title(c.title_of(mid))
        fb = self.fb
        first = cur - _ROWS + 1 if cur >= _ROWS else 0
        for r in range(_ROWS):
            i = first + r
            if i >= len(items):
                break
            y = 18 + 16 * r
            on = i == cur
            if on:
                fb.fill_rect(0, y, _W, 16, 1)
            col = 0 if on else 1
            self._t(c.item_text(items[i]), 2, y, col)
            value = c.value_of(items[i])
            if value:
                self._t(value, _W - 2 - self._tw(value), y, col)
        if len(items) > _ROWS:  # where in the list: a thumb on the right edge
            h = max(4, 46 * _ROWS // len(items))
            fb.fill_rect(_W - 1, 18 + (46 - h) * first // max(1, len(items) - _ROWS), 1, h, 1)

    def digits(self, c):
        """Number entry: each digit in a box, the one being set lit; a PIN shows
        '*' for the digits already entered."""
        title, digits, pos = c.arg[0], c.arg[1], c.arg[2]
        self._title(console.label(title, c.lang))
        fb = self.fb
        n = len(digits)
        w = 20
        x0 = (_W - n * w) // 2
        hide = title == "enter_pin"
        for i in range(n):
            x = x0 + i * w
            if i == pos:
                fb.fill_rect(x, 24, w - 4, 22, 1)
            else:
                fb.rect(x, 24, w - 4, 22, 1)
            ch = "*" if hide and i < pos else chr(digits[i])
            if hide and i > pos:
                ch = "-"
            self._big(ch, x + 4, 28, 1, 2, 0 if i == pos else 1)
        self._ec("NEXT +1   OK >", 54)

    def confirm(self, c):
        self._title(console.label(c.arg, c.lang))
        self._ec("OK: yes", 28)
        self._ec("MENU: no", 42)

    def secret(self, c):
        """The claim secret in hex, 16 characters a line, for the counter's
        verifier (python -m host_sim verify-claim --secret-hex ...)."""
        self._title(console.label("secret", c.lang))
        h = c.arg
        for i in range(0, len(h), 16):
            self._ec(h[i:i + 16], 20 + 10 * (i // 16))
        self._ec("id %s  OK: new" % c.settings.bowl_id, 54)

    def notice(self, c):
        """A notice screen.py has no screen for: wrong PIN, locked, flash write."""
        kind, detail = c.arg
        key = {console.N_PIN: "wrong_pin", console.N_LOCKED: "locked", console.N_FLASH: "flash"}.get(kind)
        self._title(console.label(key, c.lang) if key else "?")
        if detail:
            self.fb.text(detail[:16], 0, 28, 1)
            self.fb.text(detail[16:32], 0, 38, 1)

    def award_no(self, t, cls, n):
        """The award number on a claim screen (the counter's verify-claim needs it),
        between the "claim code" label and the class name of the top line."""
        txt = "No.%d" % n
        left = 52 if self._zh else 0
        right = _W - self._cls_w(t, cls) - 6
        y = 4 if self._zh else 8
        if left + 8 * len(txt) <= right:
            self.fb.text(txt, right - 8 * len(txt), y, 1)

    def sleep(self):
        fb = self.fb
        fb.fill(0)
        self._ec("z z z", 28)
