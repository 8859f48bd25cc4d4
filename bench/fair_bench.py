# Benchmark of verifiable fairness (bobing/fair.py, dice.Derived): ms per
# derived roll and per commitment, heap bytes a roll allocates (MicroPython),
# fair format 2's chain (a customer's secret: up to dice.CHAIN_N links; a game's
# anchor), the fair log's bytes per roll on flash and the messages per customer
# (with and without a customer seed). Runs on
# both interpreters (`make bench`: the 32-bit frozen unix port is the figure for
# the bowl's code path; an ESP32 at 240 MHz is slower, hardware/timing.md);
# prints figures, asserts nothing.
import os
import sys
import time

sys.path.insert(0, "firmware")
if sys.implementation.name == "micropython":
    sys.path.insert(0, ".frozen")  # the bowl's modules as the frozen build holds them (their heap is the bowl's)
else:
    sys.path.insert(0, ".")
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable

import gc

from bobing import dice, game, journal, outbox  # noqa: F401  (what the console holds before fair.py)

gc.collect()
_before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
from bobing import fair  # noqa: E402

gc.collect()
IMPORT_FAIR = gc.mem_alloc() - _before if hasattr(gc, "mem_alloc") else 0
from dice_bench import alloc_per_call  # noqa: E402

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

    der2 = dice.Derived(s, d, 17, 3, os.urandom(16))

    def rolls2(n):
        for i in range(n):
            der2.roll(i & 0xFFFF, out)

    def chains(n):  # the worst turn start: customer 1 of a chain, CHAIN_N - 1 links from the root
        for _ in range(n):
            dice.chain_at(s, 1)

    def anchors(n):  # a chain's first customer also checks / makes the anchor: CHAIN_N links
        for _ in range(n):
            dice.chain_at(s, 0)

    name = sys.implementation.name
    print("%s: derived roll %.3f ms (format 2, with a customer value: %.3f ms), commitment (secret + SHA-256) "
          "%.3f ms" % (name, per_call_ms(rolls, ROLLS), per_call_ms(rolls2, ROLLS), per_call_ms(commits, COMMITS)))
    print("%s: format 2 turn start: a customer's secret %.2f ms at most (%d links; the last customer of a chain: "
          "0), a chain's anchor %.2f ms (once a game and at each boot, per %d customers)"
          % (name, per_call_ms(chains, 10), dice.CHAIN_N - 1, per_call_ms(anchors, 10), dice.CHAIN_N))
    if MP:
        print("%s: heap allocated per derived roll %.0f bytes, per link of the chain %.0f bytes"
              % (name, alloc_per_call(rolls, 1000), alloc_per_call(lambda n: [dice.chain_step(s) for _ in range(n)]
                                                                   and None, 1000)))
    if MP:
        print("%s: heap importing bobing/fair.py after dice, journal, game and outbox: %d bytes" % (name, IMPORT_FAIR))
    if MP:  # what a turn in progress keeps (format 2): its list, the Derived, the game's cache
        f = fair.Fair("/nonexistent", os.urandom)
        gc.collect()
        a = gc.mem_alloc()
        sec = dice.chain_at(s, 1)
        f.turn = [3, 1, sec, dice.Derived(sec, d, 3, 1, bytes(16)), ["123456", "-", "654321"], 2, 1,
                  dice.chain_at(s, 0), bytes(16), d]
        f._g = (3, [("V", 1, d, None)], {1: s}, {1: f.turn[7]})
        gc.collect()
        print("%s: heap a turn in progress keeps (format 2) %d bytes" % (name, gc.mem_alloc() - a))
    # the fair log (flash) per customer, format 2: the desk's value (with his seed: a P line
    # more), the reveal; the chain's anchor (A) and root (K, in the key file) once per 1024
    g, k = 1234, 567
    log = len(fair._line("V %d %s" % (k, "cd" * 16))) + len(fair._line("S %d %s" % (k, "ef" * 32)))
    seeded = log + len(fair._line("P %d %s" % (k, "ab" * 16)))
    once = len(fair._line("A 1 %d %s" % (dice.CHAIN_N, "ab" * 32))) + len(fair._line("K 1 %s" % ("ab" * 32)))
    print("fair log (format 2): %d bytes a customer of %d shakes = %.1f bytes a roll (%d with his own seed), "
          "plus %d bytes a chain (per %d customers); the journal's record: 6"
          % (log, SHAKES, log / SHAKES, seeded, once, dice.CHAIN_N))
    c = fair.commit2_payload(g, k, 1, b"\xab" * 32, "kiosk", [5, 10, 20, 40, 80, 200])
    sd = fair.seed2_payload(g, k, b"\xcd" * 16)
    sd2 = fair.seed2_payload(g, k, b"\xcd" * 16, b"\xab" * 16)
    rv = fair.reveal2_payload(g, k, b"\xef" * 32, ["123456"] * SHAKES)
    rv2 = fair.reveal2_payload(g, k, b"\xef" * 32, ["123456"] * SHAKES, p=b"\xab" * 16)
    print("messages a customer (format 2): 3 (commit %d B bowl->desk, seed %d B desk->bowl retained, reveal %d B "
          "bowl->desk), each QoS 1; with his own seed 4 (a second seed of %d B, reveal %d B) and his phone's "
          "POST /fair/seed; the commit names the game's rules and his stock (here \"kiosk\", 6 classes)"
          % (len(c), len(sd), len(rv), len(sd2), len(rv2)))
    if not MP:  # what the desk, verify-fair and the phone run to replay a turn's awards
        shakes = ["444444", "-", "123456"]

        def replays(n):
            for _ in range(n):
                game.turn_awards("kiosk", [5, 10, 20, 40, 80, 200], shakes)
        print("%s: a turn's awards replayed (game.turn_awards, 3 shakes) %.3f ms" % (name, per_call_ms(replays, 200)))


main()
