# The chip's time: what each step of the simulated bowl costs the ESP32 at the board's
# clock, charged to the simulated clock by SimBoard (host_sim/portable/fakes/bowl.py), not
# only the app's 10 ms rounds:
#   - every I2C transfer at the bus's 400 kHz plus the driver's own time
#     (fake_mpu6050.FakeI2C: a frame is 1,044 bytes on the wire, >= 23.5 ms;
#     a stuck bus waits 100 ms a byte as the legacy driver does)
#   - the LED ring's write: 24 bits x 1.25 us an LED plus the latch (WS2812B)
#   - flash (flash=True): each commit of a written file (flush or close) costs what
#     littlefs programs and erases for it by the file's size (commit_cost, checked
#     against bench/journal_bench.py on a real littlefs), at a 4 MB SPI NOR's
#     typical or maximum times (GD25Q32C: page program 0.7 ms; W25Q32JV: sector erase
#     45 ms typical, 3 ms / 400 ms maximum)
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


# The CPU factor: ESP32 us at 240 MHz per us of the 32-bit frozen unix build here.
# MicroPython's own perf_bench scores for an ESP32 at 240 MHz (micropython/micropython
# issue #6565, v1.13 and v1.13-180, N=100 M=100) against the same benchmark files (v1.13's)
# on the frozen v1.28.0 build here (bench/perf_factor.py, the best of its runs): geometric
# means 104 and 112 over nine benchmarks; a 32-bit v1.13 build here scores the same within
# a few % (107 against the ESP32's v1.13), so MicroPython's own speed did not move much
# since (hardware/timing.md has the table). 105 is taken; ESP32_FACTOR_HIGH (1.5x) is the
# uncertainty bench/budget.py holds its limits at too.
ESP32_FACTOR = 105
ESP32_FACTOR_HIGH = ESP32_FACTOR * 3 // 2
_factor = [ESP32_FACTOR]  # the factor the counted work is charged at now (set_factor)


# What a replayed journal event costs the bowl's CPU, charged to the simulated
# clock (boot, or a resume after a failed write) when the CPU is not measured
# (cpu_factor 0), so that a slow boot shows against the watchdog as it would on
# the bowl. Measured: replaying a whole 1,000- or 10,000-event kiosk game
# (claim codes included) takes 63-74 us an event on the 32-bit frozen unix
# build (bench/boot_bench.py, `make bench`); 70 is taken, x ESP32_FACTOR, scaled to
# the clock board.py set. REPLAY_US: at the board's 160 MHz, 11 ms an event.
REPLAY_US_HOST = 70
REPLAY_US = REPLAY_US_HOST * ESP32_FACTOR * 240 // 160
LED_US = 30  # one WS2812B: 24 bits x 1.25 us (Worldsemi datasheet)
LED_LATCH_US = 280  # reset/latch low time of the WS2812B-V5 (>= 280 us); older parts 50 us

# Flash (flash=True): what littlefs programs and erases at each commit of a written file
# (a flush -- store.fsync, the journal's every append -- or a close with data not yet
# committed), at a 4 MB SPI NOR's datasheet figures: (page program us, 4 KB sector erase us).
# The module's flash part is not named by Espressif: GigaDevice GD25Q32C tPP 0.7 ms typical;
# Winbond W25Q32JV tPP 3 ms max, tSE 45 ms typical and 400 ms max (AC characteristics).
FLASH_TYP = (700, 45000)
FLASH_MAX = (3000, 400000)
FLASH = list(FLASH_TYP)  # the figures charged now (bench/budget.py runs at both)
# littlefs as the ESP32 port mounts it (vfs.VfsLfs2 defaults: read/prog size 32, so a file
# cache of 128 bytes; 4096-byte blocks): a file of up to 128 bytes lives inline in its
# directory's metadata (a commit programs ~2 pages, erases nothing: bench/journal_bench.py
# measured 1.76); a longer one is copied on write: a commit copies the file's last block to
# a freshly erased one (1 erase, its bytes in 128-byte programs) and commits the new
# pointer (1 program); a new file's first commit erases and programs every block it fills.
# bench/journal_bench.py's measured 11.1 programs and 1.02 erases a commit of a 10-seat game's
# journal file (< 4 KB, ~1.3 KB in the last block) are what this gives; a roll itself is
# committed to the journal's inline tail (bobing/journal.py), measured 1.00 program and 0.003
# erases (its directory's log compacted about once in 300 rolls), charged as 2 programs.
LFS_INLINE = 128
LFS_BLOCK = 4096
LFS_PROG = 128


