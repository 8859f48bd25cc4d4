# Kiosk claim codes (RULES.md §7: "凭奖券在礼品兑换处领取" - the counter must be
# able to check what the bowl showed). A code is the first 40 bits of
# HMAC-SHA256(secret, "bobing-claim2|<bowl id>|<game no>|<award no>|<class>")
# in Crockford base32: 8 characters from 0-9 and A-Z without I, L, O, U, easy
# to read off a 128x64 screen and to type. Without the bowl's secret nobody can
# mint one; with 40 bits a guess is right once in a trillion.
#
# The game number is the journal's (the NNNNNNNN of /data/gNNNNNNNN.bbj): it
# only grows on a bowl, and award numbers count from 1 in each game, so
# (bowl, game, award) names one award for the bowl's life and no code is ever
# made twice. (Format 1, "bobing-claim|bowl|award|class", left the game out:
# game 2's award 1 had game 1's award 1's code.) The secret is at least
# MIN_SECRET bytes (128 bits): a short one could be found by trying them all.
#
# MicroPython has hashlib.sha256; the ESP32 port's image freezes no hmac module
# (micropython-lib has one, python-stdlib/hmac, which firmware/manifest.py would
# have to require). So HMAC is RFC 2104 here,
# written once and checked against CPython's hmac (tests/test_claim.py, which
# also runs on the unix port); PBKDF2 over it hashes the PIN (bobing/settings.py).
import hashlib

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32
CODE_LEN = 8  # characters: 8 x 5 = 40 bits
MIN_SECRET = 16  # bytes: 128 bits
_BLOCK = 64  # SHA-256 block size in bytes


def _bytes(x, what):
    if isinstance(x, str):
        return x.encode()
    if isinstance(x, (bytes, bytearray)):
        return bytes(x)
    raise ValueError("%s must be bytes or text, got %r" % (what, x))


def _pads(key):
    """HMAC's inner and outer key blocks (RFC 2104 section 2)."""
    key = _bytes(key, "key")
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    ipad = bytearray(_BLOCK)
    opad = bytearray(_BLOCK)
    for i in range(_BLOCK):
        k = key[i] if i < len(key) else 0
        ipad[i] = k ^ 0x36
        opad[i] = k ^ 0x5C
    return ipad, opad


def _mac(ipad, opad, msg):
    inner = hashlib.sha256(ipad)
    inner.update(msg)
    return _outer(opad, inner)


def _outer(opad, inner):
    outer = hashlib.sha256(opad)
    outer.update(inner.digest())
    return outer.digest()


class Hmac:
    """The same HMAC-SHA256, fed in pieces: update() allocates nothing (hashlib's
    update works in the hash's own state), so the journal feeds it each record as
    it is written and pays for digest() only when it seals (bobing/seal.py)."""

    def __init__(self, key):
        self._ipad, self._opad = _pads(key)
        self._inner = None

    def begin(self, first=b""):
        """Start a new message (its first bytes)."""
        self._inner = hashlib.sha256(self._ipad)
        self._inner.update(first)

    def update(self, b):
        self._inner.update(b)

    def digest(self):
        """The 32-byte MAC of the message so far; begin() before the next one."""
        return _outer(self._opad, self._inner)

    def mac(self, first, rest):
        """begin(first), update(rest), digest() in one call: a message MACed whole (the
        network's seal of every message: three calls fewer each)."""
        inner = hashlib.sha256(self._ipad)
        inner.update(first)
        inner.update(rest)
        return _outer(self._opad, inner)


def hmac_sha256(key, msg):
    """RFC 2104 HMAC with SHA-256 -> 32-byte digest."""
    ipad, opad = _pads(key)
    return _mac(ipad, opad, _bytes(msg, "message"))


def pbkdf2_sha256(password, salt, rounds):
    """PBKDF2 with HMAC-SHA256 (RFC 8018 section 5.2), one 32-byte block: the
    PIN's hash. (MicroPython's hashlib has no pbkdf2_hmac; tests compare this
    with CPython's.)"""
    if not isinstance(rounds, int) or rounds < 1:
        raise ValueError("PBKDF2 rounds %r: must be a whole number >= 1" % (rounds,))
    ipad, opad = _pads(password)
    u = _mac(ipad, opad, _bytes(salt, "salt") + b"\x00\x00\x00\x01")
    acc = int.from_bytes(u, "big")
    for _ in range(rounds - 1):
        u = _mac(ipad, opad, u)
        acc ^= int.from_bytes(u, "big")
    return acc.to_bytes(32, "big")


