# micropython: yes
# The shared stock (firmware/PROTOCOL.md "Shared stock"): the allot/ask codec of
# bobing/outbox.py, one place for the bowl and the desk.
from bobing import outbox

EVENT = "midautumn"
T_ALLOT = b"bobing/midautumn/7/allot"


def _refused(f, *args):
    try:
        f(*args)
    except ValueError as e:
        return str(e)
    raise AssertionError("accepted: %r" % (args,))


def test_allot_round_trip():
    p = outbox.allot_payload(7, [("zhuangyuan", 1), ("duitang", 12), ("yixiu", 0)])
    assert p == b'{"v":1,"s":7,"grant":[["zhuangyuan",1],["duitang",12],["yixiu",0]]}'
    assert outbox.decode_allot(EVENT, T_ALLOT, p) == (7, (("zhuangyuan", 1), ("duitang", 12), ("yixiu", 0)))
    assert outbox.decode_allot(EVENT, T_ALLOT, p, "7")[0] == 7
    assert outbox.decode_allot(EVENT, "bobing/midautumn/7/allot", outbox.allot_payload(1, [])) == (1, ())
    # the desk's JSON, spaced as any JSON writer may, reads the same
    assert outbox.decode_allot(EVENT, T_ALLOT, b'{"grant": [["duitang", 2]], "s": 3, "v": 1}') == (3, (("duitang", 2),))


def test_ask_round_trip():
    p = outbox.ask_payload(0, [("duitang", 1), ("yixiu", 0)])
    assert p == b'{"v":1,"s":0,"left":[["duitang",1],["yixiu",0]]}'
    assert outbox.decode_ask(EVENT, b"bobing/midautumn/5F-kiosk/ask", p) == ("5F-kiosk", 0, (("duitang", 1), ("yixiu", 0)))


def test_allot_refuses_malformed_oversized_foreign_and_out_of_range():
    good = b'{"v":1,"s":2,"grant":[["duitang",3]]}'
    cases = [
        (b"bobing/other/7/allot", good, "topic"),
        (b"bobing/midautumn/7/award", good, "topic"),
        (b"bobing/midautumn/7/allot/x", good, "topic"),
        (b"bobing/midautumn/$x/allot", good, "bowl id"),
        (b"\xff\xfe", good, "UTF-8"),
        (T_ALLOT, b"x" * 257, "at most 256"),
        (T_ALLOT, b"{not json", "not JSON"),
        (T_ALLOT, b"[1,2]", "not a JSON object"),
        (T_ALLOT, b'{"v":2,"s":2,"grant":[]}', "format"),
        (T_ALLOT, b'{"v":1,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":1,"s":0,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":1,"s":16777216,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":1,"s":true,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":1,"s":1.5,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":1,"s":1}', "'grant'"),
        (T_ALLOT, b'{"v":1,"s":1,"grant":{"duitang":1}}', "'grant'"),
        (T_ALLOT, b'{"v":1,"s":1,"grant":[["duitang"]]}', "not [class, n]"),
        (T_ALLOT, b'{"v":1,"s":1,"grant":[["duitang",-1]]}', "0..16777215"),
        (T_ALLOT, b'{"v":1,"s":1,"grant":[["duitang",1e3]]}', "0..16777215"),
        (T_ALLOT, b'{"v":1,"s":1,"grant":[["du/tang",1]]}', "not allowed"),
        (T_ALLOT, b'{"v":1,"s":1,"grant":[[5,1]]}', "prize class"),
        (T_ALLOT, b'{"v":1,"s":1,"grant":[["duitang",1],["duitang",2]]}', "twice"),
    ]
    for t, p, why in cases:
        msg = _refused(outbox.decode_allot, EVENT, t, p)
        assert why in msg, (t, p, msg)
    assert "this is bowl" in _refused(outbox.decode_allot, EVENT, T_ALLOT, good, "8")
    assert "topic" in _refused(outbox.decode_ask, EVENT, T_ALLOT, b'{"v":1,"s":0,"left":[]}')
    assert "'s'" in _refused(outbox.decode_ask, EVENT, b"bobing/midautumn/7/ask", b'{"v":1,"s":-1,"left":[]}')


def test_payload_makers_refuse_what_the_other_side_would():
    assert "1..16777215" in _refused(outbox.allot_payload, 0, [])
    assert "0..16777215" in _refused(outbox.ask_payload, -1, [])
    assert "twice" in _refused(outbox.allot_payload, 1, [("duitang", 1), ("duitang", 1)])
    assert "0..16777215" in _refused(outbox.allot_payload, 1, [("duitang", -1)])
    assert "0..16777215" in _refused(outbox.ask_payload, 1, [("duitang", True)])
    assert "not allowed" in _refused(outbox.allot_payload, 1, [("a b", 1)])
    many = [("class%02d" % i, 999999) for i in range(16)]
    assert "at most 256" in _refused(outbox.allot_payload, 1, many)
    # six classes (the standard table's) at the largest counts fit
    p = outbox.allot_payload(outbox.MAX_SEQ, [("zhuangyuan", 999), ("duitang", 999), ("sanhong", 999),
                                              ("sijin", 999), ("erju", 999), ("yixiu", 9999)])
    assert len(p) <= 256 and outbox.decode_allot(EVENT, T_ALLOT, p)[0] == outbox.MAX_SEQ
