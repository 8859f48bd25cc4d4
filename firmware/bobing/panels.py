# The console's own screens (bobing/console.py): menus, choices, number
# entry, confirmations, the kiosk's claim screens and claim secret, fault
# notices (error screens) and the other notices, and the sleep screen. Pure
# drawing on a screen.Screen, with its text machinery (Chinese from
# glyphs.py, ASCII in framebuf's 8x8 font), so it follows the language setting
# like every other screen. The app imports this module only when one of these
# views is first shown: a family game played by shakes never loads it.
from micropython import const

from bobing import console as C
from bobing import menu

_W = const(128)
_ROWS = const(3)  # list rows under the title (16 px each)

# error screens (console.N_SENSOR, N_RNG, N_JOURNAL are these kinds)
ERR_SENSOR = const(1)  # no accelerometer answers
ERR_RNG = const(2)  # the random source failed its health test
ERR_JOURNAL = const(3)  # the journal was recovered; its bad tail was moved aside
ERRORS = (ERR_SENSOR, ERR_RNG, ERR_JOURNAL)

# labels: the claim screen's one, then three lines for each error kind
_ZH = ("凭码到柜台领奖|传感器故障|请按键掷骰|摇碗不可用|随机数故障|自检未通过|暂停掷骰|"
       "记录已恢复|损坏部分已另存|游戏继续|等待补货|奖品已派完|")
_EN = ("Show at counter|No sensor!|Press the button|to roll.|RNG failure|Health test|"
       "failed: no rolls|Journal|recovered; bad|tail set aside|Waiting for|All prizes out|stock")


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
        claim(s, c.table, c.arg[1], c.arg[0], c.arg[4])
    elif v == C.V_NOTICE:
        if c.arg[0] in ERRORS:
            error(s, c.arg[0], c.arg[1])
        else:
            _notice(s, c)
    elif v == C.V_SLEEP:
        s.fb.fill(0)
        s._ec("z z z", 28)
    elif v == C.V_WAIT:
        wait(s, c.table)


def wait(s, t):
    """An event kiosk out of stock: no customer starts until the prize desk's
    grant arrives (the bowl asks for it by itself); the game number below."""
    fb = s.fb
    fb.fill(0)
    if s._zh:
        s._tc(_label(s, 11), 4)
        s._tc(_label(s, 10), 26)
    else:
        s._ec(_label(s, 11), 4)
        s._ec(_label(s, 10), 22)
        s._ec(_label(s, 12), 34)
    if t is not None:
        fb.hline(0, 48, 128, 1)
        fb.text("No.", 0, 54, 1)
        s._n(t.game_no, 24, 54)  # digit by digit: drawing allocates nothing


_cut = {}  # language -> its labels as a tuple, cut on first use (drawing then allocates nothing)


def _label(s, i):
    t = _cut.get(s.lang)
    if t is None:
        t = _cut[s.lang] = tuple((_ZH if s._zh else _EN).split("|"))
    return t[i]


def claim(s, t, code, cls, ref):
    """A kiosk award's claim code, big enough to read off at the counter,
    with what the counter's verify-claim needs beside it: ref, the game and
    award number as "17-3" (made by the console, so drawing allocates
    nothing), and the prize class it pays (cls: a class id of t)."""
    fb = s.fb
    fb.fill(0)
    zh = s._zh
    w = _W - s._cls_w(t, cls)
    s._cls(t, cls, w, 0 if zh else 8)
    room = w - 4 if zh else _W  # the class sits beside the number (zh) or under it (en)
    y = 4 if zh else 0
    if 8 * (3 + len(ref)) <= room:
        fb.text("No.", 0, y, 1)
        fb.text(ref, 24, y, 1)
    else:
        fb.text(ref, 0, y, 1)
    n = len(code)
    if n > 16:
        raise ValueError("a claim code is at most 16 characters, got %r" % (code,))
    if n <= 8:
        s._big(code, (_W - 16 * n) // 2, 19, 2, 3)
    else:
        s._ec(code, 28)
    fb.hline(0, 45, _W, 1)
    if zh:
        s._tc(_label(s, 0), 48)
    else:
        s._ec(_label(s, 0), 52)


def error(s, kind, detail=None):
    """A fault the players must know about: ERR_SENSOR (no accelerometer:
    a button rolls), ERR_RNG (the random source failed its health test:
    no rolls), ERR_JOURNAL (the journal was recovered and its bad tail
    moved aside). detail: a short ASCII line for the operator (16
    characters show), or None."""
    if kind not in ERRORS:
        raise ValueError("error screen %r: must be one of ERR_SENSOR, ERR_RNG, ERR_JOURNAL" % (kind,))
    fb = s.fb
    fb.fill(0)
    base = 3 * kind - 2  # its three lines in the labels
    # a warning sign
    fb.line(12, 0, 0, 21, 1)
    fb.line(12, 0, 24, 21, 1)
    fb.hline(0, 21, 25, 1)
    fb.fill_rect(11, 7, 3, 8, 1)
    fb.fill_rect(11, 17, 3, 2, 1)
    if s._zh:
        s._t(_label(s, base), 30, 2)
        s._t(_label(s, base + 1), 0, 21)
        s._t(_label(s, base + 2), 0, 39)
    else:
        s._e(_label(s, base), 30, 8)
        s._e(_label(s, base + 1), 0, 28)
        s._e(_label(s, base + 2), 0, 38)
    if detail:  # one 8x8 line: 16 characters show, the framebuffer clips the rest
        fb.text(detail, 0, 56, 1)


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


# the title (a menu label) of every notice drawn here; tests/test_board.py checks that each of
# console's text notices has one
NOTICE_TITLES = {C.N_PIN: "wrong_pin", C.N_LOCKED: "locked", C.N_FLASH: "flash",
                 C.N_SETTINGS: "settings_bad", C.N_BATTERY: "battery"}


def _notice(s, c):
    """A notice screen.py has no screen for: wrong PIN, locked, flash write, bad settings,
    low battery."""
    kind, detail = c.arg
    _title(s, menu.label(NOTICE_TITLES[kind], c.lang))
    if detail:
        s.fb.text(detail[:16], 0, 28, 1)
        s.fb.text(detail[16:32], 0, 38, 1)
