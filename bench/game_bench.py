# Benchmark of the game engine: µs per event through Table.apply, whole 10-seat
# default games per second, and on MicroPython the heap: bytes allocated per
# roll and the peak of gc.mem_alloc over a whole game.
# Runs on both interpreters (`make bench`; on MicroPython in the bowl-like
# -X heapsize=128K). Prints figures, asserts nothing.
import sys
import time

sys.path.insert(0, "firmware")
if sys.implementation.name != "micropython":
    sys.path.insert(0, ".")
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable

from bobing import game

MP = sys.implementation.name == "micropython"
GAMES = 20


def lcg(seed):
    state = [seed]

    def rnd(n):
        state[0] = (state[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return (state[0] >> 8) % n
    return rnd


def one_game(seed, buf):
    rnd = lcg(seed)
    t = game.Table(None, 10)
    t.start_total(rnd(11) + 2)
    n = 0
    peak = 0
    while not t.ended:
        for i in range(6):
            buf[i] = rnd(6) + 1
        t.roll(buf)
        n += 1
        if MP:
            a = gc.mem_alloc()
            if a > peak:
                peak = a
    return n, peak


if MP:
    import gc


def main():
    buf = bytearray(6)
    if MP:
        gc.collect()
    base = gc.mem_alloc() if MP else 0
    t0 = time.ticks_us()
    events = 0
    peak = 0
    for seed in range(1, GAMES + 1):
        n, p = one_game(seed, buf)
        events += n
        peak = max(peak, p)
    us = time.ticks_diff(time.ticks_us(), t0)
    print("%s game: %.1f games/s (10 seats, default profile), %.1f us per roll, %.1f rolls per game"
          % (sys.implementation.name, GAMES * 1e6 / us, us / events, events / GAMES))
    if MP:
        t = game.Table(None, 10)
        t.start_seat(1)
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        rolls = 0
        while not t.ended and rolls < 50:
            buf[0] = rolls % 6 + 1
            t.roll(buf)
            rolls += 1
        per = (gc.mem_alloc() - a) / rolls
        gc.enable()
        print("%s game: %.0f bytes allocated per roll (the Outcome and what it holds); "
              "peak gc.mem_alloc over %d games %d B of a %d B heap (baseline %d B)"
              % (sys.implementation.name, per, GAMES, peak, gc.mem_alloc() + gc.mem_free(), base))


main()
