"""The constant tables of firmware/bobing/qr.py, built the slow, plain way from
ISO/IEC 18004:2015's description of version 2-L and 3-L symbols: the alphanumeric
values, GF(256) log and
antilog tables (polynomial 0x11D), the 10- and 15-codeword generators, where each
codeword bit goes (the two-column zigzag), and for each mask the symbol with no
data (function patterns, format information, the mask over the data modules),
4 bytes a row (little-endian); the version 3 tables' names end in 3.
tests/test_qr.py checks that qr.py holds exactly these;
`python tests/qr_tables.py` prints them as qr.py spells them. reference() is
a whole encoder the same plain way, bit by bit (tests/test_qr_portable.py
holds qr.encode to it on MicroPython too). Runs on both interpreters."""

SIZE = 25
EC_CW = 10
CW_BITS = 44 * 8
# version -> (modules a side, data codewords, check codewords, the alignment pattern's centre)
VERSIONS = {2: (25, 34, 10, 18), 3: (29, 55, 15, 22)}


def gf():
    exp = bytearray(510)
    log = bytearray(256)
    x = 1
    for i in range(255):
        exp[i] = x
        log[x] = i
        x <<= 1
        if x & 0x100:
            x ^= 0x11D
    for i in range(255, 510):
        exp[i] = exp[i - 255]
    return bytes(exp), bytes(log)


def generator_logs(n=EC_CW):
    """log2 of (x - a^0)...(x - a^(n-1))'s coefficients, highest power first, the leading 1 left out."""
    exp, log = gf()

    def mul(a, b):
        return 0 if a == 0 or b == 0 else exp[log[a] + log[b]]
    g = [1]
    for i in range(n):
        nxt = g + [0]
        for j in range(len(g)):
            nxt[j + 1] ^= mul(g[j], exp[i])
        g = nxt
    if 0 in g:
        raise ValueError("a zero coefficient has no log")
    return bytes(log[c] for c in g[1:])


def function_map(v=2):
    SIZE, _d, _e, a = VERSIONS[v]
    f = [[0] * SIZE for _ in range(SIZE)]
    for (r0, c0) in ((0, 0), (0, SIZE - 8), (SIZE - 8, 0)):  # finders and their separators
        for r in range(8):
            for c in range(8):
                f[r0 + r][c0 + c] = 1
    for i in range(SIZE):  # timing
        f[6][i] = f[i][6] = 1
    for r in range(a - 2, a + 3):  # the alignment pattern, centred at (a, a)
        for c in range(a - 2, a + 3):
            f[r][c] = 1
    for i in range(9):  # format information (and the dark module)
        f[8][i] = f[i][8] = 1
    for i in range(8):
        f[8][SIZE - 1 - i] = f[SIZE - 1 - i][8] = 1
    return f


def functions(m, v=2):
    SIZE, _d, _e, a = VERSIONS[v]
    for (r0, c0) in ((0, 0), (0, SIZE - 7), (SIZE - 7, 0)):
        for r in range(7):
            for c in range(7):
                m[r0 + r][c0 + c] = 1 if max(abs(r - 3), abs(c - 3)) != 2 else 0
    for i in range(8, SIZE - 8):
        m[6][i] = m[i][6] = 1 - (i & 1)
    for r in range(a - 2, a + 3):
        for c in range(a - 2, a + 3):
            m[r][c] = 1 if max(abs(r - a), abs(c - a)) != 1 else 0


def placement(v=2):
    """[(row, col)] of every data module in the zigzag's order from the bottom
    right: the codeword bits (352 in version 2, 560 in 3), then the 7 remainder bits."""
    SIZE = VERSIONS[v][0]
    f = function_map(v)
    out = []
    col = SIZE - 1
    up = True
    while col > 0:
        if col == 6:
            col -= 1  # the vertical timing column is skipped
        for i in range(SIZE):
            r = SIZE - 1 - i if up else i
            for c in (col, col - 1):
                if not f[r][c]:
                    out.append((r, c))
        up = not up
        col -= 2
    return out


