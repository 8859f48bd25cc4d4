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


# Markers from what a test uses (its fixtures, or its file), not a line in every module, so
# `make test-fast` can deselect them: -m "not slow and not micropython and not broker and not browser".
MARKERS = {
    "micropython": "runs a MicroPython binary: the 32-bit unix builds of `make mp` or the PyPI wheel",
    "broker": "starts a real mosquitto",
    "browser": "drives headless Chromium",
    "slow": "one of the slowest files on a busy 2-core machine (make test's --durations list)",
}
MARK_BY_FIXTURE = {"mp_built": "micropython", "mp_build": "micropython",
                   "broker_installed": "broker", "broker": "broker", "event_broker": "broker",
                   "chromium_installed": "browser", "browser": "browser"}
MARK_BY_FILE = {
    "test_framebuf_standin.py": ("micropython",),  # the 64-bit wheel, by path, no fixture
}


def pytest_configure(config):
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", "%s: %s" % (name, text))


def pytest_collection_modifyitems(config, items):
    for item in items:
        marks = {MARK_BY_FIXTURE[f] for f in getattr(item, "fixturenames", ()) if f in MARK_BY_FIXTURE}
        marks.update(MARK_BY_FILE.get(item.path.name, ()))
        for m in sorted(marks):
            item.add_marker(m)
