"""Heap budget of the whole bowl on the two 32-bit unix builds of `make mp`
(MicroPython v1.28.0 from pinned source, the ESP32's word size):

  frozen  the firmware frozen in (as firmware/boards/BOBING_ESP32 freezes it on the bowl)
  stock   the firmware as .mpy files loaded into the heap (stock-firmware route)

For each: what importing a family game's modules costs, what the on-demand
modules add, the game's working set, and the smallest -X heapsize in which
tests/test_bowl_e2e.py (a complete 10-seat game on host_sim/portable/fakes/bowl.py, then a
power cut) still passes; then those against the ESP32's GC heap, with and
without Wi-Fi's share.

    python bench/app_heap.py        (make bench; needs make mp)
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]  # an entry point: the project and its test kit
import portable  # noqa: E402  (the builds' paths)

BUILDS = (("frozen", portable.MP32_FROZEN), ("stock", portable.MP32_STOCK))

# what the e2e game loads, then what only menus, a kiosk, the Final or a damaged
# journal load (imported on demand: a family game played by shakes never does)
FAMILY = ("bobing.profiles", "bobing.rules", "bobing.game", "bobing.journal", "bobing.dice", "bobing.shake",
          "bobing.leds", "bobing.glyphs", "bobing.paint", "bobing.screen", "bobing.sound", "bobing.console",
          "bowl.hw", "bowl.mpu6050", "ssd1306", "bowl.oled", "bowl.app")
# the simulated hardware (frozen in the frozen build), in the order its bowl module imports it
SIMULATED = tuple("host_sim.portable.fakes." + n for n in ("mpu6050", "chiptime", "parts", "esp32", "battery", "bowl"))
ON_DEMAND = ("bobing.menu", "bobing.panels", "bobing.settings", "bobing.claim", "bobing.final", "bobing.journal_fix",
             "bobing.qr")

IMPORTS = """
import sys, gc
if %r != "frozen":
    sys.path.insert(0, %r)
else:  # ('' is the project: its host_sim/ would shadow the frozen fakes, loaded into the heap as source)
    sys.path.remove("")
sys.path.append("host_sim/portable")
sys.path.append(".")  # host_sim.portable.fakes
gc.collect()
prev = gc.mem_alloc()
for m in %r:
    __import__(m)
    gc.collect()
    a = gc.mem_alloc()
    print("%%s %%d" %% (m, a - prev))
    prev = a
"""

# What is live after the e2e game's boot, by whose it is (the bowl's, or the simulated hardware's and
# the harness's, which a bowl does not carry): each share a gc.mem_alloc() delta after a collection,
# in the order tests/test_bowl_e2e.py makes them. The drivers are what bowl.hw.reattach makes (the
# display's Oled with its framebuffer, the MPU6050's); the rest of board.bring_up is the simulated
# chip's machine objects (static on the ESP32: Pin, I2C and ADC objects are C constants of the port).
SPLIT = """
import sys, gc
sys.path.remove("")
sys.path.append("host_sim/portable")
sys.path.append(".")
gc.collect()
base = prev = gc.mem_alloc()
acc = {}
order = []


def mark(who):
    global prev
    gc.collect()
    a = gc.mem_alloc()
    if who not in acc:
        order.append(who)
    acc[who] = acc.get(who, 0) + a - prev
    prev = a


for m in %r:
    __import__(m)
mark("bowl: imports")
for m in %r:
    __import__(m)
mark("simulated: imports")
sys.path.insert(0, "tests")
import bowlrun
import test_bowl_e2e
mark("harness: bowlrun, test_bowl_e2e compiled")
from bowl import app, hw
import board
sim_boot = board.bring_up
reattach = hw.reattach
app_boot = app.boot
held = []


def bring_up(*a):
    mark("simulated: the board's parts")
    r = sim_boot(*a)
    mark("simulated: machine objects (board.bring_up)")
    return r


def attach(*a):
    mark("simulated: machine objects (board.bring_up)")
    reattach(*a)
    mark("bowl: drivers (display, accelerometer)")


def boot(*a):
    mark("simulated: the board's parts")
    held.append(app_boot(*a))
    mark("bowl: the app's boot (console, game, journal, screen)")
    return held[-1]


board.bring_up, hw.reattach, app.boot = bring_up, attach, boot
sim = bowlrun.hal.Sim(bowlrun.new_root("split"), urandom=bowlrun.Stream(7))
board.bring_up, hw.reattach, app.boot = sim_boot, reattach, app_boot
held.clear()
mark("simulated: the board's parts")
for k in order:
    print("%%s|%%d" %% (k, acc[k]))
