# Power-on to the first screen, for hardware/timing.md: µs of host CPU for the
# simulated bowl's boot (host_sim/portable/fakes/bowl.py: the app's start, the journal opened
# or replayed, the first frame drawn) on a new bowl and after a whole 10-seat
# game, on the 32-bit frozen unix build in the ESP32's 56K heap:
#   build/mp/unix32-frozen/micropython -X heapsize=56K bench/timing_boot.py
# (make bench). Prints figures, asserts nothing.
import gc
import sys
import time

sys.path.insert(0, "tests")
sys.path.append("host_sim/portable")

from fakes import bowl as hal

from bowlrun import Stream, new_root, play_to_end


def timed(f):  # one run each: a second bowl does not fit beside the first in 56K
    t = time.ticks_us()
    r = f()
    return time.ticks_diff(time.ticks_us(), t), r


def main():
    us_new, sim = timed(lambda: hal.Sim(new_root("boot"), urandom=Stream(7)))
    rolls = play_to_end(sim)
    gc.collect()
    us_cut, _ = timed(sim.power_cut)
    print("boot to first screen: new bowl %d us; after a %d-roll game (journal replay) %d us"
          % (us_new, rolls, us_cut))


main()
