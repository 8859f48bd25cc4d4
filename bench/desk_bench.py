"""The prize desk's redemptions per second: the real server (waitress, SQLite in
WAL mode with synchronous=FULL) on loopback, one counter and then four counters
at once, each redemption a full check of the code plus the once-only insert.
And the forecast page's time at the largest stock a bowl allows (99,999 of each
kiosk class): the page must answer within 2 s."""
import os
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
from host_sim import compat  # noqa: E402
compat.install()  # the MicroPython shim; firmware/ importable
import deskkit  # noqa: E402  (the tests' server and kiosk-game helpers)

SECRET = bytes(range(16))


def forecast_time():
    """The forecast's work at 99,999 of each class, as the page does it (fresh: no cache)."""
    os.environ.setdefault("BOBING_DESK_DIR", tempfile.mkdtemp(prefix="desk-bench-fc-"))
    deskkit.setup()
    from host_sim.desk import forecast as fc
    from bobing import profiles
    opts = tuple(sorted(profiles.Profile("kiosk", {}).options.items()))
    t0 = time.perf_counter()
    fc._model("kiosk", opts)
    t1 = time.perf_counter()
    times = []
    for k in range(3):
        left = tuple((c, 99999 - k) for c in ("zhuangyuan", "duitang", "sanhong", "sijin", "erju", "yixiu"))
        t, cpu = time.perf_counter(), time.process_time()
        r = fc._runout("kiosk", opts, left)
        times.append((time.perf_counter() - t, time.process_time() - cpu))
    print("desk: forecast at 99,999 of each class: %.2f s (%.2f s of CPU; the first of a profile +%.2f s for "
          "the odds), all gone after ~%d customers (load %.1f)" % (max(times)[0], max(times)[1], t1 - t0,
                                                                  r["all"][0] // r["rolls_per_customer"],
                                                                  os.getloadavg()[0]))


def main():
    forecast_time()
    folder = tempfile.mkdtemp(prefix="desk-bench-")
    s = deskkit.Server(folder)
    s.manage("attendant", "bench", "--password-stdin", stdin=deskkit.PASSWORD + "\n")
    s.manage("addbowl", "0970", "--secret-hex", SECRET.hex())
    shown = []
    for g in range(4):  # four games' worth of awards
        path, got = deskkit.kiosk_game(os.path.join(folder, "flash"), "0970", SECRET, 200, g)
        s.manage("importjournal", path)
        shown += got
    s.start()
    try:
        for counters in (1, 4):
            todo = shown[:200] if counters == 1 else shown[200:600]
            parts = [todo[i::counters] for i in range(counters)]
            sessions = [deskkit.Browserless(s.url).login("bench") for _ in range(counters)]

            def run(c, part):
                for g, n, cls, code in part:
                    st, _ = c.post("/redeem", {"code": code, "bowl": "0970", "game": g, "award": n, "cls": cls})
                    assert st == 200, st

            t0 = time.perf_counter()
            ts = [threading.Thread(target=run, args=a) for a in zip(sessions, parts)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            dt = time.perf_counter() - t0
            print("desk: %d redemptions by %d counter%s: %.0f per second (load %.1f)"
                  % (len(todo), counters, "s" if counters > 1 else "", len(todo) / dt, os.getloadavg()[0]))
    finally:
        s.stop()


if __name__ == "__main__":
    main()
