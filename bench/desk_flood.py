"""The desk under a flood (loopback, bounded): one client publishes RATE invalid
awards a second (sealed with a wrong key: each one refused) for SECONDS seconds
through a real mosquitto while a real bowl publishes a valid award every 100 ms;
the desk's `listen` process stores them. Prints each real award's delay from its
publish to its row in the desk's database (p50, p99, max: the issue's target is
p99 <= 2 s at 1,000 a second for 10 s), and how the refusals were logged (rows
in the MQTT log, the sum of their counts).

    python bench/desk_flood.py [RATE SECONDS]     default: 1000 10
tests/test_desk_flood.py runs it small (its figures are not checked there)."""
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
from mqtt_broker import Broker  # noqa: E402

from bobing import outbox, wire  # noqa: E402

EVENT = "flood"
SECRET = bytes(range(16))
REAL_EVERY_S = 0.1


def run(rate=1000, seconds=10, folder=None, wait_s=60):
    """-> dict: sent (real awards), stored, delays (s, sorted), flood (messages sent),
    rows and repeats (the refusals' log), log_lines (the listener's stderr lines)."""
    import paho.mqtt.client as mqtt
    folder = folder or tempfile.mkdtemp(prefix="desk-flood-")
    desk_dir = os.path.join(folder, "desk")
    env = dict(os.environ, BOBING_DESK_DIR=desk_dir)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    for b in ("0951", "0952"):
        subprocess.run([sys.executable, "-m", "host_sim.desk", "addbowl", b, "--secret-hex", SECRET.hex()],
                       cwd=ROOT, env=env, check=True, capture_output=True, timeout=120)
    from host_sim.cli import broker as cmd_broker
    # the event broker's queue and flow settings (cmd_broker.conf_text), without its users
    conf = [ln for ln in cmd_broker.conf_text(folder, 1, "127.0.0.1").splitlines()
            if ln.split(" ")[0] in ("max_queued_messages", "max_inflight_messages", "set_tcp_nodelay")]
    broker = Broker(folder, extra="\n".join(conf) + "\n")
    broker.start()
    err = open(os.path.join(folder, "listen.log"), "w")
    listen = subprocess.Popen([sys.executable, "-m", "host_sim.desk", "listen", "--broker",
                               "127.0.0.1:%d" % broker.port, "--event", EVENT], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=err)
    clients = []

    def client(cid):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=cid, clean_session=True)
        c.max_queued_messages_set(0)
        c.max_inflight_messages_set(1000)
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        clients.append(c)
        return c
    sent = {}
    flood = 0
    key, forged = wire.key(SECRET), wire.key(bytes(16))  # the bowl's; one a forger guessed
    try:
        real, bad = client("fl-real"), client("fl-bad")
        db = os.path.join(desk_dir, "desk.sqlite3")
        deadline = time.monotonic() + 60
        while not _desk_up(broker, time.monotonic() < deadline):
            time.sleep(0.2)
        t0 = time.monotonic()
        next_real = t0
        n = 0
        while time.monotonic() - t0 < seconds:
            tick = time.monotonic()
            # the flood: rate a second, in 10 ms slices; a code that does not match
            for _ in range(max(1, rate // 100)):
                flood += 1
                bad.publish(outbox.topic(EVENT, "0952", "award"),
                            wire.seal(forged, "b", EVENT, "0952", "award",
                                      outbox.award_payload(1, flood, "yixiu", 1)), qos=1)
            if tick >= next_real:
                n += 1
                sent[n] = time.time()
                real.publish(outbox.topic(EVENT, "0951", "award"),
                             wire.seal(key, "b", EVENT, "0951", "award", outbox.award_payload(1, n, "yixiu", n)),
                             qos=1)
                next_real += REAL_EVERY_S
            time.sleep(max(0, 0.01 - (time.monotonic() - tick)))
        stored = {}
        end = time.monotonic() + wait_s
        while time.monotonic() < end:
            stored = _stored(db)
            if len(stored) >= len(sent):
                break
            time.sleep(0.2)
        time.sleep(1.5)  # the last refusals' flush
        rows, repeats = _refusals(db)
    finally:
        for c in clients:
            c.loop_stop()
            c.disconnect()
        listen.terminate()
        try:
            listen.wait(15)
        except subprocess.TimeoutExpired:
            listen.kill()
            listen.wait()
        err.close()
        broker.stop()
    delays = sorted(stored[k] - sent[k] for k in stored if k in sent)
    with open(os.path.join(folder, "listen.log")) as f:
        log_lines = f.read().splitlines()
    return {"sent": len(sent), "stored": len(stored), "delays": delays, "flood": flood, "rows": rows,
            "repeats": repeats, "log_lines": log_lines}


def _desk_up(broker, waiting):
    """The listener's retained desk status is "on"."""
    if not waiting:
        raise SystemExit("the desk's listener did not start")
    p = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(broker.port), "-t",
                        outbox.topic(EVENT, "desk", "status"), "-C", "1", "-W", "1"], capture_output=True, timeout=10)
    return b'"on":1' in p.stdout


def _stored(db):
    """{award_no: seen (epoch s)} of the real bowl's awards in the desk's database."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=20)
    try:
        rows = con.execute("SELECT a.award_no, a.seen FROM desk_award a JOIN desk_bowl b ON a.bowl_id = b.id "
                           "WHERE b.bowl_id = '0951'").fetchall()
    finally:
        con.close()
    from datetime import datetime
    return {n: datetime.fromisoformat(seen if "+" in seen else seen + "+00:00").timestamp() for n, seen in rows}


def _refusals(db):
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=20)
    try:
        return con.execute("SELECT COUNT(*), COALESCE(SUM(repeats), 0) FROM desk_import "
                           "WHERE source = 'mqtt' AND ok = 0").fetchone()
    finally:
        con.close()


def pct(xs, p):
    return xs[min(len(xs) - 1, len(xs) * p // 100)] if xs else float("nan")


def main():
    rate, seconds = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (1000, 10)
    r = run(rate, seconds)
    d = r["delays"]
    print("desk flood: %d invalid awards at %d/s for %d s; %d of %d real awards stored; delay p50 %.2f s, "
          "p99 %.2f s, max %.2f s; refusals: %d log rows counting %d messages; %d log lines (load %.1f)"
          % (r["flood"], rate, seconds, r["stored"], r["sent"], pct(d, 50), pct(d, 99), d[-1] if d else float("nan"),
             r["rows"], r["repeats"], len(r["log_lines"]), os.getloadavg()[0]))


if __name__ == "__main__":
    main()
