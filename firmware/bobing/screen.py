# What the bowl shows on its 128x64 monochrome OLED (SSD1306). Pure drawing:
# no hardware, runs unchanged on MicroPython and CPython.
#
# A Screen draws on ANY FrameBuffer-like object the caller allocated once (the
# ssd1306 driver on the bowl, host_sim.framebuf on the host) using only fill,
# pixel, hline, vline, line, rect, fill_rect, text and blit; every method clears
# the frame and draws a whole screen, and the caller calls show(). The only
# buffers are two small scratch FrameBuffers made in __init__; drawing a frame
# allocates nothing on MicroPython (bench/screen_bench.py measures it).
#
# Text: ASCII with framebuf's own 8x8 font, everything else with the 16x16
# Unifont bitmaps of glyphs.py (generated; `make glyphs`). A Chinese line is 16
# pixels high; ASCII inside it is drawn 4 pixels down so that it sits centred.
# lang "zh" (default) shows Chinese; "en" shows pinyin names with English
# glosses for visitors, in the 8x8 font (two lines where Chinese has one).
#
# The game state comes from game.Table / game.Outcome, read by attribute name
# only (notes: game contract): turn, round, seats, started, ended, reason,
# holder, holder_dice, holder_rank, classes, class_zh, initial, pool; outcome
# kind, seat, dice, rank, bonus, won, holder_before, holder_after, skipped,
# ended, reason.
import framebuf
from micropython import const

from bobing import glyphs, rules
from bobing.game import EV_ROLL, EV_SPILL, EV_TIMEUP, REASONS

_W = const(128)
_H = const(64)

LANGS = ("zh", "en")

_CHARS = glyphs.CHARS
_WIDTHS = glyphs.WIDTHS
_DATA = glyphs.DATA
_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")

# Pips of a face on a 3x3 grid, bit (3 * row + col).
_PIPS = (0, 0x010, 0x044, 0x054, 0x145, 0x155, 0x16D)
# cos, sin of 0, 22.5, 45, 67.5 degrees, times 256 (a square repeats every 90)
_COS = (256, 237, 181, 98)
_SIN = (0, 98, 181, 237)

# Labels, by index. Chinese first; "en" is for visitors.
_L_HAO = const(0)
_L_ROUND_A = const(1)
_L_ROUND_B = const(2)
_L_TURN = const(3)
_L_LEFT = const(4)
_L_ZY = const(5)
_L_NEW = const(6)
_L_PLAYERS = const(7)
_L_SHAKE_START = const(8)
_L_SHAKING = const(9)
_L_WINS = const(10)
_L_CHASE = const(11)
_L_NO_PRIZE = const(12)
_L_ZY_TO = const(13)
_L_ZY_STAYS = const(14)
_L_SITS_OUT = const(15)
_L_NEXT = const(16)
_L_GAME_OVER = const(17)
_L_GRAB = const(18)
_L_NO_ZY = const(19)
_L_PRIZES = const(20)
_L_SPILL = const(21)
_L_VOID = const(22)
_L_TIME_UP = const(23)
_L_START = const(24)
_L_CUSTOMER = const(25)
_L_SHAKES_A = const(26)
_L_SHAKES_B = const(27)
_L_NEXT_CUSTOMER = const(28)
_L_THANKS = const(29)
_L_YOU_WIN = const(30)
_L_LAST_ROUND = const(31)
_L_FIRST = const(32)
_L_TOTAL_A = const(33)
_L_TOTAL_B = const(34)
_L_ALL_WON = const(35)
_L_NOT_PAID = const(36)
_L_TO_SHAKE = const(37)
_L_TIE = const(38)
_L_NOT_ABOVE = const(39)

# The labels of each language as ONE "|"-separated text (as separate strings,
# both languages' labels took 7 KB of the unix port's heap); set_lang() keeps
# the language in use as a tuple.
_ZH = (
    "号|第|轮|轮到|剩余奖品|状元|新游戏|人|摇碗定先手|摇碗中|"
    "得|追|无奖|状元归|状元仍归|停一轮|下一位|游戏结束|关灯抢饼|无状元|"
    "奖品|骰子出碗|本次作废|时间到|开始|位顾客|还有|次|请下一位顾客|谢谢参与|"
    "|本轮后结束|先摇|共|点|已派完|此项不设奖||同分先到者得|未胜过"
)
_EN = (
    "Seat|Round||Seat|Prizes left|Champion:|"
    "New game|players|Shake to start|shaking...|takes|from|"
    "No prize|Zhuangyuan now|Zhuangyuan stays|sits out a turn|Next:|Game over|"
    "LIGHTS OFF!|No Zhuangyuan|Prizes|Dice out of bowl|roll void|Time is up|"
    "Start|Customer|Shakes left||Next customer!|Thank you!|"
    "You win|Last round|starts|Total||all won|pays no prize here|to shake|Tie: first keeps|"
    "does not beat"
)

