# What the LED ring shows: a pattern per rank and per moment of the game, as
# colours for a WS2812 ring. Pure logic: no hardware, runs unchanged on
# MicroPython and CPython; the device hands the buffer to `neopixel`.
#
#     ring = Ring(count=12, brightness=64)       # settings (board.py has the count)
#     ring.render(leds.pattern_for(out), frame, np.buf); np.write()
#
# render() writes into a caller-owned target: a bytearray of 3 * count bytes
# in the ring's channel order ("GRB" = a WS2812 and neopixel's own buffer), or
# a list of count (r, g, b) tuples (the host). Frames are indexed from 0 at FPS
# frames a second; frames(pattern) says how long a pattern's show lasts, after
# which the app moves on (or keeps rendering: every pattern is defined for
# every frame and settles into a loop). Nothing here reads a clock, and
# rendering into a bytearray allocates nothing.
from micropython import const

from bobing import game, rules

FPS = const(30)

# Patterns: the rank codes 0..12 (rules.NONE..rules.CHAJINHUA), and these moments.
P_IDLE = const(16)  # waiting for a shake: a slow dim glow going round
P_SHAKE = const(17)  # the bowl is being shaken: a spinning comet
P_SPILL = const(18)  # dice out of the bowl: orange flashes
P_GRAB = const(19)  # 黑六勃 with heiliubo_effect=grab: lights off, then flashes to grab by
P_GAME_OVER = const(20)  # the 状元 ceremony: red and gold chasing
P_ERROR = const(21)  # a fault: a slow red blink
P_OFF = const(22)
P_BATTERY = const(23)  # battery low or empty: one LED blinks amber (dim: the cell is nearly flat)
MOMENTS = (P_IDLE, P_SHAKE, P_SPILL, P_GRAB, P_GAME_OVER, P_ERROR, P_OFF, P_BATTERY)

ORDERS = ("GRB", "RGB")
MAX_COUNT = const(64)

_RED = (255, 0, 0)
_GOLD = (255, 170, 0)
_GRAB_DARK = const(45)  # frames of darkness before the grab (1.5 s)
_SWEEP = const(2)  # frames per LED of a 状元's red sweep


def pattern_for(out):
    """The pattern for a game.Outcome: its rank, or the moment it stands for."""
    if out.reason == "heiliubo_grab":
        return P_GRAB
    if out.kind == game.EV_SPILL:
        return P_SPILL
    if out.dice is None:
        return P_IDLE
    return out.rank


def _hash(a, b):
    # a small hash (0..255) for sparkles, the same on every interpreter; 16-bit
    # steps so that it stays in small ints on the ESP32 (31-bit) too
    h = ((a & 0xFFFF) * 251 + b * 163 + 7) & 0xFFFF
    h ^= (h << 5) & 0xFFFF
    h ^= h >> 7
    h ^= (h << 3) & 0xFFFF
    return (h ^ (h >> 8)) & 0xFF


