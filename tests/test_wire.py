# micropython: yes
# The seal every event message carries (firmware/bobing/wire.py, PROTOCOL.md "Sealed messages"):
# HMAC-SHA256 under a key derived from the bowl's secret, over the sender, the topic's parts and
# the body; anything changed, moved, reflected or made with another secret is refused by name.
import sys

from bobing import wire

SECRET = bytes(range(1, 33))
OTHER = bytes(range(2, 34))
BODY = b'{"v":2,"g":17,"n":3,"c":"duitang","k":5}'


def _refused(*args):
    try:
        wire.open_sealed(*args)
    except ValueError as e:
        return str(e)
    raise AssertionError("accepted: %r" % (args,))


def test_a_sealed_message_opens_to_its_body_and_its_mac_is_hmac_sha256():
    k = wire.key(SECRET)
    p = wire.seal(k, wire.FROM_BOWL, "midautumn", "0001", "award", BODY)
    assert p.startswith(BODY[:-1] + b',"mac":"') and p.endswith(b'"}') and len(p) == len(BODY) + 41
    assert wire.open_sealed(k, "b", "midautumn", "0001", "award", p) == BODY
    assert wire.open_sealed(k, "b", "midautumn", "0001", "award", p.decode()) == BODY
    if sys.implementation.name != "micropython":
        import hashlib
        import hmac
        import json
        kk = hmac.new(SECRET, b"bobing-wire-key2", hashlib.sha256).digest()
        want = hmac.new(kk, b"bobing-wire2|b|midautumn|0001|award|" + BODY, hashlib.sha256).hexdigest()[:32]
        assert json.loads(p)["mac"] == want and k == kk


def test_changed_moved_reflected_and_foreign_messages_are_refused_by_name():
    k = wire.key(SECRET)
    p = wire.seal(k, "b", "midautumn", "0001", "award", BODY)
    assert "seal does not match" in _refused(k, "b", "midautumn", "0001", "award", p.replace(b"duitang", b"yixiuuu"))
    assert "seal does not match" in _refused(k, "b", "midautumn", "0002", "award", p)  # another bowl
    assert "seal does not match" in _refused(k, "b", "other", "0001", "award", p)  # another event
    assert "seal does not match" in _refused(k, "b", "midautumn", "0001", "status", p)  # another leaf
    assert "seal does not match" in _refused(k, "d", "midautumn", "0001", "award", p)  # reflected
    assert "seal does not match" in _refused(wire.key(OTHER), "b", "midautumn", "0001", "award", p)
    for bad in (BODY, p[:-1], p[:-3] + b'"}', p + b" ", b"", b'{"mac":"' + b"0" * 32 + b'"}'):
        msg = _refused(k, "b", "midautumn", "0001", "award", bad)
        assert "not sealed" in msg or "does not match" in msg, msg


def test_only_an_unsealed_json_object_can_be_sealed():
    k = wire.key(SECRET)
    for bad in (b"", b"[1]", b'"x"', wire.seal(k, "b", "e", "1", "award", BODY)):
        try:
            wire.seal(k, "b", "e", "1", "award", bad)
        except ValueError:
            continue
        raise AssertionError("sealed %r" % (bad,))
    try:
        wire.seal(k, "x", "e", "1", "award", BODY)
    except ValueError as e:
        assert "sender" in str(e)
    else:
        raise AssertionError("sender 'x' taken")


def test_a_message_of_format_1_is_refused_by_name_and_every_kind_is_format_2():
    from bobing import fair, outbox
    k = wire.key(SECRET)
    msg = _refused(k, "b", "midautumn", "0001", "award", b'{"v":1,"g":1,"n":1,"c":"yixiu","k":1,"code":"X"}')
    assert "format 1 (unsealed, older firmware)" in msg, msg
    assert outbox.VERSION == 2  # the fair messages of format 2 are event messages too:
    assert fair.commit2_payload(1, 1, 1, bytes(32), "kiosk", [1] * 6).startswith(b'{"v":2,')
