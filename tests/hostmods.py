# host_sim's portable modules (dice_stats, the fake MPU6050) and the trace folder,
# for tests that run on both interpreters. host_sim/portable is on sys.path on
# both: on CPython host_sim's shim puts it there; on the unix port (whose test
# runner starts in the repo root) this file does.
import sys

if sys.implementation.name == "micropython":
    sys.path.append("host_sim/portable")
    sys.path.append(".")  # host_sim.portable.fakes
    TRACES = "tests/data/traces/"
else:
    import os

    TRACES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "traces") + os.sep

import dice_stats  # noqa: F401
from host_sim.portable.fakes import mpu6050 as fake_mpu6050  # noqa: F401
