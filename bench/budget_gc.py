# A garbage collection in the bowl's heap, for host_sim/portable/fakes/chiptime.py's
# automatic collections (GC_HOST_US, GC_FREE_BYTES): on the 32-bit frozen build in a
# 64K heap (the ESP32 port starts at 56K and grows; the game does not fit 56K beside
# the simulated parts on main today: a heap regression), the simulated bowl through
# six rolls of a family game and their pages (bench/budget.py's roll path): the
# automatic collections those made (the simulated parts' allocation counted too),
# then, with the game live, the least time of 50 gc.collect() calls and the free
# bytes a collection leaves (what the app may allocate before the next automatic
# one; the simulated parts take some of the heap, so the bowl's own figure is
# somewhat larger). Run by bench/budget_work.py:
#   build/mp/unix32-frozen/micropython -X heapsize=64K bench/budget_gc.py
import gc
import sys
import time

sys.path.insert(0, "tests")
sys.path.append("host_sim/portable")
sys.path.append(".")  # host_sim.portable.fakes
from host_sim.portable.fakes import bowl as hal

from bobing import console as C
from bowlrun import Stream, new_root


def main():
    sim = hal.Sim(new_root("gc"), urandom=Stream(1))
    # the automatic collections of six rolls and their pages (bench/budget.py's roll path): seen
    # as the heap's use falling between two rounds (the simulated parts' allocation counts too)
    n = [0, gc.mem_alloc()]

    def rnd(t0, t1):
        a = gc.mem_alloc()
        if a < n[1]:
            n[0] += 1
        n[1] = a
    sim.on_round = rnd
    for _ in range(6):
        sim.shake()
        sim.run_until(lambda s: s.console.view in (C.V_RESULT, C.V_NOTICE), 20000)
        sim.step(100)
        k = 0
        while sim.console.view in (C.V_RESULT, C.V_CLAIM, C.V_NOTICE) and k < 24:
            sim.press("ok")
            sim.step(600)
            k += 1
    sim.on_round = None
    print("gc_auto_six_rolls", n[0])
    best = None
    for _ in range(50):
        t0 = time.ticks_us()
        gc.collect()
        dt = time.ticks_diff(time.ticks_us(), t0)
        best = dt if best is None or dt < best else best
    print("gc_us", best)
    print("gc_free_bytes", gc.mem_free())


main()
