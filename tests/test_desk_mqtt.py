"""The desk's MQTT listener (host_sim/desk/bus.py: aiomqtt, a durable QoS 1
subscription) against a real mosquitto, fed by the bowl's own publisher on the
32-bit frozen MicroPython unix port (tests/mqtt_bowl.py): every award lands in
the desk's database once, through a power cut that re-sends, a desk that is
away, and a database that fails mid-message (not acknowledged, delivered
again); bad messages are refused into the import log and the listener goes on;
bowl status is stored."""
import json
import subprocess
import threading
import time


import deskkit
from mqtt_broker import need_broker
from mqttkit import BAD, EVENT, SECRET, Listener, awards_of, opened, play_kiosk, run_bowl, sealed


from django.db import OperationalError

from bobing import outbox
from host_sim.desk import bus
from host_sim.desk.models import Award, BowlStatus, Import


@need_broker
def test_every_award_lands_once_through_resends_and_a_desk_away(mp_built, broker, listener, tmp_path):
    deskkit.bowl("MQ-1", SECRET)
    root = tmp_path / "flash"
    root.mkdir()
    j, want = play_kiosk(str(root), 6, seed=11, bowl="MQ-1")
    j.close()
    listener.start()
    assert run_bowl(root, broker.port, cut=3, bowl="MQ-1").returncode == 3  # power cut: award 3 sent again
    # (the cursor's file is written at most once a second while awards stream, net.CURSOR_MS: a cut
    # sends again what came after it, and several awards were in flight, net.WINDOW)
    c = outbox.read_cursor(str(root))
    assert c in ((0, 0), (1, 1), (1, 2)), c
    assert "sent %d cursor 1 6" % (6 - c[1]) in run_bowl(root, broker.port, bowl="MQ-1").stdout
    assert outbox.read_cursor(str(root)) == (1, 6)  # on flash when the publisher stopped: none sent again
    got = listener.wait(7, skip=("status",))
    time.sleep(1)  # (any other copy still on its way)
    got = [r for r in listener.results if r != "status"]
    assert got.count("award") == 6 and got.count("known") >= 1 and set(got) == {"award", "known"}, got
    assert "status" in listener.results  # the bowl's status at each connection
    assert awards_of("MQ-1") == want
    assert all(a.source == "mqtt" for a in Award.objects.filter(bowl__bowl_id="MQ-1"))

    listener.stop()  # the desk is away; the bowl plays on and sends
    j, more = play_kiosk(str(root), 3, seed=12, bowl="MQ-1", j=__import__("bobing.journal").journal.recover(
        str(root), SECRET).journal)
    j.close()
    assert "sent %d" % len(more) in run_bowl(root, broker.port, bowl="MQ-1").stdout
    listener.results.clear()
    listener.start()  # the durable session hands over what waited in the broker
    assert listener.wait(len(more), skip=("status",)) == ["award"] * len(more)
    want.update(more)
    assert awards_of("MQ-1") == want


@need_broker
def test_a_message_the_database_failed_on_is_delivered_again(mp_built, broker, listener, tmp_path,
                                                             monkeypatch):
    deskkit.bowl("MQ-2", SECRET)
    root = tmp_path / "flash"
    root.mkdir()
    j, want = play_kiosk(str(root), 3, seed=13, bowl="MQ-2")
    j.close()
    real = bus.ingest
    failed = []

    def flaky(*a, **kw):
        if not failed:
            failed.append(1)
            raise OperationalError("database is locked")
        return real(*a, **kw)
    monkeypatch.setattr(bus, "ingest", flaky)
    monkeypatch.setattr(bus, "RETRY_S", 0.2)
    listener.start()
    assert "sent 3" in run_bowl(root, broker.port, bowl="MQ-2").stdout
    listener.wait(3, skip=("status",))
    assert failed and awards_of("MQ-2") == want  # the first award came again after the failure


