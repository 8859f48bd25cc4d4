# Every message on the event network is sealed end to end (PROTOCOL.md "Sealed messages",
# message format 2): whatever the broker does, only the holder of the bowl's secret (the bowl
# and the desk) can write a message the other side takes. A payload is a compact JSON object
# whose LAST field is the seal:
#   {"v":2,...the message's own fields...,"mac":"<32 hex>"}
# mac = the first 16 bytes of HMAC-SHA256(K, "bobing-wire2|" FROM "|" event "|" bowl "|" leaf
# "|" body), where body is the object as written before sealing (the payload's bytes before
# ',"mac":' followed by '}'), FROM is "b" (bowl to desk) or "d" (desk to bowl) so that neither
# side's message can be reflected as the other's, and K = HMAC-SHA256(the bowl's claim secret,
# "bobing-wire-key2"), so the claim codes' key is never used on the wire itself. The topic's
# parts are in the signed text: a sealed message moved to another bowl's, event's or leaf's
# topic fails. Replays: each message is either idempotent by its identity fields (an award's
# game and number, a commitment's customer, a grant's id) or carries a counter that only grows;
# the receiver of each kind refuses the old ones (its decoder says how).
# Pure logic, the same on MicroPython and CPython.
from micropython import const

from bobing import claim

FROM_BOWL = "b"
FROM_DESK = "d"
_MAC_BYTES = const(16)
_TAIL = b',"mac":"'
_TAIL_LEN = const(8)  # len(_TAIL)
OVERHEAD = const(41)  # bytes a seal adds to a body: ,"mac":"<32 hex>" before its closing }


def key(secret):
    """The bowl's message key K from its claim secret (32 bytes)."""
    return claim.hmac_sha256(claim.check_secret(secret), b"bobing-wire-key2")


_keyed = [None, None]  # the last key and its claim.Hmac: a bowl seals every message with one key
_head = [None, None, None, None, b""]  # the last (sender, event, bowl, leaf) and its signed text's start


def _mac(k, frm, event, bowl_id, leaf, body):
    if frm != FROM_BOWL and frm != FROM_DESK:
        raise ValueError("sender %r: 'b' (bowl) or 'd' (desk)" % (frm,))
    if _keyed[0] != k:
        _keyed[1] = claim.Hmac(k)  # HMAC's key blocks made once, not at every message
        _keyed[0] = bytes(k)
    p = _head
    if p[0] != frm or p[1] != event or p[2] != bowl_id or p[3] != leaf:  # formatted once per topic, not
        p[4] = ("bobing-wire2|%s|%s|%s|%s|" % (frm, event, bowl_id, leaf)).encode()  # at every message
        p[0], p[1], p[2], p[3] = frm, event, bowl_id, leaf
    import binascii
    return binascii.hexlify(_keyed[1].mac(p[4], body)[:_MAC_BYTES])


def seal_into(buf, at, k, frm, event, bowl_id, leaf, body):
    """The sealed payload of `body` (a compact JSON object, bytes, that does not end in a
    mac already) written into buf (a bytearray) from `at` -> where it ends. buf must have
    room for len(body) + OVERHEAD bytes from `at` (the publisher's packet buffer, allocated
    once: nothing is allocated per message but the mac)."""
    n = len(body)
    if n < 2 or body[0] != 0x7B or body[-1] != 0x7D:  # { ... }
        raise ValueError("a message body is a JSON object {...}, got %r" % (bytes(body[:20]),))
    if _TAIL in body:
        raise ValueError("the body is sealed already")
    buf[at:at + n] = body
    e = at + n - 1  # the tail over the body's closing }
    buf[e:e + _TAIL_LEN] = _TAIL
    e += _TAIL_LEN
    buf[e:e + 2 * _MAC_BYTES] = _mac(k, frm, event, bowl_id, leaf, body)
    e += 2 * _MAC_BYTES
    buf[e] = 0x22  # "
    buf[e + 1] = 0x7D  # }
    return e + 2


def seal(k, frm, event, bowl_id, leaf, body):
    """The sealed payload (bytes) of `body`, a compact JSON object as bytes (or text) that
    does not end in a mac already."""
    if isinstance(body, str):
        body = body.encode()
    b = bytearray(len(body) + OVERHEAD)
    seal_into(b, 0, k, frm, event, bowl_id, leaf, body)
    return bytes(b)


def open_sealed(k, frm, event, bowl_id, leaf, payload):
    """The body (bytes) of a sealed payload; ValueError saying what is wrong: no seal, a
    damaged one, or one not made with this bowl's key for this sender, topic and text."""
    if isinstance(payload, str):
        payload = payload.encode()
    p = bytes(payload)
    at = p.rfind(_TAIL)
    if at < 1 or len(p) != at + _TAIL_LEN + 2 * _MAC_BYTES + 2 or not p.endswith(b'"}'):
        if p.startswith(b'{"v":1,'):
            raise ValueError("payload format 1 (unsealed, older firmware): this side reads format 2, sealed "
                             "(PROTOCOL.md \"Sealed messages\"): update the firmware")
        raise ValueError("not sealed: a message ends in ,\"mac\":\"<%d hex digits>\"}"
                         % (2 * _MAC_BYTES))
    got = p[at + _TAIL_LEN:-2]
    body = p[:at] + b"}"
    want = _mac(k, frm, event, bowl_id, leaf, body)
    diff = 0
    for i in range(len(want)):
        diff |= want[i] ^ got[i]
    if diff:
        raise ValueError("seal does not match: not written with this bowl's key for %s/%s"
                         % (bowl_id, leaf))
    return body
