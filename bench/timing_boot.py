# Power-on to the first screen, for hardware/timing.md: µs of host CPU for the
# simulated bowl's boot (host_sim/portable/fakes/bowl.py: the app's start, the journal opened
# or replayed, the first frame drawn) on a new bowl and after a whole 10-seat
# game, on the 32-bit frozen unix build in 64K (the whole game, simulated hardware and harness
# included, needs about 63K today: bench/app_heap.py's table). Two runs over one flash
# folder, as a power cut is: the bowl comes back into an empty heap, not beside the old one.
#   build/mp/unix32-frozen/micropython -X heapsize=64K bench/timing_boot.py new DIR
#   build/mp/unix32-frozen/micropython -X heapsize=64K bench/timing_boot.py cut DIR
# (make bench). Prints figures, asserts nothing.
import sys
import time

sys.path.insert(0, "tests")
sys.path.append("host_sim/portable")
sys.path.append(".")  # host_sim.portable.fakes

from host_sim.portable.fakes import bowl as hal

from bowlrun import Stream, play_to_end


def timed(f):
    t = time.ticks_us()
    r = f()
    return time.ticks_diff(time.ticks_us(), t), r


def _fresh(root):
    import os
    try:
        os.mkdir(root)
    except OSError:
        for f in os.listdir(root):
            os.remove(root + "/" + f)


def main(what, root):
    if what == "new":
        _fresh(root)
        us, sim = timed(lambda: hal.Sim(root, urandom=Stream(7)))
        rolls = play_to_end(sim)
        print("boot to first screen: new bowl %d us (then a %d-roll game played)" % (us, rolls))
    elif what == "cut":
        us, sim = timed(lambda: hal.Sim(root, urandom=Stream(8)))
        print("boot to first screen after that game (journal replay): %d us, at event %d"
              % (us, sim.console.table.events))
    else:
        sys.exit("usage: timing_boot.py new|cut DIR")


main(sys.argv[1] if len(sys.argv) > 1 else "", sys.argv[2] if len(sys.argv) > 2 else "")
