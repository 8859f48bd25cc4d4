# host_sim's portable modules (fairness, fake_mpu6050) and the trace folder,
# for tests that run on both interpreters: on CPython from the host_sim
# package; on the unix port host_sim/ itself goes on sys.path (the package's
# __init__ is CPython only) and the test runner's working directory is the repo.
import sys

if sys.implementation.name == "micropython":
    sys.path.append("host_sim")
    import fairness  # noqa: F401
    import fake_mpu6050  # noqa: F401
    TRACES = "tests/data/traces/"
else:
    import os

    from host_sim import fairness, fake_mpu6050  # noqa: F401
    TRACES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "traces") + os.sep
