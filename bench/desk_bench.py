"""The prize desk's redemptions per second: the real server (waitress, SQLite in
WAL mode with synchronous=FULL) on loopback, one counter and then four counters
at once, each redemption a full check of the code plus the once-only insert."""
import os
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))
import host_sim  # noqa: E402,F401
import deskkit  # noqa: E402  (the tests' server and kiosk-game helpers)

SECRET = bytes(range(16))


def main():
    folder = tempfile.mkdtemp(prefix="desk-bench-")
    s = deskkit.Server(folder)
    s.manage("attendant", "bench", "--password-stdin", stdin=deskkit.PASSWORD + "\n")
    s.manage("addbowl", "B", "--secret-hex", SECRET.hex())
    shown = []
    for g in range(4):  # four games' worth of awards
        path, got = deskkit.kiosk_game(os.path.join(folder, "flash"), "B", SECRET, 200, g)
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
                    st, _ = c.post("/redeem", {"code": code, "bowl": "B", "game": g, "award": n, "cls": cls})
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
