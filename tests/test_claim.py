# micropython: yes
# Kiosk claim codes and the RFC 2104 HMAC under them. The vectors in
# tests/data/hmac_sha256_vectors.txt come from CPython's hmac (RFC 4231 cases
# first); on CPython every line is re-checked against hmac itself, and random
# keys/messages are compared too. The same file runs on the unix port, whose
# hashlib has no hmac module at all.
import binascii

from bobing import claim

VECTORS = "tests/data/hmac_sha256_vectors.txt"

try:
    import hashlib
    import hmac  # CPython only
except ImportError:
    hmac = None


def _hex(s):
    return b"" if s == "-" else binascii.unhexlify(s)


def vectors():
    macs, claims = [], []
    with open(VECTORS) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            p = line.split()
            if p[0] == "claim":
                claims.append((_hex(p[1]), p[2], int(p[3]), int(p[4]), p[5], p[6]))
            else:
                macs.append((_hex(p[0]), _hex(p[1]), _hex(p[2])))
    return macs, claims


def test_hmac_matches_vectors():
    macs, _ = vectors()
    assert len(macs) >= 17
    for key, data, mac in macs:
        assert claim.hmac_sha256(key, data) == mac, (key, data)


def test_rfc4231_case_2_by_heart():
    # RFC 4231 4.3, HMAC-SHA-256 of "what do ya want for nothing?" with key "Jefe"
    assert binascii.hexlify(claim.hmac_sha256(b"Jefe", b"what do ya want for nothing?")) == (
        b"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")


def test_claim_codes_match_vectors():
    _, claims = vectors()
    assert len(claims) >= 8
    for secret, bowl, g, n, cls, code in claims:
        assert claim.code(secret, bowl, g, n, cls) == code, (bowl, g, n, cls)
        assert claim.verify(secret, bowl, g, n, cls, code)


K = b"0123456789abcdef"  # 16 bytes: the shortest secret a code accepts
K2 = b"0123456789abcdeF"


def test_code_shape():
    seen = {}
    for n in range(1, 201):
        c = claim.code(K, "B1", 1, n, "yixiu")
        assert len(c) == claim.CODE_LEN == 8
        for ch in c:
            assert ch in claim.ALPHABET
            assert ch not in "ILOU"
        seen[c] = 1
    assert len(seen) == 200  # 40 bits: no collision among 200 awards
    assert claim.pretty("ABCD1234") == "ABCD-1234"


def test_every_field_changes_the_code():
    base = claim.code(K, "B1", 5, 7, "yixiu")
    assert claim.code(K2, "B1", 5, 7, "yixiu") != base
    assert claim.code(K, "B2", 5, 7, "yixiu") != base
    assert claim.code(K, "B1", 6, 7, "yixiu") != base
    assert claim.code(K, "B1", 5, 8, "yixiu") != base
    assert claim.code(K, "B1", 5, 7, "erju") != base
    assert claim.code(K.decode(), "B1", 5, 7, "yixiu") == base  # text secrets are their UTF-8 bytes
    # fields cannot slide into each other: game 1 award 23 is not game 12 award 3
    assert claim.code(K, "B1", 1, 23, "yixiu") != claim.code(K, "B1", 12, 3, "yixiu")


def test_a_later_games_award_is_not_an_earlier_games():
    # award numbers restart at 1 in each game; with the game out of the
    # signed message, game 2's award #1 had game 1's award #1's code
    for n in range(1, 30):
        for cls in ("yixiu", "zhuangyuan"):
            c2 = claim.code(K, "0001", 2, n, cls)
            assert c2 != claim.code(K, "0001", 1, n, cls)
            assert claim.verify(K, "0001", 2, n, cls, c2)
            assert not claim.verify(K, "0001", 1, n, cls, c2)


