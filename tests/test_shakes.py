# micropython: yes
# Shakes granted at the prize desk (firmware/PROTOCOL.md "Shakes from the
# counter"), the shared codec and the bowl's record (bobing/shakes.py): the
# desk signs with the bowl's claim secret, the bowl refuses what another secret,
# bowl or event signed and anything malformed; the record on flash (on the unix
# port in littlefs) reads back only as written. EV_CUSTOMER carries the shakes.
import sys

from bobing import game, journal, shakes
from ramflash import fresh_root

SECRET = bytes(range(1, 17))
OTHER = bytes(range(2, 18))
EV = "midautumn"
TOPIC = "bobing/midautumn/3F-1/shakes"


def _refused(*args):
    try:
        shakes.decode(*args)
    except ValueError as e:
        return str(e)
    raise AssertionError("accepted: %r" % (args,))


def test_a_signed_grant_round_trips_and_its_mac_is_hmac_sha256():
    p = shakes.payload(SECRET, EV, "3F-1", 7, 3, "R-88")
    assert p.startswith(b'{"v":2,"id":7,"n":3,"ref":"R-88","m":"') and len(p) < 120
    assert shakes.decode(EV, TOPIC, p, "3F-1", SECRET) == (7, 3, "R-88")
    assert shakes.decode(EV, TOPIC.encode(), p, "3F-1", SECRET) == (7, 3, "R-88")
    if sys.implementation.name != "micropython":
        import hmac
        import hashlib
        import json
        want = hmac.new(SECRET, b"bobing-desk1|midautumn|3F-1|shakes|7|3|R-88", hashlib.sha256).hexdigest()[:32]
        assert json.loads(p)["m"] == want


def test_forged_moved_replayed_elsewhere_and_malformed_grants_are_refused():
    good = shakes.payload(SECRET, EV, "3F-1", 7, 3, "R-88")
    assert "mac does not match" in _refused(EV, TOPIC, shakes.payload(OTHER, EV, "3F-1", 7, 3, "R-88"), "3F-1", SECRET)
    assert "mac does not match" in _refused(EV, TOPIC, good.replace(b'"n":3', b'"n":9'), "3F-1", SECRET)
    assert "mac does not match" in _refused(EV, TOPIC, good.replace(b'"id":7', b'"id":8'), "3F-1", SECRET)
    # signed for bowl 3F-1, published on bowl 3F-2's topic; or for another event
    assert "mac does not match" in _refused(EV, "bobing/midautumn/3F-2/shakes", good, "3F-2", SECRET)
    assert "bowl" in _refused(EV, TOPIC, good, "3F-2", SECRET)
    assert "topic" in _refused("newyear", TOPIC, good, "3F-1", SECRET)
    for bad, why in ((b"not json", "JSON"), (b"[1]", "object"), (b'{"v":3,"id":7,"n":3}', "format"),
                     (b'{"v":2,"id":0,"n":3,"m":""}', "'id'"), (b'{"v":2,"id":7,"n":100,"m":""}', "'n'"),
                     (b'{"v":2,"id":7,"n":true,"m":""}', "'n'"), (b'{"v":2,"id":7,"n":3,"ref":"a|b"}', "ref"),
                     (b'{"v":2,"id":7,"n":3,"ref":"R"}', "mac"), (b"{" + b" " * 300 + b"}", "bytes")):
        assert why in _refused(EV, TOPIC, bad, "3F-1", SECRET), bad
    for args in ((0, 3), (1, 0), (1, 100), (1, 3, "x" * 25), (1, 3, 'a"b')):
        try:
            shakes.payload(SECRET, EV, "3F-1", *args)
        except ValueError:
            continue
        raise AssertionError("made %r" % (args,))


def test_acks_round_trip():
    assert shakes.decode_ack(EV, "bobing/midautumn/7/shaken", shakes.ack_payload(7, "got")) == ("7", 7, "got", "")
    assert shakes.decode_ack(EV, "bobing/midautumn/7/shaken", shakes.ack_payload(7, "no", 'a "b"')) == (
        "7", 7, "no", "a 'b'")
    try:
        shakes.decode_ack(EV, "bobing/midautumn/7/shaken", b'{"v":2,"id":7,"st":"maybe"}')
    except ValueError as e:
        assert "st" in str(e)
    else:
        raise AssertionError("an unknown state was read")


def test_the_record_reads_back_only_as_written():
    root = fresh_root()
    import os
    os.mkdir(root)
    assert shakes.read(root) is None
    shakes.write(root, 7, 3, 12, 4)
    assert shakes.read(root) == (7, 3, 12, 4)
    shakes.write(root, 8, 1, 12, 5)
    assert shakes.read(root) == (8, 1, 12, 5)
    with open(root + "/" + shakes.FILE, "rb") as f:
        b = bytearray(f.read())
    b[3] ^= 1  # one flipped bit
    with open(root + "/" + shakes.FILE, "wb") as f:
        f.write(b)
    try:
        shakes.read(root)
    except ValueError as e:
        assert "damaged" in str(e)
    else:
        raise AssertionError("a damaged record was read")


def test_a_customer_carries_the_shakes_granted():
    assert journal.arg_value(game.EV_CUSTOMER, journal.arg_code(game.EV_CUSTOMER, None)) is None
    assert journal.arg_value(game.EV_CUSTOMER, journal.arg_code(game.EV_CUSTOMER, 5)) == 5
    for bad in (0, 256, True, "3"):
        try:
            journal.arg_code(game.EV_CUSTOMER, bad)
        except ValueError:
            continue
        raise AssertionError(bad)
    t = game.Table("kiosk", seats=1, counts={"yixiu": 9})
    t.next_customer(5)
    assert t.shakes_left == 5
    for _ in range(5):
        t.roll((1, 2, 3, 4, 6, 6))
    t.next_customer()
    assert t.shakes_left == t.kiosk_shakes
