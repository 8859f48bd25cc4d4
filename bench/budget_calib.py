# How much slower the 32-bit frozen MicroPython build is than CPython on the
# bowl's own work, for bench/budget.py (which runs the simulated bowl on
# CPython, timing the firmware by this thread's CPU time, immune to the other
# processes' load), in two parts, because CPython draws on host_sim/
# framebuf.py (Python) where MicroPython has framebuf in C: the logic (a whole
# ten-seat game through game.Table, SHA-256 as the dice hash) and the drawing
# (host_sim/portable/screen_cases.py's screens), in short pieces timed REPS times; the
# least times are printed in us (on MicroPython wall time: the pieces least
# disturbed by other processes). Runs on both interpreters:
#   build/mp/unix32-frozen/micropython bench/budget_calib.py
import hashlib
import sys
import time

sys.path.insert(0, "firmware")
if sys.implementation.name == "micropython":
    sys.path.append("host_sim/portable")
    sys.path.append(".")  # host_sim.portable.fakes
    import screen_cases
else:
    sys.path.insert(0, ".")
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable
    import screen_cases

import framebuf

from bobing import game
from bobing import screen as scr

REPS = 600  # short runs (about 1 ms on MicroPython): some of them run undisturbed


_T = [None, 0]


def logic(s, buf):
    # 20 rolls of a ten-seat game (a new game when it ends) and a dice hash
    t = _T[0]
    d = bytearray(6)
    for _ in range(20):
        if t is None or t.ended:
            t = _T[0] = game.Table(None, 10)
            t.start_total(7)
        for i in range(6):
            _T[1] = (_T[1] * 1103515245 + 12345) & 0x7FFFFFFF
            d[i] = (_T[1] >> 8) % 6 + 1
        t.roll(d)
    h = hashlib.sha256()
    for _ in range(20):
        h.update(buf[:64])


_C = [0]


def draw(s, buf):
    # the next three screens of screen_cases, round and round
    cases = screen_cases.CASES
    for _ in range(3):
        _, lang, method, args = cases[_C[0] % len(cases)]
        _C[0] += 1
        s.set_lang(lang)
        screen_cases.draw(s, method, args)


def least_us(work):
    buf = bytearray(1024)
    s = scr.Screen(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    for _ in range(30):  # warm up (the glyphs interned, the game started)
        work(s, buf)
    best = None
    for _ in range(REPS):
        if hasattr(time, "thread_time_ns"):  # this thread's CPU time, as host_sim/portable/fakes/chiptime.py counts it
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
    print(least_us(logic), least_us(draw))
