# micropython: -X heapsize=256K; frozen: -X heapsize=128K
# Runs only on the MicroPython unix port: a reset of the simulated bowl (host_sim/portable/fakes/
# bowl.py) starts board.bring_up in the heap a bowl has at reset, without the old boot: the old
# app (its console, game, journal and screen) is freed before the new one's drivers are made,
# not left as garbage for them to be placed around (which moved the e2e game's smallest heap).
import gc
import sys

sys.path.insert(0, "tests")
from bowlrun import Stream, hal, new_root

import board


def test_a_power_cut_frees_the_old_app_before_bring_up():
    sim = hal.Sim(new_root("reset"), urandom=Stream(7))
    sim.step(200)
    sim.shake()
    sim.step(3000)
    gc.collect()
    with_app = gc.mem_alloc()  # live, the app included (~7K of it: bench/app_heap.py's split)
    held = []  # gc.mem_alloc() as the next bring_up starts: live objects and garbage not yet collected
    real = board.bring_up

    def bring_up(*a):
        held.append(gc.mem_alloc())
        return real(*a)

    board.bring_up = bring_up
    try:
        sim.power_cut()
        sim.step(100)
    finally:
        board.bring_up = real
    assert sim.resets == ["power"] and len(held) == 1, (sim.resets, held)
    assert held[0] < with_app - 4096, "bring_up after the cut began with %d B in use, %d B with the old app live" % (
        held[0], with_app)
