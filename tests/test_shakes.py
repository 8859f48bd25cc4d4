# micropython: yes
# Shakes granted at the prize desk (firmware/PROTOCOL.md "Shakes from the
# counter"), the shared codec and the bowl's record (bobing/grants.py): the
# desk's grant is signed by its seal alone (bobing/wire.py, under the bowl's key):
# the seal refuses what another key, bowl or event signed, the codec anything
# malformed and an older desk's inner mac by name; the record on flash (on the unix
# port in littlefs) reads back only as written. EV_CUSTOMER carries the shakes.
from bobing import game, grants, journal, wire
from ramflash import fresh_root

SECRET = bytes(range(1, 17))
OTHER = bytes(range(2, 18))
EV = "midautumn"
TOPIC = "bobing/midautumn/3F-1/shakes"


def _refused(*args):
    try:
        grants.decode(*args)
    except ValueError as e:
        return str(e)
    raise AssertionError("accepted: %r" % (args,))


def _sealed(secret, bowl, body, event=EV):
    return wire.seal(wire.key(secret), wire.FROM_DESK, event, bowl, "shakes", body)


def _opened(secret, bowl, payload, event=EV):
    return wire.open_sealed(wire.key(secret), wire.FROM_DESK, event, bowl, "shakes", payload)


def _seal_refused(secret, bowl, payload, event=EV):
    try:
        _opened(secret, bowl, payload, event)
    except ValueError as e:
        return str(e)
    raise AssertionError("seal accepted: %r" % (payload,))


def test_a_sealed_grant_round_trips_with_one_signature():
    p = grants.payload(7, 3, "R-88")
    assert p == b'{"v":2,"id":7,"n":3,"ref":"R-88"}'  # no inner mac: the seal is its signature
    w = _sealed(SECRET, "3F-1", p)
    assert w.count(b"mac") == 1 and len(w) < 120
    body = _opened(SECRET, "3F-1", w)
    assert grants.decode(EV, TOPIC, body, "3F-1") == (7, 3, "R-88")
    assert grants.decode(EV, TOPIC.encode(), body, "3F-1") == (7, 3, "R-88")


def test_forged_moved_replayed_elsewhere_and_malformed_grants_are_refused():
    good = _sealed(SECRET, "3F-1", grants.payload(7, 3, "R-88"))
    assert "seal does not match" in _seal_refused(SECRET, "3F-1", _sealed(OTHER, "3F-1", grants.payload(7, 3, "R-88")))
    assert "seal does not match" in _seal_refused(SECRET, "3F-1", good.replace(b'"n":3', b'"n":9'))
    assert "seal does not match" in _seal_refused(SECRET, "3F-1", good.replace(b'"id":7', b'"id":8'))
    # sealed for bowl 3F-1, published on bowl 3F-2's topic; or for another event
    assert "seal does not match" in _seal_refused(SECRET, "3F-2", good)
    assert "seal does not match" in _seal_refused(SECRET, "3F-1", good, "newyear")
    body = _opened(SECRET, "3F-1", good)
    assert "bowl" in _refused(EV, TOPIC, body, "3F-2")
    assert "topic" in _refused("newyear", TOPIC, body, "3F-1")
    # an older desk's grant: its inner mac "m" beside the seal, refused by name
    old = b'{"v":2,"id":7,"n":3,"ref":"R-88","m":"' + b"0" * 32 + b'"}'
    assert "field 'm': an inner mac" in _refused(EV, TOPIC, _opened(SECRET, "3F-1", _sealed(SECRET, "3F-1", old)),
                                                  "3F-1")
    for bad, why in ((b"not json", "JSON"), (b"[1]", "object"), (b'{"v":3,"id":7,"n":3}', "format"),
                     (b'{"v":2,"id":0,"n":3}', "'id'"), (b'{"v":2,"id":7,"n":100}', "'n'"),
                     (b'{"v":2,"id":7,"n":true}', "'n'"), (b'{"v":2,"id":7,"n":3,"ref":"a|b"}', "ref"),
                     (b"{" + b" " * 300 + b"}", "bytes")):
        assert why in _refused(EV, TOPIC, bad, "3F-1"), bad
    for args in ((0, 3), (1, 0), (1, 100), (1, 3, "x" * 25), (1, 3, 'a"b')):
        try:
            grants.payload(*args)
        except ValueError:
            continue
        raise AssertionError("made %r" % (args,))


def test_acks_round_trip():
    assert grants.decode_ack(EV, "bobing/midautumn/7/shaken", grants.ack_payload(7, "got")) == ("7", 7, "got", "")
    assert grants.decode_ack(EV, "bobing/midautumn/7/shaken", grants.ack_payload(7, "no", 'a "b"')) == (
        "7", 7, "no", "a 'b'")
    try:
        grants.decode_ack(EV, "bobing/midautumn/7/shaken", b'{"v":2,"id":7,"st":"maybe"}')
    except ValueError as e:
        assert "st" in str(e)
    else:
        raise AssertionError("an unknown state was read")


def test_the_record_reads_back_only_as_written():
    root = fresh_root()
    import os
    os.mkdir(root)
    assert grants.read(root) is None
    grants.write(root, 7, 3, 12, 4)
    assert grants.read(root) == (7, 3, 12, 4)
    grants.write(root, 8, 1, 12, 5)
    assert grants.read(root) == (8, 1, 12, 5)
    with open(root + "/" + grants.FILE, "rb") as f:
        b = bytearray(f.read())
    b[3] ^= 1  # one flipped bit
    with open(root + "/" + grants.FILE, "wb") as f:
        f.write(b)
    try:
        grants.read(root)
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
