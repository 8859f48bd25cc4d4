# Host simulator figures (CPython only): full games per second in the Monte
# Carlo over the real game.Table (host_sim/analysis/stats.py), and the exact planner's
# run time for a 10-seat default game (host_sim/analysis/plan.py). Prints, asserts nothing.
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
from host_sim.analysis import plan  # noqa: E402
from host_sim.analysis import stats  # noqa: E402

GAMES = 2000


def main():
    rng = random.Random(2024)
    stats.play_game("xiamen", 10, rng)  # build the roll table outside the timing
    t0 = time.perf_counter()
    rolls = 0
    for _ in range(GAMES):
        rolls += stats.play_game("xiamen", 10, rng)[1]
    dt = time.perf_counter() - t0
    print("monte carlo: %.0f full games/s (10 seats, xiamen; %d games, %.0f rolls/s)"
          % (GAMES / dt, GAMES, rolls / dt))
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        r = plan.plan("xiamen", 10)
        times.append(time.perf_counter() - t0)
    print("planner: %.2f s for 10 seats, xiamen (best of 3; %d pool states, %d rolls pushed; mean %.2f rolls)"
          % (min(times), r["states"], r["trigger_rolls_computed"], r["mean_rolls"]))


main()
