# The chip's time: what each step of the simulated bowl costs the ESP32 at the board's
# clock, charged to the simulated clock by SimBoard (host_sim/portable/fakes/bowl.py), not
# only the app's 10 ms rounds:
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
# Runs on the MicroPython unix port and on CPython (counting work needs sys.settrace: CPython).
import os
import sys
import time

import framebuf

import board

TICKS_PERIOD = 1 << 30  # the ESP32's tick wrap, so wrap bugs show here too


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
FIRMWARE_DIR = os.path.dirname(os.path.abspath(board.__file__)) if hasattr(os, "path") else ""  # (CPython only)
FRAMEBUF_FILE = getattr(framebuf, "__file__", "")


def _line(frame, event, arg):
    if event == "line":
        _work[0] += LINE_NS
    return _line


def trace(frame, event, arg):
    fn = frame.f_code.co_filename
    if fn.startswith(FIRMWARE_DIR):
        _work[0] += CALL_NS
        return _line
    if fn == FRAMEBUF_FILE and frame.f_back is not None and frame.f_back.f_code.co_filename.startswith(FIRMWARE_DIR):
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


def counting():
    """Is the firmware's work counted (count_work(True)) rather than timed?"""
    return _work[1]


def host_us():
    # counted: ESP32 us at 240 MHz of the work counted so far; else CPython: this thread's CPU
    # time (other processes' load does not count; the host's file system calls do: the flash is
    # charged apart, so files cost a little twice); MicroPython: wall time
    if _work[1]:
        return _work[0] // 1000
    if hasattr(time, "thread_time_ns"):
        return time.thread_time_ns() // 1000
    return time.ticks_us()


def host_diff(a, b):
    if _work[1] or hasattr(time, "thread_time_ns"):
        return a - b
    return time.ticks_diff(a, b)


class Sleep:
    # what asyncio.sleep() is to the network task when the simulator runs it
    def __init__(self, ms):
        self.ms = ms

    def __iter__(self):
        yield self

    __await__ = __iter__


class SimAsyncio:
    """asyncio as the network task sees it in the simulator: sleeps on the board's clock."""

    task = None

    def create_task(self, co):
        self.task = co  # the simulator runs it (Sim._net_round)
        return co

    def sleep(self, s):
        return Sleep(int(s * 1000))

    def sleep_ms(self, ms):
        return Sleep(ms)


class SideClock:
    # a thread's own time (a name lookup): it waits without holding the game's loop
    def __init__(self, t):
        self.t = t

    def now(self):
        return self.t

    def wait(self, ms):
        self.t += ms


class Metered:
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
