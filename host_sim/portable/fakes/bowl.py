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
# At every reset firmware/board.py's own bring_up() runs on a simulated ESP32
# (FakeESP32: `machine`, `esp32`, `neopixel`, `ssd1306` as the port has them):
# each GPIO pad starts in its datasheet reset state, Pin() changes a pull only
# as machine_pin.c does, and a pin's level is its weak pulls against the
# board's resistors and buttons (a level between V_IL and V_IH is recorded in
# `esp.undefined`); deep sleep ends only through the wake sources board.py
# armed (esp32.wake_on_ext0/ext1), on those pins' levels.
# The fakes check what the real parts would: the accelerometer is
# host_sim/portable/fakes/mpu6050.py's register-checked MPU6050 on a fake I2C bus, driven
# by the real driver (bowl/mpu6050.py); the display is a real FrameBuffer
# (the unix port's framebuf, host_sim/compat/framebuf.py on CPython) and is only
# seen when show() is called; the ring only lights while its supply switch is
# on; machine.Pin accepts only the GPIOs of the chosen build (Sim(build=...):
# ESP32_GENERIC or ESP32_GENERIC-SPIRAM, which lacks 16/17); the battery is read
# through the board's divider and a noisy, miscalibrated ADC (Divider), and the
# cell drains faster and sags while the radio is on; the brown-out detector
# resets the chip at ESP-IDF's 2.43 V; the watchdog reboots the bowl when the app stops feeding it; deep sleep
# refuses to sleep when the MPU6050 is not armed to wake it; waking is a
# reset, so the app starts again from the journal.
#
# The chip's time (SimBoard): the simulated clock advances by what each step
# would cost the ESP32 at the board's clock, not only by the 10 ms rounds:
#   - every I2C transfer at the bus's 400 kHz plus the driver's own time
#     (fake_mpu6050.FakeI2C: a frame is 1,044 bytes on the wire, >= 23.5 ms;
#     a stuck bus waits 100 ms a byte as the legacy driver does)
#   - the LED ring's write: 24 bits x 1.25 us an LED plus the latch (WS2812B)
#   - flash (flash=True): each file written and closed costs what
#     littlefs did per journal append on a real littlefs (11.1 block programs,
#     1.02 sector erases: bench/journal_bench.py), at a typical 4 MB SPI NOR's
#     typical times (GD25Q32C: page program 0.7 ms; W25Q32JV: sector erase 45 ms)
#   - the CPU (cpu_factor > 0): host time spent in the firmware between two
#     of those points, times cpu_factor (the ESP32's time per host time,
#     hardware/timing.md; bench/budget.py measures it on this host). Off (0) by
#     default: the tests' clocks do not depend on the host's load; the
#     journal's replay is then charged per event (REPLAY_US).
#   - the network's waits (host_sim/portable/fakes/wlan.py on air.clock = the board)
# Sampling slips as it would (the MPU6050 samples at 100 Hz on its own; a
# late read gets the latest sample, the ones between are lost); sample gaps
# are recorded (gap_max_us; gap_shaking_us while the console follows a shake). The watchdog fires when a step
# runs long. With Sim(air=...) the network task (bowl/net.py's run()) runs on
# the simulated clock against fake_wlan's radio and broker.
import gc
import hashlib
import os
import sys
import time

import framebuf

# the fake first: on the unix port it is compiled from source here, and its
# compiler needs heap that is still free before the firmware's .mpy are loaded
from fakes import mpu6050 as fake_mpu6050

import board
from bobing import console as _console
from bobing import journal
from bowl import app as bowl_app

ADDR_OLED = board.ADDR_OLED  # the wiring is board.py's, never copied here
ADDR_MPU = board.ADDR_MPU
WIDTH = board.OLED_WIDTH
HEIGHT = board.OLED_HEIGHT
TICK_MS = 10  # the app's sample period
WDT_MS = board.WDT_MS
TICKS_PERIOD = 1 << 30  # the ESP32's tick wrap, so wrap bugs show here too
BUTTONS = ("menu", "next", "ok")
SEP = "/"


def _here():
    f = __file__
    if f.startswith("fakes" + SEP):  # frozen (32-bit test build: the frozen name): run from the repo root
        return "host_sim/portable/fakes"
    return f[:f.rfind(SEP)]


TRACES = _here() + "/../../../tests/data/traces"


class DeepSleep(Exception):
    """The app put the bowl into deep sleep (on the bowl, deepsleep() never returns)."""


# The SSD1306's commands that take arguments (SSD1306 datasheet rev 1.1, section 9,
# command table): {command: number of argument bytes that follow it}
_OLED_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
              0xDA: 1, 0xDB: 1}
# micropython-lib's ssd1306.py init_display(), for a 128x64 panel on its own charge pump
_OLED_INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80, 0xD9, 0xF1,
              0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0xAD, 0x30, 0x8D, 0x14, 0xAF)


class FakeDisplay(framebuf.FrameBuffer):
    """A 128x64 SSD1306 on the I2C bus with micropython-lib's ssd1306.SSD1306_I2C
    driver in front of it: the driver's methods (write_cmd: one 2-byte transfer a
    command byte; write_data: one transfer of 0x40 and the data; show(): six
    commands and the 1,024-byte frame) over the fake bus, which charges each
    transfer's time; the panel behind interprets what arrives (control byte 0x80
    a command, 0x40 data into its RAM in horizontal addressing mode, within the
    column and page window of 0x21/0x22). What it shows is its RAM, in
    `shown`; `shows` counts the frames completed (the last byte of page 7)."""

    def __init__(self, bus):
        self.bus = bus  # every transfer goes over the bus: a missing or stuck bus raises there
        self.addr = ADDR_OLED
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.width = WIDTH
        self.height = HEIGHT
        self.pages = HEIGHT // 8
        self.shown = bytearray(len(self.buffer))
        self.shows = 0
        self.on = True
        self.present = True  # on the I2C bus; False: unplugged
        self.temp = bytearray(2)
        self.write_list = [b"\x40", None]
        self._cmd = []  # a command waiting for its arguments
        self._win = [0, WIDTH - 1, 0, self.pages - 1]
        self._col = 0
        self._page = 0

    # --- the driver (ssd1306.SSD1306_I2C), as micropython-lib has it
    def init_display(self):
        for c in _OLED_INIT:
            self.write_cmd(c)
        self.fill(0)
        self.show()

    def write_cmd(self, cmd):
        self.temp[0] = 0x80
        self.temp[1] = cmd
        self.bus.writeto(self.addr, self.temp)

    def write_data(self, buf):
        self.write_list[1] = buf
        self.bus.writevto(self.addr, self.write_list)

    def show(self):
        for c in (0x21, 0, WIDTH - 1, 0x22, 0, self.pages - 1):
            self.write_cmd(c)
        self.write_data(self.buffer)

    def poweroff(self):
        self.write_cmd(0xAE)

    def poweron(self):
        self.write_cmd(0xAF)

    # --- the panel (the device at ADDR_OLED on the fake bus)
    def write(self, buf):
        if not len(buf):
            return
        if buf[0] == 0x80:
            self._command(buf[1])
        elif buf[0] == 0x00:  # Co=0, D/C#=0: every byte after it is a command
            for b in buf[1:]:
                self._command(b)
        elif buf[0] == 0x40:
            self._data(buf, 1)

    def _command(self, b):
        c = self._cmd
        if c:
            c.append(b)
        elif b in _OLED_ARGS:
            c.append(b)
        elif b == 0xAE or b == 0xAF:
            self.on = b == 0xAF
        if c and len(c) == 1 + _OLED_ARGS[c[0]]:
            if c[0] == 0x21:
                self._win[0], self._win[1] = c[1] & 127, c[2] & 127
                self._col = self._win[0]
            elif c[0] == 0x22:
                self._win[2], self._win[3] = c[1] & 7, c[2] & 7
                self._page = self._win[2]
            del c[:]

    def _data(self, buf, i):
        w = self._win
        col = self._col
        page = self._page
        end = len(buf)
        while i < end:
            n = min(w[1] - col + 1, end - i)  # along the page, up to the window's last column
            at = page * WIDTH + col
            self.shown[at:at + n] = buf[i:i + n]
            i += n
            col += n
            if col > w[1]:
                if col == WIDTH and page == self.pages - 1:
                    self.shows += 1
                col = w[0]
                page = w[2] if page >= w[3] else page + 1
        self._col = col
        self._page = page

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


