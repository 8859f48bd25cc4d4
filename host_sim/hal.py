# The simulated bowl: a bowl.hw.Hardware made of fakes for what cannot exist
# here, around the very same app (bowl/app.py), on simulated time. Runs on
# the MicroPython unix port AND on CPython (no CPython-only modules: on
# CPython `import host_sim` first, for const/ticks/framebuf).
#
#   sim = Sim(root)            # root: a folder, the bowl's flash (journal, settings)
#   sim.shake()                # queue a shake (a recorded trace, replayed)
#   sim.press("ok")            # press and release a button (MENU, NEXT, OK)
#   sim.step(ms)               # let time pass; the app runs every 10 ms
#   sim.frame, sim.leds        # the last frame shown (1024 bytes, SSD1306 layout);
#                              # the ring's colours as (r, g, b), dark when unpowered
#   sim.console                # the app's state machine (views, table, settings)
#   sim.power_cut()            # pull the plug and plug it back in
#
# The fakes check what the real parts would: the accelerometer is
# host_sim/fake_mpu6050.py's register-checked MPU6050 on a fake I2C bus, driven
# by the real driver (bowl/mpu6050.py); the display is a real FrameBuffer
# (the unix port's framebuf, host_sim/framebuf.py on CPython) and is only
# seen when show() is called; the ring only lights while its supply switch is
# on; the watchdog reboots the bowl when the app stops feeding it; deep sleep
# refuses to sleep when the MPU6050 is not armed to wake it; waking is a
# reset, so the app starts again from the journal.
import gc
import sys
import time

import framebuf

# the fake first: on the unix port it is compiled from source here, and its
# compiler needs heap that is still free before the firmware's .mpy are loaded
if sys.implementation.name == "micropython":
    import fake_mpu6050  # host_sim/ itself is on sys.path on the unix port
else:
    from host_sim import fake_mpu6050

from bobing import journal
from bowl import app as bowl_app
from bowl.hw import Hardware, attach_i2c

ADDR_OLED = 0x3C  # as firmware/board.py
ADDR_MPU = 0x68
WIDTH = 128
HEIGHT = 64
TICK_MS = 10  # the app's sample period
WDT_MS = 8000
TICKS_PERIOD = 1 << 30  # the ESP32's tick wrap, so wrap bugs show here too
BUTTONS = ("menu", "next", "ok")
SEP = "/"


def _here():
    f = __file__
    i = f.rfind(SEP)
    return f[:i] if i >= 0 else "host_sim"  # frozen (32-bit test build): run from the repo root


TRACES = _here() + "/../tests/data/traces"


class DeepSleep(Exception):
    """The app put the bowl into deep sleep (on the bowl, deepsleep() never returns)."""


class FakePin:
    """A GPIO: value() reads it, value(v) drives it."""

    def __init__(self, v=1):
        self.v = v

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = 1 if v else 0


class FakeDisplay(framebuf.FrameBuffer):
    """A 128x64 SSD1306 as the app sees it: a FrameBuffer plus show(). What the
    panel shows is the buffer as of the last show(), in `shown`."""

    def __init__(self):
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.width = WIDTH
        self.height = HEIGHT
        self.shown = bytearray(len(self.buffer))
        self.shows = 0
        self.on = True
        self.present = True  # on the I2C bus; False: unplugged
        self.fail = False  # True: the next show() fails as a broken bus would

    def show(self):
        if self.fail or not self.present:
            raise OSError(5)  # EIO, as machine.I2C raises when nobody acknowledges
        self.shown[:] = self.buffer
        self.shows += 1

    def poweroff(self):
        self.on = False

    def poweron(self):
        self.on = True

    def lit(self, x, y):
        """Is pixel (x, y) lit on the panel (not in the buffer)?"""
        return bool(self.shown[(y >> 3) * WIDTH + x] & (1 << (y & 7)))

    def text_rows(self):
        """The panel as 64 strings of '#' and '.', for a terminal or a failing test."""
        rows = []
        for y in range(HEIGHT):
            rows.append("".join(["#" if self.lit(x, y) else "." for x in range(WIDTH)]))
        return rows


class _NoLog:
    def append(self, entry):
        pass


class _I2CStub:
    # the display's presence on the fake bus (it is drawn through the FrameBuffer)
    def __init__(self, disp):
        self.d = disp

    @property
    def present(self):
        return self.d.present


