# micropython: yes
# 状元王中王 across tables (bobing/champions.py): what a table bowl reports as its
# 状元, what the final's bowl reports of the final, in which order, sent again
# only when it changed; and the desk's decoders, which refuse what is malformed.
import json

from bobing import champions as CH
from bobing import final_play as F
from bobing import game

EVENT = "party"
SIHONG_12 = (4, 4, 4, 4, 1, 2)
WUZI = (2, 2, 2, 2, 2, 5)
NONE = (1, 2, 3, 5, 6, 6)


class Con:
    """What the Reporter reads of a console: j (the journal), final, view."""

    def __init__(self, j=None, final=None):
        self.j = j
        self.final = final
        self.view = 1


class J:
    def __init__(self, table, game_id=7):
        self.table = table
        self.game_id = game_id
        self.failed = None


def drain(rep, con):
    out = []
    while True:
        item = rep.next(con)
        if item is None:
            return out
        rep.sent(item[3])
        out.append((item[0], json.loads(item[1]), item[2]))
        if len(out) > 100:
            raise AssertionError("the reporter does not stop: %r" % (out[-3:],))


def table(rolls, profile="xiamen", seats=4):
    t = game.Table(profile, seats)
    t.start_seat(1)
    for d in rolls:
        t.roll(d)
    return t


def test_a_table_reports_its_zhuangyuan_when_it_changes():
    t = table([NONE, SIHONG_12, NONE])
    con = Con(J(t))
    rep = CH.Reporter(EVENT, "T01")
    got = drain(rep, con)
    assert got == [("bobing/party/T01/champion",
                    {"v": 2, "g": 7, "seat": 2, "dice": list(SIHONG_12), "rank": "sihong", "end": 0}, True)]
    assert drain(rep, con) == []  # nothing new: nothing sent
    t.roll(WUZI)  # seat 4's 五子 takes the 状元
    assert drain(rep, con)[0][1]["seat"] == 4
    # a table with no 状元 yet says so; a kiosk says nothing
    assert drain(CH.Reporter(EVENT, "T02"), Con(J(table([NONE])))) == [
        ("bobing/party/T02/champion", {"v": 2, "g": 7, "seat": 0, "end": 0}, True)]
    k = game.Table("kiosk", 1)
    assert drain(CH.Reporter(EVENT, "K1"), Con(J(k))) == []


def test_a_first_come_table_reports_who_took_the_zhuangyuan_prize():
    t = table([NONE, NONE, SIHONG_12], "corporate_simple")
    assert CH.table_champion(t) == (3, None, 0)
    assert json.loads(CH.champion_payload(2, t)) == {"v": 2, "g": 2, "seat": 3, "end": 0}


def test_the_final_reports_every_event_then_its_state():
    fp = F.FinalPlay("", 4711, 2, "xiamen")
    con = Con(None, fp)
    rep = CH.Reporter(EVENT, "F9")
    assert drain(rep, con) == [("bobing/party/F9/final", {"v": 2, "id": 4711, "n": 2, "round": 1, "turn": 1,
                                                          "ev": 0, "win": 0}, True)]
    fp.apply(game.EV_ROLL, SIHONG_12)
    fp.apply(game.EV_SPILL, None)
    fp.apply(game.EV_ROLL, NONE)
    got = drain(rep, con)
    assert [g[0].rsplit("/", 1)[1] for g in got] == ["finalroll", "finalroll", "finalroll", "final"]
    assert got[0][1] == {"v": 2, "id": 4711, "i": 1, "k": 1, "r": 1, "dice": list(SIHONG_12), "rank": "sihong"}
    assert got[1][1] == {"v": 2, "id": 4711, "i": 2, "k": 2, "r": 1, "spill": 1}
    assert got[2][2] is False and got[3][1]["win"] == 1 and got[3][1]["dice"] == list(SIHONG_12)
    # a new final starts its events again from 1
    fp2 = F.FinalPlay("", 99, 3, "xiamen")
    fp2.apply(game.EV_ROLL, NONE)
    assert [g[1].get("i") for g in drain(rep, Con(None, fp2))] == [1, None]


def test_decoders_round_trip_and_refuse_bad_messages():
    t = table([NONE, SIHONG_12])
    fp = F.FinalPlay("", 5, 2, "xiamen")
    fp.apply(game.EV_ROLL, SIHONG_12)
    fp.apply(game.EV_ROLL, NONE)
    tp = "bobing/party/T01/"
    assert CH.decode_champion(EVENT, tp + "champion", CH.champion_payload(3, t)) == (
        "T01", {"g": 3, "seat": 2, "dice": list(SIHONG_12), "rank": "sihong", "end": 0})
    assert CH.decode_final(EVENT, tp + "final", CH.final_payload(fp)) == (
        "T01", {"id": 5, "n": 2, "round": 1, "turn": 0, "ev": 2, "win": 1, "dice": list(SIHONG_12),
                "rank": "sihong"})
    assert CH.decode_roll(EVENT, tp + "finalroll", CH.roll_payload(fp, 2))[1] == {
        "id": 5, "i": 2, "k": 2, "r": 1, "dice": list(NONE), "rank": "none"}
    bad = [
        (CH.decode_champion, tp + "status", b'{"v":2,"g":3,"seat":0,"end":0}', "topic"),
        (CH.decode_champion, tp + "champion", b'{"v":2,"g":3,"seat":65,"end":0}', "seat"),
        (CH.decode_champion, tp + "champion", b'{"v":2,"g":3,"seat":2,"dice":[1,2,3],"rank":"none","end":0}', "dice"),
        (CH.decode_champion, tp + "champion", b'{"v":2,"g":3,"seat":2,"dice":[1,2,3,4,5,7],"rank":"none","end":0}',
         "dice"),
        (CH.decode_champion, tp + "champion", b'{"v":2,"g":3,"seat":2,"dice":[1,2,3,4,5,6],"rank":"king","end":0}',
         "rank"),
        (CH.decode_champion, tp + "champion", b'{"v":3,"g":3,"seat":0,"end":0}', "format"),
        (CH.decode_final, tp + "final", b'{"v":2,"id":5,"n":1,"round":1,"turn":1,"ev":0,"win":0}', "'n'"),
        (CH.decode_final, tp + "final", b'{"v":2,"id":5,"n":2,"round":1,"turn":3,"ev":0,"win":0}', "'turn'"),
        (CH.decode_final, tp + "final", b'{"v":2,"id":5,"n":2,"round":1,"turn":0,"ev":2,"win":1}', "dice"),
        (CH.decode_roll, tp + "finalroll", b'{"v":2,"id":0,"i":1,"k":1,"r":1,"spill":1}', "'id'"),
        (CH.decode_roll, tp + "finalroll", b'[1]', "object"),
        (CH.decode_roll, tp + "finalroll", b'{"v":2,"id":5,"i":1,"k":1,"r":1,"spill":true' + b" " * 300 + b"}",
         "bytes"),
    ]
    for fn, topic, payload, why in bad:
        try:
            fn(EVENT, topic, payload)
        except ValueError as e:
            assert why in str(e), (payload, str(e))
            continue
        raise AssertionError("accepted %r" % (payload,))


def test_nothing_is_reported_from_a_journal_that_failed():
    j = J(table([SIHONG_12]))
    j.failed = OSError(5)
    assert CH.Reporter(EVENT, "T01").next(Con(j)) is None
