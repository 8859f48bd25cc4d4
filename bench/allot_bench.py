"""The desk's allotment (host_sim/desk/allot.py): grants per second in SQLite
(each one BEGIN IMMEDIATE transaction with synchronous=FULL) from one process
and from four at once on one database file, and the round trip a bowl sees:
ask published -> allot received, through a real mosquitto and the desk's
`listen` process (p50, p99)."""
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
import deskkit  # noqa: E402
from mqtt_broker import Broker  # noqa: E402

SECRET = bytes(range(16))
ASKS = 200


def _sealed(leaf, body):
    """A message of bowl 0965 as it seals it (tests/deskkit.sealed)."""
    return deskkit.sealed(SECRET, "bobing/bench/0965/" + leaf, body if isinstance(body, bytes) else body.encode())

# one process granting: N asks of its bowl, always empty (the bowl paid its grant: the desk has those
# awards first, as a bowl's awards arrive before its ask), each raising 1; prints the seconds taken by the asks
GRANTER = r"""
import os, sys, time
sys.path.insert(0, os.getcwd())
os.environ["DJANGO_SETTINGS_MODULE"] = "host_sim.desk.settings"
from host_sim import compat
compat.install()
import django
django.setup()
from host_sim.desk import allot
from host_sim.desk.ingest import ingest
event, bowl, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
allot.answer(event, bowl, 0, {}, first=True)
took = 0
for s in range(1, n + 1):
    ingest(bowl, 1, [(s, "yixiu", s)], None, "mqtt")
    t0 = time.perf_counter()
    assert allot.answer(event, bowl, s, {})[0]
    took += time.perf_counter() - t0
print(took)
"""


def main():
    folder = tempfile.mkdtemp(prefix="allot-bench-")
    s = deskkit.Server(folder)
    env = s.env()
    bowls = ["%04d" % (960 + i) for i in range(6)]  # 0965: the round trip's
    for b in bowls:
        s.manage("addbowl", b, "--secret-hex", SECRET.hex())
    s.manage("stock", "--event", "bench", "yixiu=100000", "--step", "yixiu=1")
    for procs in (1, 4):
        ps = [subprocess.Popen([sys.executable, "-c", GRANTER, "bench", bowls[i + (procs > 1)], str(ASKS)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True) for i in range(procs)]
        loops = [float(p.communicate()[0]) for p in ps]
        print("allot: %d grants by %d process%s: %.0f per second (load %.1f)"
              % (ASKS * procs, procs, "es at once" if procs > 1 else "", ASKS * procs / max(loops), os.getloadavg()[0]))

    for extra in ("", "set_tcp_nodelay true\n"):
        round_trip(env, extra)


def round_trip(env, extra):
    """ask -> allot through a real mosquitto (extra: more config lines) and `listen`."""
    broker = Broker(tempfile.mkdtemp(prefix="allot-bench-broker-"), extra=extra)
    broker.start()
    listen = subprocess.Popen([sys.executable, "-m", "host_sim.desk", "listen", "--broker",
                               "127.0.0.1:%d" % broker.port, "--event", "bench"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import paho.mqtt.client as mqtt
    got = {}
    arrived = threading.Condition()

    def on_message(c, u, m):
        with arrived:
            d = json.loads(deskkit.opened(SECRET, m.topic, m.payload, "d"))
            got[d["s"]] = time.perf_counter()
            arrived.notify_all()
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-bowl")
    c.on_message = on_message
    c.on_socket_open = lambda _c, _u, sock: sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as a bowl
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    c.subscribe("bobing/bench/0965/allot", 1)
    from bobing import outbox
    try:
        for _ in range(60):  # the listener's retained status; 0965's first ask then gets its allot
            c.publish("bobing/bench/0965/ask",
                      _sealed("ask", json.dumps({"v": 2, "s": max(got, default=0), "left": []})), qos=1)
            with arrived:
                if arrived.wait_for(lambda: got, 1):
                    break
        else:
            raise SystemExit("the desk's listener did not start")
        s0 = max(got)
        n = 0
        rtt = []
        for s in range(s0, s0 + ASKS):
            n += 1  # the bowl pays its one prize left, then asks (each round its own game number)
            c.publish("bobing/bench/0965/award", _sealed("award", outbox.award_payload(1 + len(extra), n, "yixiu", n)),
                      qos=1)
            t = time.perf_counter()
            c.publish("bobing/bench/0965/ask", _sealed("ask", json.dumps({"v": 2, "s": s, "left": []})), qos=1)
            with arrived:
                if not arrived.wait_for(lambda: s + 1 in got, 30):
                    raise SystemExit("no allot s=%d within 30 s" % (s + 1))
            rtt.append((got[s + 1] - t) * 1000)
        rtt.sort()
        print("allot: ask -> allot at the bowl through mosquitto%s and the desk: p50 %.1f ms, p99 %.1f ms "
              "(%d asks, load %.1f)" % (" (set_tcp_nodelay true)" if extra else "", rtt[len(rtt) // 2],
                                        rtt[len(rtt) * 99 // 100], len(rtt), os.getloadavg()[0]))
    finally:
        c.loop_stop()
        c.disconnect()
        listen.kill()
        listen.wait()
        broker.stop()


if __name__ == "__main__":
    main()
