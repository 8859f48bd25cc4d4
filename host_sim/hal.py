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
# host_sim/fake_mpu6050.py's register-checked MPU6050 on a fake I2C bus, driven
# by the real driver (bowl/mpu6050.py); the display is a real FrameBuffer
# (the unix port's framebuf, host_sim/framebuf.py on CPython) and is only
# seen when show() is called; the ring only lights while its supply switch is
# on; the watchdog reboots the bowl when the app stops feeding it; deep sleep
# refuses to sleep when the MPU6050 is not armed to wake it; waking is a
# reset, so the app starts again from the journal.
import gc
import hashlib
import os
import sys
import time

import framebuf

# the fake first: on the unix port it is compiled from source here, and its
# compiler needs heap that is still free before the firmware's .mpy are loaded
if sys.implementation.name == "micropython":
    import fake_mpu6050  # host_sim/ itself is on sys.path on the unix port
else:
    from host_sim import fake_mpu6050

import board
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
    i = f.rfind(SEP)
    return f[:i] if i >= 0 else "host_sim"  # frozen (32-bit test build): run from the repo root


TRACES = _here() + "/../tests/data/traces"


class DeepSleep(Exception):
    """The app put the bowl into deep sleep (on the bowl, deepsleep() never returns)."""


class FakeDisplay(framebuf.FrameBuffer):
    """A 128x64 SSD1306 as the app sees it: a FrameBuffer plus show(). What the
    panel shows is the buffer as of the last show(), in `shown`."""

    def __init__(self, bus):
        self.bus = bus  # show() is an I2C transfer: a missing or glitching bus raises there
        self.buffer = bytearray(WIDTH * HEIGHT // 8)
        super().__init__(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        self.width = WIDTH
        self.height = HEIGHT
        self.shown = bytearray(len(self.buffer))
        self.shows = 0
        self.on = True
        self.present = True  # on the I2C bus; False: unplugged

    def write(self, buf):
        pass  # a command or data transfer addressed to the SSD1306 (contents not modelled)

    def show(self):
        self.bus.writeto(ADDR_OLED, b"\x40")  # ENODEV / ETIMEDOUT as machine.I2C raises them
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
        if not 0 <= n <= 39 or n in (20, 24, 28, 29, 30, 31):
            raise ValueError("invalid pin")  # as machine_pin.c says for a GPIO the ESP32 lacks
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


class FakeADC:
    """machine.ADC on a pad: read_uv() of the voltage on it (the battery divider)."""

    def __init__(self, volts):
        self.volts = volts

    def read_uv(self):
        return self.volts() * 1000

    def read_u16(self):
        return min(65535, self.volts() * 65535 // 3100)  # 11 dB attenuation: ~3.1 V full scale


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
    _MODULES = ("machine", "esp32", "neopixel", "ssd1306", "network")
    _WHY = {"power": (1, 0), "brownout": (1, 0), "watchdog": (3, 0), "shake": (4, 2), "button": (4, 3),
            "reset": (2, 0)}  # the port reports a brown-out as PWRON_RESET (modmachine.c)

    def __init__(self, sim):
        self.sim = sim  # the SimBoard: its parts and clock
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
        self.hz = 240000000
        self.radio = False  # Wi-Fi off: the bowl never starts it but to draw a secret
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
        return FakeADC(self.sim.vbat_pin_mv)

    def WDT(self, id=0, timeout=5000):
        return WDT(self.sim, id, timeout)

    def deepsleep(self, ms=0):
        """machine.deepsleep(): the wake sources armed by esp32.wake_on_ext0/ext1
        are all that can end it; on the bowl it never returns."""
        sim = self.sim
        if self.ext0 is not None and self.ext0[0].source is not None and sim.accel is not None:
            sim.armed = sim.chip.wake_armed()
            if sim.armed is not None:
                raise OSError("deep sleep refused: the MPU6050 would not wake the bowl: " + sim.armed)
        for p in self.pads.values():
            p.mode &= 1  # outputs are not held in deep sleep: the pad floats to its pulls
        sim.asleep = True
        raise DeepSleep()

    def woken(self):
        """What wakes the sleeping chip now: "shake" (ext0), "button" (ext1) or None."""
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
        reset, the same on every bowl: predictable, which is the point."""
        if self.radio:
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
        i2c.writeto(addr, b"\x80\xae")  # the driver's first command: raises as the bus does
        d = self.sim.disp
        if (width, height) != (d.width, d.height):
            raise ValueError("the panel is %dx%d" % (d.width, d.height))
        d.on = True
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
    falls as the charge runs out and sags while the ring is lit. The 3V3 rail
    follows the cell less the LDO's dropout once the cell is that low; below
    RAIL_MIN_MV the ESP32 module is out of its rating (WROOM-32E datasheet:
    3.0-3.6 V) and the simulation browns it out (a reset)."""
    CURVE = ((0, 3200), (2, 3400), (5, 3520), (10, 3620), (20, 3690), (30, 3730), (40, 3760),
             (50, 3790), (60, 3840), (70, 3900), (80, 3970), (90, 4060), (100, 4180))  # (% charge, mV)
    R_MOHM = 250  # cell, protection FETs and lead: an assumption for a cell in its second season
    DROPOUT_MV = 250  # the board's LDO at the bowl's currents (assumption: measure yours)
    RAIL_MIN_MV = 3000
    AWAKE_UA = 53000  # hardware/power.md: the ESP32, the OLED, the accelerometer, the buzzer (the ring on top)
    ASLEEP_UA = 60
    LED_UA = 12000  # a WS2812B channel at full (255); 0.8 mA each dark, while powered
    LED_DARK_UA = 800

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
        ua = self.AWAKE_UA
        ring = b.ring
        if ring is not None and b.led_power_pin.value():
            lit = 0
            for rgb in ring.shown:
                lit += rgb[0] + rgb[1] + rgb[2]
            ua += ring.n * self.LED_DARK_UA + lit * self.LED_UA // 255
        return ua

    def mv(self):
        return self.ocv_mv() - self.load_ua() * self.R_MOHM // 1000000

    def rail_mv(self):
        return min(VDD_MV, self.mv() - self.DROPOUT_MV)

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

    def __init__(self, root, display=True, accel=True, leds=12, buzzer=True, t0=0, realtime=False,
                 accel_id=0x68):
        board.Board.__init__(self)
        self.root = root
        self.realtime = realtime  # True: the real clock (App.run under asyncio), else Sim's
        self.ms = t0 & (TICKS_PERIOD - 1)
        self.lines = []
        self.echo = False
        self.chip = fake_mpu6050.FakeMPU6050([(0, 0, 0, 1000)], accel_id)  # WHO_AM_I: 0x70 an MPU-6500
        self.chip.present = accel
        self.bus = fake_mpu6050.FakeI2C({ADDR_MPU: self.chip})
        self.bus.log = _NoLog()  # the fake bus logs every transfer; a bowl runs for hours
        self.disp = FakeDisplay(self.bus)
        self.disp.present = display
        self.bus.devices[ADDR_OLED] = self.disp
        self.esp = FakeESP32(self)
        chip = self.chip
        self.esp.pin(board.PIN_MPU_INT).source = lambda: chip.int_level() if chip.present else None
        self.led_power_pin = self.esp.pin(board.PIN_LED_POWER)
        self.ring = FakeNeoPixel(leds, self.led_power_pin) if leds else None
        self.pwm = FakePWM() if buzzer else None
        self.battery = Battery(self)
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
        self.esp.run(board.bring_up, True, self)

    def start_watchdog(self):
        """board.Board.start_watchdog on the simulated chip: machine.WDT(timeout=WDT_MS)."""
        self.esp.run(board.Board.start_watchdog, self)

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

    def vbat_pin_mv(self):
        return self.battery.mv() // board.VBAT_DIVIDER  # the FireBeetle's divider on GPIO34

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

    def __init__(self, root, display=True, accel=True, leds=12, buzzer=True, urandom=None, t0=0, accel_id=0x68):
        self.board = SimBoard(root, display, accel, leds, buzzer, t0, accel_id=accel_id)
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
        """Let ms pass, in 10 ms steps (the app samples and runs every step)."""
        b = self.board
        end = b.ticks_add(b.ms, ms)
        while b.ticks_diff(end, b.ms) > 0:  # by the clock: a slow boot takes its time
            b.ms = b.ticks_add(b.ms, TICK_MS)
            self._release_buttons()
            self._feed_chip()
            b.battery.drain(TICK_MS)
            if b.asleep:
                why = b.esp.woken()  # the wake sources board.py armed, on the pins' levels
                if why is not None:
                    self._wake(why)
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
            if b.battery.rail_mv() < Battery.RAIL_MIN_MV:
                self._reboot("brownout")  # the rail fell out of the ESP32's rating: it resets
            else:
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
        self.app = bowl_app.App(b, self.urandom or b.urandom)
        b._charge()  # the boot's CPU time (the journal's replay) has passed

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