def mask_bit(mask, r, c):
    return (((r + c) % 2 == 0), (r % 2 == 0), (c % 3 == 0), ((r + c) % 3 == 0),
            ((r // 2 + c // 3) % 2 == 0), ((r * c) % 2 + (r * c) % 3 == 0),
            (((r * c) % 2 + (r * c) % 3) % 2 == 0), (((r + c) % 2 + (r * c) % 3) % 2 == 0))[mask]


def format_bits(mask):
    """15 bits: level L (01) and the mask, BCH(15,5), XOR 101010000010010."""
    d = (1 << 3) | mask
    v = d << 10
    for i in range(14, 9, -1):
        if v >> i & 1:
            v ^= 0x537 << (i - 10)
    return ((d << 10) | v) ^ 0x5412


def draw_format(m, mask):
    SIZE = len(m)
    bits = format_bits(mask)
    for i in range(15):
        b = bits >> i & 1
        if i < 6:
            m[i][8] = b
        elif i < 8:
            m[i + 1][8] = b
        elif i == 8:
            m[8][7] = b
        else:
            m[8][14 - i] = b
        if i < 8:
            m[8][SIZE - 1 - i] = b
        else:
            m[SIZE - 15 + i][8] = b
    m[SIZE - 8][8] = 1  # the dark module


def base_rows(mask, v=2):
    """The symbol with all data bits 0, as row ints (bit c = column c)."""
    SIZE = VERSIONS[v][0]
    m = [[0] * SIZE for _ in range(SIZE)]
    functions(m, v)
    for r, c in placement(v):
        m[r][c] = 1 if mask_bit(mask, r, c) else 0
    draw_format(m, mask)
    return tuple(sum(m[r][c] << c for c in range(SIZE)) for r in range(SIZE))


ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"


def alnum_values():
    """The alphanumeric value of each ASCII byte, 255 for the others."""
    t = bytearray(b"\xff" * 128)
    for i, ch in enumerate(ALNUM):
        t[ord(ch)] = i
    return bytes(t)


def tables():
    exp, log = gf()
    out = {"_ALV": alnum_values(), "_EXP": exp, "_LOG": log}
    for v, tail in ((2, ""), (3, "3")):
        _n, dcw, ecw, _a = VERSIONS[v]
        pos = placement(v)[:(dcw + ecw) * 8]
        out.update({"_GEN" + tail: generator_logs(ecw), "_PR" + tail: bytes(r for r, _ in pos),
                    "_PC" + tail: bytes(c for _, c in pos),
                    "_BASE" + tail: b"".join(x.to_bytes(4, "little") for k in range(8) for x in base_rows(k, v))})
    return out


def segments(data):
    """The text's segments as qr.py chooses them: one alphanumeric segment when every
    character is alphanumeric; else runs of alphanumeric characters and of other bytes,
    when they take fewer bits than byte mode for the whole; else byte mode.
    -> ([(alphanumeric?, bytes)], bits)."""
    al = [chr(x) in ALNUM for x in data]

    def cost(a, m):
        return 13 + 11 * (m // 2) + 6 * (m % 2) if a else 12 + 8 * m
    if all(al):
        return [(True, data)], cost(True, len(data))
    runs = []
    i = 0
    while i < len(data):
        j = i
        while j < len(data) and al[j] == al[i]:
            j += 1
        runs.append((al[i], data[i:j]))
        i = j
    mixed = sum(cost(a, len(d)) for a, d in runs)
    if mixed < cost(False, len(data)):
        return runs, mixed
    return [(False, data)], cost(False, len(data))


def reference(text, mask):
    """The symbol of `text` as row ints (bit c = column c), the smallest version (2 or 3)
    that holds it, the plain way:
    the bit stream bit by bit, Reed-Solomon by GF(256) multiplication, each
    module masked by the mask's formula."""
    data = text.encode() if isinstance(text, str) else bytes(text)
    bits = []

    def put(v, w):
        for i in range(w - 1, -1, -1):
            bits.append(v >> i & 1)
    segs, n_bits = segments(data)
    v = 2 if n_bits <= 34 * 8 else 3
    SIZE, dcw, ecw, _a = VERSIONS[v]
    for a, seg in segs:
        if a:
            put(2, 4)
            put(len(seg), 9)
            for i in range(0, len(seg) - 1, 2):
                put(ALNUM.index(chr(seg[i])) * 45 + ALNUM.index(chr(seg[i + 1])), 11)
            if len(seg) % 2:
                put(ALNUM.index(chr(seg[-1])), 6)
        else:
            put(4, 4)
            put(len(seg), 8)
            for x in seg:
                put(x, 8)
    if len(bits) > dcw * 8:
        raise ValueError("too long")
    bits += [0] * min(4, dcw * 8 - len(bits))  # the terminator
    bits += [0] * (-len(bits) % 8)
    cw = [sum(bits[i + j] << (7 - j) for j in range(8)) for i in range(0, len(bits), 8)]
    pad = 0xEC
    while len(cw) < dcw:
        cw.append(pad)
        pad ^= 0xEC ^ 0x11
    exp, log = gf()

    def mul(a, b):
        return 0 if a == 0 or b == 0 else exp[log[a] + log[b]]
    g = [exp[k] for k in generator_logs(ecw)]
    rem = [0] * ecw
    for d in cw:
        f = d ^ rem[0]
        rem = rem[1:] + [0]
        for k in range(ecw):
            rem[k] ^= mul(g[k], f)
    cw += rem
    m = [[0] * SIZE for _ in range(SIZE)]
    functions(m, v)
    k = 0
    for r, c in placement(v):
        bit = cw[k >> 3] >> (7 - (k & 7)) & 1 if k < (dcw + ecw) * 8 else 0
        m[r][c] = bit ^ (1 if mask_bit(mask, r, c) else 0)
        k += 1
    draw_format(m, mask)
    return [sum(m[r][c] << c for c in range(SIZE)) for r in range(SIZE)]


if __name__ == "__main__":
    for name, v in tables().items():
        if isinstance(v, bytes):
            print("%s = (\n%s)" % (name, "\n".join("    %r" % v[i:i + 32] for i in range(0, len(v), 32))))
        else:
            print("%s = (\n%s)" % (name, "\n".join("    " + " ".join("0x%07X," % x for x in v[i:i + 5])
                                                  for i in range(0, len(v), 5))))
