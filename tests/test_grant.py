# micropython: yes
# The shared stock (firmware/PROTOCOL.md "Shared stock"): the allot/ask codec of
# bobing/outbox.py, one place for the bowl and the desk; the event kiosk game
# (game.Table(event=True), EV_GRANT/EV_STOCK) and its journal (the stock carried
# from game to game). On the unix port the games live in a real littlefs
# (vfs.VfsLfs2 on a RAM flash), as tests/test_journal.py's do.
import sys

from bobing import game, journal, outbox
from game_check import Lcg
from journal_probes import log_lines
from ramflash import fresh_root as _root  # a fresh folder (on the unix port: a littlefs on a RAM flash)

MP = sys.implementation.name == "micropython"
EVENT = "midautumn"
T_ALLOT = b"bobing/midautumn/7/allot"
BOWL = "7"


def _refused(f, *args, **kw):
    try:
        f(*args, **kw)
    except ValueError as e:
        return str(e)
    raise AssertionError("accepted: %r" % (args,))


def test_allot_round_trip():
    p = outbox.allot_payload(7, [("zhuangyuan", 1), ("duitang", 12), ("yixiu", 0)])
    assert p == b'{"v":2,"s":7,"grant":[["zhuangyuan",1],["duitang",12],["yixiu",0]]}'
    assert outbox.decode_allot(EVENT, T_ALLOT, p) == (7, (("zhuangyuan", 1), ("duitang", 12), ("yixiu", 0)))
    assert outbox.decode_allot(EVENT, T_ALLOT, p, "7")[0] == 7
    assert outbox.decode_allot(EVENT, "bobing/midautumn/7/allot", outbox.allot_payload(1, [])) == (1, ())
    # the desk's JSON, spaced as any JSON writer may, reads the same
    assert outbox.decode_allot(EVENT, T_ALLOT, b'{"grant": [["duitang", 2]], "s": 3, "v": 2}') == (3, (("duitang", 2),))


def test_ask_round_trip():
    p = outbox.ask_payload(0, [("duitang", 1), ("yixiu", 0)])
    assert p == b'{"v":2,"s":0,"left":[["duitang",1],["yixiu",0]]}'
    assert outbox.decode_ask(EVENT, b"bobing/midautumn/5F-kiosk/ask", p) == \
        ("5F-kiosk", 0, (("duitang", 1), ("yixiu", 0)))


def test_allot_refuses_malformed_oversized_foreign_and_out_of_range():
    good = b'{"v":2,"s":2,"grant":[["duitang",3]]}'
    cases = [
        (b"bobing/other/7/allot", good, "topic"),
        (b"bobing/midautumn/7/award", good, "topic"),
        (b"bobing/midautumn/7/allot/x", good, "topic"),
        (b"bobing/midautumn/$x/allot", good, "bowl id"),
        (b"\xff\xfe", good, "UTF-8"),
        (T_ALLOT, b"x" * 257, "at most 256"),
        (T_ALLOT, b"{not json", "not JSON"),
        (T_ALLOT, b"[1,2]", "not a JSON object"),
        (T_ALLOT, b'{"v":3,"s":2,"grant":[]}', "format"),
        (T_ALLOT, b'{"v":2,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":2,"s":0,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":2,"s":16777216,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":2,"s":true,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":2,"s":1.5,"grant":[]}', "'s'"),
        (T_ALLOT, b'{"v":2,"s":1}', "'grant'"),
        (T_ALLOT, b'{"v":2,"s":1,"grant":{"duitang":1}}', "'grant'"),
        (T_ALLOT, b'{"v":2,"s":1,"grant":[["duitang"]]}', "not [class, n]"),
        (T_ALLOT, b'{"v":2,"s":1,"grant":[["duitang",-1]]}', "0..16777215"),
        (T_ALLOT, b'{"v":2,"s":1,"grant":[["duitang",1e3]]}', "0..16777215"),
        (T_ALLOT, b'{"v":2,"s":1,"grant":[["du/tang",1]]}', "not allowed"),
        (T_ALLOT, b'{"v":2,"s":1,"grant":[[5,1]]}', "prize class"),
        (T_ALLOT, b'{"v":2,"s":1,"grant":[["duitang",1],["duitang",2]]}', "twice"),
    ]
    for t, p, why in cases:
        msg = _refused(outbox.decode_allot, EVENT, t, p)
        assert why in msg, (t, p, msg)
    assert "this is bowl" in _refused(outbox.decode_allot, EVENT, T_ALLOT, good, "8")
    assert "topic" in _refused(outbox.decode_ask, EVENT, T_ALLOT, b'{"v":2,"s":0,"left":[]}')
    assert "'s'" in _refused(outbox.decode_ask, EVENT, b"bobing/midautumn/7/ask", b'{"v":2,"s":-1,"left":[]}')


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


