"""The event under load and faults, bounded: PLAN's 16 s of play plus the start and
the checks: tests/harness/event_sim.py runs BOWLS bowls, each the bowl's
own code (bowl/app.py on host_sim/portable/fakes/bowl.py's board, bowl/net.py over umqtt.simple)
on the 32-bit frozen MicroPython unix port, playing kiosk customers at full
speed against a real mosquitto and the desk's listener in its own process,
while one bowl loses its Wi-Fi for 10 s, the broker is restarted and the desk
is SIGKILLed and started again; the bowls play on the event's shared stock
(totals set on the desk, granted to each bowl). Afterwards every award in the
bowls' journals (read by the firmware's own code) is at the desk exactly once
with its class, no class beyond the event's total (nor a bowl beyond its
grant), and every bowl's retained status on the broker matches its journal.
The figures are bench/event_load.py's (`make bench`)."""
import os
import sqlite3

import pytest

from harness import event_sim
from mqtt_broker import need_broker

BOWLS = 4
SPEED = 10  # each bowl's game clock at 10x real time: 40 bowls' worth of customers
# the faults of bench/event_load.py's run (event_sim.Plan()), shorter: the Wi-Fi cut still spans the
# broker's restart and outlasts the bowl's longest back-off (net.BACKOFF_MAX_MS); the desk's kill follows
PLAN = dict(play_s=16, cut_at=1, cut_s=10, broker_at=3, broker_down_s=2, desk_at=8, desk_down_s=2)


@need_broker
def test_every_award_lands_once_within_stock_through_faults(mp_built, broker, tmp_path):
    ev = event_sim.Event(tmp_path, BOWLS, broker, speed=SPEED)
    r = ev.run(event_sim.Plan(**PLAN))
    assert not ev.problems, "\n".join(ev.problems) + "\n%s" % r
    assert [f["fault"] for f in r["faults"]] == ["broker restart", "desk kill", "wifi cut"], r
    # the load was real: every bowl played and published, the cut one too, after its Wi-Fi came back
    journal_awards, _last = ev.journals()
    for bowl in ev.ids:
        assert sum(1 for k in journal_awards if k[0] == bowl) >= 10, (bowl, r)
    cut = [f for f in ev.faults if f[0] == "wifi cut"][0]
    commits, _notes = ev.committed()
    assert any(k[0] == cut[3] and cut[1] < t < cut[2] for k, t in commits.items()), \
        "the cut-off bowl played on offline"
    assert r["awards"] == len(journal_awards)
    # the totals bound: some class was granted in full (then its awards paid the class below)
    assert any(v["granted"] == v["total"] for v in r["stock"].values()), r["stock"]

    # the checks can fail: an award the desk lost, one it never had, a class beyond its stock
    db = sqlite3.connect(os.path.join(ev.desk_dir, "desk.sqlite3"))
    lost = db.execute("SELECT a.id, b.bowl_id, a.game_no, a.award_no FROM desk_award a "
                      "JOIN desk_bowl b ON a.bowl_id = b.id ORDER BY a.id LIMIT 1").fetchone()
    db.execute("DELETE FROM desk_award WHERE id = ?", (lost[0],))
    row = db.execute("SELECT bowl_id, game_no, code, source, seen FROM desk_award LIMIT 1").fetchone()
    extra = range(9001, 9002 + event_sim.TOTALS["zhuangyuan"])  # one more than the event has
    for n in extra:
        db.execute("INSERT INTO desk_award (bowl_id, game_no, award_no, cls, customer, code, source, seen) "
                   "VALUES (?, ?, ?, 'zhuangyuan', 1, ?, ?, ?)", (row[0], row[1], n, row[2], row[3], row[4]))
    db.commit()
    db.close()
    ev.problems = []
    ev._check()
    text = "\n".join(ev.problems)
    assert "1 awards in the bowls' journals are not at the desk: [%r]" % (tuple(lost[1:]),) in text, text
    assert "%d awards at the desk are in no bowl's journal" % len(extra) in text, text
    assert "zhuangyuan and granted" in text and "its total is %d" % event_sim.TOTALS["zhuangyuan"] in text, text


def test_a_missing_micropython_build_says_what_to_do(tmp_path):
    class NoBroker:
        port = 1

    ev = event_sim.Event(tmp_path, 1, NoBroker(), mp=str(tmp_path / "no-micropython"))
    with pytest.raises(RuntimeError, match="make mp"):
        ev.run(event_sim.Plan(play_s=1))
