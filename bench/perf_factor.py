"""The CPU factor of host_sim/portable/fakes/chiptime.py (ESP32_FACTOR): MicroPython's own
perf_bench scores for an ESP32 at 240 MHz, as published in micropython/micropython issue #6565
(2020-11-18: v1.13 and v1.13-180-g5af3c046c, N=100 M=100), against the same benchmark files run
here on the MicroPython builds given (best of REPS runs each, the builds taking turns, so that
they see the same load: the host's load only ever lowers a score). Prints each benchmark's
score and ratio, and the geometric means.

    python bench/perf_factor.py TESTS_DIR BINARY [BINARY ...]

TESTS_DIR: tests/perf_bench of a MicroPython checkout at the release the ESP32 figures are of
(`git -C micropython archive v1.13 tests/perf_bench | tar x`: the files changed since; this
repository does not carry them). BINARY: a unix build, e.g. a 32-bit v1.13 build (same files,
same release: the factor) and build/mp/unix32-frozen/micropython (v1.28.0: what the budget's
costs are measured on). hardware/timing.md has the run of 2026-12-01.
"""
import math
import os
import subprocess
import sys

REPS = 7
# score (higher is faster) on the ESP32 at 240 MHz: (v1.13, v1.13-180-g5af3c046c), issue #6565
ESP32 = {
    "bm_fannkuch": (60.67, 80.12),
    "bm_fft": (2633.39, 2707.87),
    "bm_float": (4085.76, 3368.39),
    "bm_hexiom": (25.64, 24.51),
    "bm_nqueens": (3244.20, 2792.79),
    "bm_pidigits": (586.65, 475.01),
    "misc_aes": (438.24, 413.36),
    "misc_mandel": (2859.17, 3174.19),
    "misc_pystone": (1731.94, 1166.32),
}


def run_once(binary, src, name):
    p = subprocess.run([binary, "-c", src], capture_output=True, text=True, timeout=600)
    f = p.stdout.split(None, 2)
    if p.returncode or len(f) < 2:
        raise RuntimeError("%s %s: %s" % (binary, name, (p.stdout + p.stderr)[-300:]))
    return 1e6 * int(f[1]) / int(f[0])


def scores(binaries, tests, name):
    """{binary: best score}, the builds taking turns."""
    with open(os.path.join(tests, name + ".py")) as f:
        src = f.read()
    with open(os.path.join(tests, "benchrun.py")) as f:
        src += f.read()
    src += "bm_run(100, 100)\n"
    best = dict.fromkeys(binaries, 0.0)
    for _ in range(REPS):
        for b in binaries:
            best[b] = max(best[b], run_once(b, src, name))
    return best


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main(argv):
    if len(argv) < 2 or not os.path.isfile(os.path.join(argv[0], "benchrun.py")):
        sys.exit("usage: python bench/perf_factor.py TESTS_DIR BINARY [BINARY ...] (TESTS_DIR: a checkout's "
                 "tests/perf_bench, holding benchrun.py)")
    tests, binaries = argv[0], argv[1:]
    got = {name: scores(binaries, tests, name) for name in sorted(ESP32)}
    for b in binaries:
        ratios = ([], [])
        print("perf_factor %s" % b)
        for name, esp in sorted(ESP32.items()):
            s = got[name][b]
            r = (s / esp[0], s / esp[1])
            ratios[0].append(r[0])
            ratios[1].append(r[1])
            print("perf_factor %-13s here %10.2f  ESP32 v1.13 %8.2f (x%5.1f)  v1.13-180 %8.2f (x%5.1f)"
                  % (name, s, esp[0], r[0], esp[1], r[1]))
        print("perf_factor geometric mean: x%.1f against the ESP32's v1.13, x%.1f against its v1.13-180"
              % (geomean(ratios[0]), geomean(ratios[1])))
    if len(binaries) > 1:
        print("perf_factor %s against %s: x%.2f (geometric mean)" % (
            binaries[1], binaries[0], geomean([got[n][binaries[1]] / got[n][binaries[0]] for n in ESP32])))


if __name__ == "__main__":
    main(sys.argv[1:])
