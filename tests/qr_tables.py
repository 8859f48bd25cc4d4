"""The constant tables of firmware/bobing/qr.py, built the slow, plain way from
ISO/IEC 18004:2015's description of a version 2-L symbol: the alphanumeric
values, GF(256) log and
antilog tables (polynomial 0x11D), the 10-codeword generator, where each
codeword bit goes (the two-column zigzag), and for each mask the symbol with no
data (function patterns, format information, the mask over the data modules),
4 bytes a row (little-endian).
tests/test_qr.py checks that qr.py holds exactly these;
`python tests/qr_tables.py` prints them as qr.py spells them. reference() is
a whole encoder the same plain way, bit by bit (tests/test_qr_portable.py
holds qr.encode to it on MicroPython too). Runs on both interpreters."""

SIZE = 25
EC_CW = 10
CW_BITS = 44 * 8


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


def function_map():
    f = [[0] * SIZE for _ in range(SIZE)]
    for (r0, c0) in ((0, 0), (0, SIZE - 8), (SIZE - 8, 0)):  # finders and their separators
        for r in range(8):
            for c in range(8):
                f[r0 + r][c0 + c] = 1
    for i in range(SIZE):  # timing
        f[6][i] = f[i][6] = 1
    for r in range(16, 21):  # the alignment pattern, centred at (18, 18)
        for c in range(16, 21):
            f[r][c] = 1
    for i in range(9):  # format information (and the dark module)
        f[8][i] = f[i][8] = 1
    for i in range(8):
        f[8][SIZE - 1 - i] = f[SIZE - 1 - i][8] = 1
    return f


def functions(m):
    for (r0, c0) in ((0, 0), (0, SIZE - 7), (SIZE - 7, 0)):
        for r in range(7):
            for c in range(7):
                m[r0 + r][c0 + c] = 1 if max(abs(r - 3), abs(c - 3)) != 2 else 0
    for i in range(8, SIZE - 8):
        m[6][i] = m[i][6] = 1 - (i & 1)
    for r in range(16, 21):
        for c in range(16, 21):
            m[r][c] = 1 if max(abs(r - 18), abs(c - 18)) != 1 else 0


def placement():
    """[(row, col)] of every data module in the zigzag's order from the bottom
    right: the 352 codeword bits, then the 7 remainder bits."""
    f = function_map()
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


def base_rows(mask):
    """The symbol with all data bits 0, as 25 row ints (bit c = column c)."""
    m = [[0] * SIZE for _ in range(SIZE)]
    functions(m)
    for r, c in placement():
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
    pos = placement()[:CW_BITS]
    return {"_ALV": alnum_values(), "_EXP": exp, "_LOG": log, "_GEN": generator_logs(),
            "_PR": bytes(r for r, _ in pos), "_PC": bytes(c for _, c in pos),
            "_BASE": b"".join(v.to_bytes(4, "little") for k in range(8) for v in base_rows(k))}


def reference(text, mask):
    """The symbol of `text` as 25 row ints (bit c = column c), the plain way:
    the bit stream bit by bit, Reed-Solomon by GF(256) multiplication, each
    module masked by the mask's formula."""
    data = text.encode() if isinstance(text, str) else bytes(text)
    bits = []

    def put(v, w):
        for i in range(w - 1, -1, -1):
            bits.append(v >> i & 1)
    if all(chr(x) in ALNUM for x in data):
        put(2, 4)
        put(len(data), 9)
        for i in range(0, len(data) - 1, 2):
            put(ALNUM.index(chr(data[i])) * 45 + ALNUM.index(chr(data[i + 1])), 11)
        if len(data) % 2:
            put(ALNUM.index(chr(data[-1])), 6)
    else:
        put(4, 4)
        put(len(data), 8)
        for x in data:
            put(x, 8)
    if len(bits) > 34 * 8:
        raise ValueError("too long")
    bits += [0] * min(4, 34 * 8 - len(bits))  # the terminator
    bits += [0] * (-len(bits) % 8)
    cw = [sum(bits[i + j] << (7 - j) for j in range(8)) for i in range(0, len(bits), 8)]
    pad = 0xEC
    while len(cw) < 34:
        cw.append(pad)
        pad ^= 0xEC ^ 0x11
    exp, log = gf()

    def mul(a, b):
        return 0 if a == 0 or b == 0 else exp[log[a] + log[b]]
    g = [exp[k] for k in generator_logs()]
    rem = [0] * EC_CW
    for d in cw:
        f = d ^ rem[0]
        rem = rem[1:] + [0]
        for k in range(EC_CW):
            rem[k] ^= mul(g[k], f)
    cw += rem
    m = [[0] * SIZE for _ in range(SIZE)]
    functions(m)
    k = 0
    for r, c in placement():
        bit = cw[k >> 3] >> (7 - (k & 7)) & 1 if k < CW_BITS else 0
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
