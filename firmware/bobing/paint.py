# How the bowl writes on its 128x64 monochrome OLED: the one painter that
# screen.py (the game's screens), panels.py (the console's screens) and
# final_play.py draw through. Pure drawing, no hardware; the same on
# MicroPython and CPython. Modelled on nano-gui's Writer: a small object handed
# the framebuffer once, whose methods draw a piece and return where it ends.
#
# Fonts: ASCII in framebuf's own 8x8 font; everything else with the 16x16
# Unifont bitmaps of glyphs.py (generated; `make glyphs`). Two kinds of line:
#   text*    a 16-pixel line (Chinese, and ASCII drawn 4 pixels down in it);
#   en*      an 8-pixel line of ASCII (the visitors' English screens).
# Numbers are drawn digit by digit and the scratch buffers are made in
# __init__, so no method allocates (bench/screen_bench.py and
# tests/mp/test_screen_heap.py hold the screens to that).
#
# The painter also writes the game's names in the language in use (lang "zh":
# Chinese; "en": pinyin and English for visitors): a seat, a rank, a prize
# class of a game.Table (read by attribute: class_zh).
import framebuf
from micropython import const

from bobing import glyphs, rules
from bobing import vocab

_W = const(128)
_H = const(64)

LANGS = ("zh", "en")

_DIGITS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9")

# Pips of a face on a 3x3 grid, bit (3 * row + col).
_PIPS = (0, 0x010, 0x044, 0x054, 0x145, 0x155, 0x16D)
# cos, sin of 0, 22.5, 45, 67.5 degrees, times 256 (a square repeats every 90)
_COS = (256, 237, 181, 98)
_SIN = (0, 98, 181, 237)