def commit_cost(size, fresh):
    """(page programs, sector erases) of littlefs committing a file of `size` bytes:
    fresh, its first commit (a new file: every block new); else an append's commit."""
    if size <= LFS_INLINE:
        return 2, 0
    if fresh:
        blocks = (size + LFS_BLOCK - 1) // LFS_BLOCK
        return (size + LFS_PROG - 1) // LFS_PROG + 1, blocks
    last = size % LFS_BLOCK or LFS_BLOCK
    return (last + LFS_PROG - 1) // LFS_PROG + 1, 1


def commit_us(size, fresh):
    p, e = commit_cost(size, fresh)
    return p * FLASH[0] + e * FLASH[1]


# ESP-IDF's own start, before main.py: what every power-on and every reset costs before the
# app's first line. Espressif (ESP-Techpedia, "ESP Chip Startup Time Optimization"): an
# unoptimised start takes "generally around 300 milliseconds" from power-on to app_main;
# on top of that, the second-stage bootloader checks the whole image's SHA-256 at every
# power-on (CONFIG_BOOTLOADER_SKIP_VALIDATE_ON_POWER_ON is off in ESP-IDF's defaults and
# the port's sdkconfig.base), reading it at the flash's DIO 40 MHz (2 bits x 40 MHz =
# 10 MB/s; ESP-IDF's default CONFIG_ESPTOOLPY_FLASHMODE_DIO, FLASHFREQ_40M).
IDF_START_US = 300000
FLASH_READ_BYTES_PER_S = 10000000
IMAGE_BYTES = 2000526  # bench/image_size.py's estimate of the bowl's image (tests/test_image_size.py)


def idf_start_us(image_bytes=IMAGE_BYTES):
    return IDF_START_US + image_bytes * 1000000 // FLASH_READ_BYTES_PER_S


# The first wlan.active(True) after the flash was erased: ESP-IDF's full RF calibration
# (no calibration data in NVS yet) "takes 100 ms longer than the partial calibration"
# (ESP-IDF Programming Guide, RF Calibration); later starts do the partial one, not
# charged (no figure published).
RF_FULL_CAL_US = 100000

# The TLS handshake with the event broker (bowl/net.py's _Tls): Mbed TLS's C code, in one
# call (extmod/modtls_mbedtls.c loops on mbedtls_ssl_handshake), so the game's loop waits
# for all of it. MicroPython on an ESP32 at 240 MHz, a TLS 1.2 client handshake with
# ECDHE-ECDSA: 926 ms best, 932 median, 1,067 worst of 5 (github.com/miguelgrinberg/microdot/issues/34,
# a MicroPython contributor's benchmark; its key exchange was P-384). On P-256 (the event's
# certificate) one ECDSA signature alone takes ~194 ms in software on the ESP32
# (github.com/espressif/esp-idf/issues/1177: 10 signs in 1,944 ms), and the client does one ECDSA check
# and two ECDH point multiplications, about 4-5 of those: the same order. The median is
# charged, not x the factor (it is the chip's own time, not the host's).
TLS_HANDSHAKE_US = 932000

# Counted CPU (bench/budget.py, CPython only; count_work(True)): instead of timing
# the host, the firmware's work is counted at fixed costs, so that a run gives the
# same figures whatever the host's load. Counted (sys.settrace, in frames of
# firmware/ files only): each line of firmware Python executed, each call of a
# firmware function, and each call from the firmware into framebuf (C on the bowl;
# host_sim/compat/framebuf.py's Python is not counted); and the C-heavy calls the
# fit below cannot see (SHA-256 and JSON per call and per byte, string formatting per
# line that formats), wrapped where the firmware calls them. The costs are the
# 32-bit frozen unix build's ns here (bench/budget_work.py fits them on three
# pieces and measures the C calls), charged x the factor (set_factor).
LINE_HOST_NS = 33.8  # per line of firmware Python
CALL_HOST_NS = 1009  # per call of a firmware function (its frame, arguments, what it allocates)
FB_HOST_NS = 1829  # per framebuf call (a glyph's blit, a rectangle, a line of text)
SHA_CALL_HOST_NS = 120  # per hashlib.sha256 call (constructor, update, digest)
SHA_BYTE_HOST_NS = 4  # per byte hashed
JSON_CALL_HOST_NS = 2887  # per json.dumps/loads call
JSON_BYTE_HOST_NS = 31  # per byte of JSON text made or read
FORMAT_HOST_NS = 760  # per line that formats a string (%, str.format, f-string)
# Allocation, for the automatic garbage collections: bytes the frozen build allocates per
# counted operation (bench/budget_work.py, fitted as the times are), and per C call.
LINE_BYTES = 0
CALL_BYTES = 74  # py/objfun.c: a call's frame over 11 words is on the heap
FB_BYTES = 35
C_CALL_BYTES = 64  # a C call's result (a digest, a formatted line): an assumption
# A collection on the 32-bit frozen build in a 64K heap with the bowl's game live
# (bench/budget_gc.py: the least of its runs), and what the app can allocate between two
# (the heap's free bytes after a collection there): MicroPython collects when an allocation
# does not fit (py/gc.c gc_alloc), so every GC_FREE_BYTES allocated cost one collection.
GC_HOST_US = 24
GC_FREE_BYTES = 14608