class FakeNeoPixel:
    """machine's NeoPixel: n, buf (GRB bytes), [i] = (r, g, b), fill, write."""

    def __init__(self, n, power=None):
        self.n = n
        self.buf = bytearray(3 * n)
        self.power = power  # the ring's supply switch pin, or None (always powered)
        self.shown = [(0, 0, 0)] * n
        self.writes = 0
        self.clock = None

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
        if self.clock is not None:
            self.clock.io_us(self.n * LED_US + LED_LATCH_US)  # the RMT sends it; the call waits
        powered = self.power is None or self.power.value()
        self.shown = [self[i] if powered else (0, 0, 0) for i in range(self.n)]
        if self.clock is not None:
            self.clock.io_end()


class FakePWM:
    """A PWM pin driving the piezo: the tones it was asked for."""

    def __init__(self):
        self.hz = 0
        self.duty = 0
        self.tones = 0
        self.events = None  # a list to keep (hz, duty) at each change in: the window's speaker drains it

    def freq(self, hz=None):
        if hz is None:
            return self.hz
        self.hz = hz

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        if d and not self.duty:
            self.tones += 1
        if self.events is not None:
            self.events.append((self.hz, d))
            del self.events[:-64]
        self.duty = d


# What a replayed journal event costs the bowl's CPU, charged to the simulated
# clock (boot, or a resume after a failed write) when the CPU is not measured
# (cpu_factor 0), so that a slow boot shows against the watchdog as it would on
# the bowl. Measured: replaying a whole 1,000- or 10,000-event kiosk game
# (claim codes included) takes 63-74 us an event on the 32-bit frozen unix
# build (bench/boot_bench.py, `make bench`); 70 is taken. Stated factor:
# hardware/timing.md's ESP32 factor, CoreMark's ratio, 30 at 240 MHz (no
# allowance for flash: the port puts the VM's core in IRAM, ports/esp32/
# mpconfigport.h: MICROPY_WRAP_MP_EXECUTE_BYTECODE(f) IRAM_ATTR f), scaled to
# the clock board.py set. REPLAY_US: at the board's 160 MHz, 3.2 ms an event.
REPLAY_US_HOST = 70
ESP32_FACTOR = 30  # at 240 MHz
REPLAY_US = REPLAY_US_HOST * ESP32_FACTOR * 240 // 160
LED_US = 30  # one WS2812B: 24 bits x 1.25 us (Worldsemi datasheet)
LED_LATCH_US = 280  # reset/latch low time of the WS2812B-V5 (>= 280 us); older parts 50 us
PAGE_PROGRAM_US = 700  # GD25Q32C datasheet: tPP 0.7 ms typical (256-byte page)
SECTOR_ERASE_US = 45000  # W25Q32JV datasheet: tSE 45 ms typical (4 KB)
PROGRAMS_PER_WRITE = 11  # littlefs per closed write: bench/journal_bench.py measured 11.1 a roll
ERASES_PER_WRITE = 1  # and 1.02 sector erases a roll
GC_US = 3000  # a MicroPython collection of the bowl's ~110 KB heap at 240 MHz (assumption, not measured)


# Counted CPU (bench/budget.py, CPython only; count_work(True)): instead of timing
# the host, the firmware's work is counted at fixed ESP32 costs, so that a run
# gives the same figures whatever the host's load. Counted (sys.settrace, in
# frames of firmware/ files only): each line of firmware Python executed, each
# call of a firmware function, and each call from the firmware into framebuf
# (C on the bowl; host_sim/compat/framebuf.py's Python is not counted). The costs
# (hardware/timing.md, "The CPU: counted work"; bench/budget_work.py) fit the
# 32-bit frozen MicroPython build's times for three pieces -- the game's logic
# (call-heavy), the journal's CRC-16 (tight loops) and the screens -- times the
# CoreMark ratio 30 at 240 MHz. A line alone is off by 3-4x between the first two.
LINE_NS = 1935  # ESP32 ns at 240 MHz per line of firmware Python
CALL_NS = 40100  # per call of a firmware function (its frame, arguments, what it allocates)
FB_CALL_NS = 68200  # per framebuf call (a glyph's blit, a rectangle, a line of text)
_work = [0, False]  # ns counted, counting on
_FW = os.path.dirname(os.path.abspath(board.__file__)) if hasattr(os, "path") else ""  # (CPython only)
_FB = getattr(framebuf, "__file__", "")


def _line(frame, event, arg):
    if event == "line":
        _work[0] += LINE_NS
    return _line


def _trace(frame, event, arg):
    fn = frame.f_code.co_filename
    if fn.startswith(_FW):
        _work[0] += CALL_NS
        return _line
    if fn == _FB and frame.f_back is not None and frame.f_back.f_code.co_filename.startswith(_FW):
        _work[0] += FB_CALL_NS
    return None


_host_ticks = []  # time.ticks_us, ticks_ms as they were before count_work(True)


