# The console's own screens (bobing/console.py): menus, choices, number
# entry, confirmations, the kiosk's claim screens and claim secret, notices
# that have no screen of their own in screen.py, and the sleep screen. Pure
# drawing on a screen.Screen, with its text machinery (Chinese from
# glyphs.py, ASCII in framebuf's 8x8 font), so it follows the language setting
# like every other screen. The app imports this module only when one of these
# views is first shown: a family game played by shakes never loads it.
from micropython import const

from bobing import console as C
from bobing import menu

_W = const(128)
_ROWS = const(3)  # list rows under the title (16 px each)


def draw(s, c):
    """Draw console c's view (one of the views above) on screen s."""
    v = c.view
    if v == C.V_MENU:
        _menu(s, c)
    elif v == C.V_DIGITS:
        _digits(s, c)
    elif v == C.V_CONFIRM:
        _title(s, menu.label(c.arg, c.lang))
        s._ec("OK: yes", 28)
        s._ec("MENU: no", 42)
    elif v == C.V_SECRET:
        _secret(s, c)
    elif v == C.V_CLAIM:
        cls, code, n = c.arg
        s.claim(c.table, code, cls)
        award_no(s, c.table, cls, n)
    elif v == C.V_NOTICE:
        _notice(s, c)
    elif v == C.V_SLEEP:
        s.fb.fill(0)
        s._ec("z z z", 28)


def _title(s, text):
    fb = s.fb
    fb.fill(0)
    s._t(text, 0, 0)
    fb.hline(0, 16, _W, 1)


def _menu(s, c):
    """A list (menu or choice) with the cursor's row lit."""
    mid, items, cur = c.arg[0], c.arg[1], c.arg[2]
    _title(s, menu.title_of(c, mid))
    fb = s.fb
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
        s._t(menu.item_text(c, items[i]), 2, y, col)
        value = menu.value_of(c, items[i])
        if value:
            s._t(value, _W - 2 - s._tw(value), y, col)
    if len(items) > _ROWS:  # where in the list: a thumb on the right edge
        h = max(4, 46 * _ROWS // len(items))
        fb.fill_rect(_W - 1, 18 + (46 - h) * first // max(1, len(items) - _ROWS), 1, h, 1)


def _digits(s, c):
    """Number entry: each digit in a box, the one being set lit; a PIN shows
    '*' for the digits already entered."""
    title, digits, pos = c.arg[0], c.arg[1], c.arg[2]
    _title(s, menu.label(title, c.lang))
    fb = s.fb
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
        s._big(ch, x + 4, 28, 1, 2, 0 if i == pos else 1)
    s._ec("NEXT +1   OK >", 54)


def _secret(s, c):
    """The claim secret in hex, 16 characters a line, for the counter's
    verifier (python -m host_sim verify-claim --secret-hex ...)."""
    _title(s, menu.label("secret", c.lang))
    h = c.arg
    for i in range(0, len(h), 16):
        s._ec(h[i:i + 16], 20 + 10 * (i // 16))
    s._ec("id %s  OK: new" % c.settings.bowl_id, 54)


def _notice(s, c):
    """A notice screen.py has no screen for: wrong PIN, locked, flash write."""
    kind, detail = c.arg
    key = {C.N_PIN: "wrong_pin", C.N_LOCKED: "locked", C.N_FLASH: "flash"}.get(kind)
    _title(s, menu.label(key, c.lang) if key else "?")
    if detail:
        s.fb.text(detail[:16], 0, 28, 1)
        s.fb.text(detail[16:32], 0, 38, 1)


def award_no(s, t, cls, n):
    """The award number on a claim screen (the counter's verify-claim needs it),
    between the "claim code" label and the class name of the top line."""
    txt = "No.%d" % n
    left = 52 if s._zh else 0
    right = _W - s._cls_w(t, cls) - 6
    y = 4 if s._zh else 8
    if left + 8 * len(txt) <= right:
        s.fb.text(txt, right - 8 * len(txt), y, 1)
