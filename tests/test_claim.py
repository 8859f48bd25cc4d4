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
                claims.append((_hex(p[1]), p[2], int(p[3]), p[4], p[5]))
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
    assert len(claims) >= 6
    for secret, bowl, n, cls, code in claims:
        assert claim.code(secret, bowl, n, cls) == code, (bowl, n, cls)
        assert claim.verify(secret, bowl, n, cls, code)


def test_code_shape():
    seen = {}
    for n in range(1, 201):
        c = claim.code(b"k", "B1", n, "yixiu")
        assert len(c) == claim.CODE_LEN == 8
        for ch in c:
            assert ch in claim.ALPHABET
            assert ch not in "ILOU"
        seen[c] = 1
    assert len(seen) == 200  # 40 bits: no collision among 200 awards
    assert claim.pretty("ABCD1234") == "ABCD-1234"


def test_every_field_changes_the_code():
    base = claim.code(b"secret", "B1", 7, "yixiu")
    assert claim.code(b"secret2", "B1", 7, "yixiu") != base
    assert claim.code(b"secret", "B2", 7, "yixiu") != base
    assert claim.code(b"secret", "B1", 8, "yixiu") != base
    assert claim.code(b"secret", "B1", 7, "erju") != base
    assert claim.code("secret", "B1", 7, "yixiu") == base  # text secrets are their UTF-8 bytes


def test_verify_is_forgiving_about_typing_only():
    c = claim.code(b"secret", "B1", 3, "duitang")
    assert claim.verify(b"secret", "B1", 3, "duitang", c)
    assert claim.verify(b"secret", "B1", 3, "duitang", claim.pretty(c).lower())
    assert claim.verify(b"secret", "B1", 3, "duitang", " " + c[:4] + " " + c[4:] + " ")
    # Crockford: O reads as 0, I and L as 1
    typed = c.replace("0", "O").replace("1", "l")
    assert claim.verify(b"secret", "B1", 3, "duitang", typed)
    # any other change fails
    for i in range(8):
        other = claim.ALPHABET[(claim.ALPHABET.index(c[i]) + 1) % 32]
        assert not claim.verify(b"secret", "B1", 3, "duitang", c[:i] + other + c[i + 1:])
    assert not claim.verify(b"secret", "B1", 3, "duitang", c[:7])
    assert not claim.verify(b"secret", "B1", 3, "duitang", c + "0")
    assert not claim.verify(b"secret", "B1", 3, "duitang", "UUUUUUUU")
    assert not claim.verify(b"secret", "B1", 4, "duitang", c)


def test_bad_fields_are_clear_errors():
    for args in ((b"k", "B|1", 1, "yixiu"), (b"k", "B1", 0, "yixiu"), (b"k", "B1", 1, "yi|xiu"), (None, "B1", 1, "x")):
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