# ---- the event game --------------------------------------------------------------

def _event_table(**kw):
    return game.Table("kiosk", 1, bowl_id=BOWL, event=True, **kw)


def _apply(t, s, grant):
    for ev in t.stock_events(s, grant):
        t.apply(*ev)


def test_an_event_game_starts_empty_and_waits_for_stock():
    t = _event_table()
    assert not t.stocked() and t.grant_s == 0 and t.left()[0] == ("zhuangyuan", 0)
    assert "no stock" in _refused(t.apply, game.EV_CUSTOMER, None)
    evs = t.stock_events(3, (("duitang", 2), ("yixiu", 1)))
    assert evs == [(game.EV_GRANT, (1, 2)), (game.EV_GRANT, (5, 1)), (game.EV_STOCK, 3)]
    for ev in evs:
        t.apply(*ev)
    assert t.pool["duitang"] == 2 and t.pool["yixiu"] == 1 and t.grant_s == 3 and t.events == 3
    assert t.stock_events(3, (("duitang", 9),)) == [] and t.stock_events(2, (("duitang", 9),)) == []
    # cumulative: a class not raised (or lowered) gives no event, the pool never shrinks
    assert t.stock_events(4, (("duitang", 1), ("yixiu", 4))) == [(game.EV_GRANT, (5, 4)), (game.EV_STOCK, 4)]
    _apply(t, 4, (("duitang", 1), ("yixiu", 4)))
    assert t.pool["duitang"] == 2 and t.pool["yixiu"] == 4 and t.granted["yixiu"] == 4
    # a customer: every 一秀 paid, then stock out does not end the game ...
    t.apply(game.EV_CUSTOMER, None)
    for _ in range(3):
        t.apply(game.EV_ROLL, (4, 1, 2, 3, 5, 5))  # 一秀
    t.apply(game.EV_CUSTOMER, None)
    t.apply(game.EV_ROLL, (4, 1, 2, 3, 5, 5))
    assert t.pool["yixiu"] == 0 and t.pool["duitang"] == 2 and not t.ended
    t.apply(game.EV_ROLL, (1, 2, 3, 4, 5, 6))  # 对堂
    t.apply(game.EV_ROLL, (1, 2, 3, 4, 5, 6))
    assert not t.stocked() and not t.ended and t.shakes_left == 0
    assert "no stock" in _refused(t.apply, game.EV_CUSTOMER, None)
    _apply(t, 9, (("zhuangyuan", 1),))
    out = t.apply(game.EV_CUSTOMER, None)
    assert out.customer == 3 and t.awards[1]["yixiu"] == 4 and t.awards[1]["duitang"] == 2


def test_the_customer_at_the_bowl_finishes_his_shakes_when_stock_runs_out():
    t = _event_table()
    _apply(t, 1, (("yixiu", 1),))
    t.apply(game.EV_CUSTOMER, None)
    t.apply(game.EV_ROLL, (4, 1, 2, 3, 5, 5))
    assert not t.stocked() and t.shakes_left == 2 and not t.ended
    out = t.apply(game.EV_ROLL, (4, 1, 2, 3, 5, 5))  # nothing left to pay
    assert out.won == [] and t.shakes_left == 1
    t.apply(game.EV_ROLL, (4, 1, 2, 3, 5, 5))
    assert t.shakes_left == 0 and not t.ended


def test_bad_grants_are_refused_and_change_nothing():
    t = _event_table()
    assert "not in this game" in _refused(t.stock_events, 1, (("duitang", 1), ("jinhua", 1)))
    assert "0..999999" in _refused(t.stock_events, 1, (("duitang", 1000000),))
    assert "1..16777215" in _refused(t.stock_events, 0, ())
    assert "above the 0" in _refused(t.apply, game.EV_GRANT, (1, 0))
    assert "0..5" in _refused(t.apply, game.EV_GRANT, (6, 1))
    _apply(t, 2, (("duitang", 1),))
    assert "above the 2" in _refused(t.apply, game.EV_STOCK, 2)
    assert t.pool["duitang"] == 1 and t.events == 2
    plain = game.Table("kiosk", 1)
    assert "event game" in _refused(plain.stock_events, 1, ())
    assert "event game" in _refused(plain.apply, game.EV_STOCK, 1)
    assert "event game" in _refused(plain.apply, game.EV_GRANT, (0, 1))
    assert "kiosk" in _refused(game.Table, "xiamen", 6, None, "", None, 0, True)
    assert "ever granted" in _refused(_event_table, counts={"duitang": 2}, granted={"duitang": 1})
    assert "not in this profile" in _refused(_event_table, granted={"jinhua": 1})


