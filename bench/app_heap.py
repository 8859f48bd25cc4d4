"""Heap of the whole bowl on the MicroPython unix port: what each module costs
to import as .mpy, and the smallest -X heapsize in which tests/test_bowl_e2e.py
(a complete 10-seat game on host_sim/hal.py, then a power cut) still passes.

    python bench/app_heap.py

The unix port is 64-bit and loads .mpy code into its heap; the bowl runs the
firmware frozen into flash (firmware/manifest.py), where code costs no heap.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")

# what the e2e game loads, then what only menus, a kiosk, the Final or a damaged
# journal load (imported on demand: a family game played by shakes never does)
MODULES = ("bobing.profiles", "bobing.rules", "bobing.game", "bobing.journal",
           "bobing.dice", "bobing.shake", "bobing.leds", "bobing.glyphs", "bobing.screen",
           "bobing.console", "bowl.hw", "bowl.mpu6050", "bowl.app",
           "fake_mpu6050", "hal",
           "-", "bobing.menu", "bobing.panels", "bobing.settings", "bobing.claim", "bobing.final",
           "bobing.journal_fix")

IMPORTS = """
import sys, gc
sys.path.insert(0, %r)
sys.path.append("host_sim")
gc.collect()
base = prev = gc.mem_alloc()
for m in %r:
    if m == "-":
        print("loaded on demand:")
        continue
    __import__(m)
    gc.collect()
    a = gc.mem_alloc()
    print("%%-18s %%7d B   total %%7d B" %% (m, a - prev, a - base))
    prev = a
"""


def build(out):
    p = subprocess.run(["make", "-s", "mpy", "MPY_OUT=" + out], cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        sys.exit("make mpy failed:\n" + p.stdout + p.stderr)


def e2e(out, kib):
    p = subprocess.run([MICROPYTHON, "-X", "heapsize=%dK" % kib, os.path.join(ROOT, "tests", "mp_runner.py"),
                        out, os.path.join(ROOT, "tests"), "test_bowl_e2e"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    return p.returncode == 0 and " 0 failed" in p.stdout, p.stdout


def main():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "mpy")
        build(out)
        print("import cost as .mpy on the unix port (64-bit):")
        p = subprocess.run([MICROPYTHON, "-X", "heapsize=2M", "-c", IMPORTS % (out, MODULES)],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
        sys.stdout.write(p.stdout + p.stderr)
        lo, hi = 128, 512  # KiB: lo fails (or is untested), hi passes
        ok, text = e2e(out, hi)
        if not ok:
            sys.exit("the e2e game fails even in %dK:\n%s" % (hi, text[-3000:]))
        ok, _ = e2e(out, lo)
        if ok:
            hi = lo
        while hi - lo > 8:
            mid = (lo + hi) // 2 // 8 * 8
            ok, text_mid = e2e(out, mid)
            if ok:
                hi, text = mid, text_mid
            else:
                lo = mid
        print("smallest heap for the whole 10-seat game (8K steps): -X heapsize=%dK" % hi)
        for line in text.splitlines():
            if line.startswith(("bowl e2e", "heap:", "game working set")):
                print(line)


if __name__ == "__main__":
    main()
