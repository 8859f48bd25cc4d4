"""A CPython stand-in for MicroPython's `framebuf`, with exactly the subset the
firmware uses: FrameBuffer in MONO_VLSB (the SSD1306's layout: one byte holds 8
pixels of a column, LSB at the top; byte (y // 8) * width + x) and the methods
fill, pixel, hline, vline, line, rect, fill_rect, text, blit.

Every method reproduces extmod/modframebuf.c pixel for pixel (clipping,
Bresenham steps, text over UTF-8 bytes with 127 for anything outside 32..127,
blit with a key colour), and rejects what the real one rejects (floats, a short
or read-only buffer, a missing argument), so drawing code that works here works
on the bowl. tests/test_framebuf_standin.py compares random drawings with the
unix port's real framebuf byte for byte.

compat.install() registers this module as `framebuf` on CPython.
"""
from host_sim.compat.font8x8 import FIRST, FONT

MONO_VLSB = 0


def _int(v):
    # mp_obj_get_int: ints and bools pass, anything else is a TypeError
    if isinstance(v, int):
        return int(v)
    raise TypeError("can't convert %s to int" % type(v).__name__)


class FrameBuffer:
    def __init__(self, buf, width, height, fmt, stride=None):
        if isinstance(buf, (bytes, str)) or not hasattr(buf, "__setitem__"):
            raise TypeError("object with buffer protocol required")
        width, height, fmt = _int(width), _int(height), _int(fmt)
        stride = width if stride is None else _int(stride)
        if fmt != MONO_VLSB:
            raise ValueError("host_sim.framebuf supports MONO_VLSB only (the SSD1306 layout), got %r" % fmt)
        if width < 1 or height < 1 or len(buf) < ((height + 7) >> 3) * stride:
            raise ValueError()
        self.buf = buf
        self.width = width
        self.height = height
        self.stride = stride

    # -- the format's three primitives (mvlsb_* in modframebuf.c)
    def _set(self, x, y, col):
        i = (y >> 3) * self.stride + x
        bit = 1 << (y & 7)
        if col:
            self.buf[i] |= bit
        else:
            self.buf[i] &= ~bit & 0xFF

    def _get(self, x, y):
        return (self.buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1

    def _fill_rect(self, x, y, w, h, col):
        # clip exactly as fill_rect() does, then write a column mask per page
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        buf = self.buf
        while y < yend:
            page_end = min(yend, (y | 7) + 1)
            mask = ((1 << (page_end - y)) - 1) << (y & 7)
            row = (y >> 3) * self.stride
            if col:
                for i in range(row + x, row + xend):
                    buf[i] |= mask
            else:
                keep = ~mask & 0xFF
                for i in range(row + x, row + xend):
                    buf[i] &= keep
            y = page_end

    # -- the public subset
    def fill(self, col):
        # rows below height in the last page keep their bits, as on the real one
        self._fill_rect(0, 0, self.width, self.height, _int(col))

    def fill_rect(self, x, y, w, h, col):
        self._fill_rect(_int(x), _int(y), _int(w), _int(h), _int(col))

    def hline(self, x, y, w, col):
        self._fill_rect(_int(x), _int(y), _int(w), 1, _int(col))

    def vline(self, x, y, h, col):
        self._fill_rect(_int(x), _int(y), 1, _int(h), _int(col))

    def rect(self, x, y, w, h, col, fill=False):
        x, y, w, h, col = _int(x), _int(y), _int(w), _int(h), _int(col)
        if fill:
            self._fill_rect(x, y, w, h, col)
        else:
            self._fill_rect(x, y, w, 1, col)
            self._fill_rect(x, y + h - 1, w, 1, col)
            self._fill_rect(x, y, 1, h, col)
            self._fill_rect(x + w - 1, y, 1, h, col)

    def pixel(self, x, y, col=None):
        x, y = _int(x), _int(y)
        if 0 <= x < self.width and 0 <= y < self.height:
            if col is None:
                return self._get(x, y)
            self._set(x, y, _int(col))
        return None

    def line(self, x1, y1, x2, y2, col):
        x1, y1, x2, y2, col = _int(x1), _int(y1), _int(x2), _int(y2), _int(col)
        dx = x2 - x1
        if dx > 0:
            sx = 1
        else:
            dx = -dx
            sx = -1
        dy = y2 - y1
        if dy > 0:
            sy = 1
        else:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        w, h = self.width, self.height
        for _ in range(dx):
            px, py = (y1, x1) if steep else (x1, y1)
            if 0 <= px < w and 0 <= py < h:
                self._set(px, py, col)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < w and 0 <= y2 < h:
            self._set(x2, y2, col)

    def text(self, s, x, y, col=1):
        if not isinstance(s, str):
            raise TypeError("can't convert '%s' object to str implicitly" % type(s).__name__)
        x0, y0, col = _int(x), _int(y), _int(col)
        for c in s.encode("utf-8"):  # the real one walks the UTF-8 bytes
            if c < 32 or c > 127:
                c = 127
            o = (c - FIRST) * 8
            for j in range(8):
                if 0 <= x0 < self.width:
                    v = FONT[o + j]
                    yy = y0
                    while v:
                        if v & 1 and 0 <= yy < self.height:
                            self._set(x0, yy, col)
                        v >>= 1
                        yy += 1
                x0 += 1

    def blit(self, src, x, y, key=-1, palette=None):
        if not isinstance(src, FrameBuffer):
            raise TypeError("host_sim.framebuf.blit takes a FrameBuffer source")
        if palette is not None:
            raise TypeError("host_sim.framebuf: blit with a palette is outside the firmware's subset")
        x, y, key = _int(x), _int(y), _int(key)
        if x >= self.width or y >= self.height or -x >= src.width or -y >= src.height:
            return
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = max(0, -x), max(0, -y)
        x0end = min(self.width, x + src.width)
        y0end = min(self.height, y + src.height)
        # key is compared as the C code's uint32 cast does: -1 never matches a colour
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                c = src._get(cx1, y1)
                if c != key:
                    self._set(cx0, y0, c)
                cx1 += 1
            y0 += 1
            y1 += 1