print("neither: the interpreter's start and this script|%%d" %% base)
"""


def boot_split(binary):
    """[(whose: what, bytes)] of the live heap after the e2e game's boot (frozen build)."""
    p = subprocess.run([binary, "-X", "heapsize=256K", "-c", SPLIT % (("board",) + FAMILY, SIMULATED)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    if p.returncode:
        sys.exit("boot split run failed:\n" + p.stdout + p.stderr)
    return [(k, int(v)) for k, v in (line.rsplit("|", 1) for line in p.stdout.splitlines())]


# The ESP32 port's GC heap (MicroPython v1.28.0 ports/esp32/mpconfigport.h): it starts at
# 56 KiB "and is chosen so they can grow the heap once (double it) and still have enough
# internal RAM to start WiFi and make a HTTPS request" -- so 112 KiB is the most the bowl may
# count on with Wi-Fi up. Wi-Fi's own share, at the least: its static RX buffers, allocated at
# esp_wifi_init() and kept, CONFIG_ESP_WIFI_STATIC_RX_BUFFER_NUM=10 (ESP-IDF default) x ~1.6 KB
# each (ESP-IDF Kconfig help: "Each buffer takes approximately 1.6KB of RAM") = 16 KB.
ESP32_INITIAL = 56 * 1024
ESP32_GROWN_ONCE = 2 * ESP32_INITIAL
WIFI_STATIC_RX = 10 * 1600
# Bluetooth: the bowl's board leaves boards/sdkconfig.ble out (no controller), so the RAM ESP-IDF
# reserves for it stays in the heap ESP-IDF hands out: "about 70k bytes" (ESP-IDF esp_bt.h,
# esp_bt_controller_mem_release). Counted in no margin below: 112K is the port's own figure.
BT_FREED = 70 * 1024
AWARDS = 40  # the network rows: a kiosk game of this many awards resumed and every one delivered


def imports(binary, fw, mods):
    p = subprocess.run([binary, "-X", "heapsize=2M", "-c", IMPORTS % (fw, fw, mods)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    if p.returncode:
        sys.exit("import run failed:\n" + p.stdout + p.stderr)
    return [(m, int(b)) for m, b in (line.split() for line in p.stdout.splitlines())]


def e2e(binary, fw, kib):
    p = subprocess.run([binary, "-X", "heapsize=%dK" % kib, os.path.join(ROOT, "tests", "mp_runner.py"),
                        fw, os.path.join(ROOT, "tests"), "test_bowl_e2e"],
                       cwd=ROOT, capture_output=True, text=True, timeout=900)
    return p.returncode == 0 and " 0 failed" in p.stdout, p.stdout


def smallest(binary, fw, lo, hi):
    """Smallest heap (KiB, 1K steps) in which the e2e game passes: lo fails, hi passes."""
    ok, text = e2e(binary, fw, hi)
    if not ok:
        sys.exit("the e2e game fails even in %dK:\n%s" % (hi, text[-3000:]))
    while hi - lo > 1:
        mid = (lo + hi) // 2
        ok, t = e2e(binary, fw, mid)
        if ok:
            hi, text = mid, t
        else:
            lo = mid
    return hi, text


def working_set(text):
    """The e2e test's 'game working set (...): N B' line -> N."""
    for line in text.splitlines():
        if line.startswith("game working set"):
            return int(line.split(":")[-1].split()[0])
    return None


MAX_NET_K = 256


def network_rows():
    """[(label, smallest KiB or None)]: the app resuming a kiosk game of AWARDS awards delivers every
    one (bench/net_app_heap.py's measure) to a real mosquitto, by plain MQTT and by TLS."""
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import net_app_heap as nah
    out = []
    with tempfile.TemporaryDirectory() as d:
        b = nah.Broker(d)
        b.start()
        b.publish("bobing/midautumn/desk/status", b'{"v":2,"on":1}', retain=True)
        try:
            out.append(("network app (event kiosk, fairness on, plain MQTT)", nah.smallest(b.port, AWARDS, 0)))
        finally:
            b.stop()
    with tempfile.TemporaryDirectory() as d:
        b, port, tls = nah.tls_broker(d)
        try:
            out.append(("fair event kiosk by TLS (its certificate the anchor)", nah.smallest(port, AWARDS, 0,
                                                                                         tls=tls)))
        finally:
            b.stop()
    return out


def main():
    for _, binary in BUILDS:
        if not os.path.exists(binary):
            sys.exit("%s missing: run make mp" % binary)
    with tempfile.TemporaryDirectory() as tmp:
        mpy = os.path.join(tmp, "mpy")
        p = subprocess.run(["make", "-s", "mpy", "MPY_OUT=" + mpy], cwd=ROOT, capture_output=True, text=True)
        if p.returncode:
            sys.exit("make mpy failed:\n" + p.stdout + p.stderr)
        # the display driver beside them, as `mip install ssd1306` puts it on a stock bowl
        from host_sim import compat
        p = subprocess.run([portable.MPY_CROSS, "-o", os.path.join(mpy, "ssd1306.mpy"),
                            os.path.join(compat.SSD1306, "ssd1306.py")], capture_output=True, text=True)
        if p.returncode:
            sys.exit("mpy-cross ssd1306.py failed:\n" + p.stderr)
        rows = []
        for name, binary in BUILDS:
            fw = "frozen" if name == "frozen" else mpy
            costs = imports(binary, fw, FAMILY + SIMULATED + ON_DEMAND)
            print("import cost on the 32-bit %s build (B):" % name)
            for m, b in costs:
                print("  %-30s %6d%s" % (m, b, "   (on demand)" if m in ON_DEMAND else ""))
            cost = dict(costs)
            family = sum(cost[m] for m in FAMILY)
            sim = sum(cost[m] for m in SIMULATED)
            demand = sum(cost[m] for m in ON_DEMAND)
            lo, hi = (32, 80) if name == "frozen" else (128, 384)
            kib, text = smallest(binary, fw, lo, hi)
            work = working_set(text)
            rows.append((name, family, demand, sim, work, kib))
    print()
    print("heap budget, 32-bit unix builds of MicroPython v1.28.0 (bytes unless K):")
    print("%-8s %13s %10s %10s %12s %14s" % ("build", "family game", "on demand", "simulated", "working set",
                                              "whole game in"))
    for name, family, demand, sim, work, kib in rows:
        print("%-8s %13d %10d %10d %12s %13dK" % (name, family, demand, sim, work, kib))
    print("  family game: importing what a game played by shakes loads; on demand: menus, kiosk,")
    print("  Final, journal repair; simulated: the host_sim/portable/fakes the bowl runs on (not on the bowl);")
    print("  working set: live heap high-water while playing minus after boot; whole game in: the")
    print("  smallest -X heapsize for tests/test_bowl_e2e.py (harness and simulated hardware included)")
    print()
    frozen = [r for r in rows if r[0] == "frozen"][0]
    split = boot_split(portable.MP32_FROZEN)
    print("live after the family game's boot on the 32-bit frozen build, by whose it is (B):")
    for k, b in split:
        print("  %-62s %6d" % (k, b))
    own = sum(b for k, b in split if k.startswith("bowl:"))
    print("  the bowl's own %d B live after boot, + %d B working set = %d B: %+d B against the ESP32's 56K"
          % (own, frozen[4], own + frozen[4], ESP32_INITIAL - own - frozen[4]))
    print("  (live bytes, not a smallest heap: the e2e game's figure above adds the simulated hardware,")
    print("  the harness and the heap's fragmentation)")
    theirs = sum(b for k, b in split if k.startswith(("simulated:", "harness:")))
    print("  whole game in %dK less the simulated hardware's and the harness's %d B: the bowl's own game in at"
          % (frozen[5], theirs))
    print("  most %d B, %+d B against 56K (the heap's fragmentation, the interpreter's start and the runner"
          " counted as the bowl's)" % (frozen[5] * 1024 - theirs, ESP32_INITIAL - frozen[5] * 1024 + theirs))
    print()
    net = network_rows()
    print()
    print("the heap table, 32-bit frozen build (smallest -X heapsize that passes) against the ESP32's:")
    print("  %-52s %6s %8s %10s" % ("", "needs", "budget", "margin"))
    table = [("family game (tests/test_bowl_e2e.py, 10 seats, power cut)", frozen[5], ESP32_INITIAL)]
    for label, k in net:
        table.append((label, k, ESP32_GROWN_ONCE))
    for label, k, budget in table:
        if k is None:
            print("  %-52s %6s %7dK %10s" % (label, "> %dK" % (MAX_NET_K), budget // 1024, "over"))
        else:
            print("  %-52s %5dK %7dK %+9d B" % (label, k, budget // 1024, budget - k * 1024))
    print("  budgets: 56K the port's initial heap (Wi-Fi off); 112K the heap grown once, the port's figure for")
    print("  Wi-Fi and an HTTPS request still fitting beside it (ports/esp32/mpconfigport.h); with Bluetooth's")
    print("  controller left out (no sdkconfig.ble) about %dK more stays free (ESP-IDF esp_bt.h), not counted." % (
        BT_FREED // 1024))
    print("  The unix port's Mbed TLS allocates in the MicroPython heap (MICROPY_TRACKED_ALLOC); the ESP32's")
    print("  allocates from ESP-IDF's heap beside it: the TLS row counts the handshake's memory in the heap too.")
    print("  Simulated hardware and the harness are in every row (not on the bowl): %d B imported (frozen)."
          % frozen[3])
    print()
    print("against the ESP32's GC heap (ports/esp32/mpconfigport.h): 56K at start; 112K once grown, sized so")
    print("that Wi-Fi and an HTTPS request still fit; with Wi-Fi off its static RX buffers (16000 B, ESP-IDF")
    print("defaults) are free as well, 128K:")
    for name, family, demand, sim, work, kib in rows:
        need = kib * 1024
        print("  %-6s needs %3dK: margin %+7d B in 56K, %+7d B in 112K (Wi-Fi up), %+7d B in 128K (Wi-Fi off)"
              % (name, kib, ESP32_INITIAL - need, ESP32_GROWN_ONCE - need, ESP32_GROWN_ONCE + WIFI_STATIC_RX - need))


if __name__ == "__main__":
    main()
