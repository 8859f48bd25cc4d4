"""The tiny shim that lets firmware/bobing run unchanged on CPython.

MicroPython has `micropython.const()` and wrap-safe `time.ticks_*()`; CPython has
neither. `install()` provides exactly those, with the ESP32's tick period
(2**30) so that wrap-around is exercised on the host as it happens on the bowl.
"""
import os
import sys
import time
import types

TICKS_PERIOD = 1 << 30
_TICKS_MAX = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD // 2

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(_ROOT, "firmware")
# the other code that runs on both interpreters by one top-level name (dice_stats, screen_cases);
# the simulated parts are the package host_sim.portable.fakes on both
PORTABLE = os.path.join(_ROOT, "host_sim", "portable")
# micropython-lib at the commit MicroPython v1.28.0 pins, as `make mp` (or `make mplib`) fetched it:
# the bowl's MQTT client and display driver on CPython too, the code the bowl freezes
MPY_LIB = os.path.join(_ROOT, "build", "mp", "micropython-lib")
UMQTT = os.path.join(MPY_LIB, "micropython", "umqtt.simple")
SSD1306 = os.path.join(MPY_LIB, "micropython", "drivers", "display", "ssd1306")


def const(x):
    return x


def ticks_add(t, delta):
    return (t + delta) & _TICKS_MAX


def ticks_diff(a, b):
    """a - b, correct across one wrap, exactly as MicroPython defines it."""
    return ((a - b + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


def ticks_ms():
    return int(time.monotonic() * 1000) & _TICKS_MAX


def ticks_us():
    return int(time.monotonic() * 1000000) & _TICKS_MAX


def sleep_ms(ms):
    time.sleep(ms / 1000)


def sleep_us(us):
    time.sleep(us / 1000000)


def install():
    """Idempotent: make `micropython` importable, add ticks to `time`, put firmware/,
    host_sim/portable, umqtt.simple and ssd1306 on sys.path. The one set-up of every host entry point
    (importing host_sim does none of it)."""
    if sys.implementation.name == "micropython":
        return
    if "micropython" not in sys.modules:
        mod = types.ModuleType("micropython")
        mod.const = const
        mod.native = mod.viper = lambda f: f
        sys.modules["micropython"] = mod
    for name in ("ticks_add", "ticks_diff", "ticks_ms", "ticks_us", "sleep_ms", "sleep_us"):
        if not hasattr(time, name):
            setattr(time, name, globals()[name])
    if FIRMWARE not in sys.path:
        sys.path.insert(0, FIRMWARE)
    for p in (PORTABLE, UMQTT, SSD1306):
        if p not in sys.path:
            sys.path.append(p)
    if "framebuf" not in sys.modules:  # the screen module's `import framebuf`
        from host_sim.compat import framebuf
        sys.modules["framebuf"] = framebuf