class FakeNeoPixel:
    """machine's NeoPixel: n, buf (GRB bytes), [i] = (r, g, b), fill, write."""

    def __init__(self, n, power=None):
        self.n = n
        self.buf = bytearray(3 * n)
        self.power = power  # the ring's supply switch pin, or None (always powered)
        self.shown = [(0, 0, 0)] * n
        self.writes = 0

    def __setitem__(self, i, rgb):
        r, g, b = rgb
        j = 3 * i
        self.buf[j] = g  # a bytearray: values outside 0..255 raise, as on the bowl
        self.buf[j + 1] = r
        self.buf[j + 2] = b

    def __getitem__(self, i):
        j = 3 * i
        return (self.buf[j + 1], self.buf[j], self.buf[j + 2])

    def __len__(self):
        return self.n

    def fill(self, rgb):
        for i in range(self.n):
            self[i] = rgb

    def write(self):
        self.writes += 1
        powered = self.power is None or self.power.value()
        self.shown = [self[i] if powered else (0, 0, 0) for i in range(self.n)]


class FakePWM:
    """A PWM pin driving the piezo: the tones it was asked for."""

    def __init__(self):
        self.hz = 0
        self.duty = 0
        self.tones = 0

    def freq(self, hz=None):
        if hz is None:
            return self.hz
        self.hz = hz

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        if d and not self.duty:
            self.tones += 1
        self.duty = d


# What a replayed journal event costs the bowl's CPU, charged to the simulated
# clock (boot, or a resume after a failed write) so that a slow boot shows
# against the watchdog as it would on the bowl. Measured: replaying a whole
# 1,000- or 10,000-event kiosk game (claim codes included) takes 63-74 us an
# event on the 32-bit frozen unix build (bench/boot_bench.py, `make bench`);
# 70 is taken. Stated factor: hardware/timing.md's ESP32 factor at the board's
# 160 MHz (CoreMark ratio x 2 for code run from SPI flash), 91. So 6.4 ms an
# event: the 8 s watchdog starves after about 1,250 events replayed.
REPLAY_US_HOST = 70
ESP32_FACTOR = 91
REPLAY_US = REPLAY_US_HOST * ESP32_FACTOR


class FakeWDT:
    """machine.WDT as MicroPython v1.28's ESP32 port has it (ports/esp32/machine_wdt.c
    over ESP-IDF's task watchdog): WDT(id=0, timeout=ms) starts it; only id 0
    exists and a timeout <= 0 is a ValueError; the object has feed() and nothing
    else (no deinit, no timeout_ms: MICROPY_PY_MACHINE_WDT_TIMEOUT_MS is off), so
    once started it runs until the next reset. A second WDT(...) returns the same
    watchdog, reconfigured by esp_task_wdt_reconfigure (the docs say not to rely
    on it; the firmware never does). Starved for `timeout` ms, it resets the bowl
    (Sim checks expired() between rounds of the app and during the boot)."""

    def __init__(self, board, timeout):
        self._board = board
        self._timeout = timeout
        self._fed = board.ms
        self.feeds = 0

    def feed(self):
        self._fed = self._board.ms
        self.feeds += 1

    def expired(self):
        b = self._board
        return b.ticks_diff(b.ms, self._fed) > self._timeout


def WDT(board, id=0, timeout=5000):
    """machine.WDT(id, timeout) on the simulated board."""
    if id != 0:
        raise ValueError()
    if timeout <= 0:
        raise ValueError("WDT timeout too short")
    board._charge()  # the CPU time spent so far (a boot's replay) has passed before it starts
    w = board._twdt
    if w is None:
        w = board._twdt = FakeWDT(board, timeout)
    else:
        w._timeout = timeout
        w._fed = board.ms
    return w


