# The simulated ESP32 under firmware/board.py (FakeESP32: `machine`, `esp32`,
# `neopixel` and `network` as MicroPython v1.28's ESP32 port has them):
# each GPIO pad starts in its datasheet reset state, Pin() changes a pull only
# as machine_pin.c does, and a pin's level is its weak pulls against the
# board's resistors and buttons (a level between V_IL and V_IH is recorded in
# `esp.undefined`); machine.Pin accepts only the GPIOs of the chosen build
# (ESP32_GENERIC or ESP32_GENERIC-SPIRAM, which lacks 16/17); deep sleep ends
# only through the wake sources board.py armed (esp32.wake_on_ext0/ext1), on
# those pins' levels, and is refused when the MPU6050 is not armed to wake it;
# the watchdog (machine.WDT) reboots the bowl when the app stops feeding it;
# machine.I2S is host_sim/portable/fakes/i2s.py's, on the amplifier's pins only.
# Runs on the MicroPython unix port and on CPython.
import hashlib
import os
import sys

import board
from host_sim.portable.fakes import chiptime


class DeepSleep(Exception):
    """The app put the bowl into deep sleep (on the bowl, deepsleep() never returns)."""


class HardReset(Exception):
    """machine.reset(): esp_restart(), never returns; the next boot's reset_cause() is
    HARD_RESET (ports/esp32/modmachine.c: ESP_RST_SW)."""


# What board.py's bring_up() and deepsleep() talk to: `machine`, `esp32` and
# `neopixel` as MicroPython's ESP32 port has them, over the same fake parts (the display's
# driver is the real one, bowl/oled.py, over this chip's I2C). The bowl's wiring comes
# from board.py; what the board adds around the pins (pull resistors, buttons) is
# hardware/wiring.md's, in EXTERNAL.
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
# The attendant's key switch (board.PIN_KEY, input only: no weak pulls) has its 100k pull-up.
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
        self.on_high = None  # called when the pad starts driving high (the ring's supply switch)
        self.reset()

    def reset(self):
        self.mode = 0  # not an input or output until configured
        self.reg = 0  # the output register
        self.pu = self.n in PULL_UP_AT_RESET
        self.pd = self.n in PULL_DOWN_AT_RESET
        self.handler = None
        self.trigger = 0

    def _driving(self):
        return self.mode & 2 and self.reg

    def _changed(self, was):
        if self.on_high is not None and not was and self._driving():
            self.on_high()

    def init(self, mode=None, pull=_ANY, value=None):
        was = self._driving()
        if value is not None:
            self.reg = 1 if value else 0  # set before the mode, as the port does
        if mode is not None:
            if mode & 2 and self.n >= INPUT_ONLY_FROM:
                raise ValueError("pin can only be input")
            self.mode = mode
        self._changed(was)
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
            was = self._driving()
            self.reg = 1 if v else 0
            self._changed(was)
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
        self.value(1)

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