class Painter:
    """Draws on `fb` (128x64, MONO_VLSB FrameBuffer-like: fill, pixel, hline,
    vline, line, rect, fill_rect, text, blit). Every x-returning method returns
    the x just after what it drew; c is the colour (0 draws dark on lit)."""

    def __init__(self, fb, lang="zh"):
        self.fb = fb
        self._g = bytearray(32)  # one 16x16 glyph, for blit
        self._gfb = framebuf.FrameBuffer(self._g, 16, 16, framebuf.MONO_VLSB)
        self._s = bytearray(64)  # 8 characters of 8x8 text, to scale up
        self._sfb = framebuf.FrameBuffer(self._s, 64, 8, framebuf.MONO_VLSB)
        self._en_names = {}
        self.names = None  # the seats' names (Settings.names) while a family table is drawn, else None
        self.lang = "zh"
        self.set_lang(lang)

    def set_lang(self, lang):
        if lang not in LANGS:
            raise ValueError("screen language %r: must be one of %s" % (lang, ", ".join(LANGS)))
        self.lang = lang
        self.zh = zh = lang == "zh"
        # rank names: Chinese, or pinyin with English glosses beside
        self.rank_names = rules.rank_names("zh" if zh else "pinyin")
        self.rank_en = None if zh else rules.rank_names("en")
        self._hao = "号" if zh else "Seat"

    # ---------------------------------------------------------------- text
    def glyph(self, ch, x, y, c=1):
        """One 16x16 glyph of glyphs.py with its top-left at (x, y); returns its width."""
        i = glyphs.CHARS.find(ch)
        if i < 0:  # not in glyphs.py (tests/test_glyphs.py keeps this from happening)
            self.fb.rect(x + 1, y + 1, 14, 14, c)
            return 16
        g = self._g
        d = glyphs.DATA[i >> 4]  # 16 glyphs a chunk (glyphs.py)
        o = (i & 15) * 32
        inv = 0 if c else 0xFF  # dark text on a lit background: invert, key out the lit
        for j in range(32):
            g[j] = d[o + j] ^ inv
        self.fb.blit(self._gfb, x, y, 0 if c else 1)
        return glyphs.WIDTHS[i]

    def text(self, s, x, y, c=1):
        """s on a 16-pixel line with its top at y."""
        fb = self.fb
        for ch in s:
            if ord(ch) < 128:
                fb.text(ch, x, y + 4, c)
                x += 8
            else:
                x += self.glyph(ch, x, y, c)
        return x

    @staticmethod
    def text_width(s):
        w = 0
        for ch in s:
            if ord(ch) < 128:
                w += 8
            else:
                i = glyphs.CHARS.find(ch)
                w += 16 if i < 0 else glyphs.WIDTHS[i]
        return w

    def text_centred(self, s, y, c=1):
        return self.text(s, (_W - self.text_width(s)) // 2, y, c)

    def text_right(self, s, right, y, c=1):
        """s on a 16-pixel line ending at x = right."""
        return self.text(s, right - self.text_width(s), y, c)

    def en(self, s, x, y, c=1):
        """s (ASCII) in the 8x8 font."""
        self.fb.text(s, x, y, c)
        return x + 8 * len(s)

    def en_centred(self, s, y, c=1):
        self.fb.text(s, (_W - 8 * len(s)) // 2, y, c)

    def en_right(self, s, right, y, c=1):
        self.fb.text(s, right - 8 * len(s), y, c)

    @staticmethod
    def number_width(n):
        w = 8
        while n >= 10:
            n //= 10
            w += 8
        return w

    def number(self, n, x, y, c=1):
        """A whole number >= 0 in the 8x8 font."""
        d = 1
        while d * 10 <= n:
            d *= 10
        fb = self.fb
        while d:
            fb.text(_DIGITS[(n // d) % 10], x, y, c)
            x += 8
            d //= 10
        return x

    def _blow(self, src, at, hi, ncols, x, y, sx, sy, c):
        # columns src[at:at + ncols] (MONO_VLSB: bit 0 on top; hi > 0: 16-pixel columns, the
        # lower 8 at src[at + hi + col]) scaled up by sx, sy: each run of lit bits one rectangle
        fb = self.fb
        for col in range(ncols):
            v = src[at + col]
            if hi:
                v |= src[at + hi + col] << 8
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

    def big(self, s, x, y, sx, sy, c=1):
        """At most 8 ASCII characters, scaled sx by sy."""
        n = len(s)
        if n > 8:
            raise ValueError("big text is at most 8 characters, got %d" % n)
        self._sfb.fill(0)
        self._sfb.text(s, 0, 0, 1)
        self._blow(self._s, 0, 0, 8 * n, x, y, sx, sy, c)
        return x + 8 * n * sx

    def big_number(self, n, x, y, sx, sy, c=1):
        """A whole number 0..99999999, scaled sx by sy."""
        self._sfb.fill(0)
        d = 1
        while d * 10 <= n:
            d *= 10
        k = 0
        while d:
            self._sfb.text(_DIGITS[(n // d) % 10], k, 0, 1)
            k += 8
            d //= 10
        self._blow(self._s, 0, 0, k, x, y, sx, sy, c)
        return x + k * sx

    # ---------------------------------------------------------------- names
    def name_of(self, seat):
        """The seat's name ('奶奶', or 'Nainai' in English), or None: it has none."""
        n = self.names
        k = n[seat - 1] if n is not None and 0 < seat <= len(n) else 0
        if not k:
            return None
        return vocab.TITLES_ZH[k - 1] if self.zh else vocab.TITLES[k - 1]

    def seat(self, seat, x, y, c=1):
        """'3号' (or its name, '奶奶') on a 16-pixel line (zh), or 'Seat 3' ('Nainai') in 8x8 (en)."""
        name = self.name_of(seat)
        if name is not None:
            return self.text(name, x, y, c) if self.zh else self.en(name, x, y, c)
        if self.zh:
            return self.text(self._hao, self.number(seat, x, y + 4, c), y, c)
        return self.number(seat, self.en(self._hao, x, y, c) + 8, y, c)

    def seat_width(self, seat):
        name = self.name_of(seat)
        if name is not None:
            return self.text_width(name) if self.zh else 8 * len(name)
        if self.zh:
            return self.number_width(seat) + 16
        return 40 + self.number_width(seat)

    def big_text(self, s, x, y, c=1):
        """Chinese s on a 32-pixel line, each 16x16 glyph doubled (a seat's name, big) -> x after."""
        for ch in s:
            i = glyphs.CHARS.find(ch)
            if i < 0:
                self.fb.rect(x + 2, y + 2, 28, 28, c)
                x += 32
                continue
            # the glyph's 16 columns of two bytes (its top 8 rows, then its lower 8), doubled
            self._blow(glyphs.DATA[i >> 4], (i & 15) * 32, 16, 16, x, y, 2, 2, c)
            x += 2 * glyphs.WIDTHS[i]
        return x

    def rank(self, code, x, y, c=1):
        """A rank's name: Chinese on one 16-pixel line, else pinyin in 8x8."""
        if self.zh:
            return self.text(self.rank_names[code], x, y, c)
        return self.en(self.rank_names[code], x, y, c)

    def rank_width(self, code):
        if self.zh:
            return self.text_width(self.rank_names[code])
        return 8 * len(self.rank_names[code])

    def _class_name(self, t, cls):
        if self.zh:
            return t.class_zh[cls]
        name = self._en_names.get(cls)
        if name is None:  # pinyin for the tier classes, else the class id, capitalised
            name = cls
            for i in range(len(rules.TIER_IDS)):
                if rules.TIER_IDS[i] == cls:
                    name = self.rank_names[i] if i < rules.ZHUANGYUAN else "Zhuangyuan"
            name = name[0].upper() + name[1:]
            self._en_names[cls] = name
        return name

    def prize(self, t, cls, x, y, c=1):
        """Prize class cls of table t by name: Chinese (16-pixel line) or pinyin."""
        if self.zh:
            return self.text(t.class_zh[cls], x, y, c)
        return self.en(self._class_name(t, cls), x, y, c)

    def prize_width(self, t, cls):
        if self.zh:
            return self.text_width(t.class_zh[cls])
        return 8 * len(self._class_name(t, cls))

    # ---------------------------------------------------------------- dice
    def die(self, face, x, y, size):
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

    def dice_row(self, dice, y, size, gap):
        """Six dice side by side, centred."""
        x = (_W - 6 * size - 5 * gap) // 2
        for d in dice:
            self.die(d, x, y, size)
            x += size + gap

    def tumbling_die(self, cx, cy, step, face):
        """A 14-pixel die centred at (cx, cy), turned by step * 22.5 degrees:
        outline and 2x2 pips."""
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

    # ---------------------------------------------------------------- frame pieces
    def corners(self):
        """A 7-pixel corner mark in each corner of the screen."""
        fb = self.fb
        for x, y, dx, dy in ((0, 0, 1, 1), (_W - 1, 0, -1, 1), (0, _H - 1, 1, -1), (_W - 1, _H - 1, -1, -1)):
            fb.hline(min(x, x + 6 * dx), y, 7, 1)
            fb.vline(x, min(y, y + 6 * dy), 7, 1)

    def ants(self, frame):
        """A dashed border whose dashes march clockwise, 4 on / 4 off."""
        fb = self.fb
        ph = frame % 8
        for x in range(-ph, _W, 8):  # top, left to right; bottom, right to left
            fb.hline(x, 0, 4, 1)
            fb.hline(_W - 4 - x, _H - 1, 4, 1)
        for y in range(-ph, _H, 8):  # right, downwards; left, upwards
            fb.vline(_W - 1, y, 4, 1)
            fb.vline(0, _H - 4 - y, 4, 1)

    def star(self, x, y, phase):
        """A twinkle at (x, y), phase 0..11: a dot, a small cross, a big cross, back."""
        fb = self.fb
        r = 0 if phase > 8 else (1 if phase < 2 or phase > 6 else 2 if phase < 3 or phase > 5 else 3)
        if r == 0:
            return
        fb.hline(x - r + 1, y, 2 * r - 1, 1)
        fb.vline(x, y - r + 1, 2 * r - 1, 1)