class SimBoard(Hardware):
    """The parts, on a simulated clock. Sim drives it; tests may poke the parts."""

    def __init__(self, root, display=True, accel=True, leds=12, buzzer=True, t0=0, realtime=False):
        Hardware.__init__(self)
        self.root = root
        self.realtime = realtime  # True: the real clock (App.run under asyncio), else Sim's
        self.ms = t0 & (TICKS_PERIOD - 1)
        self.lines = []
        self.echo = False
        self.disp = FakeDisplay()
        self.disp.present = display
        self.chip = fake_mpu6050.FakeMPU6050([(0, 0, 0, 1000)])
        self.chip.present = accel
        self.bus = fake_mpu6050.FakeI2C({ADDR_MPU: self.chip, ADDR_OLED: _I2CStub(self.disp)})
        self.bus.log = _NoLog()  # the fake bus logs every transfer; a bowl runs for hours
        self.int_pin = self.chip.int_pin
        self.led_power_pin = FakePin(0)
        self.ring = FakeNeoPixel(leds, self.led_power_pin) if leds else None
        self.pwm = FakePWM() if buzzer else None
        self.pins = (FakePin(1), FakePin(1), FakePin(1))  # pulled up: 1 = released
        self.asleep = False
        self.armed = None  # why the accelerometer would not wake the bowl, or None
        self._replay_mark = journal.replayed()
        self.boot("power")

    def boot(self, woke_by):
        """What board.bring_up does at every reset: fresh objects over the same parts."""
        self.woke_by = woke_by
        self.errors = []
        self.display = None
        self.accel = None
        self.asleep = False
        self.buttons = self.pins
        self.led_power = self.led_power_pin
        self.led_power_pin.value(1)
        self.pixels = self.ring
        self.buzzer = self.pwm
        self.wdt = None
        self._twdt = None  # a reset stops the watchdog; the app starts it after the boot
        self.disp.fail = False
        attach_i2c(self, self.bus, ADDR_OLED, ADDR_MPU, lambda: self.disp)

    def start_watchdog(self):
        """As board.Board.start_watchdog: machine.WDT(timeout=WDT_MS)."""
        self.wdt = WDT(self, 0, WDT_MS)

    def _mark(self):
        # from here on, events the journal replays cost simulated time
        self._replay_mark = journal.replayed()

    def _charge(self):
        # the replay's CPU time since _mark() passes on the simulated clock
        n = journal.replayed()
        if n != self._replay_mark and not self.realtime:
            self.ms = self.ticks_add(self.ms, (n - self._replay_mark) * REPLAY_US // 1000)
        self._replay_mark = n

    # time: the device's wrap-around tick counters, on the simulated clock
    def ticks_ms(self):
        self._charge()
        if self.realtime:
            self.ms = time.ticks_ms() & (TICKS_PERIOD - 1)
        return self.ms

    def ticks_us(self):
        if self.realtime:
            return time.ticks_us() & (TICKS_PERIOD - 1)
        return (self.ms * 1000) & (TICKS_PERIOD - 1)

    def ticks_diff(self, a, b):
        return ((a - b + (TICKS_PERIOD >> 1)) & (TICKS_PERIOD - 1)) - (TICKS_PERIOD >> 1)

    def ticks_add(self, t, d):
        return (t + d) & (TICKS_PERIOD - 1)

    def say(self, line):
        self.lines.append(line)
        if len(self.lines) > 200:
            self.lines.pop(0)
        if self.echo:
            print("bowl:", line)

    def deepsleep(self):
        """As board.Board.deepsleep: display off, ring off, MPU6050 armed for a shake."""
        if self.display is not None:
            self.display.poweroff()
        self.led_power_pin.value(0)
        if self.ring is not None:
            self.ring.write()
        if self.accel is not None:
            self.accel.arm_wake()
            self.armed = self.chip.wake_armed()
            if self.armed is not None:
                raise OSError("deep sleep refused: the MPU6050 would not wake the bowl: " + self.armed)
        self.asleep = True
        raise DeepSleep()


class _Trace:
    # a shake trace streamed from its CSV file, one sample a call (little heap)
    def __init__(self, path):
        self.f = open(path)

    def next(self):
        while True:
            line = self.f.readline()
            if not line:
                self.f.close()
                return None
            line = line.strip()
            if line and line[0] != "#" and line[0] != "t":
                p = line.split(",")
                return (int(p[1]), int(p[2]), int(p[3]))


class Sim:
    """The whole bowl, on simulated time: inject presses and shakes, step time,
    read the frame and the LEDs. Resets (power cut, watchdog, waking from deep
    sleep) start a new App over the same parts and the same flash."""

    def __init__(self, root, display=True, accel=True, leds=12, buzzer=True, urandom=None, t0=0):
        self.board = SimBoard(root, display, accel, leds, buzzer, t0)
        self.urandom = urandom
        self.boots = 0
        self.sleeps = 0
        self.resets = []  # why each reset happened
        self._queue = []  # pending shake traces (paths)
        self._trace = None
        self._releases = []  # (time, pin) of pending button releases
        self._noise = 12345
        self.stuck = False  # the accelerometer repeats one reading
        self.app = None
        self._start()

    # --- the bowl's state, for a UI or a test
    @property
    def console(self):
        return self.app.con if self.app is not None else None

    @property
    def frame(self):
        return self.board.disp.shown

    @property
    def leds(self):
        return self.board.ring.shown if self.board.ring is not None else []

    @property
    def asleep(self):
        return self.board.asleep

    @property
    def now(self):
        return self.board.ms

    def log(self):
        """Log lines since the last call."""
        out = self.board.lines
        self.board.lines = []
        return out

    # --- what people do
    def press(self, button, hold_ms=80):
        """Press a button ("menu", "next", "ok" or 0..2) and release it after hold_ms."""
        i = BUTTONS.index(button) if isinstance(button, str) else button
        pin = self.board.pins[i]
        pin.value(0)
        self._releases.append((self.board.ticks_add(self.board.ms, hold_ms), pin))
        if self.board.asleep and i == 2:
            self._wake("button")

    def shake(self, trace="model_normal_shake"):
        """Queue a shake: a trace name in tests/data/traces, or a path to one."""
        path = trace if trace.endswith(".csv") else TRACES + "/" + trace + ".csv"
        self._queue.append(path)

    def power_cut(self):
        """The plug is pulled at this very moment and put back."""
        self._reboot("power")

    # --- time
    def step(self, ms=TICK_MS):
        """Let ms pass, in 10 ms steps (the app samples and runs every step)."""
        b = self.board
        end = b.ticks_add(b.ms, ms)
        while b.ticks_diff(end, b.ms) > 0:  # by the clock: a slow boot takes its time
            b.ms = b.ticks_add(b.ms, TICK_MS)
            self._release_buttons()
            self._feed_chip()
            if b.asleep:
                if b.chip.int_level():
                    self._wake("shake")
                continue
            if self._starved():
                continue
            b._mark()
            try:
                self.app.step(b.ms)
            except DeepSleep:
                self.sleeps += 1  # the ESP32 is off until the MPU6050's INT or OK wakes it
                continue
            finally:
                b._charge()
            self._starved()

    def run_until(self, test, max_ms=600000):
        """Step until test(sim) is true; -> True, or False after max_ms."""
        end = self.board.ms + max_ms
        while not test(self):
            if self.board.ms >= end:
                return False
            self.step()
        return True

    # --- inside
    def _starved(self):
        w = self.board._twdt
        if w is not None and w.expired():
            self._reboot("watchdog")
            return True
        return False

    def _start(self):
        self.boots += 1
        gc.collect()  # the bowl boots with its whole heap free
        b = self.board
        b._mark()
        self.app = bowl_app.App(b, self.urandom)
        b._charge()  # the boot's CPU time (the journal's replay) has passed

    def _reboot(self, why):
        self.resets.append(why)
        self.app = None  # a reset wipes the RAM: nothing of the old app lives on
        self._releases = []
        for p in self.board.pins:
            p.value(1)
        self.board.boot(why)
        self._start()

    def _wake(self, why):
        self.board.asleep = False
        self._reboot(why)

    def _release_buttons(self):
        b = self.board
        keep = []
        for t, pin in self._releases:
            if b.ticks_diff(b.ms, t) >= 0:
                pin.value(1)
            else:
                keep.append((t, pin))
        self._releases = keep

    def _rest(self):
        # a bowl at rest: gravity on z, a few milli-g of noise (a live MEMS part)
        n = self._noise
        out = []
        for _ in range(3):
            n = (n * 1103515245 + 12345) & 0x7FFFFFFF
            out.append((n >> 16) % 7 - 3)
        self._noise = n
        return (out[0], out[1], 1000 + out[2])

    def _feed_chip(self):
        s = None
        if self.stuck:
            s = (17, -4, 998)
        else:
            if self._trace is None and self._queue:
                self._trace = _Trace(self._queue.pop(0))
            if self._trace is not None:
                s = self._trace.next()
                if s is None:
                    self._trace = None
            if s is None:
                s = self._rest()
        chip = self.board.chip
        chip.trace = [(self.board.ms, s[0], s[1], s[2])]  # the next reading the chip takes
        chip.pos = 0
        if self.board.asleep:
            chip.step()  # cycle mode: the chip samples on its own, the ESP32 sleeps