LINE_NS = CALL_NS = FB_CALL_NS = 0  # ESP32 ns at 240 MHz, set_factor's
_n = [0, 0, 0, 0, 0]  # lines, calls, framebuf calls, C-heavy ns (host), C-call bytes
_work = [0, False, 0]  # -, counting on, bytes counted at the last collection
FIRMWARE_DIR = os.path.dirname(os.path.abspath(board.__file__)) if hasattr(os, "path") else ""  # (CPython only)
FRAMEBUF_FILE = getattr(framebuf, "__file__", "")


def set_factor(f):
    """Charge the counted work at ESP32 factor f (ESP32 us at 240 MHz per frozen-build us)."""
    global LINE_NS, CALL_NS, FB_CALL_NS
    _factor[0] = f
    LINE_NS = int(LINE_HOST_NS * f)
    CALL_NS = int(CALL_HOST_NS * f)
    FB_CALL_NS = int(FB_HOST_NS * f)


set_factor(ESP32_FACTOR)


def factor():
    return _factor[0]


def work_ns():
    """ESP32 ns at 240 MHz of the work counted so far."""
    n = _n
    return n[0] * LINE_NS + n[1] * CALL_NS + n[2] * FB_CALL_NS + int(n[3] * _factor[0])


def allocated():
    """Bytes the frozen build would have allocated for the work counted so far."""
    n = _n
    return n[0] * LINE_BYTES + n[1] * CALL_BYTES + n[2] * FB_BYTES + n[4]


AUTO_GC = [0]  # automatic collections charged so far (bench/budget.py prints them)


def _auto_gc():
    # the automatic collections the counted work has made due since the last look (one per
    # GC_FREE_BYTES allocated since the last collection) join the counted work
    k = (allocated() - _work[2]) // GC_FREE_BYTES
    if k > 0:
        _work[2] += k * GC_FREE_BYTES
        _n[3] += k * GC_HOST_US * 1000
        AUTO_GC[0] += k


def collected():
    """An explicit gc.collect(): the heap is clean again."""
    _work[2] = allocated()


def gc_us():
    """One collection, ESP32 us at 240 MHz."""
    return int(GC_HOST_US * _factor[0])


def _line(frame, event, arg):
    if event == "line":
        _n[0] += 1
    return _line


def _format_lines(code):
    # the lines of a code object that format a string: a str constant with "%" and then a
    # "%" operation on the same line, a str.format call, or an f-string's FORMAT_VALUE
    import dis
    out = set()
    pct = None
    line = None
    for ins in dis.get_instructions(code):
        if ins.starts_line is not None:
            line = ins.starts_line
            pct = None
        if ins.opname == "LOAD_CONST" and isinstance(ins.argval, str) and "%" in ins.argval:
            pct = line
        elif ins.opname == "BINARY_OP" and ins.argrepr in ("%", "%=") and pct == line:
            out.add(line)
        elif ins.opname == "FORMAT_VALUE" or (ins.opname in ("LOAD_ATTR", "LOAD_METHOD") and ins.argval == "format"):
            out.add(line)
    return out


_tracers = {}  # code object -> its line tracer


def _tracer(code):
    lines = _format_lines(code)
    if not lines:
        return _line

    def line(frame, event, arg):
        if event == "line":
            _n[0] += 1
            if frame.f_lineno in lines:
                _n[3] += FORMAT_HOST_NS
                _n[4] += C_CALL_BYTES
        return line
    return line


def trace(frame, event, arg):
    code = frame.f_code
    fn = code.co_filename
    if fn.startswith(FIRMWARE_DIR):
        _n[1] += 1
        t = _tracers.get(code)
        if t is None:
            t = _tracers[code] = _tracer(code)
        return t
    if fn == FRAMEBUF_FILE and frame.f_back is not None and frame.f_back.f_code.co_filename.startswith(FIRMWARE_DIR):
        _n[2] += 1
    return None


def _c(ns_host, nbytes):
    _n[3] += ns_host
    _n[4] += nbytes


