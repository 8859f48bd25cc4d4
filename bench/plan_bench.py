"""The exact planner's time (host_sim/analysis/plan.py): the default table game and the
shipped kiosk preset (13.8M pool states, planned by demand counts), wall and
CPU seconds (the machine is shared: wall time grows with the load)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
from host_sim.analysis import plan  # noqa: E402

for profile, seats in (("xiamen", 10), ("kiosk", 1)):
    w, c = time.perf_counter(), time.process_time()
    r = plan.plan(profile, seats)
    w, c = time.perf_counter() - w, time.process_time() - c
    print("plan %-7s %2d seats: %9d pool states, mean %.1f rolls, p99 %d: %.2f s wall, %.2f s CPU (load %.1f)"
          % (profile, seats, r["states"], r["mean_rolls"], r["p99_rolls"], w, c, os.getloadavg()[0]))
