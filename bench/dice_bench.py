# Benchmark of the dice path: µs per Dice.roll (os.urandom, health tests,
# SHA-256 over the shake, rejection sampling) and per shake sample
# (Detector.feed handing it to the pool), and on MicroPython the heap bytes
# allocated by each. Runs on both interpreters (`make bench`); prints figures,
# asserts nothing.
import os
import sys
import time

sys.path.insert(0, "firmware")
if sys.implementation.name != "micropython":
    sys.path.insert(0, ".")
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable

from bobing import dice, shake

ROLLS = 20000
SAMPLES = 50000
MP = sys.implementation.name == "micropython"


def per_call(f, n):
    t0 = time.ticks_us()
    f(n)
    return time.ticks_diff(time.ticks_us(), t0) / n


def alloc_per_call(f, n):
    import gc
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    f(n)
    b = gc.mem_alloc()
    gc.enable()
    return (b - a) / n


def main():
    d = dice.Dice(os.urandom)
    out = bytearray(6)

    def rolls(n):
        for _ in range(n):
            d.roll(out)

    det = shake.Detector(pool=d)
    state = [0]

    def feed(n):
        # a steady 3 Hz, 1.5 g shake at 100 Hz: every sample goes to the pool
        t = state[0]
        wave = (0, 1060, 1500, 1060, 0, -1060, -1500, -1060)
        for i in range(n):
            det.feed(t, wave[i & 7], 40, 1000 + (i & 3), t * 1000 + (i & 15))
            t += 10
        state[0] = t

    name = sys.implementation.name
    r = per_call(rolls, ROLLS)
    f = per_call(feed, SAMPLES)
    line = "%s: %.1f us per roll (%d rolls), %.2f us per shake sample into the pool" % (name, r, ROLLS, f)
    if MP:
        line += "; %.1f bytes allocated per roll, %.2f per sample" % (
            alloc_per_call(rolls, 2000), alloc_per_call(feed, 5000))
    print(line)


if __name__ == "__main__":  # fair_bench.py takes alloc_per_call from here
    main()