# why a game ended (game.REASONS, in its order) -> Chinese, English
_REASON_ZH = "奖品发完|六勃红|关灯抢饼|时间到|库存已空|状元王中王"
_REASON_EN = "All prizes won|Liu Bo Hong|Lights off, grab|Time is up|Out of stock|Champion final"


def _glyph_index(ch):
    return _CHARS.find(ch)


class Screen:
    """Draws the bowl's screens on `fb` (128x64, MONO_VLSB FrameBuffer-like)."""

    def __init__(self, fb, lang="zh"):
        self.fb = fb
        self._g = bytearray(32)  # one 16x16 glyph, for blit
        self._gfb = framebuf.FrameBuffer(self._g, 16, 16, framebuf.MONO_VLSB)
        self._s = bytearray(64)  # 8 characters of 8x8 text, to scale up
        self._sfb = framebuf.FrameBuffer(self._s, 64, 8, framebuf.MONO_VLSB)
        self._en_names = {}
        self.lang = "zh"
        self.set_lang(lang)

    def set_lang(self, lang):
        if lang not in LANGS:
            raise ValueError("screen language %r: must be one of %s" % (lang, ", ".join(LANGS)))
        self.lang = lang
        zh = lang == "zh"
        self._zh = zh
        # this language's labels, rank names (Chinese, or pinyin and English) and reasons
        self._l = tuple((_ZH if zh else _EN).split("|"))
        self._rn = rules.rank_names("zh" if zh else "pinyin")
        self._re = None if zh else rules.rank_names("en")
        self._why = tuple((_REASON_ZH if zh else _REASON_EN).split("|"))

    # ---------------------------------------------------------------- text
    def _glyph(self, ch, x, y, c):
        i = _glyph_index(ch)
        if i < 0:  # not in glyphs.py (tests/test_glyphs.py keeps this from happening)
            self.fb.rect(x + 1, y + 1, 14, 14, c)
            return 16
        g = self._g
        d = _DATA[i >> 4]  # 16 glyphs a chunk (glyphs.py)
        o = (i & 15) * 32
        inv = 0 if c else 0xFF  # dark text on a lit background: invert, key out the lit
        for j in range(32):
            g[j] = d[o + j] ^ inv
        self.fb.blit(self._gfb, x, y, 0 if c else 1)
        return _WIDTHS[i]

    def _t(self, s, x, y, c=1):
        """Draw s on a 16-pixel line with its top at y; returns the x after it."""
        fb = self.fb
        for ch in s:
            if ord(ch) < 128:
                fb.text(ch, x, y + 4, c)
                x += 8
            else:
                x += self._glyph(ch, x, y, c)
        return x

    @staticmethod
    def _tw(s):
        w = 0
        for ch in s:
            if ord(ch) < 128:
                w += 8
            else:
                i = _glyph_index(ch)
                w += 16 if i < 0 else _WIDTHS[i]
        return w

    def _tc(self, s, y, c=1):
        return self._t(s, (_W - self._tw(s)) // 2, y, c)

    def _e(self, s, x, y, c=1):
        """8x8 text; returns the x after it."""
        self.fb.text(s, x, y, c)
        return x + 8 * len(s)

    def _ec(self, s, y, c=1):
        self.fb.text(s, (_W - 8 * len(s)) // 2, y, c)

    def _er(self, s, right, y, c=1):
        self.fb.text(s, right - 8 * len(s), y, c)

    @staticmethod
    def _nw(n):
        w = 8
        while n >= 10:
            n //= 10
            w += 8
        return w

    def _n(self, n, x, y, c=1):
        """A whole number >= 0 in the 8x8 font; returns the x after it."""
        d = 1
        while d * 10 <= n:
            d *= 10
        fb = self.fb
        while d:
            fb.text(_DIGITS[(n // d) % 10], x, y, c)
            x += 8
            d //= 10
        return x

    def _seat(self, seat, x, y, c=1):
        """'3号' on a 16-pixel line (zh) or 'Seat 3' in 8x8 (en); returns x after."""
        if self._zh:
            x = self._n(seat, x, y + 4, c)
            return self._t(self._l[_L_HAO], x, y, c)
        x = self._e(self._l[_L_HAO], x, y, c)
        return self._n(seat, x + 8, y, c)

    def _seat_w(self, seat):
        if self._zh:
            return self._nw(seat) + 16
        return 40 + self._nw(seat)

    def _blow(self, ncols, x, y, sx, sy, c):
        # scale the first ncols columns of the 8x8 scratch up by sx, sy
        s = self._s
        fb = self.fb
        for col in range(ncols):
            v = s[col]
            r = 0
            while v:
                if v & 1:
                    r0 = r
                    while v & 1:
                        v >>= 1
                        r += 1
                    fb.fill_rect(x + col * sx, y + r0 * sy, sx, (r - r0) * sy, c)
                else:
                    v >>= 1
                    r += 1

    def _big(self, s, x, y, sx, sy, c=1):
        """At most 8 ASCII characters, scaled sx by sy; returns the x after."""
        n = len(s)
        if n > 8:
            raise ValueError("big text is at most 8 characters, got %d" % n)
        self._sfb.fill(0)
        self._sfb.text(s, 0, 0, 1)
        self._blow(8 * n, x, y, sx, sy, c)
        return x + 8 * n * sx

    def _bign(self, n, x, y, sx, sy, c=1):
        """A whole number 0..99999999, scaled; returns the x after."""
        self._sfb.fill(0)
        d = 1
        while d * 10 <= n:
            d *= 10
        k = 0
        while d:
            self._sfb.text(_DIGITS[(n // d) % 10], k, 0, 1)
            k += 8
            d //= 10
        self._blow(k, x, y, sx, sy, c)
        return x + k * sx

    # ---------------------------------------------------------------- names
    def _rank(self, code, x, y, c=1):
        """A rank's name at (x, y): Chinese on one 16-pixel line, else pinyin."""
        if self._zh:
            return self._t(self._rn[code], x, y, c)
        return self._e(self._rn[code], x, y, c)

    def _rank_w(self, code):
        if self._zh:
            return self._tw(self._rn[code])
        return 8 * len(self._rn[code])

    def _class_name(self, t, cls):
        if self._zh:
            return t.class_zh[cls]
        name = self._en_names.get(cls)
        if name is None:  # pinyin for the tier classes, else the class id, capitalised
            name = cls
            for i in range(len(rules.TIER_IDS)):
                if rules.TIER_IDS[i] == cls:
                    name = self._rn[i] if i < rules.ZHUANGYUAN else "Zhuangyuan"
            name = name[0].upper() + name[1:]
            self._en_names[cls] = name
        return name

    def _cls(self, t, cls, x, y, c=1):
        if self._zh:
            return self._t(t.class_zh[cls], x, y, c)
        return self._e(self._class_name(t, cls), x, y, c)

    def _cls_w(self, t, cls):
        if self._zh:
            return self._tw(t.class_zh[cls])
        return 8 * len(self._class_name(t, cls))

    # ---------------------------------------------------------------- dice
    def _die(self, face, x, y, size):
        """A die face, size 17 or 15 (3x3 pips); 1 and 4 (red on real dice) are
        drawn filled, dark pips on a lit face."""
        fb = self.fb
        red = face == 1 or face == 4
        e = size - 1
        if red:
            fb.fill_rect(x, y, size, size, 1)
            fb.pixel(x, y, 0)
            fb.pixel(x + e, y, 0)
            fb.pixel(x, y + e, 0)
            fb.pixel(x + e, y + e, 0)
        else:
            fb.hline(x + 1, y, size - 2, 1)
            fb.hline(x + 1, y + e, size - 2, 1)
            fb.vline(x, y + 1, size - 2, 1)
            fb.vline(x + e, y + 1, size - 2, 1)
        pc = 0 if red else 1
        if face == 1:  # one big round pip
            m = x + size // 2 - 2
            n = y + size // 2 - 2
            fb.fill_rect(m, n + 1, 5, 3, pc)
            fb.hline(m + 1, n, 3, pc)
            fb.hline(m + 1, n + 4, 3, pc)
            return
        o = (size - 11) // 2
        bits = _PIPS[face]
        for k in range(9):
            if bits >> k & 1:
                fb.fill_rect(x + o + 4 * (k % 3), y + o + 4 * (k // 3), 3, 3, pc)

    def _dice_row(self, dice, y, size, gap):
        x = (_W - 6 * size - 5 * gap) // 2
        for d in dice:
            self._die(d, x, y, size)
            x += size + gap

    def _tumbling_die(self, cx, cy, step, face):
        # a 14-pixel die turned by step * 22.5 degrees, outline and 2x2 pips
        fb = self.fb
        cs = _COS[step & 3]
        sn = _SIN[step & 3]
        ax = (7 * cs - 7 * sn) >> 8  # corner (7, 7) turned
        ay = (7 * sn + 7 * cs) >> 8
        bx = (-7 * cs - 7 * sn) >> 8  # corner (-7, 7) turned
        by = (-7 * sn + 7 * cs) >> 8
        fb.line(cx + ax, cy + ay, cx + bx, cy + by, 1)
        fb.line(cx + bx, cy + by, cx - ax, cy - ay, 1)
        fb.line(cx - ax, cy - ay, cx - bx, cy - by, 1)
        fb.line(cx - bx, cy - by, cx + ax, cy + ay, 1)
        bits = _PIPS[face]
        for k in range(9):
            if bits >> k & 1:
                px = 4 * (k % 3) - 4
                py = 4 * (k // 3) - 4
                fb.fill_rect(cx + ((px * cs - py * sn) >> 8) - 1, cy + ((px * sn + py * cs) >> 8) - 1, 2, 2, 1)

    # ---------------------------------------------------------------- screens
    def idle(self, t):
        """Waiting for a shake: whose turn, the round, the 状元 so far, prizes left."""
        if t.ended:
            self.game_over(t, 0)
            return
        fb = self.fb
        fb.fill(0)
        zh = self._zh
        L = self._l
        if not t.started:
            if zh:
                self._tc(L[_L_NEW], 0)
                w = self._nw(t.seats) + 16
                self._t(L[_L_PLAYERS], self._n(t.seats, (_W - w) // 2, 22), 18)
                self._tc(L[_L_SHAKE_START], 44)
            else:
                self._ec(L[_L_NEW], 4)
                w = self._nw(t.seats) + 8 + 8 * len(L[_L_PLAYERS])
                self._e(L[_L_PLAYERS], self._n(t.seats, (_W - w) // 2, 26) + 8, 26)
                self._ec(L[_L_SHAKE_START], 48)
            self._frame_corners()
            return
        if getattr(t, "kiosk", False):
            self._idle_kiosk(t)
            return
        # top line: the round, and the 状元 holder so far
        if zh:
            x = self._t(L[_L_ROUND_A], 0, 0)
            self._t(L[_L_ROUND_B], self._n(t.round, x, 4), 0)
        else:
            self._n(t.round, self._e(L[_L_ROUND_A], 0, 0) + 8, 0)
        if t.holder:
            if zh:
                x = _W - 32 - self._seat_w(t.holder)
                self._seat(t.holder, self._t(L[_L_ZY], x, 0), 0)
            else:  # "Champion: seat 5" (the 状元 so far)
                x = self._e(L[_L_ZY], 0, 9) + (8 if t.holder < 10 else 0)
                self._n(t.holder, self._e("seat", x, 9) + 8, 9)
        # middle: the seat to shake, big
        if zh:
            w = self._nw(t.turn) * 3
            lw = self._tw(L[_L_TURN])
            x = (_W - lw - 4 - w - 4 - 16) // 2
            x = self._t(L[_L_TURN], x, 26) + 4
            x = self._bign(t.turn, x, 20, 3, 3) + 4
            self._t(L[_L_HAO], x, 26)
        else:  # "Seat 1 to / shake": the number big between
            k = 3 if t.turn < 10 else 2
            w = self._nw(t.turn) * k
            x = (_W - 32 - 8 - w - 8 - 40) // 2
            x = self._bign(t.turn, self._e(L[_L_TURN], x, 26) + 8, 22 if k == 2 else 18, k, k) + 8
            self._e("to", x, 22)
            self._e("shake", x, 32)
        self._left(t)

    def _left(self, t):
        # bottom line: prizes left in the pool
        L = self._l
        left = 0
        for cls in t.classes:
            left += t.pool[cls]
        if self._zh:
            lw = self._tw(L[_L_LEFT]) + 4 + self._nw(left)
            x = self._t(L[_L_LEFT], (_W - lw) // 2, 48) + 4
            self._n(left, x, 52)
        else:
            lw = 8 * len(L[_L_LEFT]) + 8 + self._nw(left)
            self._n(left, self._e(L[_L_LEFT], (_W - lw) // 2, 52) + 8, 52)

    def _idle_kiosk(self, t):
        # a mall kiosk (game.Table extras: kiosk, customer, shakes_left): the
        # customer's number and shakes left, or a call for the next customer
        L = self._l
        n = t.shakes_left
        if self._zh:
            if n:
                self._t(L[_L_CUSTOMER], self._n(t.customer, self._t(L[_L_ROUND_A], 0, 0), 4), 0)
                lw = self._tw(L[_L_SHAKES_A])
                x = (_W - lw - 4 - 3 * self._nw(n) - 4 - 16) // 2
                x = self._bign(n, self._t(L[_L_SHAKES_A], x, 26) + 4, 20, 3, 3) + 4
                self._t(L[_L_SHAKES_B], x, 26)
            else:
                self._tc(L[_L_NEXT_CUSTOMER], 24)
        else:
            if n:
                self._n(t.customer, self._e(L[_L_CUSTOMER], 0, 0) + 8, 0)
                lw = 8 * len(L[_L_SHAKES_A])
                x = (_W - lw - 8 - 3 * self._nw(n)) // 2
                self._bign(n, self._e(L[_L_SHAKES_A], x, 28) + 8, 20, 3, 3)
            else:
                self._ec(L[_L_NEXT_CUSTOMER], 28)
        self._left(t)

    def _frame_corners(self):
        fb = self.fb
        for x, y, dx, dy in ((0, 0, 1, 1), (_W - 1, 0, -1, 1), (0, _H - 1, 1, -1), (_W - 1, _H - 1, -1, -1)):
            fb.hline(min(x, x + 6 * dx), y, 7, 1)
            fb.vline(x, min(y, y + 6 * dy), 7, 1)

    def shaking(self, t, frame):
        """Dice tumbling in the bowl while the seat whose turn it is shakes; one
        call per animation frame (any int frame; the motion repeats)."""
        fb = self.fb
        fb.fill(0)
        if not t.turn:  # the start roll: no seat's turn yet
            if self._zh:
                self._tc(self._l[_L_SHAKE_START], 0)
            else:
                self._ec(self._l[_L_SHAKE_START], 4)
        elif self._zh:
            x = self._seat(t.turn, 2, 0)
            self._t(self._l[_L_SHAKING], x + 4, 0)
        else:
            x = self._seat(t.turn, 2, 4)
            self._e(self._l[_L_SHAKING], x + 8, 4)
        # the bowl: a rim and a rounded bottom
        fb.line(2, 18, 12, 52, 1)
        fb.line(12, 52, 28, 62, 1)
        fb.hline(28, 63, 72, 1)
        fb.line(99, 62, 115, 52, 1)
        fb.line(115, 52, 125, 18, 1)
        for i in range(6):
            # each die bounces between the bowl's walls on its own periods
            p = frame * (3 + i % 3) + 17 * i
            cx = 24 + _tri(p, 80)
            cy = 26 + _tri(frame * (2 + (i * 5) % 3) + 11 * i, 26)
            step = (frame + i) * (1 + (i & 1))
            face = (frame // 3 + i * 5) % 6 + 1
            self._tumbling_die(cx, cy, step, face)

    def result(self, t, out, page=0):
        """A roll's outcome: the six dice (1s and 4s lit), the rank, then one
        message per page (prize won or chased from a seat, 状元 holder change,
        skipped seats, who is next); result_pages() says how many pages."""
        fb = self.fb
        fb.fill(0)
        zh = self._zh
        L = self._l
        if out.kind == EV_ROLL and out.dice:
            self._dice_row(out.dice, 0, 17, 4)
            # the rank, a combined award as "+一秀"; in Chinese after the roller's seat
            w = self._rank_w(out.rank)
            if out.bonus:
                w += 8 + self._rank_w(out.bonus)
            if zh:
                x = (_W - w) // 2
                if not getattr(t, "kiosk", False):  # a kiosk has one "seat": the customer
                    x = max(self._seat(out.seat, 0, 19) + 4, x)
                x = self._rank(out.rank, x, 19)
                if out.bonus:
                    self._rank(out.bonus, self._t("+", x, 19), 19)
            elif not out.rank:  # nothing: no pinyin to puzzle over
                self._ec(L[_L_NO_PRIZE], 24)
            else:  # pinyin, then the English gloss
                x = self._rank(out.rank, (_W - w) // 2, 20)
                if out.bonus:
                    self._rank(out.bonus, self._e("+", x, 20), 20)
                self._ec(self._re[out.rank], 29)
        elif out.dice:  # the start roll: seat 1's two dice and their total decide who begins
            total = out.dice[0] + out.dice[1]
            x = (_W - 17 - 4 - 17 - 8 - 8 - 8 - 2 * self._nw(total)) // 2
            self._die(out.dice[0], x, 0, 17)
            self._die(out.dice[1], x + 21, 0, 17)
            x = self._bign(total, self._e("=", x + 46, 5) + 8, 1, 2, 2)
            if zh:
                x = self._t(L[_L_START], 16, 19) + 8
                self._t(L[_L_TOTAL_B], self._n(total, self._t(L[_L_TOTAL_A], x, 19), 23), 19)
            else:
                self._n(total, self._e(L[_L_TOTAL_A], self._e(L[_L_START], 16, 24) + 8, 24) + 8, 24)
        else:
            # no dice: a spill (the roll is void), time up, or a start
            if out.kind == EV_SPILL:
                title, sub = L[_L_SPILL], L[_L_VOID]
            elif out.kind == EV_TIMEUP:  # RULES.md §6: the round is played out
                title, sub = L[_L_TIME_UP], L[_L_LAST_ROUND]
            else:
                title, sub = L[_L_START], ""
            if zh:
                fb.fill_rect(0, 0, _W, 17, 1)
                self._tc(title, 1, 0)
                if sub:  # a spill names the seat whose roll is void
                    x = self._seat(out.seat, 0, 19) + 4 if out.kind == EV_SPILL else 0
                    self._t(sub, max(x, (_W - self._tw(sub)) // 2), 19)
            else:
                fb.fill_rect(0, 0, _W, 17, 1)
                self._ec(title, 5, 0)
                if sub:
                    if out.kind == EV_SPILL:
                        self._e(sub, self._seat(out.seat, 0, 24) + 8, 24)
                    else:
                        self._ec(sub, 24)
        n = self._messages(t, out, page)
        if n > 1:  # which page: a dot per page, the current one filled
            x = (_W - 6 * n) // 2
            for i in range(n):
                if i == page % n:
                    fb.fill_rect(x + 6 * i, 60, 4, 4, 1)
                else:
                    fb.rect(x + 6 * i, 60, 4, 4, 1)

    def result_pages(self, t, out):
        return self._messages(t, out, -1)

    def _messages(self, t, out, page):
        """Count result messages; draw the one numbered page % count (page >= 0)."""
        n = 0
        k = -1
        total = self._messages(t, out, -1) if page >= 0 else 0
        if total:
            k = page % total
        won = out.won
        # prizes, identical (class, from) pairs grouped
        i = 0
        while i < len(won):
            j = i + 1
            while j < len(won) and won[j] == won[i]:
                j += 1
            if n == k:
                self._msg_won(t, 0 if getattr(t, "kiosk", False) else out.seat, won[i][0], won[i][1], j - i)
            n += 1
            i = j
        zy = rules.is_zhuangyuan(out.rank) if out.kind == EV_ROLL else False
        if out.holder_after != out.holder_before and out.holder_after:
            if n == k:
                self._msg_seat(_L_ZY_TO, out.holder_after, False)
            n += 1
        elif zy and out.holder_after:
            if n == k:
                self._msg_seat(_L_ZY_STAYS, out.holder_after, False)
            n += 1
            if out.holder_after != out.seat and out.kind == EV_ROLL:
                if n == k:  # why not: an exact tie (the earlier stands), or a smaller 状元
                    if out.rank == t.holder_rank and t.profile.options["zhuangyuan_tiebreak"] == "off":
                        self._msg_line(self._l[_L_TIE])
                    else:
                        self._msg_seat(_L_NOT_ABOVE, out.holder_after, False)
                n += 1
        elif not won and out.kind == EV_ROLL and out.rank and not zy:
            if n == k:  # why: that class has run out, or this profile pays nothing for the rank
                cls = t.class_of(out.rank) if hasattr(t, "class_of") else None
                if cls is not None and not t.pool[cls]:
                    self._msg_cls(t, cls, _L_ALL_WON)
                elif cls is None and hasattr(t, "class_of"):
                    self._msg_line(self._l[_L_NOT_PAID])
                else:
                    self._msg_line(self._l[_L_NO_PRIZE])
            n += 1
        for s in out.skipped:
            if n == k:
                self._msg_seat(_L_SITS_OUT, s, True)
            n += 1
        if out.ended:
            if n == k:
                self._msg_line(self._l[_L_GAME_OVER])
            n += 1
        elif getattr(t, "kiosk", False):
            if n == k:
                if t.shakes_left:
                    self._msg_shakes(t.shakes_left)
                else:
                    self._msg_line(self._l[_L_THANKS])
            n += 1
        elif t.turn and t.seats > 1:
            if n == k:
                if out.kind == EV_ROLL or out.kind == EV_SPILL or out.kind == EV_TIMEUP:
                    self._msg_seat(_L_NEXT, t.turn, False)
                else:  # a start: "4号先摇" / "Seat 4 starts"
                    self._msg_seat(_L_FIRST, t.turn, True)
            n += 1
        return n

    def _msg_cls(self, t, cls, label):
        # "三红已派完" / "San Hong all won"
        s = self._l[label]
        if self._zh:
            x = (_W - self._cls_w(t, cls) - self._tw(s)) // 2
            self._t(s, self._cls(t, cls, x, 39), 39)
        else:
            self._ec(self._l[_L_NO_PRIZE], 40)
            x = (_W - self._cls_w(t, cls) - 8 - 8 * len(s)) // 2
            self._e(s, self._cls(t, cls, x, 49) + 8, 49)

    def _msg_line(self, s):
        if self._zh:
            self._tc(s, 39)
        else:
            self._ec(s, 44)

    def _msg_won(self, t, seat, cls, src, count):
        # zh: "得对堂" / "得对堂×2" / "追5号对堂"
        if self._zh:
            w = self._cls_w(t, cls) + (self._seat_w(src) + 16 if src else 16)
            if count > 1:
                w += 8 + self._nw(count)
            x = (_W - w) // 2
            if src:
                x = self._seat(src, self._t(self._l[_L_CHASE], x, 39), 39)
            else:
                x = self._t(self._l[_L_WINS], x, 39)
            x = self._cls(t, cls, x, 39)
            if count > 1:
                self._n(count, self._t("×", x, 39), 43)
            return
        # en: "Seat 8 takes" (a kiosk's customer: "You win") / "Dui Tang x2" or "Dui Tang from 5"
        if seat:
            w = self._seat_w(seat) + 8 + 8 * len(self._l[_L_WINS])
            self._e(self._l[_L_WINS], self._seat(seat, (_W - w) // 2, 40) + 8, 40)
        else:
            self._ec(self._l[_L_YOU_WIN], 40)
        w = self._cls_w(t, cls)
        if count > 1:
            w += 16 + self._nw(count)
        if src:
            w += 8 + 8 * len(self._l[_L_CHASE]) + 8 + self._nw(src)
        x = self._cls(t, cls, (_W - w) // 2, 49)
        if count > 1:
            x = self._n(count, self._e(" x", x, 49), 49)
        if src:
            self._n(src, self._e(self._l[_L_CHASE], x + 8, 49) + 8, 49)

    def _msg_seat(self, label, seat, seat_first):
        # zh one line, "状元归3号" / "3号停一轮"; en the label and "Seat 3" on two
        # lines, but "Next: Seat 4" on one
        if self._zh:
            s = self._l[label]
            x = (_W - self._tw(s) - self._seat_w(seat)) // 2
            if seat_first:
                self._t(s, self._seat(seat, x, 39), 39)
            else:
                self._seat(seat, self._t(s, x, 39), 39)
            return
        s = self._l[label]
        if label == _L_NEXT:
            x = (_W - 8 * len(s) - 8 - self._seat_w(seat)) // 2
            self._seat(seat, self._e(s, x, 44) + 8, 44)
            return
        if label == _L_FIRST:  # "Seat 4 starts"
            x = (_W - self._seat_w(seat) - 8 - 8 * len(s)) // 2
            self._e(s, self._seat(seat, x, 44) + 8, 44)
            return
        self._ec(s, 49 if seat_first else 40)
        self._seat(seat, (_W - self._seat_w(seat)) // 2, 40 if seat_first else 49)

    def _msg_shakes(self, n):
        # "还有2次" / "Shakes left 2"
        if self._zh:
            a = self._l[_L_SHAKES_A]
            b = self._l[_L_SHAKES_B]
            x = (_W - self._tw(a) - self._nw(n) - self._tw(b)) // 2
            self._t(b, self._n(n, self._t(a, x, 39), 43), 39)
        else:
            a = self._l[_L_SHAKES_A]
            self._n(n, self._e(a, (_W - 8 * len(a) - 8 - self._nw(n)) // 2, 44) + 8, 44)

    def pool(self, t, page=0):
        """Prizes left in each class (and, for visitors, of how many); pool_pages()
        says how many pages."""
        fb = self.fb
        fb.fill(0)
        zh = self._zh
        rows, cols = self._pool_layout(t)
        per = rows * cols
        n = len(t.classes)
        pages = (n + per - 1) // per
        first = (page % pages) * per
        if not zh:  # title bar "Prizes 40/63"
            left = 0
            total = 0
            for cls in t.classes:
                left += t.pool[cls]
                total += t.initial[cls]
            fb.fill_rect(0, 0, _W, 9, 1)
            self._e(self._l[_L_PRIZES], 2, 1, 0)
            self._frac(left, total, _W - 2, 1, 0)
        elif cols == 2:
            fb.vline(64, 0, _H, 1)
        last = min(n, first + per)
        if cols == 2:  # balance the two columns
            rows = (last - first + 1) // 2
        for i in range(first, last):
            cls = t.classes[i]
            r = (i - first) % rows
            if zh:  # three 16-pixel lines with room between them
                y = 2 + 22 * r
                if cols == 1:
                    self._cls(t, cls, 0, y)
                    self._bar(52, y + 4, 34, t.pool[cls], t.initial[cls])
                    self._frac(t.pool[cls], t.initial[cls], _W, y + 4)
                else:
                    x0 = 67 * ((i - first) // rows)
                    self._cls(t, cls, x0, y)
                    self._n(t.pool[cls], x0 + 61 - self._nw(t.pool[cls]), y + 4)
            else:
                y = 11 + 9 * r
                self._cls(t, cls, 0, y)
                self._frac(t.pool[cls], t.initial[cls], _W, y)
        if pages > 1:  # which page: a mark per page down the right edge
            for i in range(pages):
                fb.fill_rect(_W - 3, 20 + 6 * i, 3, 3 if i == page % pages else 1, 1)

    def pool_pages(self, t):
        rows, cols = self._pool_layout(t)
        return (len(t.classes) + rows * cols - 1) // (rows * cols)

    def _pool_layout(self, t):
        # (rows, columns) a page: Chinese has 3 lines, two columns when names and
        # counts fit side by side; English has 6 lines under its title
        if not self._zh:
            return 6, 1
        if len(t.classes) <= 3:
            return 3, 1
        for cls in t.classes:
            if self._cls_w(t, cls) + 4 + self._nw(t.initial[cls]) > 61:
                return 3, 1
        return 3, 2

    def _bar(self, x, y, w, n, of):
        self.fb.rect(x, y, w, 8, 1)
        if of:
            self.fb.fill_rect(x + 1, y + 1, (w - 2) * n // of, 6, 1)

    def _frac(self, n, of, right, y, c=1):
        x = right - self._nw(n) - 8 - self._nw(of)
        self._n(of, self._e("/", self._n(n, x, y, c), y, c), y, c)

    def game_over(self, t, frame=0):
        """The end: the 状元 ceremony (the holder, his dice and rank, a marching
        border and twinkling stars; one call per frame), or the grab, or a game
        that ended without a 状元. Every 40 frames the rank line shows the reason."""
        fb = self.fb
        fb.fill(0)
        zh = self._zh
        L = self._l
        self._ants(frame)
        why = (frame // 40) & 1
        if t.holder:
            for k in range(4):
                self._star(_STARS[2 * k], _STARS[2 * k + 1], (frame + 5 * k) % 12)
            if zh:
                w = 32 + 4 + self._nw(t.holder) * 2 + 16
                x = self._t(L[_L_ZY], (_W - w) // 2, 3) + 4
                x = self._bign(t.holder, x, 3, 2, 2)
                self._t(L[_L_HAO], x, 3)
            else:
                self._ec(L[_L_ZY], 3)
                self._seat(t.holder, (_W - self._seat_w(t.holder)) // 2, 12)
            if t.holder_dice:
                self._dice_row(t.holder_dice, 22, 15, 3)
            if why:
                self._reason(t.reason, 41)
            elif zh:
                self._tc(self._rn[t.holder_rank], 41)
            else:
                self._ec(self._rn[t.holder_rank], 41)
                self._ec(self._re[t.holder_rank], 50)
            return
        if t.reason == "heiliubo_grab":
            # lights off: a dark screen with the call to grab blinking
            fb.fill_rect(2, 2, _W - 4, _H - 4, 0)
            if (frame // 6) & 1 == 0:
                if zh:
                    fb.fill_rect(16, 14, 96, 20, 1)
                    self._tc(L[_L_GRAB], 16, 0)
                else:
                    fb.fill_rect(16, 12, 96, 22, 1)
                    self._ec(L[_L_GRAB], 14, 0)
                    self._ec("GRAB!", 24, 0)
            if zh:
                self._tc(self._rn[rules.HEILIUBO], 42)
            else:
                self._ec(self._rn[rules.HEILIUBO], 42)
            return
        if zh:
            self._tc(L[_L_GAME_OVER], 6)
            self._tc(L[_L_NO_ZY], 24)
        else:
            self._ec(L[_L_GAME_OVER], 10)
            self._ec(L[_L_NO_ZY], 24)
        self._reason(t.reason, 42)

    def _reason(self, reason, y):
        for i in range(len(REASONS)):
            if REASONS[i] == reason:
                if self._zh:
                    self._tc(self._why[i], y)
                else:
                    self._ec(self._why[i], y + 4)
                return
        if self._zh:
            self._tc(self._l[_L_GAME_OVER], y)
        else:
            self._ec(self._l[_L_GAME_OVER], y + 4)

    def _ants(self, frame):
        # a dashed border whose dashes march clockwise, 4 on / 4 off
        fb = self.fb
        ph = frame % 8
        for x in range(-ph, _W, 8):  # top, left to right; bottom, right to left
            fb.hline(x, 0, 4, 1)
            fb.hline(_W - 4 - x, _H - 1, 4, 1)
        for y in range(-ph, _H, 8):  # right, downwards; left, upwards
            fb.vline(_W - 1, y, 4, 1)
            fb.vline(0, _H - 4 - y, 4, 1)

    def _star(self, x, y, phase):
        # a twinkle: a dot, a small cross, a big cross, back
        fb = self.fb
        r = 0 if phase > 8 else (1 if phase < 2 or phase > 6 else 2 if phase < 3 or phase > 5 else 3)
        if r == 0:
            return
        fb.hline(x - r + 1, y, 2 * r - 1, 1)
        fb.vline(x, y - r + 1, 2 * r - 1, 1)


# where the ceremony's stars twinkle (x, y pairs)
_STARS = (8, 8, 119, 8, 5, 29, 122, 29)


def _tri(p, span):
    """A triangle wave over 0..span: how a bouncing die moves."""
    p %= 2 * span
    return p if p < span else 2 * span - p
