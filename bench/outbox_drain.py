# The outbox draining a kiosk backlog once the broker is back (PROTOCOL.md "Exactly once"):
# a kiosk game that won 1,590 awards while the network was away, then the bowl's publisher
# (bowl/net.py's Net.run, WINDOW awards in flight, no pause between sends) on the 32-bit
# frozen unix port against a real mosquitto, with a durable subscription as the desk's. Prints
# the time from the publisher's start to the last award at the subscriber, and from its
# connection (the log's "net: connected") to the broker's last PUBACK; host time, this
# machine under the others' load (the ESP32's own figure is bench/budget.py's backlog line).
# Asserts nothing:  .venv/bin/python bench/outbox_drain.py [AWARDS]
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
from mqtt_broker import Broker, Sub  # noqa: E402
from mqttkit import EVENT, SECRET, play_kiosk, run_bowl  # noqa: E402
from bobing import journal  # noqa: E402

STOCK = {"zhuangyuan": 40, "duitang": 100, "sanhong": 200, "sijin": 400, "erju": 800, "yixiu": 1600}  # budget.py's


def main(argv):
    awards = int(argv[0]) if argv else 1590
    d = tempfile.mkdtemp(prefix="outbox-drain-")
    root = os.path.join(d, "flash")
    os.mkdir(root)
    j = journal.start(root, "kiosk", None, 1, STOCK, "5F-kiosk", SECRET)  # (run_bowl's bowl)
    j, want = play_kiosk(root, awards, seed=3, j=j)
    events = j.table.events
    j.close()
    b = Broker(d)
    b.start()
    desk = Sub(b, d, "bobing/%s/+/award" % EVENT, "drain-desk", desk_event=EVENT)
    desk.start()
    try:
        t0 = time.time()
        p = run_bowl(root, b.port, seconds=120)
        t_bowl = time.time() - t0
        got = desk.lines(len(want), timeout=60)
        t_desk = time.time() - t0
        sent = [x for x in p.stdout.splitlines() if x.startswith("sent ")]
        print("outbox_drain: a kiosk backlog of %d events, %d awards: the publisher (frozen unix port, real "
              "mosquitto, loopback) sent them all in %.1f s from its start (%s); the subscriber had %d of them "
              "%.1f s after the start" % (events, len(want), t_bowl, sent[0] if sent else p.stdout[-300:],
                                          len(got), t_desk))
    finally:
        desk.stop()
        b.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
