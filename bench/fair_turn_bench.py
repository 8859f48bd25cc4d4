# Time fairness adds to a customer's turn on the simulated bowl (CPython): the chip's time
# as host_sim/portable/fakes/chiptime.py charges it (the firmware's counted work at the
# ESP32 factor, every flash commit, the I2C frames, the LED ring), from the attendant's key
# to the reveal queued after his third roll; the desk answers at once (the network's round
# trip is not in it: PROTOCOL.md's event run measures that), the customer presses OK through
# each result as the tests' roll() does. Three turns: fair=off, fair without a scan, fair
# with his own seed (the desk's second seed message before his first shake). Prints
# figures, asserts nothing (`make bench`).
import os
import sys

sys.path.insert(0, "tests")
sys.path.insert(0, ".")
from host_sim import compat
compat.install()  # the MicroPython shim; firmware/ importable
from host_sim.portable.fakes import bowl as hal  # noqa: E402
from host_sim.portable.fakes import chiptime  # noqa: E402

from bobing import console as C  # noqa: E402
from bowlkit import customer_seed, desk_value, key, roll, to_kiosk  # noqa: E402
from bowlrun import Stream  # noqa: E402

EVENT = "midautumn"
NET = "ssid=mall\npassword=secret123\ntls=off\nbroker=127.0.0.1\nevent=%s\nfair=%s\n"
COUNTS = (("zhuangyuan", 5), ("duitang", 10), ("sanhong", 20), ("sijin", 40), ("erju", 80), ("yixiu", 200))
TURNS = 4  # customers a run; the first (his chain's anchor made) is shown apart


def run(root, fair, scan):
    os.makedirs(root)
    with open(os.path.join(root, "net.txt"), "w") as f:
        f.write(NET % (EVENT, "on" if fair else "off"))
    chiptime.count_work(True)  # fixed costs per counted operation: the same figures at every run
    chiptime.set_factor(0)  # (the menus at no cost: the attendant's presses keep their pace)
    sim = hal.Sim(root, urandom=Stream(1), cpu_factor=1, draw_factor=1, flash=True)
    sim.step(100)
    to_kiosk(sim)
    c = sim.console
    c.allot(1, COUNTS)
    sim.step(100)
    chiptime.set_factor(chiptime.ESP32_FACTOR)
    out = []
    for _ in range(TURNS):
        t0 = sim.board.ms
        key(sim)
        if fair:
            assert sim.run_until(lambda s: s.console.fair.pending, 5000)
            leaf, p = c.fair.pending.pop(0)
            g, k, _a, _anchor, took = desk_value(c, p, os.urandom(16), EVENT)
            assert took
            if scan:  # his phone's seed comes through the desk: the same value, his 16 bytes
                customer_seed(c, g, k, c.fair.turn[9], os.urandom(16), EVENT)
            assert sim.run_until(lambda s: s.console.view == C.V_TURN, 5000)
        for _ in range(3):
            roll(sim)
        if fair:
            assert sim.run_until(lambda s: [m for m in s.console.fair.pending if m[0] == "reveal"], 5000)
            del c.fair.pending[:]
        out.append((sim.board.ms - t0) % (1 << 30))
    return out


def main():
    import tempfile
    base = tempfile.mkdtemp(prefix="fair_turn_")
    off = run(os.path.join(base, "off"), False, False)
    plain = run(os.path.join(base, "fair"), True, False)
    seeded = run(os.path.join(base, "scan"), True, True)

    def later(xs):
        return sum(xs[1:]) / (len(xs) - 1)
    print("fair turn (simulated bowl, chip time at x%d): a customer's turn from the key to the reveal %.0f ms with "
          "fair=off, %.0f ms fair without a scan (+%.0f ms), %.0f ms with his own seed (+%.0f ms); a game's first "
          "customer (the chain's anchor made): %d / %d / %d ms" % (
              chiptime.ESP32_FACTOR, later(off), later(plain), later(plain) - later(off), later(seeded),
              later(seeded) - later(off), off[0], plain[0], seeded[0]))


main()
