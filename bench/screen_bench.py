# Benchmark of the screens: ms to draw one full 128x64 frame of every screen
# of host_sim/portable/screen_cases.py (the firmware's screen module on a FrameBuffer
# allocated once), the worst and the mean, and on MicroPython the heap bytes
# allocated per frame. Target on the unix port: <= 5 ms a frame.
# Runs on both interpreters (`make bench`). Prints figures, asserts nothing.
import gc
import sys
import time

sys.path.insert(0, "firmware")
if sys.implementation.name == "micropython":
    sys.path.append("host_sim/portable")
    import screen_cases
else:
    sys.path.insert(0, ".")
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable
    import screen_cases

import framebuf

from bobing import screen as scr

MP = sys.implementation.name == "micropython"
N = 50 if MP else 3


def main():
    buf = bytearray(1024)
    s = scr.Screen(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    for _, lang, method, args in screen_cases.CASES:  # warm up (interns the characters)
        s.set_lang(lang)
        screen_cases.draw(s, method, args)
    worst = (0, "")
    total = 0
    alloc = 0
    for name, lang, method, args in screen_cases.CASES:
        s.set_lang(lang)
        t0 = time.ticks_us()
        for _ in range(N):
            screen_cases.draw(s, method, args)
        dt = time.ticks_diff(time.ticks_us(), t0) / N
        total += dt
        if dt > worst[0]:
            worst = (dt, name)
        if MP:
            gc.collect()
            gc.disable()
            a = gc.mem_alloc()
            screen_cases.draw(s, method, args)
            alloc += gc.mem_alloc() - a
            gc.enable()
    n = len(screen_cases.CASES)
    line = "%s: %d screens, mean %.2f ms a frame, worst %.2f ms (%s)" % (
        sys.implementation.name, n, total / n / 1000, worst[0] / 1000, worst[1])
    if MP:
        line += ", %.1f bytes allocated per frame" % (alloc / n)
    print(line)


main()