class FakeESP32:
    """The chip under board.py: its pads, why it (re)started, the wake sources
    armed for deep sleep; and the modules `machine`, `esp32`, `neopixel`, `network` and
    `flashbdev` as board.py imports them (this one object stands in for them all,
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
    _MODULES = ("machine", "esp32", "neopixel", "network", "flashbdev")
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
        self.rf_calibrated = False  # NVS's phy calibration data (kept across resets; a new bowl has none)
        self.Pin = _Part(self.pin, IN=_IN, OUT=_OUT, OPEN_DRAIN=7, PULL_UP=_PULL_UP, PULL_DOWN=_PULL_DOWN,
                         IRQ_RISING=1, IRQ_FALLING=2)
        self.ADC = _Part(self._adc, ATTN_0DB=0, ATTN_2_5DB=1, ATTN_6DB=2, ATTN_11DB=3)
        self._I2S = None
        self.i2s = {}  # id -> the FakeI2S made on it (one object an id, as the port keeps them)
        self.chip_reset("power")

    def chip_reset(self, why):
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
        self.i2s = {}  # RAM is gone: no I2S object, its DMA stopped

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

    def reset(self):
        raise HardReset()  # machine.reset(): Sim reboots the chip with cause "reset"

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

    @property
    def I2S(self):
        """machine.I2S, its module loaded at first use (a bowl without clips never asks: on the
        unix port the fake's code is heap)."""
        if self._I2S is None:
            from host_sim.portable.fakes import i2s as fake_i2s
            self._I2S = _Part(self._i2s, TX=fake_i2s.TX, RX=fake_i2s.RX, MONO=fake_i2s.MONO,
                              STEREO=fake_i2s.STEREO, shift=fake_i2s.shift)
        return self._I2S

    def _i2s(self, id, **kw):
        """machine.I2S(id, sck=, ws=, sd=, mode=, bits=, format=, rate=, ibuf=): a FakeI2S whose
        samples reach the simulated MAX98357A when sck/ws/sd are its pins (board.PIN_AMP_*) and
        one is fitted (SimBoard.amp_fitted); it cannot tell otherwise, nor can the bowl."""
        from host_sim.portable.fakes import i2s as fake_i2s
        if not isinstance(id, int) or not 0 <= id < fake_i2s.IDS:
            raise ValueError("invalid id")
        old = self.i2s.get(id)
        if old is not None:
            old.deinit()  # mp_machine_i2s_make_new_instance: the same id again deinits the old one
        pins = {}
        for k in ("sck", "ws", "sd"):
            p = kw.get(k)
            if p is not None and not isinstance(p, Pad):
                raise TypeError("%s: a Pin" % k)
            pins[k] = p.n if p is not None else -1
        dev = fake_i2s.FakeI2S(self.sim, id, pins)
        dev.init(**kw)
        dev.reaches_amp = (self.sim.amp_fitted and pins == {"sck": board.PIN_AMP_BCLK, "ws": board.PIN_AMP_LRC,
                                                           "sd": board.PIN_AMP_DIN} and kw["mode"] == fake_i2s.TX)
        self.i2s[id] = dev
        self.sim.i2s = dev
        return dev

    def _adc(self, pin, atten=0):
        if pin.n != board.PIN_VBAT:
            raise OSError("nothing to measure on GPIO%d" % pin.n)
        return FakeADC(self.sim.divider, self.sim.battery.mv, self.sim)

    def WDT(self, id=0, timeout=5000):
        return WDT(self.sim, id, timeout)

    def deepsleep(self, *ms):
        """machine.deepsleep([ms]): the wake sources armed by esp32.wake_on_ext0/ext1,
        and the RTC timer whenever ms is given (ESP_SLEEP_WAKEUP_TIMER, wake_reason() 4),
        are all that can end it; on the bowl it never returns. ports/esp32/modmachine.c
        machine_sleep_helper arms the timer when any argument is given: deepsleep(0) wakes at once."""
        sim = self.sim
        if ms:
            self.timer_at = sim.ticks_add(sim.ms, ms[0])
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

    # --- flashbdev (ports/esp32/modules/flashbdev.py): the "vfs" data partition, or None
    @property
    def bdev(self):
        return getattr(self.sim, "partition", None)

    # --- os.urandom, network
    def urandom(self, n):
        """os.urandom on this ESP32: esp_random() (ports/esp32/mphalport.c) is a
        true RNG only while the radio runs (ESP-IDF, esp_random); with it off
        the simulation gives a pseudo-random stream that starts over at every
        reset, the same on every bowl: predictable, which is the point. (With
        the work counted, the radio's stream too: the same run every time.)"""
        if self.radio and not chiptime.counting():
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
        if on and not self.radio and not self.rf_calibrated:
            # the first start of the radio: ESP-IDF's full RF calibration, in the caller's
            # time (fakes/chiptime.py RF_FULL_CAL_US); its data then stays in NVS
            self.rf_calibrated = True
            self.sim.io_us(chiptime.RF_FULL_CAL_US)
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

    # --- neopixel
    def NeoPixel(self, pin, n):
        ring = self.sim.ring
        if ring is None or pin.n != board.PIN_LED_DATA:
            raise OSError("no LED ring on GPIO%d" % pin.n)
        if not pin.mode & 2:
            raise OSError("NeoPixel data pin GPIO%d is not an output" % pin.n)
        ring.data = pin
        if n != ring.n:
            raise ValueError("the ring has %d LEDs, not %d" % (ring.n, n))
        return ring

    def run(self, fn, *args):
        """fn(*args) with this chip as machine/esp32/neopixel/network (board.py
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
    board.charge_replay()  # the CPU time spent so far (a boot's replay) has passed before it starts
    w = board.twdt
    if w is None:
        w = board.twdt = FakeWDT(board, timeout)
    else:
        w._timeout = timeout
        w._fed = board.ms
    return w
