import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import host_sim  # noqa: E402  (installs the const/ticks shim and puts firmware/ on sys.path)

# tests/mp/ holds tests that only make sense on MicroPython (heap_lock, real
# framebuf, VfsLfs2); test_micropython.py runs them on the unix port.
collect_ignore = ["mp", "mp_runner.py"]
