# Benchmark of verifiable fairness (bobing/fair.py, dice.Derived): ms per
# derived roll and per commitment, heap bytes a roll allocates (MicroPython),
# the fair log's bytes per roll on flash and the messages per customer. Runs on
# both interpreters (`make bench`: the 32-bit frozen unix port is the figure for
# the bowl's code path; an ESP32 at 240 MHz is slower, hardware/timing.md);
# prints figures, asserts nothing.
import os
import sys
import time

sys.path.insert(0, "firmware")
if sys.implementation.name != "micropython":
    sys.path.insert(0, ".")
    import host_sim  # noqa: F401  (const/ticks shim)

from bobing import dice, fair
from dice_bench import alloc_per_call

ROLLS = 5000
COMMITS = 500
SHAKES = 3  # the kiosk preset's shakes a customer
MP = sys.implementation.name == "micropython"


def per_call_ms(f, n):
    t0 = time.ticks_us()
    f(n)
    return time.ticks_diff(time.ticks_us(), t0) / n / 1000


def main():
    s = os.urandom(32)
    d = os.urandom(16)
    der = dice.Derived(s, d, 17, 3)
    out = bytearray(6)

    def rolls(n):
        for i in range(n):
            der.roll(i & 0xFFFF, out)

    def commits(n):
        for _ in range(n):
            dice.commitment(dice.secret_bytes(32, os.urandom))

    name = sys.implementation.name
    print("%s: derived roll %.3f ms, commitment (secret + SHA-256) %.3f ms"
          % (name, per_call_ms(rolls, ROLLS), per_call_ms(commits, COMMITS)))
    if MP:
        print("%s: heap allocated per derived roll %.0f bytes" % (name, alloc_per_call(rolls, 1000)))
    # the fair log (flash) per customer: a commitment, the desk's value, the reveal
    g, k, q, ev = 1234, 567, 600, 2400
    log = len(fair._line("C %d %d %d %s" % (q, k, ev, "ab" * 32))) + \
        len(fair._line("D %d %s" % (q, "cd" * 16))) + len(fair._line("R %d %s" % (q, "ef" * 32)))
    print("fair log: %d bytes a customer of %d shakes = %.1f bytes a roll (the journal's record: 6)"
          % (log, SHAKES, log / SHAKES))
    c = fair.commit_payload(g, k, q, b"\xab" * 32)
    sd = fair.seed_payload(g, q, "ab" * 8, b"\xcd" * 16)
    rv = fair.reveal_payload(g, k, q, b"\xef" * 32, ["123456"] * SHAKES)
    print("messages a customer: 3 (commit %d B bowl->desk, seed %d B desk->bowl retained, reveal %d B "
          "bowl->desk), each QoS 1: 6 PUBLISH + 6 PUBACK packets through the broker"
          % (len(c), len(sd), len(rv)))


main()
