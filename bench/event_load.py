"""The event under load and faults (tests/harness/event_sim.py, as tests/test_event_load.py
runs it): N bowls on the 32-bit frozen MicroPython unix port playing kiosk customers
at full speed (each game clock SPEED x real time) against a real mosquitto and the
desk's listener, on the event's shared stock (totals on the desk), through a broker
restart, a desk SIGKILLed and restarted, and one bowl's Wi-Fi cut for 20 s. Prints awards per
second, award-to-desk latency (to the desk's Award.seen, one machine's clock: from when the award could first
be sent, its journal commit or the end of a fault that held it, the target under 5 s at p99; and raw, from
the commit) and each fault's recovery, with the machine's load (the figures depend on what else runs).

    python bench/event_load.py [BOWLS:SPEED ...]     default: 6:10 40:1
"""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
from harness import event_sim  # noqa: E402
from mqtt_broker import Broker  # noqa: E402  (the tests' real mosquitto)


def one(bowls, speed):
    d = tempfile.mkdtemp(prefix="event-load-bench-")
    b = Broker(d)
    b.start()
    load0 = os.getloadavg()[0]
    ev = event_sim.Event(d, bowls, b, speed=speed)
    try:
        r = ev.run(event_sim.Plan())
    finally:
        b.stop()
    print("event load: %d bowls (processes, 32-bit frozen MicroPython), game clocks asked %dx real time, "
          "reached %s-%sx; load average %.1f before, %.1f after (2 cores, shared)"
          % (bowls, speed, r["speed_reached"][0], r["speed_reached"][1], load0, r["load_avg"][0]))
    print("  %d awards in %.0f s of play: %.1f awards/s sustained; the desk had all %.1f s after play stopped"
          % (r["awards"], r["play_s"], r["awards_per_s"], r["drain_s"]))
    print("  the event's stock, total/granted/awarded: %s" % ", ".join(
        "%s %d/%d/%d" % (c, v["total"], v["granted"], v["awarded"]) for c, v in r["stock"].items()))
    print("  award -> desk, from when it could first be sent (its commit, or the end of a fault that held it: "
          "the Wi-Fi, the broker or the desk back), every award: p50 %.0f ms p99 %.0f ms"
          % (r["ready_latency_ms_p50"], r["ready_latency_ms_p99"]))
    print("  award -> desk from its commit, raw: every award p50 %.0f ms p99 %.0f ms; outside faults and their "
          "recovery (%d awards) p50 %.0f ms p99 %.0f ms" % (r["latency_ms_p50"], r["latency_ms_p99"],
                                                          r["calm_awards"], r["calm_latency_ms_p50"],
                                                          r["calm_latency_ms_p99"]))
    for f in r["faults"]:
        print("  %-15s down %4.1f s, recovered %4.1f s after it ended (%s)" % (
            f["fault"], f["down_s"], f["recovery_s"], "the desk subscribed again after %s s" % f.get("subscribed_s")
            if "subscribed_s" in f else "bowls connected again after %s s" % f.get("reconnected_s")))
    print("  retained statuses all current %.1f s after the desk had every award (a status 5 s after the stock"
          " moved, every 30 s else)"
          % r["status_wait_s"] if not ev.stale else "  STALE statuses: %s" % ev.stale)
    for text in ev.problems:
        print("  PROBLEM:", text)
    return not ev.problems


def main(argv):
    runs = [tuple(int(x) for x in a.split(":")) for a in argv] or [(6, 10), (40, 1)]
    ok = all([one(n, s) for n, s in runs])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