# ---- on flash: the journal and the stock carried from game to game ---------------

def _start(root, j, event="midautumn", bowl=BOWL):
    if j is not None:
        j.close()
    return journal.start(root, "kiosk", seats=1, bowl_id=bowl, stock=journal.carried(j, event, bowl), plays=True)


def test_an_event_game_on_flash_round_trips_and_carries_its_stock_on():
    root = _root()
    j = _start(root, None)
    assert j.config.version == 2 and j.config.stock == ("midautumn", BOWL, 0, {}, {})
    for ev in j.table.stock_events(5, (("duitang", 3), ("yixiu", 2))):
        j.play(*ev)
    j.play(game.EV_CUSTOMER, None)
    j.play(game.EV_ROLL, (1, 2, 3, 4, 5, 6))  # 对堂
    j.close()
    r = journal.recover(root)
    assert not r.problems
    t = r.journal.table
    assert t.event and t.grant_s == 5 and t.pool["duitang"] == 2 and t.granted["duitang"] == 3
    # a family game in between passes the stock on untouched
    r.journal.close()
    j = journal.start(root, "xiamen", seats=4, stock=journal.carried(r.journal))
    assert j.config.stock[2:] == (5, {"zhuangyuan": 0, "duitang": 3, "sanhong": 0, "sijin": 0, "erju": 0,
                                      "yixiu": 2},
                                  {"zhuangyuan": 0, "duitang": 2, "sanhong": 0, "sijin": 0, "erju": 0,
                                   "yixiu": 2})
    assert not j.config.plays and not j.table.event
    j.close()
    j = _start(root, journal.recover(root).journal)
    t = j.table
    assert t.grant_s == 5 and t.pool["duitang"] == 2 and t.granted["duitang"] == 3 and t.awards[1]["duitang"] == 0
    assert j.table.stock_events(5, (("duitang", 9),)) == []  # applied in an earlier game: not twice
    for ev in j.table.stock_events(6, (("duitang", 4),)):
        j.play(*ev)
    assert t.pool["duitang"] == 3
    # another event, or this bowl under another id, starts from nothing
    k = _start(root, j, event="newyear")
    assert k.table.grant_s == 0 and not k.table.stocked()
    k2 = _start(root, k, event="midautumn", bowl="8")
    assert k2.table.grant_s == 0
    k2.close()


def test_bad_event_stock_in_a_header_is_refused():
    for stock, plays, counts, why in (
            (None, True, None, "from the event's grants"),
            (("midautumn", BOWL, 0, {}, {}), True, {"duitang": 1}, "from the event's grants"),
            (("mid autumn", BOWL, 0, {}, {}), True, None, "one word"),
            (("midautumn", BOWL, -1, {}, {}), True, None, "grant number"),
            (("midautumn", BOWL, 0, {"duitang": 1000000}, {}), True, None, "0..999999"),
            (("midautumn", BOWL, 0, {"duitang": 1}, {"duitang": 2}), True, None, "ever granted")):
        msg = _refused(journal.start, _root(), "kiosk", None, 1, counts, BOWL, None, journal.KEEP_BYTES, 0,
                       stock, plays)
        assert why in msg, (stock, msg)
    for line, why in (("@play midautumn 7 x duitang=1:1", "@play or @keep"),
                      ("@play midautumn 7 1 duitang=1", "GRANTED:LEFT"),
                      ("@play midautumn 7 1 duitang=1:1,duitang=1:1", "GRANTED:LEFT"),
                      ("@what midautumn 7 1 ", "@play or @keep")):
        msg = _refused(journal._parse_config, "kiosk\n7\n\n" + line, 1, 1, 2)
        assert why in msg, (line, msg)
    # format 1 has no event stock: an @ line there is a bad setting
    assert "" != _refused(journal._parse_config, "kiosk\n7\n\n@play midautumn 7 1 ", 1, 1, 1)


