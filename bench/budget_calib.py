# How much slower the 32-bit frozen MicroPython build is than CPython on the
# bowl's own work, for bench/budget.py (which runs the simulated bowl on
# CPython, timing the firmware by this thread's CPU time, immune to the other
# processes' load): a fixed mix of the firmware's work (a whole ten-seat game
# through game.Table, every screen of host_sim/screen_cases.py drawn, SHA-256
# as the dice hash), timed REPS times; the least time is printed in us (on
# MicroPython wall time: the run least disturbed by other processes). Runs on both interpreters:
#   build/mp/unix32-frozen/micropython bench/budget_calib.py
import hashlib
import sys
import time

sys.path.insert(0, "firmware")
if sys.implementation.name == "micropython":
    sys.path.append("host_sim")
    import screen_cases
else:
    sys.path.insert(0, ".")
    import host_sim  # noqa: F401  (shim: const, ticks, framebuf stand-in)
    from host_sim import screen_cases

import framebuf  # noqa: E402

from bobing import game  # noqa: E402
from bobing import screen as scr  # noqa: E402

REPS = 40 if sys.implementation.name == "micropython" else 15  # wall time there: more runs


def work(s, buf):
    st = [7]
    t = game.Table(None, 10)
    t.start_total(7)
    d = bytearray(6)
    while not t.ended:
        for i in range(6):
            st[0] = (st[0] * 1103515245 + 12345) & 0x7FFFFFFF
            d[i] = (st[0] >> 8) % 6 + 1
        t.roll(d)
    for _, lang, method, args in screen_cases.CASES:
        s.set_lang(lang)
        screen_cases.draw(s, method, args)
    h = hashlib.sha256()
    for _ in range(200):
        h.update(buf[:64])


def least_us():
    buf = bytearray(1024)
    s = scr.Screen(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    work(s, buf)  # warm up
    best = None
    for _ in range(REPS):
        if hasattr(time, "thread_time_ns"):
            t0 = time.thread_time_ns()
            work(s, buf)
            dt = (time.thread_time_ns() - t0) // 1000
        else:
            t0 = time.ticks_us()
            work(s, buf)
            dt = time.ticks_diff(time.ticks_us(), t0)
        if best is None or dt < best:
            best = dt
    return best


if __name__ == "__main__":
    print(least_us())