@need_broker
def test_bad_messages_are_refused_into_the_log_and_status_is_stored(broker, listener):
    deskkit.bowl("MQ-3", SECRET)
    listener.start()
    before = Import.objects.filter(source="mqtt", ok=False).count()

    def pub(topic, payload, retain=False):
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-q", "1", "-t", topic, "-s"]
                       + (["-r"] if retain else []), input=payload, check=True, timeout=10)
    ours = [(t, p) for t, p, _why in BAD if t.startswith("bobing/%s/" % EVENT)]  # the rest is not subscribed
    for t, p, _why in BAD:
        pub(t, p)
    bad_status = [b'{"v":2,"on":1}', b'{"v":2,"on":2}', b'{"v":2,"on":1,"fw":"1","g":1,"left":[["a",-1]],"faults":[]}']
    st_topic = "bobing/%s/MQ-3/status" % EVENT
    for p in bad_status:
        pub(st_topic, sealed(SECRET, st_topic, p))
    status = {"v": 2, "on": 1, "b": 1, "c": 1, "i": 1, "fw": "1", "g": 4, "left": [["zhuangyuan", 2], ["yixiu", 70]],
              "faults": ["accel"]}
    pub(st_topic, sealed(SECRET, st_topic, json.dumps(status).encode()), retain=True)
    got = listener.wait(len(ours) + len(bad_status) + 1)
    assert got == ["refused"] * (len(ours) + len(bad_status)) + ["status"], got
    assert Import.objects.filter(source="mqtt", ok=False).count() - before == len(ours) + len(bad_status)
    s = BowlStatus.objects.get(bowl__bowl_id="MQ-3")
    assert (s.online, s.game_no, s.left, s.faults) == (True, 4, status["left"], ["accel"])
    pub(st_topic, sealed(SECRET, st_topic, b'{"v":2,"on":0,"b":1,"c":1}'), retain=True)  # the bowl's will
    listener.wait(len(got) + 1)
    s.refresh_from_db()
    assert not s.online and s.left == status["left"]  # offline; the last known stock stays


# ---- the shared stock through the broker -------------------------------------------------------

class PahoBowl:
    """A bowl's side of the allotment on the wire (paho, as a test client): its
    status and asks, and every allot it receives (retained, QoS 1)."""

    def __init__(self, port, event, bowl_id):
        import paho.mqtt.client as mqtt
        self.event, self.bowl_id = event, bowl_id
        self.allots = []
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t-%s" % bowl_id, clean_session=True)
        self.c.on_message = lambda c, u, m: self.allots.append(json.loads(opened(SECRET, m.topic, m.payload, "d")))
        self.i = 0  # its statuses (their order: boot 1, connection 1, i)
        subscribed = threading.Event()
        self.c.on_subscribe = lambda *a: subscribed.set()
        self.c.connect("127.0.0.1", port)
        self.c.loop_start()
        self.c.subscribe("bobing/%s/%s/allot" % (event, bowl_id), 1)
        assert subscribed.wait(10), "the test bowl did not subscribe"

    @property
    def s(self):
        return max((a["s"] for a in self.allots), default=0)

    def grant(self):
        best = max(self.allots, key=lambda a: a["s"], default={"grant": []})
        return dict(best["grant"])

    def send(self, leaf, d):
        t = "bobing/%s/%s/%s" % (self.event, self.bowl_id, leaf)
        self.c.publish(t, sealed(SECRET, t, json.dumps(d, separators=(",", ":")).encode()), qos=1,
                       retain=leaf == "status").wait_for_publish(10)

    def status(self, left=(), bat=3870):
        self.i += 1
        self.send("status", {"v": 2, "on": 1, "b": 1, "c": 1, "i": self.i, "fw": "1", "g": 1,
                             "left": [list(x) for x in left], "faults": [], "bat": bat})

    def ask(self, s=None, left=(), pay=True):
        """pay: first the awards that took its grant down to left reach the desk (a bowl's
        awards go out before its ask; the desk grants from its own record of them)."""
        if pay and self.allots:
            paid_down_to(self.event, self.bowl_id, self.grant(), dict(left))
        self.send("ask", {"v": 2, "s": self.s if s is None else s, "left": [list(x) for x in left]})

    def stop(self):
        self.c.loop_stop()
        self.c.disconnect()


