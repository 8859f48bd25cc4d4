# A QR code of one size only: version 2 (25 x 25 modules), error correction
# level L, as ISO/IEC 18004:2015 specifies it, for the claim screen (2 px a
# module: 50 x 50 pixels on the 128x64 OLED). Alphanumeric mode when every
# character is one of 0-9 A-Z space $%*+-./: (up to 47 characters), else byte
# mode (up to 32 bytes of UTF-8). Reed-Solomon over GF(256) (polynomial 0x11D),
# the eight masks scored with the standard's four penalty rules, the lowest
# taken (ties: the lower mask number).
#
# Pure logic (panels.py draws the modules), loaded only when a claim is shown: two bytearrays of 625 (the
# modules, and which of them are function patterns) and a few small ones,
# allocated once per code; the module count is fixed, so nothing grows.
from micropython import const

SIZE = const(25)
_DATA_CW = const(34)  # version 2-L: 44 codewords, 34 of data
_EC_CW = const(10)
_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
MAX_ALNUM = const(47)
MAX_BYTES = const(32)

_EXP = bytearray(512)
_LOG = bytearray(256)


def _tables():
    x = 1
    for i in range(255):
        _EXP[i] = x
        _LOG[x] = i
        x <<= 1
        if x & 0x100:
            x ^= 0x11D
    for i in range(255, 512):
        _EXP[i] = _EXP[i - 255]


_tables()


def _mul(a, b):
    if a == 0 or b == 0:
        return 0
    return _EXP[_LOG[a] + _LOG[b]]


def rs_ecc(data, n=_EC_CW):
    """The n Reed-Solomon check codewords of `data` (bytes-like): the remainder
    of data(x) * x^n divided by the generator (x - a^0)...(x - a^(n-1))."""
    g = bytearray(n)  # the generator's coefficients, highest power first, its leading 1 left out
    g[n - 1] = 1
    root = 1
    for _ in range(n):
        for j in range(n):
            g[j] = _mul(g[j], root)
            if j + 1 < n:
                g[j] ^= g[j + 1]
        root = _mul(root, 2)
    rem = bytearray(n)
    for d in data:
        f = d ^ rem[0]
        for k in range(n - 1):
            rem[k] = rem[k + 1] ^ _mul(g[k], f)
        rem[n - 1] = _mul(g[n - 1], f)
    return rem


class _Bits:
    def __init__(self, buf):
        self.buf = buf
        self.n = 0

    def put(self, v, width):
        for i in range(width - 1, -1, -1):
            if v >> i & 1:
                self.buf[self.n >> 3] |= 0x80 >> (self.n & 7)
            self.n += 1


def _is_alnum(text):
    for ch in text:
        if _ALNUM.find(ch) < 0:
            return False
    return True


def codewords(text):
    """The 44 codewords (data then check) of `text`; ValueError when it does not fit."""
    buf = bytearray(_DATA_CW + _EC_CW)
    b = _Bits(buf)
    if _is_alnum(text):
        n = len(text)
        if n > MAX_ALNUM:
            raise ValueError("QR version 2-L holds %d alphanumeric characters, got %d" % (MAX_ALNUM, n))
        b.put(2, 4)  # mode: alphanumeric
        b.put(n, 9)
        i = 0
        while i + 1 < n:
            b.put(_ALNUM.find(text[i]) * 45 + _ALNUM.find(text[i + 1]), 11)
            i += 2
        if i < n:
            b.put(_ALNUM.find(text[i]), 6)
    else:
        data = text.encode() if isinstance(text, str) else bytes(text)
        if len(data) > MAX_BYTES:
            raise ValueError("QR version 2-L holds %d bytes, got %d" % (MAX_BYTES, len(data)))
        b.put(4, 4)  # mode: byte
        b.put(len(data), 8)
        for x in data:
            b.put(x, 8)
    cap = _DATA_CW * 8
    b.n = min(b.n + 4, cap)  # the terminator: up to four 0 bits
    b.n = (b.n + 7) & ~7
    pad = 0xEC
    for i in range(b.n >> 3, _DATA_CW):
        buf[i] = pad
        pad ^= 0xEC ^ 0x11
    buf[_DATA_CW:] = rs_ecc(memoryview(buf)[:_DATA_CW])
    return buf


def _function_map():
    f = bytearray(SIZE * SIZE)
    for (r0, c0) in ((0, 0), (0, SIZE - 8), (SIZE - 8, 0)):  # finders and their separators
        for r in range(8):
            for c in range(8):
                f[(r0 + r) * SIZE + c0 + c] = 1
    for i in range(SIZE):  # timing
        f[6 * SIZE + i] = 1
        f[i * SIZE + 6] = 1
    for r in range(16, 21):  # the alignment pattern, centred at (18, 18)
        for c in range(16, 21):
            f[r * SIZE + c] = 1
    for i in range(9):  # format information (and the dark module)
        f[8 * SIZE + i] = 1
        f[i * SIZE + 8] = 1
    for i in range(8):
        f[8 * SIZE + SIZE - 1 - i] = 1
        f[(SIZE - 1 - i) * SIZE + 8] = 1
    return f


def _draw_functions(m):
    for (r0, c0) in ((0, 0), (0, SIZE - 7), (SIZE - 7, 0)):
        for r in range(7):
            for c in range(7):
                ring = max(abs(r - 3), abs(c - 3))
                m[(r0 + r) * SIZE + c0 + c] = 1 if ring != 2 else 0
    for i in range(8, SIZE - 8):
        m[6 * SIZE + i] = 1 - (i & 1)
        m[i * SIZE + 6] = 1 - (i & 1)
    for r in range(16, 21):
        for c in range(16, 21):
            m[r * SIZE + c] = 1 if max(abs(r - 18), abs(c - 18)) != 1 else 0
    m[(4 * 2 + 9) * SIZE + 8] = 1  # the dark module