def test_a_short_secret_is_refused():
    for short in (b"", b"\x00", b"k" * 15, "fifteen chars!!"):
        try:
            claim.code(short, "B1", 1, 1, "yixiu")
        except ValueError as e:
            assert "128 bits" in str(e)
        else:
            raise AssertionError("a %d-byte secret was accepted" % len(short))
    assert claim.check_secret(b"k" * 16) == b"k" * 16


def test_verify_is_forgiving_about_typing_only():
    c = claim.code(K, "B1", 9, 3, "duitang")
    assert claim.verify(K, "B1", 9, 3, "duitang", c)
    assert claim.verify(K, "B1", 9, 3, "duitang", claim.pretty(c).lower())
    assert claim.verify(K, "B1", 9, 3, "duitang", " " + c[:4] + " " + c[4:] + " ")
    # Crockford: O reads as 0, I and L as 1
    typed = c.replace("0", "O").replace("1", "l")
    assert claim.verify(K, "B1", 9, 3, "duitang", typed)
    # any other change fails
    for i in range(8):
        other = claim.ALPHABET[(claim.ALPHABET.index(c[i]) + 1) % 32]
        assert not claim.verify(K, "B1", 9, 3, "duitang", c[:i] + other + c[i + 1:])
    assert not claim.verify(K, "B1", 9, 3, "duitang", c[:7])
    assert not claim.verify(K, "B1", 9, 3, "duitang", c + "0")
    assert not claim.verify(K, "B1", 9, 3, "duitang", "UUUUUUUU")
    assert not claim.verify(K, "B1", 9, 4, "duitang", c)
    assert not claim.verify(K, "B1", 8, 3, "duitang", c)


def test_bad_fields_are_clear_errors():
    for args in ((K, "B|1", 1, 1, "yixiu"), (K, "B1", 1, 0, "yixiu"), (K, "B1", 0, 1, "yixiu"),
                 (K, "B1", -3, 1, "yixiu"), (K, "B1", True, 1, "yixiu"), (K, "B1", "1", 1, "yixiu"),
                 (K, "B1", 1, 1, "yi|xiu"), (None, "B1", 1, 1, "x"), (b"k", "B1", 1, 1, "x")):
        try:
            claim.code(*args)
        except ValueError as e:
            assert str(e)
        else:
            raise AssertionError("no error for %r" % (args,))


def test_against_cpython_hmac():
    if hmac is None:
        return  # the unix port has no hmac: the vectors above are its check
    import random
    r = random.Random(4231)
    for _ in range(300):
        key = bytes(r.randrange(256) for _ in range(r.randrange(0, 160)))
        msg = bytes(r.randrange(256) for _ in range(r.randrange(0, 400)))
        assert claim.hmac_sha256(key, msg) == hmac.new(key, msg, hashlib.sha256).digest()
    macs, _ = vectors()
    for key, data, mac in macs:
        assert hmac.new(key, data, hashlib.sha256).digest() == mac


def test_pbkdf2_sha256_vectors():
    # PBKDF2-HMAC-SHA256, P="password", S="salt", dkLen=32 (the widely published
    # vectors; CPython's hashlib.pbkdf2_hmac gives the same)
    for rounds, want in ((1, b"120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b"),
                         (2, b"ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43"),
                         (4096, b"c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")):
        assert binascii.hexlify(claim.pbkdf2_sha256(b"password", b"salt", rounds)) == want
    for bad in (0, -1, 1.5, None):
        try:
            claim.pbkdf2_sha256(b"p", b"s", bad)
        except ValueError:
            pass
        else:
            raise AssertionError("rounds %r accepted" % (bad,))


def test_pbkdf2_against_cpython():
    if hmac is None:
        return  # the unix port: the vectors above are its check
    import random
    r = random.Random(8018)
    for _ in range(40):
        pw = bytes(r.randrange(256) for _ in range(r.randrange(0, 100)))
        salt = bytes(r.randrange(256) for _ in range(r.randrange(0, 40)))
        n = r.randrange(1, 60)
        assert claim.pbkdf2_sha256(pw, salt, n) == hashlib.pbkdf2_hmac("sha256", pw, salt, n)