def count_work(on):
    """Charge the firmware's counted work (on) instead of the host's CPU time.
    The firmware's own time.ticks_us/ticks_ms (the host's clock on CPython, read
    e.g. as noise for the claim secret) then follow the counted work, so that
    nothing of the host's timing enters the run."""
    on = on and hasattr(sys, "settrace")
    if on and not _host_ticks:
        _host_ticks[:] = [time.ticks_us, time.ticks_ms]
        time.ticks_us = lambda: (_work[0] // 1000) & (TICKS_PERIOD - 1)
        time.ticks_ms = lambda: (_work[0] // 1000000) & (TICKS_PERIOD - 1)
    elif not on and _host_ticks:
        time.ticks_us, time.ticks_ms = _host_ticks
        del _host_ticks[:]
    _work[1] = on


def _host_us():
    # counted: ESP32 us at 240 MHz of the work counted so far; else CPython: this thread's CPU
    # time (other processes' load does not count; the host's file system calls do: the flash is
    # charged apart, so files cost a little twice); MicroPython: wall time
    if _work[1]:
        return _work[0] // 1000
    if hasattr(time, "thread_time_ns"):
        return time.thread_time_ns() // 1000
    return time.ticks_us()


def _host_diff(a, b):
    if _work[1] or hasattr(time, "thread_time_ns"):
        return a - b
    return time.ticks_diff(a, b)


class _Sleep:
    # what asyncio.sleep() is to the network task when the simulator runs it
    def __init__(self, ms):
        self.ms = ms

    def __iter__(self):
        yield self

    __await__ = __iter__


class _SimAsyncio:
    """asyncio as the network task sees it in the simulator: sleeps on the board's clock."""

    task = None

    def create_task(self, co):
        self.task = co  # the simulator runs it (Sim._net_round)
        return co

    def sleep(self, s):
        return _Sleep(int(s * 1000))

    def sleep_ms(self, ms):
        return _Sleep(ms)


class _SideClock:
    # a thread's own time (a name lookup): it waits without holding the game's loop
    def __init__(self, t):
        self.t = t

    def now(self):
        return self.t

    def wait(self, ms):
        self.t += ms


class _Metered:
    # a file opened for writing: its close costs flash time; the host's own file system
    # calls are not the bowl's CPU
    def __init__(self, f, board):
        self._f = f
        self._board = board

    def write(self, data):
        b = self._board
        if b is not None:
            b.cpu()
        n = self._f.write(data)
        if b is not None:
            b.io_end()
        return n

    def close(self):
        b = self._board
        if b is not None:
            b.cpu()
        self._f.close()
        if b is not None:
            self._board = None
            b.flash_writes += 1
            b.charge_us(PROGRAMS_PER_WRITE * PAGE_PROGRAM_US + ERASES_PER_WRITE * SECTOR_ERASE_US)
            b.io_end()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        return iter(self._f)

    def __getattr__(self, name):
        return getattr(self._f, name)


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


# ---------------------------------------------------------------- the ESP32
# What board.py's bring_up() and deepsleep() talk to: `machine`, `esp32`,
# `neopixel` and `ssd1306` as MicroPython's ESP32 port has them, over the same
# fake parts. The bowl's wiring comes from board.py; what the board adds around
# the pins (pull resistors, buttons) is hardware/wiring.md's, in EXTERNAL.
#
# GPIO pads, as the ESP32 has them (ESP32 Series Datasheet v4.x, Appendix
# "IO_MUX", column "Reset": 2 = input enabled with the weak pull-down WPD,
# 3 = with the weak pull-up WPU; the other pads start with no pull):
PULL_UP_AT_RESET = (0, 1, 3, 5, 6, 7, 8, 9, 10, 11, 15)
PULL_DOWN_AT_RESET = (2, 4, 12)
RTC_GPIO = (0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39)
# The GPIOs machine.Pin accepts, per build (ports/esp32/machine_pin.h, v1.28, CONFIG_IDF_TARGET_ESP32:
# 0-23 but 16/17 only `#if !CONFIG_SPIRAM` (a WROVER's PSRAM sits there), 25-27, 32-39); any
# other number is ValueError("invalid pin"). hardware/README.md's two routes: the bowl frozen into
# ESP32_GENERIC on the BOM's board, and the stock ESP32_GENERIC-SPIRAM image on a PSRAM board.
_GPIO_ALL = tuple(range(0, 24)) + (25, 26, 27) + tuple(range(32, 40))
BUILDS = {"ESP32_GENERIC": _GPIO_ALL,
          "ESP32_GENERIC-SPIRAM": tuple(n for n in _GPIO_ALL if n not in (16, 17))}
INPUT_ONLY_FROM = 34  # GPIO34-39 have no output driver
VDD_MV = 3300
R_WEAK = 45000  # the weak pulls: R_PU = R_PD = 45 kOhm typical (datasheet, DC characteristics)
VIL_MV = VDD_MV // 4  # V_IL max = 0.25 VDD: lower reads 0
VIH_MV = VDD_MV * 3 // 4  # V_IH min = 0.75 VDD: higher reads 1; between is no valid level
# The board around the pins (hardware/wiring.md): {gpio: (pull-up ohm to 3V3, pull-down ohm to GND)}.
# MENU and NEXT have no resistor (internal pull-up), the buttons short their pin to GND.
# The attendant's reed switch (board.PIN_KEY, input only: no weak pulls) has its 100k pull-up.
EXTERNAL = {board.PIN_BTN_OK: (100000, 0), board.PIN_LED_POWER: (0, 100000), board.PIN_KEY: (100000, 0)}
# MicroPython's ESP32 Pin (ports/esp32/machine_pin.c, v1.28): IN/OUT are
# gpio_mode_t (OUT is input+output), pulls are its GPIO_PULL_DOWN/UP bits.
# Pin(id, mode) changes the pull ONLY when pull= is given (pull=None turns
# both off); a mode-setting init detaches an RTC pad from the RTC mux.
_IN = 1
_OUT = 3
_PULL_DOWN = 1
_PULL_UP = 2
_ANY = -1  # machine_pin.c's "pull not given"


class Pad:
    """One GPIO pad as machine.Pin sees it: its mode, output register and weak
    pulls, against what the board wires to it. machine.Pin(n) is this object
    (the port's Pin objects are one per GPIO too)."""
    IN = _IN
    OUT = _OUT
    OPEN_DRAIN = 7
    PULL_UP = _PULL_UP
    PULL_DOWN = _PULL_DOWN
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, esp, n):
        if n not in BUILDS[esp.build]:
            raise ValueError("invalid pin")  # as machine_pin.c says for a GPIO the build lacks
        self.esp = esp
        self.n = n
        up, down = EXTERNAL.get(n, (0, 0))
        self.ext_up = up
        self.ext_down = down
        self.switch = False  # a button on this pin is held down (shorts it to GND)
        self.source = None  # a part driving the line: callable -> 0 / 1
        self.reset()

    def reset(self):
        self.mode = 0  # not an input or output until configured
        self.reg = 0  # the output register
        self.pu = self.n in PULL_UP_AT_RESET
        self.pd = self.n in PULL_DOWN_AT_RESET
        self.handler = None
        self.trigger = 0

    def init(self, mode=None, pull=_ANY, value=None):
        if value is not None:
            self.reg = 1 if value else 0  # set before the mode, as the port does
        if mode is not None:
            if mode & 2 and self.n >= INPUT_ONLY_FROM:
                raise ValueError("pin can only be input")
            self.mode = mode
        if pull != _ANY:
            self.pd = pull is not None and bool(pull & _PULL_DOWN)
            self.pu = pull is not None and bool(pull & _PULL_UP)

    def mv(self):
        """The pin's voltage in mV, or None when nothing sets it (floating)."""
        if self.mode & 2:
            return VDD_MV if self.reg else 0
        if self.switch:
            return 0
        if self.source is not None:
            return VDD_MV if self.source() else 0
        up = (10 ** 9 // R_WEAK if self.pu else 0) + (10 ** 9 // self.ext_up if self.ext_up else 0)
        down = (10 ** 9 // R_WEAK if self.pd else 0) + (10 ** 9 // self.ext_down if self.ext_down else 0)
        if up + down == 0:
            return None
        return VDD_MV * up // (up + down)

    def value(self, v=None):
        if v is not None:
            self.reg = 1 if v else 0
            return None
        sim = self.esp.sim
        sim.cpu()
        r = self._level()
        sim.io_end()  # a register read on the chip: the fake's Python is not the bowl's CPU
        return r

    def _level(self):
        mv = self.mv()
        if mv is None or VIL_MV < mv < VIH_MV:
            self.esp.undefined[self.n] = mv  # no valid logic level: the reading is luck
            return 1 if mv is not None and 2 * mv >= VDD_MV else 0
        return 1 if mv >= VIH_MV else 0

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.reg = 1

    def off(self):
        self.reg = 0

    def irq(self, handler=None, trigger=3):
        self.handler = handler
        self.trigger = trigger


class _Part:
    # a constructor with the class constants the port's type has (machine.ADC.ATTN_11DB ...)
    def __init__(self, make, **consts):
        self.make = make
        for k in consts:
            setattr(self, k, consts[k])

    def __call__(self, *args, **kw):
        return self.make(*args, **kw)


class Divider:
    """The battery gauge's analogue side on the FireBeetle: the cell through R1 (top) and R2
    (bottom), 1 MOhm each, to GPIO34, read by the ESP32's ADC1 at 11 dB. What makes a reading
    differ from the cell / 2, per bowl:
    - the resistors' tolerance (TOL_PPM each, the board's 1 % 0402 parts: an assumption);
    - r_in: the ADC pin's effective load on the 1M divider. None on a board that reads true;
      owners measured 1.4 V on the pin for a 4.2 V cell (DFRobot forum), an r_in of ~1 MOhm;
    - offset_mv: ESP-IDF's line-fitting calibration from the chip's eFuse Vref leaves up to
      +-60 mV at 11 dB over 150-2450 mV (ESP32 datasheet, "ADC calibration results"): a fixed
      error of each chip, at the pin;
    - noise: every sample off by up to +-NOISE_MV (ESP-IDF's ADC guide: single readings scatter,
      multisample them; the figure is an assumption of a few tens of LSB at 11 dB)."""
    R = 1000000
    TOL_PPM = 10000
    OFFSET_MAX_MV = 60
    NOISE_MV = 20
    RANGE_MV = (150, 2450)  # 11 dB: the calibrated range; beyond it the reading clips

    def __init__(self, r1=R, r2=R, r_in=None, offset_mv=0, noise_mv=NOISE_MV, seed=7):
        self.r1 = r1
        self.r2 = r2
        self.r_in = r_in
        self.offset_mv = offset_mv
        self.noise_mv = noise_mv
        self._n = seed

    def pin_mv(self, cell_mv):
        """The voltage the divider puts on GPIO34 (no reading error)."""
        r1, r2 = self.r1 // 1000, self.r2 // 1000  # in kOhm: small ints, no heap on MicroPython
        low = r2 if self.r_in is None else r2 * (self.r_in // 1000) // (r2 + self.r_in // 1000)
        return cell_mv * low // (r1 + low)

    def read_mv(self, cell_mv):
        """One ADC sample, in whole mV as adc_cali_raw_to_voltage() gives it."""
        self._n = (self._n * 75 + 74) % 65537  # small ints only: no heap on MicroPython
        noise = self._n % (2 * self.noise_mv + 1) - self.noise_mv if self.noise_mv else 0
        v = self.pin_mv(cell_mv) + self.offset_mv + noise
        return min(max(v, 0), 3100)


class FakeADC:
    """machine.ADC(Pin(34), atten=ADC.ATTN_11DB) on the battery divider: read_uv() is
    adc_cali_raw_to_voltage()'s whole mV x 1000 (ports/esp32/adc.c, madcblock_read_uv_helper),
    one noisy sample a call."""

    def __init__(self, divider, cell_mv, clock=None):
        self.divider = divider
        self.cell_mv = cell_mv
        self.clock = clock

    def read_uv(self):
        if self.clock is not None:
            self.clock.cpu()
        uv = self.divider.read_mv(self.cell_mv()) * 1000
        if self.clock is not None:
            self.clock.io_end()  # the fake's Python is not the bowl's CPU
        return uv

    def read_u16(self):
        return min(65535, self.divider.read_mv(self.cell_mv()) * 65535 // 3100)  # ~3.1 V full scale


class FakeESP32:
    """The chip under board.py: its pads, why it (re)started, the wake sources
    armed for deep sleep; and the modules `machine`, `esp32`, `neopixel` and
    `ssd1306` as board.py imports them (this one object stands in for all four,
    each with the names board.py uses)."""
    PWRON_RESET = 1  # machine.reset_cause() values of the port
    HARD_RESET = 2
    WDT_RESET = 3
    DEEPSLEEP_RESET = 4
    SOFT_RESET = 5
    EXT0_WAKE = 2  # machine.wake_reason(): esp_sleep_wakeup_cause_t
    EXT1_WAKE = 3
    WAKEUP_ALL_LOW = False
    WAKEUP_ANY_HIGH = True
    STA_IF = 0  # network.WLAN's interfaces
    AP_IF = 1
    PM_NONE = 0  # WLAN.PM_*: esp_wifi_set_ps()'s wifi_ps_type_t (ports/esp32/network_wlan.c)
    PM_PERFORMANCE = 1
    PM_POWERSAVE = 2
    _MODULES = ("machine", "esp32", "neopixel", "ssd1306", "network")
    _WHY = {"power": (1, 0), "brownout": (1, 0), "watchdog": (3, 0), "shake": (4, 2), "button": (4, 3), "timer": (4, 4),
            "reset": (2, 0)}  # the port reports a brown-out as PWRON_RESET (modmachine.c)

    def __init__(self, sim, build="ESP32_GENERIC"):
        if build not in BUILDS:
            raise ValueError("no MicroPython build %r: %s" % (build, ", ".join(sorted(BUILDS))))
        self.sim = sim  # the SimBoard: its parts and clock
        self.build = build  # the firmware image: which GPIOs machine.Pin has
        self.pads = {}
        self.undefined = {}  # {gpio: mV or None} of every read without a valid level
        self.hz = 240000000
        self.Pin = _Part(self.pin, IN=_IN, OUT=_OUT, OPEN_DRAIN=7, PULL_UP=_PULL_UP, PULL_DOWN=_PULL_DOWN,
                         IRQ_RISING=1, IRQ_FALLING=2)
        self.ADC = _Part(self._adc, ATTN_0DB=0, ATTN_2_5DB=1, ATTN_6DB=2, ATTN_11DB=3)
        self.reset("power")

    def reset(self, why):
        """A reset: every pad back to its reset state, nothing armed."""
        self.cause, self.wake = self._WHY[why]
        for p in self.pads.values():
            p.reset()
        self.ext0 = None  # (pad, level)
        self.ext1 = None  # (pads, level)
        # ESP-IDF's default CPU clock for the ESP32 (CONFIG_ESP_DEFAULT_CPU_FREQ_MHZ 160: the
        # port's ESP32_GENERIC board does not include boards/sdkconfig.240mhz)
        self.timer_at = None  # machine.deepsleep(ms > 0): the RTC timer wakes the chip then
        self.hz = 160000000
        self.radio = False  # Wi-Fi off: the bowl never starts it but to draw a secret
        self.pm = self.PM_PERFORMANCE  # ESP-IDF's default once Wi-Fi starts: WIFI_PS_MIN_MODEM
        self._prng = 0  # the radio-off stream starts over at every reset

    def pin(self, n, mode=None, pull=_ANY, value=None):
        p = self.pads.get(n)
        if p is None:
            p = self.pads[n] = Pad(self, n)
        p.init(mode, pull, value)
        return p

    # --- machine
    def freq(self, hz=None):
        if hz is None:
            return self.hz
        if hz not in (20000000, 40000000, 80000000, 160000000, 240000000):
            raise ValueError("frequency must be 20MHz, 40MHz, 80Mhz, 160MHz or 240MHz")
        self.hz = hz

    def reset_cause(self):
        return self.cause

    def wake_reason(self):
        return self.wake

    def I2C(self, id, scl=None, sda=None, freq=400000):
        if id not in (0, 1):
            raise ValueError("I2C(%d) doesn't exist" % id)
        if scl is not self.pads.get(board.PIN_SCL) or sda is not self.pads.get(board.PIN_SDA):
            raise OSError("the I2C parts are wired to GPIO%d/%d" % (board.PIN_SCL, board.PIN_SDA))
        self.sim.bus.freq = freq
        return self.sim.bus

    def PWM(self, pin, freq=0, duty_u16=0):
        pwm = self.sim.pwm
        if pwm is None or pin.n != board.PIN_BUZZER:
            raise OSError("no buzzer on GPIO%d" % pin.n)
        pwm.freq(freq)
        pwm.duty_u16(duty_u16)
        return pwm

    def _adc(self, pin, atten=0):
        if pin.n != board.PIN_VBAT:
            raise OSError("nothing to measure on GPIO%d" % pin.n)
        return FakeADC(self.sim.divider, self.sim.battery.mv, self.sim)

    def WDT(self, id=0, timeout=5000):
        return WDT(self.sim, id, timeout)

    def deepsleep(self, ms=0):
        """machine.deepsleep(ms): the wake sources armed by esp32.wake_on_ext0/ext1,
        and the RTC timer when ms > 0 (ESP_SLEEP_WAKEUP_TIMER, wake_reason() 4),
        are all that can end it; on the bowl it never returns."""
        sim = self.sim
        if ms > 0:
            self.timer_at = sim.ticks_add(sim.ms, ms)
        if self.ext0 is not None and self.ext0[0].source is not None and sim.accel is not None:
            sim.armed = sim.chip.wake_armed()
            if sim.armed is not None:
                raise OSError("deep sleep refused: the MPU6050 would not wake the bowl: " + sim.armed)
        for p in self.pads.values():
            p.mode &= 1  # outputs are not held in deep sleep: the pad floats to its pulls
        sim.asleep = True
        raise DeepSleep()

    def woken(self):
        """What wakes the sleeping chip now: "shake" (ext0), "button" (ext1), "timer" or None."""
        if self.timer_at is not None and self.sim.ticks_diff(self.sim.ms, self.timer_at) >= 0:
            return "timer"
        if self.ext0 is not None and self.ext0[0].value() == (1 if self.ext0[1] else 0):
            return "shake"
        if self.ext1 is not None:
            levels = [p.value() for p in self.ext1[0]]
            if self.ext1[1] and 1 in levels or not self.ext1[1] and 1 not in levels:
                return "button"
        return None

    # --- os.urandom, network
    def urandom(self, n):
        """os.urandom on this ESP32: esp_random() (ports/esp32/mphalport.c) is a
        true RNG only while the radio runs (ESP-IDF, esp_random); with it off
        the simulation gives a pseudo-random stream that starts over at every
        reset, the same on every bowl: predictable, which is the point. (With
        the work counted, the radio's stream too: the same run every time.)"""
        if self.radio and not _work[1]:
            return os.urandom(n)
        out = b""
        while len(out) < n:
            self._prng += 1
            out += hashlib.sha256(b"esp32 radio off %d" % self._prng).digest()
        return out[:n]

    def WLAN(self, interface=0):
        return self  # the radio: active() switches it

    def active(self, on=None):
        if on is None:
            return self.radio
        self.radio = bool(on)

    def config(self, pm=None):
        if pm not in (self.PM_NONE, self.PM_PERFORMANCE, self.PM_POWERSAVE):
            raise ValueError("pm must be WLAN.PM_NONE, PM_PERFORMANCE or PM_POWERSAVE")
        self.pm = pm

    # --- esp32
    def wake_on_ext0(self, pin, level=False):
        if pin.n not in RTC_GPIO:
            raise ValueError("invalid pin")
        self.ext0 = (pin, level)

    def wake_on_ext1(self, pins, level=False):
        for p in pins:
            if p.n not in RTC_GPIO:
                raise ValueError("invalid pin")
        self.ext1 = (tuple(pins), level)

    # --- neopixel, ssd1306
    def NeoPixel(self, pin, n):
        ring = self.sim.ring
        if ring is None or pin.n != board.PIN_LED_DATA:
            raise OSError("no LED ring on GPIO%d" % pin.n)
        if not pin.mode & 2:
            raise OSError("NeoPixel data pin GPIO%d is not an output" % pin.n)
        if n != ring.n:
            raise ValueError("the ring has %d LEDs, not %d" % (ring.n, n))
        return ring

    def SSD1306_I2C(self, width, height, i2c, addr=0x3C):
        d = self.sim.disp
        if (width, height) != (d.width, d.height):
            raise ValueError("the panel is %dx%d" % (d.width, d.height))
        d.addr = addr
        d.init_display()  # as the driver's constructor does: raises as the bus does
        return d

    def run(self, fn, *args):
        """fn(*args) with this chip as machine/esp32/neopixel/ssd1306 (board.py
        imports them inside its functions); the host's modules come back after."""
        mods = sys.modules
        saved = [mods.get(m) for m in self._MODULES]
        for m in self._MODULES:
            mods[m] = self
        try:
            return fn(*args)
        finally:
            for i in range(len(self._MODULES)):
                if saved[i] is None:
                    mods.pop(self._MODULES[i], None)
                else:
                    mods[self._MODULES[i]] = saved[i]


class Battery:
    """The LiPo cell (hardware/bom.md: 1200 mAh) and the board's 3V3 regulator.
    mv() is the cell's voltage under the bowl's load: its open-circuit voltage
    (a typical LiPo discharge curve) less load x internal resistance, so it
    falls as the charge runs out and sags while the ring is lit or the radio
    sends. The 3V3 rail follows the cell less the LDO's dropout once the cell is
    that low. The ESP32 resets when the rail falls under BROWNOUT_MV: ESP-IDF's
    brown-out detector at its default level 0, ~2.43 V (Kconfig ESP_BROWNOUT_DET_LVL_SEL_0;
    the port's sdkconfig keeps it); that is below the module's 3.0 V rating
    (WROOM-32E datasheet), so a flat cell does not stop the chip: the gauge must."""
    CURVE = ((0, 3200), (2, 3400), (5, 3520), (10, 3620), (20, 3690), (30, 3730), (40, 3760),
             (50, 3790), (60, 3840), (70, 3900), (80, 3970), (90, 4060), (100, 4180))  # (% charge, mV)
    R_MOHM = 250  # cell, protection FETs and lead: an assumption for a cell in its second season
    DROPOUT_MV = 250  # the board's LDO at the bowl's currents (assumption: measure yours)
    BROWNOUT_MV = 2430
    AWAKE_UA = 53000  # hardware/power.md: the ESP32, the OLED, the accelerometer, the buzzer (the ring on top)
    ASLEEP_UA = 60
    LED_UA = 12000  # a WS2812B channel at full (255); 0.8 mA each dark, while powered
    LED_DARK_UA = 800
    # Wi-Fi on top of the awake ESP32 while the radio is on (ESP32 datasheet and Espressif's
    # power figures for a station associated to an AP): ~45 mA on average with the default
    # modem sleep (WLAN.PM_PERFORMANCE / PM_POWERSAVE), ~129 mA with PM_NONE (receiver always
    # on), and peaks of ~240 mA while transmitting (802.11b at full power): the rail sags by those.
    RADIO_PS_UA = 45000
    RADIO_UA = 129000
    RADIO_TX_UA = 240000

    def __init__(self, board, mah=1200, percent=100):
        self.board = board
        self.capacity = mah
        self.uah = mah * 10 * percent  # the charge left, in uAh (small ints: no heap on MicroPython)
        self._rem = 0  # uA x ms not yet a whole uAh

    def ocv_mv(self):
        full = self.capacity * 1000
        c = self.CURVE
        for i in range(1, len(c)):
            lo = full * c[i - 1][0] // 100
            hi = full * c[i][0] // 100
            if self.uah <= hi:
                if self.uah <= lo:
                    return c[i - 1][1]
                return c[i - 1][1] + (c[i][1] - c[i - 1][1]) * (self.uah - lo) // (hi - lo)
        return c[-1][1]

    def load_ua(self):
        b = self.board
        if b.asleep:
            return self.ASLEEP_UA
        ua = self.AWAKE_UA + self.radio_ua()
        ring = b.ring
        if ring is not None and b.led_power_pin.value():
            lit = 0
            for rgb in ring.shown:
                lit += rgb[0] + rgb[1] + rgb[2]
            ua += ring.n * self.LED_DARK_UA + lit * self.LED_UA // 255
        return ua

    def _net(self):
        # the network task's radio (Sim(air=...): a fake_wlan.WLAN in SimBoard.wlan), if it is on
        w = getattr(self.board, "wlan", None)
        return w if w is not None and w.active() else None

    def radio_on(self):
        """The radio is on: for a secret (FakeESP32.active) or for the network."""
        return self.board.esp.radio or self._net() is not None

    def radio_ua(self):
        """The Wi-Fi radio's average current now (0 while it is off)."""
        if not self.radio_on():
            return 0
        w = self._net()
        pm = w.air.pm if w is not None else self.board.esp.pm  # WLAN.config(pm=): one radio setting
        return self.RADIO_UA if pm == FakeESP32.PM_NONE else self.RADIO_PS_UA

    def mv(self):
        return self.ocv_mv() - self.load_ua() * self.R_MOHM // 1000000

    def rail_mv(self):
        return min(VDD_MV, self.mv() - self.DROPOUT_MV)

    def rail_low_mv(self):
        """The rail at its lowest now: during a transmit burst while the radio is on."""
        burst = self.RADIO_TX_UA - self.radio_ua() if self.radio_on() else 0
        return min(VDD_MV, self.mv() - burst * self.R_MOHM // 1000000 - self.DROPOUT_MV)

    def drain(self, ms):
        self._rem += self.load_ua() * ms
        if self._rem >= 3600000:
            self.uah = max(0, self.uah - self._rem // 3600000)
            self._rem %= 3600000


class Button:
    """A push button from a GPIO to GND: value(0) presses it, value(1) lets go;
    value() is what the pin reads."""

    def __init__(self, pad):
        self.pad = pad

    def value(self, v=None):
        if v is None:
            return self.pad.value()
        self.pad.switch = not v


class SimBoard(board.Board):
    """The parts, on a simulated clock, brought up by board.py's own bring_up()
    on the simulated ESP32 (FakeESP32) at every reset. Sim drives it; tests may
    poke the parts: chip (the accelerometer), disp, ring, pwm, bus, esp (pads)."""
    _cpu_t = None  # (class defaults: a bare board in the tests counts no CPU time)
    cpu_factor = 0
    _rate = 0

    def __init__(self, root, display=True, accel=True, leds=12, buzzer=True, t0=0, realtime=False,
                 accel_id=0x68, build="ESP32_GENERIC", cpu_factor=0, flash=False):
        board.Board.__init__(self)
        self.root = root
        self.realtime = realtime  # True: the real clock (App.run under asyncio), else Sim's
        self.ms = t0 & (TICKS_PERIOD - 1)
        self._us = 0  # charged time not yet a whole ms
        self.cpu_factor = cpu_factor  # ESP32 us at 240 MHz per host us of firmware work; 0: free
        self._rate = cpu_factor  # the factor now (Sim: another while the app draws)
        self._cpu_t = None  # host us when the firmware's CPU time began to count, or None
        self.flash = flash
        self.flash_writes = 0
        self.feeder = None  # Sim: feeds the chip its sample for the time of a read
        self.shaking = None  # Sim: -> True while a shake is being followed
        self.gap_max_us = 0  # the longest time between two accelerometer reads
        self.gap_shaking_us = 0  # the same while a shake is played
        self._last_read = None
        self.wlan = None  # Sim(air=...): fake_wlan's radio, and the network task runs
        self.sockets = None
        self.spawn = None
        self.lines = []
        self.echo = False
        self.chip = fake_mpu6050.FakeMPU6050([(0, 0, 0, 1000)], accel_id)  # WHO_AM_I: 0x70 an MPU-6500
        self.chip.present = accel
        self.bus = fake_mpu6050.FakeI2C({ADDR_MPU: self.chip})
        self.bus.log = _NoLog()  # the fake bus logs every transfer; a bowl runs for hours
        self.bus.clock = None if realtime else self
        self.disp = FakeDisplay(self.bus)
        self.disp.present = display
        self.bus.devices[ADDR_OLED] = self.disp
        self.esp = FakeESP32(self, build)
        chip = self.chip
        self.esp.pin(board.PIN_MPU_INT).source = lambda: chip.int_level() if chip.present else None
        self.led_power_pin = self.esp.pin(board.PIN_LED_POWER)
        self.ring = FakeNeoPixel(leds, self.led_power_pin) if leds else None
        if self.ring is not None and not realtime:
            self.ring.clock = self
        self.pwm = FakePWM() if buzzer else None
        self.battery = Battery(self)
        self.divider = Divider()  # the gauge's divider and ADC: a true board, but noisy
        self.pins = tuple(Button(self.esp.pin(n)) for n in (board.PIN_BTN_MENU, board.PIN_BTN_NEXT, board.PIN_BTN_OK))
        self.reed = Button(self.esp.pin(board.PIN_KEY))  # the attendant's key: a magnet closes it
        self.asleep = False
        self.armed = None  # why the accelerometer would not wake the bowl, or None
        self._replay_mark = journal.replayed()
        self.boot("power")

    def boot(self, woke_by):
        """A reset: the chip starts afresh and board.bring_up() runs on it."""
        root = self.root
        board.Board.__init__(self)  # RAM is gone: every field as at power-up
        self.root = root
        self.urandom = self.esp.urandom  # os.urandom as the ESP32 port has it
        self.asleep = False
        self._twdt = None  # a reset stops the watchdog; the app starts it after the boot
        self.esp.reset(woke_by)
        if self.ring is not None:
            self.ring.write()  # the ring's supply follows its switch pin, now back at reset
        self.reset_at = self.ms
        self.cpu_on(True)
        try:
            self.esp.run(board.bring_up, True, self)
        finally:
            self.cpu_on(False)

    def booted(self):
        """board.Board.booted on the simulated chip: the CPU clock for play."""
        self.esp.run(board.Board.booted, self)

    def start_watchdog(self):
        """board.Board.start_watchdog on the simulated chip: machine.WDT(timeout=WDT_MS)."""
        self.esp.run(board.Board.start_watchdog, self)

    def _mark(self):
        # from here on, events the journal replays cost simulated time
        self._replay_mark = journal.replayed()

    def _charge(self):
        # the replay's CPU time since _mark() passes on the simulated clock (when the CPU
        # is not measured: cpu_factor counts it then)
        n = journal.replayed()
        if n != self._replay_mark and not self.realtime and not self.cpu_factor:
            self.charge_us((n - self._replay_mark) * REPLAY_US_HOST * ESP32_FACTOR * 240000000 // self.esp.hz)
        self._replay_mark = n

    # the chip's time (see the header)
    def charge_us(self, us):
        """us of the ESP32's time pass on the simulated clock."""
        if self.realtime:
            return
        us += self._us
        self.ms = (self.ms + us // 1000) & (TICKS_PERIOD - 1)
        self._us = us % 1000

    def cpu(self):
        """The firmware's CPU time since the last mark passes (x cpu_factor, which is
        for 240 MHz: scaled to the clock board.py set)."""
        if self._cpu_t is not None:
            now = _host_us()
            d = _host_diff(now, self._cpu_t)
            self.charge_us(int(d * self._rate * 240 // (self.esp.hz // 1000000)))
            self._cpu_t = now

    def cpu_on(self, on):
        """Count the firmware's host time from now (on) or stop counting it."""
        if on and self.cpu_factor:
            self._cpu_t = _host_us()
            if _work[1]:
                sys.settrace(_trace)
        else:
            if _work[1]:
                sys.settrace(None)
            self.cpu()
            self._cpu_t = None

    def io_us(self, us):
        """A part's transfer: the CPU until now, then us, and the fake's own time is not counted."""
        self.cpu()
        self.charge_us(us)
        if self._cpu_t is not None:
            self._cpu_t = _host_us()

    def now_us(self):
        self.cpu()
        return self.ms * 1000 + self._us

    def i2c_us(self, us):
        self.io_us(us)

    def io_end(self):
        """A fake's own work ends here: the firmware's CPU time counts again from now."""
        if self._cpu_t is not None:
            self._cpu_t = _host_us()

    def sampled(self, addr):
        """The accelerometer is read now: the chip gets its sample for this time."""
        if addr != ADDR_MPU:
            return
        self.cpu()
        t = self.ms * 1000 + self._us
        last = self._last_read
        if last is not None:
            gap = (t - last) % (TICKS_PERIOD * 1000)
            if gap > self.gap_max_us:
                self.gap_max_us = gap
            if self.shaking is not None and gap > self.gap_shaking_us and self.shaking():
                self.gap_shaking_us = gap
        self._last_read = t
        if self.feeder is not None:
            self.feeder(self.ms)
        if self._cpu_t is not None:
            self._cpu_t = _host_us()

    def now(self):
        """fake_wlan's clock: the board's ms."""
        self.cpu()
        return self.ms

    def wait(self, ms):
        """fake_wlan's clock: the caller (the game's loop) waits ms."""
        self.io_us(ms * 1000)

    def open_metered(self, real_open):
        board = self

        def metered(path, mode="r", *args, **kw):
            board.cpu()
            f = real_open(path, mode, *args, **kw)
            board.io_end()
            if ("w" in mode or "a" in mode or "+" in mode) and isinstance(path, str) \
                    and path.startswith(board.root):
                return _Metered(f, board)
            return f
        return metered

    # time: the device's wrap-around tick counters, on the simulated clock
    def ticks_ms(self):
        self.cpu()
        self._charge()
        if self.realtime:
            self.ms = time.ticks_ms() & (TICKS_PERIOD - 1)
        return self.ms

    def ticks_us(self):
        if self.realtime:
            return time.ticks_us() & (TICKS_PERIOD - 1)
        self.cpu()
        return (self.ms * 1000 + self._us) & (TICKS_PERIOD - 1)

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
        """board.Board.deepsleep on the simulated chip: ends in DeepSleep."""
        self.esp.run(board.Board.deepsleep, self)

    def strong_random(self, n):
        """board.Board.strong_random on the simulated chip (the radio on while it draws)."""
        return self.esp.run(board.Board.strong_random, self, n)


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

    def __init__(self, root, display=True, accel=True, leds=12, buzzer=True, urandom=None, t0=0, accel_id=0x68,
                 build="ESP32_GENERIC", air=None, cpu_factor=0, flash=False, draw_factor=None):
        self.board = SimBoard(root, display, accel, leds, buzzer, t0, accel_id=accel_id, cpu_factor=cpu_factor,
                              build=build,
                              flash=flash)
        # drawing may cost otherwise (CPython draws on host_sim/compat/framebuf.py, in Python)
        self.draw_factor = cpu_factor if draw_factor is None else draw_factor
        self.board.feeder = self._feed_to
        self.board.shaking = self._shaking
        self._fed_t = self.board.ms - TICK_MS
        self.air = air
        self.net = None  # the network task's Net, when air is given and net.txt provisioned
        self._net_co = None
        self._net_due = 0
        self._threads = []  # [(due ms, done, result)] of lookups running on their own thread
        self.hangs = 0  # network waits that would never have returned (then the watchdog reset)
        self._end = None  # where the last step() was to end
        self._tick_t = None  # when the last round began
        self.on_round = None  # on_round(start_us, end_us) after every round (bench/budget.py)
        if air is not None:
            air.clock = self.board
            self.board.sockets = _through(air)
            self.board.wlan = _fake_wlan().WLAN(0, air)
            self.board.spawn = self._spawn
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

    def attendant_key(self, hold_ms=300):
        """The attendant holds the magnet to the reed switch inside the case for hold_ms."""
        pin = self.board.reed
        pin.value(0)
        self._releases.append((self.board.ticks_add(self.board.ms, hold_ms), pin))

    def shake(self, trace="model_normal_shake"):
        """Queue a shake: a trace name in tests/data/traces, or a path to one."""
        path = trace if trace.endswith(".csv") else TRACES + "/" + trace + ".csv"
        self._queue.append(path)

    def power_cut(self):
        """The plug is pulled at this very moment and put back."""
        self._reboot("power")

    # --- time
    def step(self, ms=TICK_MS):
        """Let ms pass, in 10 ms steps (the app samples and runs every step). A
        round that cost more than its 10 ms (the chip's time) has already spent
        part of the next call's ms: the clock keeps to the caller's time line
        (a window's frames) and rounds are skipped, as the bowl's would be."""
        b = self.board
        end = b.ticks_add(self._end if self._end is not None else b.ms, ms)
        if b.ticks_diff(end, b.ms) < -WDT_MS:
            end = b.ticks_add(b.ms, ms)  # a reboot or a hang ran far ahead: that time is not owed
        self._end = end
        while b.ticks_diff(end, b.ms) > 0:  # by the clock: a slow boot takes its time
            # the next round 10 ms after the last began, or at once when it ran longer (the
            # sensor task's sleep has expired while another task held the loop)
            nxt = b.ticks_add(self._tick_t, TICK_MS) if self._tick_t is not None else b.ticks_add(b.ms, TICK_MS)
            b.ms = nxt if b.ticks_diff(nxt, b.ms) > 0 else b.ms
            self._tick_t = b.ms
            self._release_buttons()
            b.battery.drain(TICK_MS)
            if b.asleep:
                self._feed_chip()
                why = b.esp.woken()  # the wake sources board.py armed, on the pins' levels
                if why is not None:
                    self._wake(why)
                continue
            if self._starved():
                continue
            b._mark()
            meter = self._meter()
            t0 = b.ms * 1000 + b._us
            b.cpu_on(True)
            try:
                self.app.step(b.ms)
                self._net_round()
            except DeepSleep:
                self.sleeps += 1  # the ESP32 is off until the MPU6050's INT or OK wakes it
                continue
            finally:
                b.cpu_on(False)
                self._unmeter(meter)
                b._charge()
                if self.on_round is not None:
                    self.on_round(t0, b.ms * 1000 + b._us)
            if b.battery.rail_low_mv() < Battery.BROWNOUT_MV:
                self._reboot("brownout")  # the brown-out detector resets the chip
            else:
                self._starved()

    def _meter(self):
        # flash=True: files the firmware writes cost flash time; with the CPU measured, a
        # garbage collection costs what MicroPython's does on the chip, not CPython's
        b = self.board
        saved = [None, None]
        if b.cpu_factor and sys.implementation.name != "micropython":
            saved[1] = gc.collect

            def collect(*a):
                b.cpu()
                r = saved[1]()
                b.charge_us(GC_US * 240000000 // b.esp.hz)
                b.io_end()
                return r
            gc.collect = collect
        if b.flash:
            import builtins
            saved[0] = builtins.open
            builtins.open = b.open_metered(saved[0])
        return saved

    def _unmeter(self, saved):
        if saved[0] is not None:
            import builtins
            builtins.open = saved[0]
        if saved[1] is not None:
            gc.collect = saved[1]

    def _net_round(self):
        """The network task's turn, when its sleep is over (asyncio on the bowl)."""
        b = self.board
        th = self._threads
        for i in range(len(th) - 1, -1, -1):
            if b.ticks_diff(b.ms, th[i][0]) >= 0:
                due, done, r = th.pop(i)
                done(r)
        co = self._net_co
        if co is None or b.ticks_diff(b.ms, self._net_due) < 0:
            return
        mods = sys.modules
        saved = mods.get("asyncio")
        mods["asyncio"] = _SimAsyncio()
        try:
            req = co.send(None)
            self._net_due = b.ticks_add(b.ms, req.ms if isinstance(req, _Sleep) else 0)
        except StopIteration:
            self._net_co = None
        except _fake_wlan().Hang:
            # the task waits for ever: nothing else runs until the watchdog resets the bowl
            self.hangs += 1
            self._net_co = None
            b.charge_us((WDT_MS + TICK_MS) * 1000)
        finally:
            if saved is None:
                mods.pop("asyncio", None)
            else:
                mods["asyncio"] = saved

    def _spawn(self, fn, args, done):
        """A thread on the simulated chip: fn runs on its own clock (the loop goes on);
        done(result) comes when that clock says it ended."""
        air = self.air
        side = _SideClock(self.board.ms)
        air.clock = side
        try:
            r = (True, fn(*args))
        except Exception as e:
            r = (False, e)
        finally:
            air.clock = self.board
        self._threads.append((side.t, done, r))

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
        meter = self._meter()
        b.cpu_on(True)
        try:
            self.app = bowl_app.App(b, self.urandom or b.urandom)
        finally:
            b.cpu_on(False)
            self._unmeter(meter)
        b._charge()  # the boot's CPU time (the journal's replay) has passed
        self.boot_done_ms = b.ms
        if b.cpu_factor and self.draw_factor != b.cpu_factor:
            self._time_drawing()
        self._net_co = None
        self._threads = []
        if b.wlan is not None:
            # the app starts its network task as on the bowl; asyncio.create_task hands it here
            aio = _SimAsyncio()
            mods = sys.modules
            saved = mods.get("asyncio")
            mods["asyncio"] = aio
            try:
                from bowl import net
                self.net = net.start(self.app)
            finally:
                if saved is None:
                    mods.pop("asyncio", None)
                else:
                    mods["asyncio"] = saved
            self._net_co = aio.task
            self._net_due = b.ms

    def _shaking(self):
        # the detector is following a shake (console view "shaking"): samples then matter most
        return self.app is not None and self.app.con.view == _console.V_SHAKING

    def _time_drawing(self):
        b = self.board
        app = self.app
        real = app._draw

        def draw(s, c):
            b.cpu()
            b._rate = self.draw_factor
            try:
                real(s, c)
            finally:
                b.cpu()
                b._rate = b.cpu_factor
        app._draw = draw

    def _app_running(self):
        return self.app is not None and self.app.running

    def _reboot(self, why):
        self.resets.append(why)
        self.app = None  # a reset wipes the RAM: nothing of the old app lives on
        self._releases = []
        for p in self.board.pins:
            p.value(1)
        self.board.reed.value(1)
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

    def _next_sample(self):
        if self.stuck:
            return (17, -4, 998)
        s = None
        if self._trace is None and self._queue:
            self._trace = _Trace(self._queue.pop(0))
        if self._trace is not None:
            s = self._trace.next()
            if s is None:
                self._trace = None
        if s is None:
            s = self._rest()
        return s

    def _feed_to(self, now):
        # the chip samples every 10 ms on its own: a read gets the latest sample; a late
        # read has lost the ones between (the data registers hold only the newest)
        b = self.board
        n = b.ticks_diff(now, self._fed_t) // TICK_MS
        if n <= 0:
            return
        for _ in range(n):
            s = self._next_sample()
        self._fed_t = b.ticks_add(self._fed_t, n * TICK_MS)
        chip = b.chip
        chip.trace = [(now, s[0], s[1], s[2])]
        chip.pos = 0

    def _feed_chip(self):
        # asleep: cycle mode, the chip samples on its own while the ESP32 sleeps
        b = self.board
        s = self._next_sample()
        self._fed_t = b.ms
        chip = b.chip
        chip.trace = [(b.ms, s[0], s[1], s[2])]
        chip.pos = 0
        chip.step()


def _fake_wlan():
    from fakes import wlan as fake_wlan
    return fake_wlan


def _through(air):
    """umqtt.simple's sockets through the simulated radio -> the socket module (lookups)."""
    try:
        from umqtt import simple
    except ImportError:  # CPython: micropython-lib's umqtt.simple as built (make mp)
        sys.path.append(_here() + "/../../../build/mp/micropython-lib/micropython/umqtt.simple")
        from umqtt import simple
    fw = _fake_wlan()
    fw.through(air, simple)
    return simple.socket
