import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import host_sim  # noqa: E402  (installs the const/ticks shim and puts firmware/ on sys.path)

# tests/mp/ holds tests that only make sense on MicroPython (heap_lock, real
# framebuf, VfsLfs2); test_micropython.py runs them on the unix port.
collect_ignore = ["mp", "mp_runner.py"]


@pytest.fixture(scope="session")
def mp_built():
    """MicroPython v1.28.0 from pinned source, current (`make mp` in build/mp; nothing to do
    when its inputs did not change): mpy-cross and the 32-bit unix builds."""
    p = subprocess.run(["make", "-s", "mp"], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, "make mp failed:\n%s\n%s" % (p.stdout[-3000:], p.stderr[-3000:])
