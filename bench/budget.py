# The bowl's time budget on the ESP32's terms: the simulated bowl (host_sim/portable/
# fakes/bowl.py) with its clock paying what each step costs the chip at the board's
# clock: the CPU, I2C at 400 kHz, the LED ring, every flash commit (littlefs's programs
# and erases by the file's size, host_sim/portable/fakes/chiptime.py), the network's
# waits (host_sim/portable/fakes/wlan.py: in-memory broker, power save as bowl/net.py
# sets it). The CPU: the firmware's work counted (chiptime.count_work: lines and calls
# of firmware Python, framebuf calls, the C-heavy calls, the automatic collections
# their allocation makes due) at the 32-bit frozen build's measured costs x the ESP32
# factor (hardware/timing.md), so that the figures do not move with the host's load.
# Three passes: at the factor, at 1.5x it (its uncertainty: the limits hold at both),
# and at the factor with the flash at its datasheet maxima (shown beside, not judged).
#   python bench/budget.py            (make bench)
#   python bench/budget.py --write    (make timing: hardware/timing.md's generated block)
#   python bench/budget.py --quick    (the first paths only: a new bowl to its sleep, the boot)
#   python bench/budget.py --first    (a new bowl's first power-on, six rolls, at the factor alone)
# (on the frozen MicroPython build it times itself instead, x FACTOR.)
# Prints one line per path, `budget PATH worst_step_ms=N at_1.5x=N flash_max=N
# limit_ms=M` (the longest round of the app's tasks on that path, in ESP32 ms), then
# the sampling gap while shaking, settle to screen, boot and first boot (ESP-IDF's start
# included), and last "budget: all within" or "budget: over: ...".
import gc
import os
import sys
import time

sys.path.insert(0, "tests")
ON_MP = sys.implementation.name == "micropython"
if ON_MP:
    sys.path.append("host_sim/portable")
    sys.path.append(".")  # host_sim.portable.fakes
    from host_sim.portable.fakes import wlan as fake_wlan
    from host_sim.portable.fakes import bowl as hal
    from host_sim.portable.fakes import chiptime
else:
    sys.path.insert(0, ".")
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable
    from host_sim.portable.fakes import wlan as fake_wlan
    from host_sim.portable.fakes import bowl as hal
    from host_sim.portable.fakes import chiptime
from bobing import console as C  # noqa: E402
from bobing import game, journal, vocab  # noqa: E402
from bowlrun import Stream  # noqa: E402

OPTIONS = ("--write", "--quick", "--first")
ARGS = sys.argv[1:] if __name__ == "__main__" else []  # (imported by tests/test_timing_doc.py: no arguments)
for _a in ARGS:
    if _a not in OPTIONS and not _a.isdigit():
        sys.exit("budget: %r is not an option: a CPU factor (a whole number) or %s" % (_a, ", ".join(OPTIONS)))
_f = [a for a in ARGS if a.isdigit()]
FACTOR = int(_f[0]) if _f else chiptime.ESP32_FACTOR  # hardware/timing.md: perf_bench's ratio at 240 MHz
FACTOR_HIGH = FACTOR * 3 // 2  # the factor's uncertainty: every limit must hold here too
STEP_LIMIT_MS = 1000
GAP_LIMIT_MS = 20
SETTLE_LIMIT_MS = 150
BOOT_LIMIT_MS = 1000
EVENT = "midautumn"
DESK = "bobing/midautumn/desk/status"
# TLS on, as on an event network: the in-memory broker proves this certificate (fake_wlan.FakeTls,
# which charges the ESP32's handshake, chiptime.TLS_HANDSHAKE_US)
CERT = b"\x30\x82\x00\xfc" + bytes(range(252))  # a DER SEQUENCE of 256 bytes: net.txt's tls_ca= takes it
NET = ("ssid=hall\npassword=mooncake88\nbroker=10.0.0.2\nevent=midautumn\nstock=%s\ntls_ca="
       + __import__("binascii").b2a_base64(CERT).decode().strip() + "\n")

_n = [0]
_BASE = []  # the run's own folder, made at the first new_root()


def _base():
    if not _BASE:
        if ON_MP:  # the unix port has no tempfile: a folder under the project's build/
            b = "build/budget-%d" % time.ticks_ms()
            os.mkdir(b)
        else:
            import tempfile
            b = tempfile.mkdtemp(prefix="bobing-budget-")
        _BASE.append(b)
    return _BASE[0]