def _place(m, f, cw):
    """The codewords' bits in the standard's two-column zigzag, from the bottom right."""
    k = 0
    total = len(cw) * 8
    col = SIZE - 1
    up = True
    while col > 0:
        if col == 6:
            col -= 1  # the vertical timing column is skipped
        for i in range(SIZE):
            r = SIZE - 1 - i if up else i
            for c in (col, col - 1):
                p = r * SIZE + c
                if not f[p]:
                    bit = 0
                    if k < total:
                        bit = cw[k >> 3] >> (7 - (k & 7)) & 1
                    m[p] = bit
                    k += 1
        up = not up
        col -= 2


def _mask_bit(mask, r, c):
    if mask == 0:
        return (r + c) % 2 == 0
    if mask == 1:
        return r % 2 == 0
    if mask == 2:
        return c % 3 == 0
    if mask == 3:
        return (r + c) % 3 == 0
    if mask == 4:
        return (r // 2 + c // 3) % 2 == 0
    if mask == 5:
        return (r * c) % 2 + (r * c) % 3 == 0
    if mask == 6:
        return ((r * c) % 2 + (r * c) % 3) % 2 == 0
    return ((r + c) % 2 + (r * c) % 3) % 2 == 0


def _mask_table(mask, out):
    """out[p] = 1 where `mask` flips module p (data modules only are flipped: the
    caller ANDs with the function map). Every mask repeats every 12 rows and
    columns, so a 12 x 12 tile is computed and repeated (few calls on a slow CPU)."""
    tile = bytearray(144)
    for r in range(12):
        for c in range(12):
            tile[r * 12 + c] = 1 if _mask_bit(mask, r, c) else 0
    for r in range(SIZE):
        t = (r % 12) * 12
        p = r * SIZE
        for c in range(SIZE):
            out[p + c] = tile[t + c % 12]


def _apply_mask(m, f, mask, table=None):
    if table is None:
        table = bytearray(SIZE * SIZE)
        _mask_table(mask, table)
    for p in range(SIZE * SIZE):
        if table[p] and not f[p]:
            m[p] ^= 1


def _format_bits(mask):
    """15 bits: level L (01) and the mask, BCH(15,5), XOR 101010000010010."""
    d = (1 << 3) | mask
    v = d << 10
    for i in range(14, 9, -1):
        if v >> i & 1:
            v ^= 0x537 << (i - 10)
    return ((d << 10) | v) ^ 0x5412


def _draw_format(m, mask):
    bits = _format_bits(mask)
    for i in range(15):
        b = bits >> i & 1  # bit i (0 = least significant)
        # around the top-left finder
        if i < 6:
            m[i * SIZE + 8] = b
        elif i < 8:
            m[(i + 1) * SIZE + 8] = b
        elif i == 8:
            m[8 * SIZE + 7] = b
        else:
            m[8 * SIZE + 14 - i] = b
        # the copy under the top-right and beside the bottom-left finders
        if i < 8:
            m[8 * SIZE + SIZE - 1 - i] = b
        else:
            m[(SIZE - 15 + i) * SIZE + 8] = b
    m[(SIZE - 8) * SIZE + 8] = 1  # the dark module


def _penalty(m):
    score = 0
    # rule 1 (runs of 5+ in a row or column) and rule 3 (1:1:3:1:1 finder-like patterns)
    for horiz in (True, False):
        for a in range(SIZE):
            run = 0
            prev = -1
            bits = 0
            for b in range(SIZE):
                v = m[a * SIZE + b] if horiz else m[b * SIZE + a]
                if v == prev:
                    run += 1
                else:
                    if run >= 5:
                        score += run - 2
                    run = 1
                    prev = v
                bits = ((bits << 1) | v) & 0x7FF
                if b >= 10 and (bits == 0x5D or bits == 0x5D0):  # 00001011101 or 10111010000
                    score += 40
            if run >= 5:
                score += run - 2
    # rule 2: 2x2 blocks of one colour
    for r in range(SIZE - 1):
        for c in range(SIZE - 1):
            p = r * SIZE + c
            v = m[p]
            if v == m[p + 1] and v == m[p + SIZE] and v == m[p + SIZE + 1]:
                score += 3
    # rule 4: the share of dark modules, 10 points per 5% from half
    dark = 0
    for v in m:
        dark += v
    k = abs(dark * 20 - SIZE * SIZE * 10) // (SIZE * SIZE)
    return score + 10 * k


def encode(text, mask=-1):
    """-> bytearray of SIZE*SIZE modules (1 = dark), row by row. mask -1: the
    lowest-penalty mask (the standard's choice), else that mask (0..7)."""
    cw = codewords(text)
    f = _function_map()
    m = bytearray(SIZE * SIZE)
    _draw_functions(m)
    _place(m, f, cw)
    if mask < 0:
        best = -1
        table = bytearray(SIZE * SIZE)
        for k in range(8):
            _mask_table(k, table)
            _apply_mask(m, f, k, table)
            _draw_format(m, k)
            p = _penalty(m)
            if best < 0 or p < best:
                best = p
                mask = k
            _apply_mask(m, f, k, table)  # masks are XOR: applying again takes it off
    elif not 0 <= mask <= 7:
        raise ValueError("QR mask %r: 0..7, or -1 for the best" % (mask,))
    _apply_mask(m, f, mask)
    _draw_format(m, mask)
    return m
