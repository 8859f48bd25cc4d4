# Benchmark of the roll path: µs per Rules.evaluate (classify + order key +
# bonus), and on MicroPython the heap bytes allocated per call.
# Runs on both interpreters; `make bench` runs it on each. Prints figures, asserts nothing.
import sys
import time

sys.path.insert(0, "firmware")
if sys.implementation.name != "micropython":
    sys.path.insert(0, ".")
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable

from bobing import profiles, rules

N = 20000


def rolls():
    out = []
    x = 12345
    for _ in range(64):
        roll = bytearray(6)
        for i in range(6):
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            roll[i] = (x >> 16) % 6 + 1
        out.append(roll)
    return out


# every RULES.md §9 variant at once (the other branches of the rank path)
VARIANTS = {"sihong_key": "high_then_low", "wuzi_key": "kicker_then_face", "heiliubo_key": "equal",
            "zhuangyuan_tiebreak": "off", "combined": "sijin_only"}


def main(label, r):
    rs = rolls()
    t0 = time.ticks_us()
    for i in range(N):
        r.evaluate(rs[i & 63])
    dt = time.ticks_diff(time.ticks_us(), t0)
    line = "%s: %.2f us per evaluate (%d calls, %s)" % (sys.implementation.name, dt / N, N, label)
    if sys.implementation.name == "micropython":
        import gc
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        for i in range(N):
            r.evaluate(rs[i & 63])
        b = gc.mem_alloc()
        gc.enable()
        line += ", %.3f bytes allocated per call" % ((b - a) / N)
    print(line)


main("default profile", rules.Rules())
main("the §9 variants", rules.Rules(profiles.Profile("xiamen", VARIANTS)))