def new_root(name):
    _n[0] += 1
    root = "%s/%s-%d" % (_base(), name, _n[0])
    try:
        os.mkdir(root)
    except OSError:
        pass
    for f in os.listdir(root):
        os.remove(root + "/" + f)
    return root


class Watch:
    """The rounds of a simulated bowl: the longest, per path."""

    def __init__(self, sim):
        self.sim = sim
        self.worst = 0
        sim.on_round = self.round

    def round(self, t0, t1):
        d = t1 - t0
        if d > self.worst:
            self.worst = d

    def take(self):
        w = self.worst
        self.worst = 0
        return (w + 999) // 1000


CPU = [1, 1]  # ESP32 us at 240 MHz per unit of hal's counted work: logic, drawing


def set_cpu(factor):
    if ON_MP:  # the frozen build times itself (wall time: the host's load counts)
        CPU[0] = CPU[1] = factor
        return
    chiptime.count_work(True)  # fixed costs per counted operation: the same figures at every run
    chiptime.set_factor(factor)


def header(say=print):
    if ON_MP:
        say("budget: on the frozen MicroPython build itself, its wall time x the factor (the host's load counts)")
        return
    say("budget: counted work at fixed costs, x the ESP32 factor (240 MHz): a line of firmware Python %.1f ns,"
          " a call %d ns, a framebuf call %d ns on the frozen build (host_sim/portable/fakes/chiptime.py;"
          " bench/budget_work.py)" % (chiptime.LINE_HOST_NS, chiptime.CALL_HOST_NS, chiptime.FB_HOST_NS))
    say("budget: flash page program / sector erase %.1f / %d ms typical, %.1f / %d ms maximum; ESP-IDF's start"
          " %d ms before main.py (an image of %d bytes checked at %d MB/s); the first radio start's RF"
          " calibration %d ms" % (chiptime.FLASH_TYP[0] / 1000, chiptime.FLASH_TYP[1] // 1000,
                                  chiptime.FLASH_MAX[0] / 1000, chiptime.FLASH_MAX[1] // 1000,
                                  chiptime.idf_start_us() // 1000, chiptime.IMAGE_BYTES,
                                  chiptime.FLASH_READ_BYTES_PER_S // 1000000, chiptime.RF_FULL_CAL_US // 1000))


def make_sim(root, seed, air=None, cpu=True):
    return hal.Sim(root, urandom=Stream(seed), air=air, cpu_factor=CPU[0] if cpu else 0,
                   draw_factor=CPU[1] if cpu else 0, flash=True)


def boot_ms(sim):
    """From the reset to the first frame's end, ms."""
    b = sim.board
    shows = b.disp.shows
    end = [None]
    prev = sim.on_round

    def rnd(t0, t1):
        if end[0] is None and b.disp.shows > shows:
            end[0] = t1
        if prev is not None:
            prev(t0, t1)
    sim.on_round = rnd
    sim._end = None  # the boot's time is not owed by the steps that follow
    sim.step(10)
    n = 0
    while end[0] is None and n < 300:
        sim.step(10)
        n += 1
    sim.on_round = prev
    if end[0] is None:
        print("no first screen after the reset: resets %s, log %s" % (sim.resets, sim.log()[-3:]))
        return 99999
    return (end[0] - b.reset_at * 1000 + 999) // 1000


def press(sim, *buttons):
    for x in buttons:
        sim.press(x, 400)  # held as a person does: a round that runs long does not miss it
        sim.step(600)


def goto(sim, item):
    c = sim.console
    for _ in range(3 * len(c.arg[1])):
        if c.arg[1][c.arg[2]] == item:
            press(sim, "ok")
            return
        press(sim, "next")
    raise RuntimeError("%r not in the menu %r (view %s, resets %s)" % (item, c.arg, vocab.VIEW_IDS[c.view], sim.resets))


def enter(sim, digits):
    c = sim.console
    for d in digits:
        cur = c.arg[1][c.arg[2]] - 48
        for _ in range((int(d) - cur) % 10):
            press(sim, "next")
        press(sim, "ok")


def roll(sim, settle):
    """One shake to its result; settle: [worst settle-to-screen ms]: from the
    accelerometer read whose sample settled the shake (the app reads it between
    the pieces of a frame too, not only at a round's start) to the last byte of the
    result's frame on the display (what the round does after it, the ring's frame
    and the network's turn, keeps nobody from the result)."""
    c = sim.console
    b = sim.board
    rolled = c.rolled
    st = [None, b.disp.shows]  # the settling read's time (us), frames shown before it
    prev = sim.on_round
    real = c._roll

    def rolls(t_us):
        if st[0] is None:
            st[0] = b._last_read  # (the fake board's record of its last accelerometer read)
            st[1] = b.disp.shows
        return real(t_us)
    c._roll = rolls

    def rnd(t0, t1):
        if prev is not None:
            prev(t0, t1)
        if st[0] is not None and st[0] is not False and b.disp.shows > st[1]:
            settle[0] = max(settle[0], (b.disp.shown_us - st[0] + 999) // 1000)
            st[0] = False
    sim.on_round = rnd
    sim.shake()
    try:
        sim.run_until(lambda s: s.console.view in (C.V_RESULT, C.V_NOTICE, C.V_CLAIM) and c.rolled != rolled, 20000)
        sim.step(100)
    finally:
        sim.on_round = prev
        if sim.console is c:
            del c._roll


def skip_pages(sim):
    c = sim.console
    n = 0
    while c.view in (C.V_RESULT, C.V_CLAIM) and n < 12:
        press(sim, "next" if c.view == C.V_RESULT else "ok")
        n += 1
    while c.view in (C.V_RESULT, C.V_CLAIM, C.V_NOTICE) and n < 24:
        press(sim, "ok")
        n += 1


def event_air():
    br = fake_wlan.FakeBroker(CERT)
    br.retain(DESK, b'{"v":2,"on":1}')
    return fake_wlan.Air({"hall": "mooncake88"}, broker=br), br


def finished_games(sim, events):
    """Whole ten-seat games on the bowl's flash until `events` finished events
    (the bowl's own id and secret), then the bowl is off."""
    c = sim.console
    bowl, secret = c.settings.bowl_id, c.secret()
    root = sim.board.root
    c.j.close()
    total = 0
    seed = 1
    while total < events:
        j = journal.start(root, bowl_id=bowl, secret=secret)
        rnd = Stream(seed)
        seed += 1
        j.play(game.EV_START_SEAT, 1)
        while not j.table.ended:
            b = rnd(6)
            j.play(game.EV_ROLL, [x % 6 + 1 for x in b])
        total += j.table.events
        j.close()
        gc.collect()
    j = journal.start(root, bowl_id=bowl, secret=secret)  # the game the bowl is at
    j.close()
    return total


def kiosk_backlog(sim, events):
    """A kiosk game of `events` events on flash (the bowl's id and secret; its
    awards unsent), stocked for it, then the bowl is off."""
    c = sim.console
    bowl, secret = c.settings.bowl_id, c.secret()
    root = sim.board.root
    c.j.close()
    j = journal.start(root, "kiosk", None, 1, {"zhuangyuan": 40, "duitang": 100, "sanhong": 200, "sijin": 400,
                                               "erju": 800, "yixiu": 1600}, bowl, secret)
    rnd = Stream(99)
    while j.table.events < events and not j.table.ended:
        if j.table.shakes_left == 0:
            j.play(game.EV_CUSTOMER, None)
        else:
            j.play(game.EV_ROLL, [x % 6 + 1 for x in rnd(6)])
    n = j.table.events, j.table.award_no
    j.close()
    from bobing import settings
    settings.set_pin(root, "2468", C.Settings())  # a kiosk plays only once its PIN is not the default
    return n


def speaking(fig, say=True):
    """A shake while the 状元's fanfare plays: the voice (bowl/app.py, bobing/voice.py) streams
    its clips to board.py's machine.I2S (host_sim/portable/fakes/i2s.py, the port's DMA and
    blocking write on the board's clock) a chunk a sensor round -> fig["speaking_gap"], the
    sampling gap (ms) while shaking and speaking, and fig["speaking_wait"], the ms any I2S
    write waited for room (0: the loop never held for the amplifier). The clips: espeak-ng's
    (host_sim/tools/make_voice.py), made into this bowl's flash; on the frozen build, from
    build/voice (make it there first) or not measured."""
    from bobing import voice
    root = new_root("voice")
    if ON_MP:
        try:
            names = os.listdir("build/voice")
        except OSError:
            fig["speaking_gap"] = fig["speaking_wait"] = 0
            return
        os.mkdir(root + "/voice")
        for n in names:
            with open("build/voice/" + n, "rb") as a, open(root + "/voice/" + n, "wb") as b:
                b.write(a.read())
    else:
        sys.path.insert(0, "host_sim/tools")
        import make_voice
        make_voice.make(root + "/" + voice.FOLDER)
    sim = make_sim(root, 5)
    boot_ms(sim)
    roll(sim, [0])
    skip_pages(sim)
    v = sim.app.voice
    dev = sim.board.i2s
    sim.board.gap_shaking_us = 0
    if say:
        v.say([voice.FANFARE, voice.ZHUANGYUAN, "chajinhua", voice.TURN, "nainai"], sim.now)
    written = dev.writes
    roll(sim, [0])
    fig["speaking_gap"] = (sim.board.gap_shaking_us + 999) // 1000
    fig["speaking_wait"] = (dev.waited_us + 999) // 1000
    if say and dev.writes - written < 20:  # (the fanfare alone is 48 chunks)
        fig["speaking_gap"] = 99999  # it did not speak while shaking: nothing measured
    del sim
    gc.collect()


def run(only=False):
    """One pass over the paths at the factor and flash figures set now -> {figure: value}
    (each path's worst step, ms; the sampling gap, settle, boot and first boot; the
    automatic collections and flash commits of each path). only: the first paths alone
    (a new bowl to its sleep, and the boot after), for the quick check."""
    fig = {}
    settle = [0]
    mark = [chiptime.AUTO_GC[0]]

    def path(name, ms, sim=None):
        fig[name] = ms
        fig[name + ":gc"] = chiptime.AUTO_GC[0] - mark[0]
        mark[0] = chiptime.AUTO_GC[0]

    # warm up: every module the paths import is imported once (the bowl's are frozen)
    root = new_root("warm")
    open(root + "/net.txt", "w").write(NET % "bowl")
    air, br = event_air()
    sim = make_sim(root, 9, air, cpu=False)
    sim.step(3000)
    roll(sim, [0])
    skip_pages(sim)
    press(sim, "menu")
    press(sim, "menu")
    del sim
    gc.collect()

    # first power-on: a new bowl (settings, secret, journal created)
    sim = make_sim(new_root("first"), 1)
    w = Watch(sim)
    first = boot_ms(sim)
    path("first_power_on", max(w.take(), first))
    first += chiptime.idf_start_us() // 1000  # the power-on before main.py
    # roll and result pages, on the board's clock; the sampling gap while shaking
    sim.board.gap_shaking_us = 0
    rolls_worst = 0
    pages_worst = 0
    for _ in range(6):
        roll(sim, settle)
        rolls_worst = max(rolls_worst, w.take())
        skip_pages(sim)
        pages_worst = max(pages_worst, w.take())
    path("roll", rolls_worst)
    path("result_pages", pages_worst)
    gap = (sim.board.gap_shaking_us + 999) // 1000
    if only == "first":
        return fig
    if not only:
        speaking(fig)
    # sleep: idle until the bowl sleeps
    w.take()
    sim.run_until(lambda s: s.asleep, 900000)
    path("sleep", w.take() if sim.asleep else 99999)
    # boot after a whole game on flash
    sim.press("ok")
    sim.step(50)
    finished_games(sim, 300)
    sim.power_cut()
    boot = boot_ms(sim)
    path("boot", max(w.take(), boot))
    boot += chiptime.idf_start_us() // 1000
    root = sim.board.root
    del sim, w
    gc.collect()
    fig["gap"] = gap
    fig["gap_rolls"] = gap
    fig["settle"] = settle[0]
    fig["boot_ms"] = boot
    fig["first_boot_ms"] = first
    if only:
        return fig

    # journal repair: the current game's journal with a damaged tail
    sim = make_sim(root, 2)
    w = Watch(sim)
    sim.step(100)
    for _ in range(3):
        roll(sim, settle)
        skip_pages(sim)
    name = [f for f in os.listdir(root) if f.endswith(journal.SUFFIX)]
    name.sort()
    f = open(root + "/" + name[-1], "ab")
    f.write(b"\x07\x99\x00\x13\x37\xff\xfe")
    f.close()
    sim.power_cut()
    repair = boot_ms(sim)
    sim.step(2000)
    path("journal_repair", max(w.take(), repair))
    del sim, w
    gc.collect()

    # the 状元王中王 final on a bowl: four champions, six rolls
    sim = make_sim(new_root("final"), 3)
    w = Watch(sim)
    sim.step(100)
    from bobing import final_play
    final_play.start(sim.console, 4)  # as the admin menu does (menus are not this path)
    sim.step(500)
    w.take()
    for _ in range(6):
        c = sim.console
        if c.final is None or c.final.final.ended:
            break
        sim.shake()
        sim.run_until(lambda s: s.console.final.phase != final_play.P_SHAKING, 20000)
        press(sim, "ok")
    path("final", w.take())
    del sim, w
    gc.collect()

    # net send: an event kiosk's awards going out as they are won
    root = new_root("net")
    sim = make_sim(root, 4, cpu=False)
    sim.step(100)
    kiosk_backlog(sim, 0)  # a new kiosk game, stocked
    del sim
    open(root + "/net.txt", "w").write(NET % "bowl")
    air, br = event_air()
    sim = make_sim(root, 4, air)
    w = Watch(sim)
    sim.step(3000)
    w.take()
    c = sim.console
    for _ in range(8):
        if c.view != C.V_TURN:
            c.next_customer()  # the attendant starts the next customer (the key's menu)
            sim.step(100)
        roll(sim, settle)
        skip_pages(sim)
    sim.step(3000)
    # the broker restarts while a customer is let in: the bowl reconnects (TLS) once nobody has
    # touched it for net.QUIET_MS, and a shake that begins during that handshake is still rolled
    if c.view != C.V_TURN:
        c.next_customer()
        sim.step(100)
    net = sim.net
    real = net._connect
    at = []  # the console's view when each reconnect began

    def connect(addr, sim=sim):
        at.append(c.view)
        sim.shake()  # the customer shakes just as the handshake begins
        return real(addr)
    net._connect = connect
    br.restart()
    rolled = c.rolled
    sim.run_until(lambda s: s.console.rolled != rolled, 30000)
    net._connect = real
    skip_pages(sim)
    sim.step(3000)
    fig["net_reconnect"] = (br.handshakes, len(at), "yes" if c.rolled != rolled else "NO",
                            ",".join(vocab.VIEW_IDS[v] for v in at))
    fig["net_sent"] = len([t for t, _p, _r in br.published if t.endswith("/award")])
    fig["net_resets"] = len(sim.resets)
    path("net_send", w.take())
    fig["gap_net"] = (sim.board.gap_shaking_us + 999) // 1000
    gap = max(gap, fig["gap_net"])
    del sim, w, air, br
    gc.collect()

    # outbox catch-up: a kiosk backlog of 3,000 events, then the network comes
    root = new_root("backlog")
    sim = make_sim(root, 5, cpu=False)
    sim.step(100)
    events, awards = kiosk_backlog(sim, 3000)
    del sim
    gc.collect()
    open(root + "/net.txt", "w").write(NET % "bowl")
    air, br = event_air()
    sim = make_sim(root, 5, air)
    w = Watch(sim)
    t = 0
    sent = 0
    while sent < awards and t < 120:  # seconds on the bowl's clock, from its boot
        sim.step(1000)
        t += 1
        sent = len(set(p[:p.find(b',"mac"')] for _t, p, _r in br.published if _t.endswith("/award")))
        if t == 30:
            in30 = sent
    fig["backlog"] = (events, awards, in30 if t >= 30 else sent, t if sent >= awards else -1, len(sim.resets))
    path("outbox_catch_up", w.take())
    del sim, w, air, br
    gc.collect()

    # a bowl holding 8,000 finished events, then provisioned for an event
    root = new_root("held")
    sim = make_sim(root, 6, cpu=False)
    sim.step(100)
    held = finished_games(sim, 8000)
    del sim
    gc.collect()
    open(root + "/net.txt", "w").write(NET % "desk")
    air, br = event_air()
    sim = make_sim(root, 6, air)
    w = Watch(sim)
    sim.step(30000)
    fig["held"] = (held, len(sim.resets))
    path("provisioned_8000", w.take())
    del sim, w, air, br
    gc.collect()

    fig["gap"] = max(gap, fig["gap"])
    fig["settle"] = settle[0]
    return fig


PATHS = ("first_power_on", "roll", "result_pages", "sleep", "boot", "journal_repair", "final", "net_send",
         "outbox_catch_up", "provisioned_8000")
FIRST = PATHS[:5]


DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hardware", "timing.md") if not ON_MP else ""
BEGIN = "<!-- begin: generated by bench/budget.py --write (make timing) -->"
END = "<!-- end: generated by bench/budget.py --write (make timing) -->"


def sources():
    """The figures the budget charges, each with its source (hardware/timing.md's table)."""
    ct = chiptime
    return [
        ("CPU factor", "%d (and %d, 1.5x)" % (FACTOR, FACTOR_HIGH),
         "ESP32 us at 240 MHz per us of the 32-bit frozen build here: perf_bench, above"),
        ("a line of firmware Python", "%.1f ns x factor" % ct.LINE_HOST_NS,
         "fitted on the frozen build: bench/budget_work.py"),
        ("a call of a firmware function", "%d ns x factor, %d bytes" % (ct.CALL_HOST_NS, ct.CALL_BYTES),
         "bench/budget_work.py (its frame on the heap: py/objfun.c)"),
        ("a framebuf call", "%d ns x factor, %d bytes" % (ct.FB_HOST_NS, ct.FB_BYTES), "bench/budget_work.py"),
        ("SHA-256", "%d ns a call + %d ns a byte, x factor" % (ct.SHA_CALL_HOST_NS, ct.SHA_BYTE_HOST_NS),
         "measured on the frozen build: bench/budget_work.py"),
        ("JSON (dumps, loads)", "%d ns a call + %d ns a byte, x factor" % (ct.JSON_CALL_HOST_NS, ct.JSON_BYTE_HOST_NS),
         "bench/budget_work.py"),
        ("a line that formats a string", "%d ns x factor" % ct.FORMAT_HOST_NS, "bench/budget_work.py"),
        ("a garbage collection", "%d us x factor, one per %d bytes allocated" % (ct.GC_HOST_US, ct.GC_FREE_BYTES),
         "bench/budget_gc.py: the frozen build, 64K heap, a game live"),
        ("page program", "%.1f ms typical, %.1f ms maximum" % (ct.FLASH_TYP[0] / 1000, ct.FLASH_MAX[0] / 1000),
         "GD25Q32C datasheet (typical), W25Q32JV datasheet (maximum)"),
        ("4 KB sector erase", "%d ms typical, %d ms maximum" % (ct.FLASH_TYP[1] // 1000, ct.FLASH_MAX[1] // 1000),
         "W25Q32JV datasheet, AC characteristics"),
        ("a littlefs commit", "inline file (<= %d B): 2 programs; longer: 1 erase + its last block's bytes / %d"
         " programs + 1; a new file: every block" % (ct.LFS_INLINE, ct.LFS_PROG),
         "littlefs copy-on-write as the port mounts it; bench/journal_bench.py measured a roll's commit to the"
         " journal's inline tail 1.00 program and 0.003 erases, its fold into the journal file after the result"
         " 12-14 programs and 1.05 erases (the roll's own commit before the tail: 11.1 and 1.02)"),
        ("ESP-IDF's start", "%d ms + the image's check %d ms (%d bytes at %d MB/s)"
         % (ct.IDF_START_US // 1000, ct.IMAGE_BYTES // (ct.FLASH_READ_BYTES_PER_S // 1000), ct.IMAGE_BYTES,
            ct.FLASH_READ_BYTES_PER_S // 1000000),
         "Espressif ESP-Techpedia, Startup Time Optimization (~300 ms unoptimised); DIO at 40 MHz; the image:"
         " bench/image_size.py"),
        ("the first wlan.active(True)", "%d ms" % (ct.RF_FULL_CAL_US // 1000),
         "ESP-IDF Programming Guide, RF Calibration: full calibration 100 ms longer than partial"),
        ("a TLS handshake with the broker", "%d ms in one call, not x factor" % (ct.TLS_HANDSHAKE_US // 1000),
         "MicroPython on an ESP32 at 240 MHz, ECDHE-ECDSA, median of 5 (github.com/miguelgrinberg/microdot/issues/34);"
         " a P-256 ECDSA sign ~194 ms in software (github.com/espressif/esp-idf/issues/1177)"),
    ]


def render_sources():
    out = ["| figure | charged | source |", "|---|---|---|"]
    for name, value, src in sources():
        out.append("| %s | %s | %s |" % (name, value, src))
    return "\n".join(out) + "\n"


def generated_block(text):
    """The generated block of a timing.md text (between the markers), or None."""
    if BEGIN not in text or END not in text:
        return None
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n") + "\n"


def write(printed):
    with open(DOC, encoding="utf-8") as fh:
        text = fh.read()
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    block = render_sources() + "\n```\n" + "".join(printed) + "```\n"
    with open(DOC, "w", encoding="utf-8") as fh:
        fh.write(head + BEGIN + "\n" + block + END + tail)


def main():
    only = "first" if "--first" in sys.argv else "--quick" in sys.argv
    printed = []

    def say(text):
        print(text)
        printed.append(text + "\n")
    header(say)
    runs = []
    passes = ((FACTOR, chiptime.FLASH_TYP), (FACTOR_HIGH, chiptime.FLASH_TYP), (FACTOR, chiptime.FLASH_MAX))
    for factor, flash in passes[:1] if "--first" in sys.argv else passes:
        set_cpu(factor)
        chiptime.FLASH[:] = flash
        runs.append(run(only))
    chiptime.FLASH[:] = chiptime.FLASH_TYP
    over = []
    if len(runs) == 1:  # --first: the first paths at the factor alone (tests/test_timing_doc.py)
        for name in FIRST[:3]:
            say("budget %s worst_step_ms=%d" % (name, runs[0][name]))
        return
    say("budget: each figure at factor %d, at %d (1.5x), and at %d with the flash at its datasheet maxima"
        " (shown, not judged)" % (FACTOR, FACTOR_HIGH, FACTOR))

    def line(name, key, limit, unit="worst_step_ms"):
        a, b, m = [r[key] for r in runs]
        extra = "" if key + ":gc" not in runs[0] else " auto_gc=%d" % runs[0][key + ":gc"]
        say("budget %s %s=%d at_1.5x=%d flash_max=%d limit_ms=%d%s" % (name, unit, a, b, m, limit, extra))
        for f, v in ((FACTOR, a), (FACTOR_HIGH, b)):
            if v > limit:
                over.append("%s %d > %d ms at factor %d" % (name, v, limit, f))
    for name in (FIRST if only else PATHS):
        line(name, name, STEP_LIMIT_MS)
    if not only:
        r = runs[0]
        say("budget net: %d awards sent, resets %d" % (r["net_sent"], r["net_resets"]))
        say("budget net reconnect: %d TLS handshakes (%d ms each, the ESP32's), %d reconnects after the broker's"
            " restart; the shake begun during it rolled: %s; views at the reconnect: %s"
            % ((r["net_reconnect"][0], chiptime.TLS_HANDSHAKE_US // 1000) + r["net_reconnect"][1:]))
        say("budget backlog: %d events, %d awards from a cold boot (TLS, the game read back from its start),"
            " %d sent in 30 s, all in %d s (%d s at 1.5x), resets %d"
            % (r["backlog"][:4] + (runs[1]["backlog"][3], r["backlog"][4])))
        for f, rr in ((FACTOR, runs[0]), (FACTOR_HIGH, runs[1])):
            if rr["backlog"][3] < 0:
                over.append("backlog not all sent in 120 s at factor %d" % f)
            if rr["net_reconnect"][2] != "yes":
                over.append("the shake begun during the reconnect did not roll at factor %d" % f)
        say("budget held: %d finished events, resets %d" % r["held"])
        say("budget sampling gap while shaking, by path: a new bowl's rolls %d ms (%d at 1.5x), the event kiosk"
            " with network, TLS and fairness %d ms (%d at 1.5x)" % (r["gap_rolls"], runs[1]["gap_rolls"],
                                                                   r["gap_net"], runs[1]["gap_net"]))
    line("sampling", "gap", GAP_LIMIT_MS, "worst_gap_ms")
    if not only:
        line("sampling_speaking", "speaking_gap", GAP_LIMIT_MS, "worst_gap_ms")
        say("budget speaking: the amplifier's writes waited %d ms in all (at 1.5x %d)"
            % (runs[0]["speaking_wait"], runs[1]["speaking_wait"]))
    line("settle_to_screen", "settle", SETTLE_LIMIT_MS, "ms")
    line("boot", "boot_ms", BOOT_LIMIT_MS, "ms")
    line("first_boot", "first_boot_ms", BOOT_LIMIT_MS, "ms")
    say("budget: all within" if not over else "budget: over: " + "; ".join(over))
    if "--write" in sys.argv and not only:
        write(printed)


if __name__ == "__main__":
    if not ON_MP and os.environ.get("PYTHONHASHSEED") != "0":
        # the same order of every set and dict of strings at every run: the same work counted
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.argv)
    main()