def test_checkpoints_of_an_event_game_round_trip_and_are_checked():
    t = _event_table(counts={"yixiu": 1}, grant_s=2, granted={"yixiu": 3, "duitang": 1})
    _apply(t, 4, (("yixiu", 5), ("duitang", 2)))
    t.apply(game.EV_CUSTOMER, None)
    t.apply(game.EV_ROLL, (4, 1, 2, 3, 5, 5))
    b = t.snapshot()
    u = _event_table(counts={"yixiu": 1}, grant_s=2, granted={"yixiu": 3, "duitang": 1})
    u.restore(b, 0, len(b), t.events)
    assert (u.grant_s, u.granted, u.pool, u.awards) == (t.grant_s, t.granted, t.pool, t.awards)
    # a grant that went down, or prizes that do not add up, are impossible states
    low = _event_table(counts={"yixiu": 1}, grant_s=2, granted={"yixiu": 3, "duitang": 3})
    assert "went down" in _refused(low.restore, b, 0, len(b), t.events)
    more = _event_table(counts={"yixiu": 2}, grant_s=2, granted={"yixiu": 3, "duitang": 1})
    assert "add up" in _refused(more.restore, b, 0, len(b), t.events)


def _awarded(root):
    """Prizes per class over every game on flash (as the outbox reads them back)."""
    tot = {}
    ids, _top = journal.inventory(root)
    for gid in ids:
        _s, _t, aw = outbox.replay(journal.path_of(root, gid), gid)
        for _n, cls, _k in aw:
            tot[cls] = tot.get(cls, 0) + 1
    return tot


def test_awards_never_exceed_the_grant_whatever_the_network_does():
    """A desk raises the bowl's cumulative grant now and then; the network loses,
    repeats, delays and reorders its allots; the bowl plays customers, reboots and
    starts new games. Every class's awards over all games <= the desk's grant, and
    awards + stock left == what the bowl applied (nothing lost, nothing doubled)."""
    journal.CHECKPOINT_EVERY, ck = 16, journal.CHECKPOINT_EVERY
    try:
        for seed in range(3 if MP else 8):
            rng = Lcg(seed + 1)
            root = _root()
            j = _start(root, None)
            classes = j.table.classes
            desk = {}
            sent = []  # every allot the desk published, in order
            for _step in range(250 if MP else 500):
                x = rng(100)
                if x < 6:  # the desk raises the grant
                    for c in classes:
                        if rng(3) == 0:
                            desk[c] = desk.get(c, 0) + 1 + rng(3)
                    sent.append((len(sent) + 1, tuple(desk.items())))
                elif x < 14 and sent:  # one allot arrives: the latest, or any earlier one again
                    s, g = sent[-1] if rng(2) else sent[rng(len(sent))]
                    for ev in j.table.stock_events(s, g):
                        j.play(*ev)
                elif x < 16:  # power cut / reboot
                    j.close()
                    r = journal.recover(root)
                    assert not r.problems, log_lines(r)
                    j = r.journal
                elif x < 17 or j.table.ended:  # the attendant starts a new game
                    j = _start(root, j)
                else:
                    t = j.table
                    if t.shakes_left:
                        j.play(game.EV_ROLL, tuple([1 + rng(6) for _ in range(6)]))
                    elif t.stocked():
                        j.play(game.EV_CUSTOMER, None)
                t = j.table
                if _step % 125 == 124:
                    j.fold()  # at rest (bowl/app.py): the journal's tail into the file _awarded reads
                aw = _awarded(root) if _step % 125 == 124 else None
                for c in classes:
                    assert t.granted[c] <= desk.get(c, 0), (seed, c)
                    if aw is not None:
                        assert aw.get(c, 0) + t.pool[c] + t.grabbed[c] == t.granted[c], (seed, c, aw)
            j.fold()
            aw = _awarded(root)
            for c in classes:
                assert aw.get(c, 0) <= desk.get(c, 0), (seed, c)
                assert aw.get(c, 0) + j.table.pool[c] + j.table.grabbed[c] == j.table.granted[c]
            j.close()
    finally:
        journal.CHECKPOINT_EVERY = ck


def test_status_carries_the_battery():
    t = b"bobing/midautumn/7/status"
    base = b'{"v":2,"on":1,"b":1,"c":1,"i":1,"fw":"1","g":3,"left":[["yixiu",2]],"faults":[]'
    assert outbox.decode_status(EVENT, t, base + b',"bat":3870}')[1]["bat"] == 3870
    assert outbox.decode_status(EVENT, t, base + b'}')[1]["bat"] == 0  # older firmware: unknown
    assert "'bat'" in _refused(outbox.decode_status, EVENT, t, base + b',"bat":-1}')
    assert "'bat'" in _refused(outbox.decode_status, EVENT, t, base + b',"bat":"3.8V"}')