def paid_down_to(event, bowl_id, grant, left):
    """The desk receives the awards that took the bowl's grant down to left ({class: n})."""
    from host_sim.desk import allot
    from host_sim.desk.ingest import ingest
    from host_sim.desk.models import Bowl, Event
    paid = allot.awarded(Event.objects.get(name=event), Bowl.objects.get(bowl_id=bowl_id))
    owed = [c for c, n in grant.items() for _ in range(n - left.get(c, 0) - paid.get(c, 0))]
    if owed:
        _game[0] += 1
        ingest(bowl_id, _game[0], [(i + 1, c, i + 1) for i, c in enumerate(owed)], None, source="mqtt")


_game = [0]


def until(test, timeout=20):
    t0 = time.time()
    while time.time() - t0 < timeout:
        if test():
            return True
        time.sleep(0.05)
    return False


def db_current(event):
    from host_sim.desk import allot
    from host_sim.desk.models import Event
    return allot.current(Event.objects.get(name=event))


@need_broker
def test_bowls_asking_at_once_and_a_second_desk_never_exceed_the_totals(broker, tmp_path):
    """Eight bowls come online and ask, all at once, round after round, always
    empty, while a second desk (another process on the same database) grants to
    three more bowls: the stock ends up all granted, never beyond a total, and
    each bowl's last allot is the database's."""
    import os
    import sys
    from django.core.management import call_command
    from host_sim.desk import allot
    ev = "ev-many"
    call_command("stock", "--event", ev, "zhuangyuan=3", "duitang=20", "yixiu=60",
                 "--step", "zhuangyuan=1", "--step", "duitang=3", "--step", "yixiu=8")
    ours = ["EM-%d" % i for i in range(8)]
    others = ["EO-%d" % i for i in range(3)]
    for b in ours + others:
        deskkit.bowl(b, SECRET)
    lst = Listener(broker.port, event=ev)
    lst.start()
    bowls = [PahoBowl(broker.port, ev, b) for b in ours]
    env = dict(os.environ)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    other = subprocess.Popen([sys.executable, "-c", deskkit.ASKER, ev, ",".join(others), "30", "5"],
                             cwd=deskkit.ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for b in bowls:
            b.status(bat=3700 + int(b.bowl_id[3:]))
        sent = len(bowls)
        totals = {"zhuangyuan": 3, "duitang": 20, "yixiu": 60}
        for rnd in range(40):
            got = lst.wait(sent, timeout=60)
            assert len(got) >= sent, "the listener answered %d of %d" % (len(got), sent)
            cur = db_current(ev)
            assert until(lambda: all(b.s == cur[b.bowl_id][0] for b in bowls if b.bowl_id in cur))
            for c, n in allot.granted(cur).items():
                assert n <= totals[c], (rnd, c, n)
            if rnd > 3 and other.poll() is not None and got[-len(bowls):].count("granted") == 0:
                break
            for b in bowls:
                b.ask(left=())  # empty
            sent += len(bowls)
        assert other.wait(120) == 0, other.stderr.read()[-2000:]
        cur = db_current(ev)
        assert allot.granted(cur) == totals  # all granted, none beyond
        for b in bowls:
            assert (b.s, b.grant()) == cur[b.bowl_id]  # what the bowl holds is what the desk counts
        assert sum(allot.granted({b.bowl_id: cur[b.bowl_id] for b in bowls}).values()) > 0
        assert "refused" not in lst.results
        st = BowlStatus.objects.get(bowl__bowl_id="EM-5")
        assert st.online and st.bat == 3705
    finally:
        other.kill()
        for b in bowls:
            b.stop()
        lst.stop()


@need_broker
def test_a_replayed_or_stale_ask_raises_nothing_and_bad_asks_are_refused(broker):
    from django.core.management import call_command
    ev = "ev-stale"
    call_command("stock", "--event", ev, "duitang=12", "--step", "duitang=4")
    deskkit.bowl("ES-1", SECRET)
    lst = Listener(broker.port, event=ev)
    lst.start()
    b = PahoBowl(broker.port, ev, "ES-1")
    try:
        b.status()
        assert lst.wait(1) == ["granted"] and until(lambda: b.s == 1)
        b.ask(1, [["duitang", 1]])  # low: raised
        assert lst.wait(2)[-1] == "granted" and until(lambda: b.s == 2) and b.grant() == {"duitang": 8}
        for _ in range(3):  # the same ask replayed: answered with the current allot, nothing raised
            b.ask(1, [["duitang", 1]])
        assert lst.wait(5)[2:] == ["answered"] * 3
        assert db_current(ev)["ES-1"] == (2, {"duitang": 8})
        assert until(lambda: len(b.allots) >= 5) and {a["s"] for a in b.allots[2:]} == {2}
        before = Import.objects.filter(source="mqtt", ok=False).count()
        for s, left in ((9, []), (-1, []), (2, [["duitang", "x"]]), (2, {"duitang": 1})):
            b.ask(s, left, pay=False)
        b.send("ask", {"v": 3, "s": 2, "left": []})
        PahoBowl(broker.port, ev, "ghost").ask(0, [])
        assert lst.wait(11)[5:] == ["refused"] * 6
        logged = list(Import.objects.filter(source="mqtt", ok=False).order_by("-id")[:6])
        assert len(logged) == 6 and Import.objects.filter(source="mqtt", ok=False).count() - before == 6
        assert any("only up to s=2" in i.message for i in logged)
        assert any("not known here" in i.message for i in logged)
        assert db_current(ev)["ES-1"] == (2, {"duitang": 8})
    finally:
        b.stop()
        lst.stop()


@need_broker
def test_the_listener_republishes_every_allot_at_start_and_says_it_is_on_or_gone(broker, tmp_path):
    """`listen` (the command, in its own process) republishes each bowl's current
    allot when it connects, holds desk/status {"on":1} retained, and the broker
    publishes its will {"on":0} when the desk is killed."""
    import os
    import signal
    import sys
    from django.core.management import call_command
    from host_sim.desk import allot
    ev = "ev-rep"
    call_command("stock", "--event", ev, "sanhong=10", "yixiu=30", "--step", "sanhong=2", "--step", "yixiu=5")
    for b in ("ER-1", "ER-2"):
        deskkit.bowl(b, SECRET)
        allot.answer(ev, b, 0, {}, first=True)
    paid_down_to(ev, "ER-2", {"sanhong": 2, "yixiu": 5}, {})  # it paid all of s=1's grant
    allot.answer(ev, "ER-2", 1, {})  # ER-2 is at s=2; nothing was ever published

    def retained(topic, n=0):
        # n: stop at the n-th retained message (the broker never says the last one came: without it
        # the wait is -W's whole 3 s, which is how a message that should not be there is seen)
        r = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker.port), "-t", topic, "-v",
                            "--retained-only", "-W", "3"] + (["-C", str(n)] if n else []),
                           capture_output=True, text=True)
        got = dict(line.split(" ", 1) for line in r.stdout.splitlines())
        return {t: p if t.endswith("/desk/status") else opened(SECRET, t, p.encode(), "d").decode()
                for t, p in got.items()}
    assert retained("bobing/%s/#" % ev) == {}
    env = dict(os.environ)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    desk = subprocess.Popen([sys.executable, "-m", "host_sim.desk", "listen", "--broker",
                             "127.0.0.1:%d" % broker.port, "--event", ev], cwd=deskkit.ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        want = {"bobing/%s/desk/status" % ev: '{"v":2,"on":1}',
                "bobing/%s/ER-1/allot" % ev: '{"v":2,"s":1,"grant":[["sanhong",2],["yixiu",5]]}',
                "bobing/%s/ER-2/allot" % ev: '{"v":2,"s":2,"grant":[["sanhong",4],["yixiu",10]]}'}
        assert until(lambda: retained("bobing/%s/#" % ev, len(want)) == want, 60), retained("bobing/%s/#" % ev)
        assert retained("bobing/%s/#" % ev) == want  # and nothing more retained (the whole 3 s, once)
    finally:
        desk.send_signal(signal.SIGKILL)
        desk.wait(10)
    # (one topic holds one retained message: the first is all there is)
    assert until(lambda: retained("bobing/%s/desk/status" % ev, 1) == {"bobing/%s/desk/status" % ev: '{"v":2,"on":0}'})
