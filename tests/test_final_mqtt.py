"""状元王中王 across tables on a real mosquitto (firmware/PROTOCOL.md): two
bowls, each the whole app (bowl/app.py on host_sim/portable/fakes/bowl.py's board, bowl/net.py
over umqtt.simple) on the 32-bit frozen MicroPython unix port, booting from
flash as after a power cut: a table bowl whose game has a 状元 holder reports
its champion, retained; the final's bowl resumes a final from final.txt and
reports each of its rolls once (QoS 1) and the final's state, retained, so a
desk that subscribes afterwards still sees champions and result."""
import binascii
import json

from bobing import champions as CH
from bobing import final_play as F
from bobing import game, journal
from mqtt_broker import need_broker
from mqttkit import EVENT, NONE, SIHONG_12, SIHONG_13, Desk, app_flash, run_app

def _messages(lines):
    out = []
    for line in lines:
        t, _, hexp = line.partition(" ")
        out.append((t, binascii.unhexlify(hexp)))
    return out


@need_broker
def test_table_champions_and_the_final_reach_a_late_desk(mp_built, broker, tmp_path):
    # table bowl 0001: a 4-seat game where seat 3 holds the 状元 (四红 带12)
    t1 = app_flash(tmp_path, "t1", "0001", broker.port)
    j = journal.start(str(t1), "xiamen", None, 4)
    j.play(game.EV_START_SEAT, 1)
    for d in (NONE, NONE, SIHONG_12, NONE):
        j.play(game.EV_ROLL, d)
    j.close()
    # the final's bowl 0009: a final of 3 champions, 3 rolls in (1 and 3 tie), then 2 more (1 wins)
    f9 = app_flash(tmp_path, "f9", "0009", broker.port)
    events = [(game.EV_ROLL, d) for d in (SIHONG_12, NONE, SIHONG_12, SIHONG_13, NONE)]
    with open(str(f9 / F.FILE), "wb") as f:
        f.write(F.encode(4711, 3, "xiamen", events[:3]))
    rolls = Desk(broker, tmp_path, topic="bobing/%s/+/finalroll" % EVENT, client_id="desk-rolls")
    rolls.start()
    out1 = run_app(t1)
    out9 = run_app(f9)
    assert "net: connected" in out1 and "resumed the final 4711" in out9, out1 + out9
    # round 2 as played before the next power cut: the boot reports it from flash
    with open(str(f9 / F.FILE), "wb") as f:
        f.write(F.encode(4711, 3, "xiamen", events))
    run_app(f9)

    # a desk that subscribes now gets the retained champion and final topics
    late = Desk(broker, tmp_path, topic="bobing/%s/+/+" % EVENT, client_id="desk-late")
    late.start()
    got = {}
    for t, payload in _messages(late.lines(6)):  # and the desk's own status
        leaf = t.rsplit("/", 1)[1]
        if leaf == "champion":
            bowl, d = CH.decode_champion(EVENT, t, payload)
            got[(bowl, leaf)] = d
        elif leaf == "final":
            bowl, d = CH.decode_final(EVENT, t, payload)
            got[(bowl, leaf)] = d
        else:
            got.setdefault((t.split("/")[2], leaf), []).append(payload)
    late.stop()
    assert got[("0001", "champion")] == {"g": 1, "seat": 3, "dice": list(SIHONG_12), "rank": "sihong", "end": 0}
    assert got[("0009", "champion")] == {"g": 1, "seat": 0, "dice": None, "rank": None, "end": 0}
    assert got[("0009", "final")] == {"id": 4711, "n": 3, "round": 2, "turn": 0, "ev": 5, "win": 1,
                                      "dice": list(SIHONG_13), "rank": "sihong"}
    assert ("0001", "final") not in got and ("0009", "status") in got  # only the final's bowl has one
    # every roll reached the durable subscription; the rolls of the first run once more after the
    # reboot (the bowl keeps what was acknowledged in RAM): the desk counts each (final, i) once
    seen = [CH.decode_roll(EVENT, t, p)[1] for t, p in _messages(rolls.lines(8))]
    rolls.stop()
    assert sorted(set((r["i"], r["k"], r["r"], tuple(r["dice"])) for r in seen)) == [
        (1, 1, 1, SIHONG_12), (2, 2, 1, NONE), (3, 3, 1, SIHONG_12), (4, 1, 2, SIHONG_13), (5, 3, 2, NONE)]
    assert len(seen) == 8
    assert json.loads(CH.final_payload(F.load(str(f9))))["win"] == 1