def check_secret(secret):
    """The secret as bytes; ValueError if it is not bytes/text of >= 128 bits."""
    secret = _bytes(secret, "secret")
    if len(secret) < MIN_SECRET:
        raise ValueError("a claim secret needs at least %d bytes (128 bits), got %d"
                         % (MIN_SECRET, len(secret)))
    return secret


def _number(n, what):
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError("%s %r: must be a whole number >= 1" % (what, n))
    return n


def message(bowl_id, game_no, award_no, cls):
    """The bytes a code signs. '|' separates the fields, so none may hold one."""
    bowl_id = str(bowl_id)
    if "|" in bowl_id or "|" in cls:
        raise ValueError("bowl id %r and prize class %r may not contain '|'" % (bowl_id, cls))
    return ("bobing-claim2|%s|%d|%d|%s" % (bowl_id, _number(game_no, "game number"),
                                           _number(award_no, "award number"), cls)).encode()


def code(secret, bowl_id, game_no, award_no, cls):
    """The 8-character claim code of award `award_no` of game `game_no`."""
    mac = hmac_sha256(check_secret(secret), message(bowl_id, game_no, award_no, cls))
    out = ""
    acc = 0
    bits = 0
    for b in mac[:5]:  # 40 bits, 5 at a time, without big ints (the ESP32 is 32-bit)
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            out += ALPHABET[(acc >> bits) & 31]
        acc &= (1 << bits) - 1
    return out


def pretty(c):
    """'ABCD1234' -> 'ABCD-1234' for the screen."""
    return c[:4] + "-" + c[4:]


def normalize(text):
    """What a person typed -> the canonical code: case, spaces and dashes are
    ignored, O reads as 0, I and L as 1 (Crockford). ValueError if not a code."""
    out = ""
    for ch in text.upper():
        if ch in " -":
            continue
        if ch == "O":
            ch = "0"
        elif ch == "I" or ch == "L":
            ch = "1"
        if ch not in ALPHABET:
            raise ValueError("%r is not a claim-code character (0-9 and A-Z without I, L, O, U)" % ch)
        out += ch
    if len(out) != CODE_LEN:
        raise ValueError("a claim code has %d characters, got %d in %r" % (CODE_LEN, len(out), text))
    return out


def verify(secret, bowl_id, game_no, award_no, cls, text):
    """True if `text` is the claim code of that award (compared in constant time).
    ValueError for a bad secret or field (not for a mistyped code: that is False)."""
    want = code(secret, bowl_id, game_no, award_no, cls)
    try:
        got = normalize(text)
    except ValueError:
        return False
    diff = 0
    for i in range(CODE_LEN):
        diff |= ord(got[i]) ^ ord(want[i])
    return diff == 0


# The claim screen's QR (bobing/panels.py) on a fair event kiosk: a link to the
# desk's public fairness page of that award, which a USB scanner at the counter
# types in like the BB1 text (firmware/PROTOCOL.md "Claim QR"):
#     HTTP://<DESK HOST:PORT>/F/<bowl>/<game>-<award>/<CLASS>#<code>
# Upper case, so that all but the "#" is QR alphanumeric; the code is the URL's
# fragment, which a phone's browser never sends (nor puts in a Referer): the
# page is found by bowl, game and award, and the code stays with the customer.
LINK_PATH = "/F/"


def link(desk, bowl, ref, cls_upper, code):
    """The claim's link (desk: "HTTP://HOST:PORT"; ref: "17-3")."""
    return "%s%s%s/%s/%s#%s" % (desk, LINK_PATH, bowl, ref, cls_upper, code)


def bb1_of(text):
    """A claim QR's text in either form -> its BB1 form (BB1:bowl:game-award:CLASS:code);
    a text that is not a link comes back as it is. ValueError for a link that is not a claim's."""
    t = text.strip()
    u = t.upper()
    if not (u.startswith("HTTP://") or u.startswith("HTTPS://")):
        return t
    rest, sharp, code = t.partition("#")
    i = rest.upper().find(LINK_PATH, 8)  # after the host
    parts = rest[i + len(LINK_PATH):].split("/") if i > 0 else []
    if not sharp or not code or len(parts) != 3 or not all(parts):
        raise ValueError("%r is not a claim's link (HTTP://DESK/F/<bowl>/<game>-<award>/<CLASS>#<code>)" % t[:80])
    return "BB1:%s:%s:%s:%s" % (parts[0], parts[1], parts[2], code)
