# micropython: yes
# The claim's QR code, fast (firmware/bobing/qr.py: constant tables, one XOR a
# dark bit) against the plain encoder of tests/qr_tables.py, module for module,
# on CPython and on the MicroPython unix ports (frozen: the tables as the bowl
# freezes them). tests/test_qr.py holds both to segno and zxing-cpp.
import qr_tables
from bobing import qr

ALNUM = qr_tables.ALNUM
CODE = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # claim.ALPHABET


class Lcg:
    def __init__(self, x):
        self.x = x

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def _texts():
    r = Lcg(2024)
    out = ["A", "HELLO WORLD", "Z" * qr.MAX_ALNUM, "bb1:lower case", "x" * qr.MAX_BYTES, "博饼 状元"]
    for _ in range(12):  # claims as the bowl writes them
        bowl = "".join(CODE[r.below(10)] for _ in range(1 + r.below(8)))
        code = "".join(CODE[r.below(32)] for _ in range(8))
        out.append("BB1:%s:%d-%d:SANHONG:%s" % (bowl, 1 + r.below(9999), 1 + r.below(99), code))
        # a fair kiosk's link (bobing/claim.py): alphanumeric, a byte "#", alphanumeric (version 3)
        out.append("HTTP://192.168.1.%d:8000/F/%s/%d-%d/ZHUANGYUAN#%s" % (r.below(256), bowl, 1 + r.below(9999),
                                                                          1 + r.below(99), code))
    for _ in range(8):  # any alphanumeric length
        out.append("".join(ALNUM[r.below(45)] for _ in range(1 + r.below(qr.MAX_ALNUM))))
    return out


def test_encode_is_the_plain_encoders_symbol():
    for text in _texts():
        for mask in (qr.MASK, 3, 7):
            assert list(qr.encode(text, mask)) == qr_tables.reference(text, mask), (text, mask)


def test_the_tables_are_the_plain_ones():
    t = qr_tables.tables()
    for name in ("_ALV", "_EXP", "_LOG", "_GEN", "_PR", "_PC", "_BASE", "_GEN3", "_PR3", "_PC3", "_BASE3"):
        assert getattr(qr, name) == t[name], name


def test_too_long_is_a_clear_error():
    for text, says in (("A" * 78, "77 alphanumeric characters, got 78"), ("a" * 54, "53 bytes, got 54"),
                       ("HTTP://" + "A" * 70 + "#" + "B" * 8, "440 bits, the text needs")):
        try:
            qr.encode(text)
        except ValueError as e:
            assert says in str(e), str(e)
        else:
            raise AssertionError("accepted %r" % text)
