"""Which test modules run on the MicroPython unix ports, and how.

A test module opts in with a first-lines marker:
    # micropython: yes                  -> run it on the unix ports too
    # micropython: -X heapsize=128K     -> ... with these interpreter flags
    # micropython: -X heapsize=160K; frozen: -X heapsize=56K
                                        -> other flags on the frozen build
Every module under tests/mp/ runs there (and only there). Which build runs
what: tests/test_micropython.py (the builds: `make mp`, build/mp/).
"""
import os

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)
FIRMWARE = os.path.join(ROOT, "firmware")
# The one place each MicroPython binary's path is spelled (tests, bench, harnesses; the frozen
# build's in host_sim/event, where `python -m host_sim event-demo` takes it from):
# `make mp` builds them from pinned source into build/mp (the Makefile's MP32_* names).
MPB = os.path.join(ROOT, "build", "mp")
from host_sim.event import MP32_FROZEN  # noqa: E402  (the bowl frozen in, as on the ESP32; event-demo runs it too)
MP32_STOCK = os.path.join(MPB, "unix32-stock", "micropython")  # nothing of the bowl frozen
MPY_CROSS = os.path.join(MPB, "micropython", "mpy-cross", "build", "mpy-cross")
BUILDS = {"frozen": MP32_FROZEN, "stock": MP32_STOCK}
MARK = "# micropython:"


def _marker(path):
    with open(path, encoding="utf-8") as f:
        for _ in range(5):
            line = f.readline()
            if line.startswith(MARK):
                return line[len(MARK):].strip()
    return None


def modules():
    """[(module name, directory, {"": flags, "frozen": flags})] to run on the unix ports."""
    out = []
    for d in (TESTS, os.path.join(TESTS, "mp")):
        for fn in sorted(os.listdir(d)):
            if not (fn.startswith("test_") and fn.endswith(".py")):
                continue
            mark = _marker(os.path.join(d, fn))
            if d == TESTS and mark is None:
                continue
            flags = {}
            for part in (mark or "yes").split(";"):
                build, _, text = part.strip().rpartition(":")
                flags[build.strip()] = [] if text.strip() == "yes" else text.split()
            flags.setdefault("frozen", flags[""])
            out.append((fn[:-3], d, flags))
    return out


def firmware_sources():
    out = []
    for dirpath, _dirs, files in os.walk(FIRMWARE):
        for fn in sorted(files):
            if fn.endswith(".py") and fn != "manifest.py":  # manifests are build-time only
                out.append(os.path.relpath(os.path.join(dirpath, fn), FIRMWARE))
    return sorted(out)
