"""The desk's MQTT listener (host_sim/desk/bus.py: aiomqtt, a durable QoS 1
subscription) against a real mosquitto, fed by the bowl's own publisher on the
32-bit frozen MicroPython unix port (tests/mqtt_bowl.py): every award lands in
the desk's database once, through a power cut that re-sends, a desk that is
away, and a database that fails mid-message (not acknowledged, delivered
again); bad messages are refused into the import log and the listener goes on;
bowl status is stored."""
import asyncio
import json
import subprocess
import threading
import time

import pytest

import deskkit
from mqtt_broker import broker, broker_installed, need_broker  # noqa: F401
from test_mqtt import BAD, EVENT, SECRET, mp_build, play_kiosk, run_bowl  # noqa: F401

deskkit.setup()

from django.db import OperationalError  # noqa: E402

from host_sim.desk import bus  # noqa: E402
from host_sim.desk.models import Award, BowlStatus, Import  # noqa: E402


class Listener:
    """bus.listen() on its own thread and event loop, as `python -m host_sim.desk listen` runs it."""

    def __init__(self, port, user=None, password=None):
        self.port = port
        self.user, self.password = user, password
        self.results = []
        self.ready = threading.Event()

    def start(self):
        self.ready.clear()
        self.thread = threading.Thread(target=asyncio.run, args=(self._main(),), daemon=True)
        self.thread.start()
        assert self.ready.wait(15), "the listener did not subscribe"

    async def _main(self):
        self.loop = asyncio.get_running_loop()
        ev = asyncio.Event()
        self.task = asyncio.create_task(bus.listen("127.0.0.1", self.port, EVENT, self.user, self.password, ready=ev,
                                                    seen=self.results.append))
        await ev.wait()
        self.ready.set()
        try:
            await self.task
        except asyncio.CancelledError:
            pass

    def wait(self, n, timeout=20, skip=()):
        """The results so far, once n of them (not counting those in skip) are in."""
        t0 = time.time()
        while time.time() - t0 < timeout:
            got = [r for r in self.results if r not in skip]
            if len(got) >= n:
                break
            time.sleep(0.05)
        return [r for r in self.results if r not in skip]

    def stop(self):
        self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(15)


@pytest.fixture
def listener(broker):  # noqa: F811
    lst = Listener(broker.port)
    yield lst
    if getattr(lst, "thread", None) is not None and lst.thread.is_alive():
        lst.stop()


def awards_of(bowl_id):
    return {(bowl_id, a.game_no, a.award_no): (a.cls, a.code) for a in Award.objects.filter(bowl__bowl_id=bowl_id)}


@need_broker
def test_every_award_lands_once_through_resends_and_a_desk_away(mp_build, broker, listener, tmp_path):  # noqa: F811
    deskkit.bowl("MQ-1", SECRET)
    root = tmp_path / "flash"
    root.mkdir()
    j, want = play_kiosk(str(root), 6, seed=11, bowl="MQ-1")
    j.close()
    listener.start()
    assert run_bowl(root, broker.port, cut=3, bowl="MQ-1").returncode == 3  # power cut: award 3 sent again
    assert "sent 4 cursor 1 6" in run_bowl(root, broker.port, bowl="MQ-1").stdout
    assert sorted(listener.wait(7, skip=("status",))) == ["award"] * 6 + ["known"]
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
def test_a_message_the_database_failed_on_is_delivered_again(mp_build, broker, listener, tmp_path,  # noqa: F811
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
def test_bad_messages_are_refused_into_the_log_and_status_is_stored(broker, listener):  # noqa: F811
    deskkit.bowl("MQ-3", SECRET)
    listener.start()
    before = Import.objects.filter(source="mqtt", ok=False).count()

    def pub(topic, payload, retain=False):
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-q", "1", "-t", topic, "-s"]
                       + (["-r"] if retain else []), input=payload, check=True, timeout=10)
    ours = [(t, p) for t, p, _why in BAD if t.startswith("bobing/%s/" % EVENT)]  # the rest is not subscribed
    for t, p, _why in BAD:
        pub(t, p)
    bad_status = [b'{"v":1,"on":1}', b'{"v":1,"on":2}', b'{"v":1,"on":1,"fw":"1","g":1,"left":[["a",-1]],"faults":[]}']
    for p in bad_status:
        pub("bobing/%s/MQ-3/status" % EVENT, p)
    status = {"v": 1, "on": 1, "fw": "1", "g": 4, "left": [["zhuangyuan", 2], ["yixiu", 70]], "faults": ["accel"]}
    pub("bobing/%s/MQ-3/status" % EVENT, json.dumps(status).encode(), retain=True)
    got = listener.wait(len(ours) + len(bad_status) + 1)
    assert got == ["refused"] * (len(ours) + len(bad_status)) + ["status"], got
    assert Import.objects.filter(source="mqtt", ok=False).count() - before == len(ours) + len(bad_status)
    s = BowlStatus.objects.get(bowl__bowl_id="MQ-3")
    assert (s.online, s.game_no, s.left, s.faults) == (True, 4, status["left"], ["accel"])
    pub("bobing/%s/MQ-3/status" % EVENT, b'{"v":1,"on":0}', retain=True)  # the bowl's will
    listener.wait(len(got) + 1)
    s.refresh_from_db()
    assert not s.online and s.left == status["left"]  # offline; the last known stock stays