class Ring:
    def __init__(self, count=12, brightness=64, order="GRB"):
        if not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
            raise ValueError("LED count %r: must be a whole number 1..%d" % (count, MAX_COUNT))
        if not isinstance(brightness, int) or not 0 <= brightness <= 255:
            raise ValueError("LED brightness %r: must be a whole number 0..255" % (brightness,))
        if order not in ORDERS:
            raise ValueError("LED channel order %r: must be one of %s" % (order, ", ".join(ORDERS)))
        self.count = count
        self.brightness = brightness
        self.order = order
        self._raw = bytearray(3 * count)  # full-scale RGB of the frame being made

    def frames(self, pattern):
        """How many frames a pattern's show lasts (it loops or holds after that)."""
        n = self.count
        if pattern >= rules.SIHONG and pattern <= rules.CHAJINHUA:
            return _SWEEP * n + 3 * FPS
        if pattern == P_GRAB:
            return _GRAB_DARK + 2 * FPS
        if pattern == P_GAME_OVER:
            return 10 * FPS
        if pattern == rules.NONE:
            return FPS // 2
        return 2 * FPS

    def render(self, pattern, frame, buf):
        """Write frame `frame` (>= 0) of `pattern` into buf (see the header)."""
        if frame < 0:
            raise ValueError("frame %r: must be >= 0" % (frame,))
        self._make(pattern, frame)
        raw = self._raw
        k = self.brightness + 1
        n = self.count
        if isinstance(buf, list):
            if len(buf) != n:
                raise ValueError("LED list has %d entries, the ring %d" % (len(buf), n))
            for i in range(n):
                buf[i] = ((raw[3 * i] * k) >> 8, (raw[3 * i + 1] * k) >> 8, (raw[3 * i + 2] * k) >> 8)
            return buf
        if len(buf) < 3 * n:
            raise ValueError("LED buffer has %d bytes, the ring needs %d" % (len(buf), 3 * n))
        g_first = self.order == "GRB"
        for i in range(n):
            j = 3 * i
            r = (raw[j] * k) >> 8
            g = (raw[j + 1] * k) >> 8
            buf[j] = g if g_first else r
            buf[j + 1] = r if g_first else g
            buf[j + 2] = (raw[j + 2] * k) >> 8
        return buf

    # -- full-scale patterns into self._raw
    def _put(self, i, r, g, b):
        raw = self._raw
        j = 3 * (i % self.count)
        raw[j] = r
        raw[j + 1] = g
        raw[j + 2] = b

    def _all(self, r, g, b):
        raw = self._raw  # (not through _put: a call an LED is most of a frame's time on the ESP32)
        for j in range(0, 3 * self.count, 3):
            raw[j] = r
            raw[j + 1] = g
            raw[j + 2] = b

    def _dots(self, k, frame, speed, r, g, b, bg):
        # k evenly spaced dots going round over a faint background of the same colour
        n = self.count
        self._all(r * bg >> 8, g * bg >> 8, b * bg >> 8)
        step = frame // speed
        for d in range(k):
            self._put(step + d * n // k, r, g, b)

    def _make(self, p, f):
        n = self.count
        if p == P_OFF or p == rules.NONE and f >= FPS // 2:
            self._all(0, 0, 0)
        elif p == rules.NONE:  # nothing: a dim white that fades out
            v = 40 * (FPS // 2 - f) // (FPS // 2)
            self._all(v, v, v)
        elif p == rules.YIXIU:  # one red
            self._dots(1, f, 2, 255, 0, 0, 0)
        elif p == rules.ERJU:  # two reds
            self._dots(2, f, 2, 255, 0, 0, 0)
        elif p == rules.SIJIN:  # four of a kind: four blue-green
            self._dots(4, f, 3, 0, 160, 255, 24)
        elif p == rules.SANHONG:  # three reds on a red glow
            self._dots(3, f, 2, 255, 0, 0, 32)
        elif p == rules.DUITANG:  # the straight: a rainbow turning round
            for i in range(n):
                self._wheel(i, (i * 256 // n + f * 8) & 255)
        elif p >= rules.SIHONG and p <= rules.CHAJINHUA:
            self._zhuangyuan(p, f)
        elif p == P_IDLE:  # a dim warm glow going slowly round
            self._all(0, 0, 0)
            head = f // 6
            for t in range(4):
                v = 48 >> t
                self._put(head - t, v, v * 2 // 3, v // 4)
        elif p == P_SHAKE:  # a white comet whose tail fades, spinning fast
            self._all(0, 0, 0)
            for t in range(n // 2):
                v = 255 >> t
                self._put(f - t, v, v, v)
        elif p == P_SPILL:  # orange flashes, 4 a second
            if (f // 4) & 1:
                self._all(0, 0, 0)
            else:
                self._all(255, 80, 0)
        elif p == P_GRAB:  # 关灯抢饼: lights off, then white flashes at random LEDs
            self._all(0, 0, 0)
            if f >= _GRAB_DARK:
                for i in range(n):
                    if _hash(f // 3, i) < 64:
                        self._put(i, 255, 255, 255)
        elif p == P_GAME_OVER:  # red and gold alternating, chasing round
            for i in range(n):
                c = _RED if ((i + f // 4) & 1) else _GOLD
                self._put(i, c[0], c[1], c[2])
        elif p == P_ERROR:  # slow red blink
            v = 160 if (f // 15) & 1 == 0 else 0
            self._all(v, 0, 0)
        elif p == P_BATTERY:  # one LED blinking amber, slowly
            self._all(0, 0, 0)
            if (f // 15) & 1 == 0:
                self._put(0, 160, 60, 0)
        else:
            raise ValueError("LED pattern %r: a rank code 0..12 or one of leds.P_*" % (p,))

    def _wheel(self, i, pos):
        # hue 0..255 -> a fully saturated colour
        if pos < 85:
            self._put(i, 255 - pos * 3, pos * 3, 0)
        elif pos < 170:
            pos -= 85
            self._put(i, 0, 255 - pos * 3, pos * 3)
        else:
            pos -= 170
            self._put(i, pos * 3, 0, 255 - pos * 3)

    def _zhuangyuan(self, p, f):
        # Every 状元: a red sweep fills the ring, one LED every _SWEEP frames;
        # then the sub-rank's own finish, looping.
        n = self.count
        lit = f // _SWEEP + 1
        if lit <= n:
            for i in range(n):
                if i < lit - 1:
                    self._put(i, 255, 0, 0)
                elif i == lit - 1:
                    self._put(i, 255, 160, 160)  # a bright head
                else:
                    self._put(i, 0, 0, 0)
            return
        g = f - _SWEEP * n  # frames since the ring filled
        if p == rules.CHAJINHUA:  # gold flowers: gold, with twinkles
            for i in range(n):
                if _hash(g // 2, i) < 48:
                    self._put(i, 255, 240, 160)
                else:
                    self._put(i, 255, 170, 0)
        elif p == rules.LIUBOHONG:  # six reds: the whole ring beats bright red
            v = 255 if (g // 5) & 1 == 0 else 90
            self._all(v, 0, 0)
        elif p == rules.BIANDIJIN:  # brocade everywhere: many colours twinkling
            for i in range(n):
                self._wheel(i, _hash(g // 4, i))
        elif p == rules.HEILIUBO:  # black six: the red ring goes dark, one red runner remains
            self._all(0, 0, 0)
            self._put(g // 2, 255, 0, 0)
        elif p == rules.WUHONG:  # five reds: five bright reds round a dim red ring
            self._dots(5, g, 2, 255, 0, 0, 48)
        elif p == rules.WUZI:  # five of a kind: red ring with five gold dots
            self._all(160, 0, 0)
            for d in range(5):
                self._put(g // 3 + d * n // 5, 255, 170, 0)
        else:  # four reds: the red ring breathes
            v = g % 40
            v = 255 - 4 * (v if v < 20 else 40 - v)
            self._all(v, 0, 0)