def _from_firmware():
    return sys._getframe(2).f_code.co_filename.startswith(FIRMWARE_DIR)


class _Sha:
    # a firmware's hashlib.sha256: each call and byte charged
    def __init__(self, real):
        self._h = real

    def update(self, data):
        _c(SHA_CALL_HOST_NS + len(data) * SHA_BYTE_HOST_NS, 0)
        self._h.update(data)

    def digest(self):
        _c(SHA_CALL_HOST_NS, C_CALL_BYTES)
        return self._h.digest()

    def __getattr__(self, name):  # what MicroPython's sha256 lacks stays CPython's, uncharged
        return getattr(self._h, name)


_real_c = {}  # the wrapped C functions, as they were


def _meter_c(on):
    import hashlib
    import json
    if on and not _real_c:
        _real_c.update(sha256=hashlib.sha256, dumps=json.dumps, loads=json.loads)
        sha, dumps, loads = _real_c["sha256"], _real_c["dumps"], _real_c["loads"]

        def sha256(data=b""):
            h = sha(data)
            if not _work[1] or not _from_firmware():
                return h
            _c(SHA_CALL_HOST_NS + len(data) * SHA_BYTE_HOST_NS, C_CALL_BYTES)
            return _Sha(h)

        def dumps_(obj, *a, **kw):
            s = dumps(obj, *a, **kw)
            if _work[1] and _from_firmware():
                _c(JSON_CALL_HOST_NS + len(s) * JSON_BYTE_HOST_NS, C_CALL_BYTES + len(s))
            return s

        def loads_(s, *a, **kw):
            if _work[1] and _from_firmware():
                _c(JSON_CALL_HOST_NS + len(s) * JSON_BYTE_HOST_NS, C_CALL_BYTES + 2 * len(s))
            return loads(s, *a, **kw)
        hashlib.sha256, json.dumps, json.loads = sha256, dumps_, loads_
    elif not on and _real_c:
        hashlib.sha256, json.dumps, json.loads = _real_c["sha256"], _real_c["dumps"], _real_c["loads"]
        _real_c.clear()


_host_ticks = []  # time.ticks_us, ticks_ms as they were before count_work(True)


def count_work(on):
    """Charge the firmware's counted work (on) instead of the host's CPU time.
    The firmware's own time.ticks_us/ticks_ms (the host's clock on CPython, read
    e.g. as noise for the claim secret) then follow the counted work, so that
    nothing of the host's timing enters the run."""
    on = on and hasattr(sys, "settrace")
    if on and not _host_ticks:
        _host_ticks[:] = [time.ticks_us, time.ticks_ms]
        time.ticks_us = lambda: (work_ns() // 1000) & (TICKS_PERIOD - 1)
        time.ticks_ms = lambda: (work_ns() // 1000000) & (TICKS_PERIOD - 1)
    elif not on and _host_ticks:
        time.ticks_us, time.ticks_ms = _host_ticks
        del _host_ticks[:]
    _meter_c(on)
    _work[1] = on


def counting():
    """Is the firmware's work counted (count_work(True)) rather than timed?"""
    return _work[1]


def host_us():
    # counted: ESP32 us at 240 MHz of the work counted so far; else CPython: this thread's CPU
    # time (other processes' load does not count; the host's file system calls do: the flash is
    # charged apart, so files cost a little twice); MicroPython: wall time
    if _work[1]:
        _auto_gc()
        return work_ns() // 1000
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
    # a file opened for writing: each commit (a flush -- store.fsync -- or a close with
    # bytes not yet committed) costs littlefs's programs and erases (commit_us); the host's
    # own file system calls are not the bowl's CPU
    def __init__(self, f, board, mode="w"):
        self._f = f
        self._board = board
        self._fresh = "w" in mode  # a new file: its first commit writes every block
        self._dirty = False

    def write(self, data):
        b = self._board
        if b is not None:
            b.cpu()
        n = self._f.write(data)
        self._dirty = True
        if b is not None:
            b.io_end()
        return n

    def _commit(self):
        b = self._board
        if self._dirty and b is not None:
            self._dirty = False
            b.flash_writes += 1
            b.charge_us(commit_us(self._f.tell(), self._fresh))
            self._fresh = False

    def flush(self):
        b = self._board
        if b is not None:
            b.cpu()
        self._f.flush()
        self._commit()
        if b is not None:
            b.io_end()

    def close(self):
        b = self._board
        if b is not None:
            b.cpu()
        self._commit()
        self._f.close()
        if b is not None:
            self._board = None
            b.io_end()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        return iter(self._f)

    def __getattr__(self, name):
        return getattr(self._f, name)
