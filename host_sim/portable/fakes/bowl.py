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
# (fakes/esp32.py); the parts check what the real ones would: the accelerometer
# is fakes/mpu6050.py's register-checked MPU6050 on a fake I2C bus, driven by the
# real driver (bowl/mpu6050.py), and the display is fakes/parts.py's SSD1306 controller on
# the same bus, driven by the real one (bowl/oled.py over micropython-lib's ssd1306); the
# ring, buzzer and buttons are fakes/parts.py's too; the battery and its gauge are fakes/battery.py's. Waking from
# deep sleep is a reset, so the app starts again from the journal.
#
# The simulated clock advances by what each step would cost the ESP32 at the
# board's clock (fakes/chiptime.py), not only by the 10 ms rounds.
# Sampling slips as it would (the MPU6050 samples at 100 Hz on its own; a
# late read gets the latest sample, the ones between are lost); sample gaps
# are recorded (gap_max_us; gap_shaking_us while the console follows a shake).
# The watchdog fires when a step runs long. With Sim(air=...) the network task
# (bowl/net.py's run()) runs on the simulated clock against fake_wlan's radio
# and broker.
import gc
import sys
import time

# the fakes first: on the unix port they are compiled from source here, and the
# compiler needs heap that is still free before the firmware's .mpy are loaded
from host_sim.portable.fakes import mpu6050 as fake_mpu6050
from host_sim.portable.fakes import chiptime
from host_sim.portable.fakes.chiptime import TICKS_PERIOD
from host_sim.portable.fakes.parts import ADDR_OLED, Button, FakeNeoPixel, FakePWM, FakeSSD1306, KeySwitch, NoLog
from host_sim.portable.fakes.esp32 import DeepSleep, FakeESP32, HardReset
from host_sim.portable.fakes.battery import Battery, Divider

import board
from bobing import console as _console
from bobing import journal
from bowl import app as bowl_app

ADDR_MPU = board.ADDR_MPU  # the wiring is board.py's, never copied here
WIDTH = board.OLED_WIDTH  # sim.frame's size
HEIGHT = board.OLED_HEIGHT
TICK_MS = 10  # the app's sample period
WDT_MS = board.WDT_MS
BUTTONS = ("menu", "next", "ok")
LOCK_NO = "1001"  # the number of the bowl's lock, and of its two keys (a lock of EAO's numbered range)
SEP = "/"


def _here():
    f = __file__
    if f.startswith("fakes" + SEP):  # frozen (32-bit test build: the frozen name): run from the repo root
        return "host_sim/portable/fakes"
    return f[:f.rfind(SEP)]


TRACES = _here() + "/../../../tests/data/traces"


def _replayed():
    # journal.replayed()'s count, read without calling it: the fake's own look (at every
    # ticks_ms) is no work of the bowl's, and a call into firmware/ is counted as one
    return journal._replayed[0]


class SimBoard(board.Board):
    """The parts, on a simulated clock, brought up by board.py's own bring_up()
    on the simulated ESP32 (FakeESP32) at every reset. Sim drives it; tests may
    poke the parts: chip (the accelerometer), disp, ring, pwm, bus, esp (pads)."""
    _cpu_t = None  # (class defaults: a bare board in the tests counts no CPU time)
    cpu_factor = 0
    _rate = 0

    def __init__(self, root, display=True, accel=True, leds=12, buzzer=True, t0=0, realtime=False,
                 accel_id=0x68, build="ESP32_GENERIC", cpu_factor=0, flash=False, amp=True, partition=None):
        board.Board.__init__(self)
        try:
            import ssd1306  # noqa: F401  (board.py's display driver runs over the fake bus)
        except ImportError:
            raise ImportError("no ssd1306 driver: the simulated bowl runs micropython-lib's (frozen on the unix "
                              "build; on CPython from build/mp/micropython-lib: make mplib fetches it)")
        self.amp_fitted = amp  # a MAX98357A and its speaker on the I2S pins (the bowl cannot tell)
        self.i2s = None  # the last machine.I2S board.py made (fakes/i2s.py): what the amplifier heard
        self.root = root
        # partition: the vfs partition (fakes/flash.py) holding root's littlefs, mounted at root's
        # parent by the frozen _boot.py's board.mount() at every reset (32-bit unix port only)
        self.partition = partition
        self.mount_at = root[:root.rfind(SEP)] if partition is not None else "/"
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
        self.ssl = None  # Sim(air=...) with an in-memory broker: fake_wlan.FakeTls (bowl/net.py's tls_module)
        self.spawn = None
        self.lines = []
        self.echo = False
        self.chip = fake_mpu6050.FakeMPU6050([(0, 0, 0, 1000)], accel_id)  # WHO_AM_I: 0x70 an MPU-6500
        self.chip.present = accel
        self.bus = fake_mpu6050.FakeI2C({ADDR_MPU: self.chip})
        self.bus.log = NoLog()  # the fake bus logs every transfer; a bowl runs for hours
        self.bus.clock = None if realtime else self
        self.disp = FakeSSD1306(self.bus)  # the panel's controller: the app drives it with bowl/oled.py
        self.disp.present = display
        self.bus.devices[ADDR_OLED] = self.disp
        self.esp = FakeESP32(self, build)
        chip = self.chip
        self.esp.pin(board.PIN_MPU_INT).source = lambda: chip.int_level() if chip.present else None
        self.led_power_pin = self.esp.pin(board.PIN_LED_POWER)
        self.ring = FakeNeoPixel(leds, self.led_power_pin) if leds else None
        if self.ring is not None:
            self.led_power_pin.on_high = self.ring.powered_up
        if self.ring is not None and not realtime:
            self.ring.clock = self
        self.pwm = FakePWM() if buzzer else None
        self.battery = Battery(self)
        self.divider = Divider()  # the gauge's divider and ADC: a true board, but noisy
        self.pins = tuple(Button(self.esp.pin(n)) for n in (board.PIN_BTN_MENU, board.PIN_BTN_NEXT, board.PIN_BTN_OK))
        self.key_switch = KeySwitch(self.esp.pin(board.PIN_KEY), LOCK_NO)  # the attendant's key: only its key turns it
        self.asleep = False
        self.armed = None  # why the accelerometer would not wake the bowl, or None
        self._replay_mark = _replayed()
        self.boot("power")

    def boot(self, woke_by):
        """A reset: the chip starts afresh and board.bring_up() runs on it."""
        root = self.root
        board.Board.__init__(self)  # RAM is gone: every field as at power-up
        if sys.implementation.name == "micropython":  # (CPython frees them with their last reference)
            gc.collect()  # ... and the old boot's objects with it: bring_up starts in the heap the bowl has
        self.root = root
        self.urandom = self.esp.urandom  # os.urandom as the ESP32 port has it
        self.asleep = False
        self.twdt = None  # a reset stops the watchdog; the app starts it after the boot
        self.esp.chip_reset(woke_by)
        if woke_by in ("power", "brownout"):
            self.disp.power_up()  # the panel lost its supply too (in deep sleep it stays powered, off)
        if self.ring is not None:
            self.ring.write()  # the ring's supply follows its switch pin, now back at reset
        self.reset_at = self.ms
        if self.partition is not None:
            self._remount()
        self.cpu_on(True)
        try:
            self.esp.run(board.bring_up, True, self)
        finally:
            self.cpu_on(False)

    def _remount(self):
        # a reset unmounts everything (RAM is gone); then main.c runs the frozen _boot.py:
        # board.mount() on the port's flashbdev.bdev
        import vfs
        try:
            vfs.umount(self.mount_at)
        except OSError:
            pass  # (it did not mount last time)
        gc.collect()  # the old filesystem's open files are finalised now, while it is still whole
        self.esp.run(board.mount, self.mount_at)

    def booted(self):
        """board.Board.booted on the simulated chip: the CPU clock for play."""
        self.esp.run(board.Board.booted, self)

    def open_amp(self, rate, ibuf):
        """board.Board.open_amp on the simulated chip: machine.I2S on the amplifier's pins."""
        return self.esp.run(board.Board.open_amp, self, rate, ibuf)

    def start_watchdog(self):
        """board.Board.start_watchdog on the simulated chip: machine.WDT(timeout=WDT_MS)."""
        self.esp.run(board.Board.start_watchdog, self)

    def _mark(self):
        # from here on, events the journal replays cost simulated time
        self._replay_mark = _replayed()

    def charge_replay(self):
        # the replay's CPU time since _mark() passes on the simulated clock (when the CPU
        # is not measured: cpu_factor counts it then)
        n = _replayed()
        if n != self._replay_mark and not self.realtime and not self.cpu_factor:
            self.charge_us((n - self._replay_mark) * chiptime.REPLAY_US_HOST * chiptime.ESP32_FACTOR
                           * 240000000 // self.esp.hz)
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
            now = chiptime.host_us()
            d = chiptime.host_diff(now, self._cpu_t)
            self.charge_us(int(d * self._rate * 240 // (self.esp.hz // 1000000)))
            self._cpu_t = now

    def cpu_on(self, on):
        """Count the firmware's host time from now (on) or stop counting it."""
        if on and self.cpu_factor:
            self._cpu_t = chiptime.host_us()
            if chiptime.counting():
                sys.settrace(chiptime.trace)
        else:
            if chiptime.counting():
                sys.settrace(None)
            self.cpu()
            self._cpu_t = None

    def io_us(self, us):
        """A part's transfer: the CPU until now, then us, and the fake's own time is not counted."""
        self.cpu()
        self.charge_us(us)
        if self._cpu_t is not None:
            self._cpu_t = chiptime.host_us()

    def clock_us(self):
        """The simulated clock now, us (the CPU not charged up to here: a fake's look)."""
        return self.ms * 1000 + self._us

    def now_us(self):
        self.cpu()
        return self.ms * 1000 + self._us

    def i2c_us(self, us):
        self.io_us(us)

    def io_end(self):
        """A fake's own work ends here: the firmware's CPU time counts again from now."""
        if self._cpu_t is not None:
            self._cpu_t = chiptime.host_us()

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
            self._cpu_t = chiptime.host_us()

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
                return chiptime.Metered(f, board, mode)
            if isinstance(path, str) and path.startswith(board.root + "/voice/"):
                return _ReadTimed(f, board)  # a voice clip streamed from flash, a chunk at a time
            return f
        return metered

    # time: the device's wrap-around tick counters, on the simulated clock
    def ticks_ms(self):
        self.cpu()
        self.charge_replay()
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

    def restart(self):
        """board.Board.restart on the simulated chip: ends in HardReset."""
        self.esp.run(board.Board.restart, self)

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


class _ReadTimed:
    """A file read from flash by chunks (the voice's clips): each readinto costs its bytes at
    the SPI flash's read rate (chiptime.FLASH_READ_BYTES_PER_S, DIO at 40 MHz)."""

    def __init__(self, f, board):
        self._f = f
        self._board = board

    def readinto(self, buf):
        n = self._f.readinto(buf)
        self._board.io_us((n or 0) * 1000000 // chiptime.FLASH_READ_BYTES_PER_S)
        return n

    def close(self):
        self._f.close()

    def __getattr__(self, name):
        return getattr(self._f, name)


class Sim:
    """The whole bowl, on simulated time: inject presses and shakes, step time,
    read the frame and the LEDs. Resets (power cut, watchdog, waking from deep
    sleep) start a new App over the same parts and the same flash."""

    def __init__(self, root, display=True, accel=True, leds=12, buzzer=True, urandom=None, t0=0, accel_id=0x68,
                 build="ESP32_GENERIC", air=None, cpu_factor=0, flash=False, draw_factor=None, amp=True,
                 partition=None):
        self.board = SimBoard(root, display, accel, leds, buzzer, t0, accel_id=accel_id, cpu_factor=cpu_factor,
                              build=build, flash=flash, amp=amp, partition=partition)
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
            if air.broker is not None:
                self.board.ssl = _fake_wlan().FakeTls(air)
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

    def release(self, button, after_ms=0):
        """Let a held button go after_ms from now (a key let go in the window: the
        press lasts as long as the key was held)."""
        i = BUTTONS.index(button) if isinstance(button, str) else button
        pin = self.board.pins[i]
        self._releases = [r for r in self._releases if r[1] is not pin]
        self._releases.append((self.board.ticks_add(self.board.ms, after_ms), pin))

    def attendant_key(self, hold_ms=300, key_no=LOCK_NO):
        """The attendant turns key key_no in the case's lock and lets it spring back after
        hold_ms -> True if it turned (the lock's own key; another one does not)."""
        pin = self.board.key_switch
        if not pin.turn(key_no):
            return False
        self._releases.append((self.board.ticks_add(self.board.ms, hold_ms), pin))
        return True

    def magnet(self):
        """Someone holds a magnet (or a phone) to the case: no part of the bowl senses it."""
        self.board.key_switch.magnet()

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
                if b.i2s is not None:
                    b.i2s.run_due()  # I2S callbacks the port scheduled (none in blocking mode)
                self.app.step(b.ms)
                self._net_round()
            except DeepSleep:
                self.sleeps += 1  # the ESP32 is off until the MPU6050's INT or OK wakes it
                continue
            except HardReset:
                self._reboot("reset")  # machine.reset(): the app restarts into the same game
                continue
            finally:
                b.cpu_on(False)
                self._unmeter(meter)
                b.charge_replay()
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
                b.charge_us(chiptime.gc_us() * 240000000 // b.esp.hz)
                chiptime.collected()
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
        mods["asyncio"] = chiptime.SimAsyncio()
        try:
            req = co.send(None)
            self._net_due = b.ticks_add(b.ms, req.ms if isinstance(req, chiptime.Sleep) else 0)
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
        side = chiptime.SideClock(self.board.ms)
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
        w = self.board.twdt
        if w is not None and w.expired():
            self._reboot("watchdog")
            return True
        return False

    def _start(self):
        self.boots += 1
        # a reset wipes the RAM: the old network task, its Net and its lookups (which hold the old
        # app) go before the new boot, not after it (the old app stayed alive through it). Closed,
        # not dropped: a task the reset caught before its first round never ran, and dropped it
        # would say "coroutine 'kept' was never awaited" (one that ran is closed by its collection
        # anyway, so close() changes nothing for it)
        co = self._net_co
        self._net_co = None
        if co is not None:
            co.close()
        self.net = None
        self._threads = []
        gc.collect()  # the bowl boots with its whole heap free
        chiptime.collected()
        b = self.board
        b._mark()
        meter = self._meter()
        b.cpu_on(True)
        try:
            self.app = bowl_app.boot(b, self.urandom or b.urandom)  # the game, or the repair screen
        finally:
            b.cpu_on(False)
            self._unmeter(meter)
        b.charge_replay()  # the boot's CPU time (the journal's replay) has passed
        self.boot_done_ms = b.ms
        if b.cpu_factor and self.draw_factor != b.cpu_factor:
            self._time_drawing()
        if b.wlan is not None:
            # the app starts its network task as on the bowl; asyncio.create_task hands it here
            aio = chiptime.SimAsyncio()
            mods = sys.modules
            saved = mods.get("asyncio")
            mods["asyncio"] = aio
            try:
                self.net = self.app.start_net()  # as App.run starts it (its guards included)
            finally:
                if saved is None:
                    mods.pop("asyncio", None)
                else:
                    mods["asyncio"] = saved
            self._net_co = aio.task
            self._net_due = b.ms

    def _shaking(self):
        # the detector is following a shake (console view "shaking"): samples then matter most
        return self.app is not None and self.app.con is not None and self.app.con.view == _console.V_SHAKING

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

    def _reboot(self, why):
        self.resets.append(why)
        self.app = None  # a reset wipes the RAM: nothing of the old app lives on
        self._releases = []
        for p in self.board.pins:
            p.value(1)
        self.board.key_switch.value(1)
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
    from host_sim.portable.fakes import wlan as fake_wlan
    return fake_wlan


def _through(air):
    """umqtt.simple's sockets through the simulated radio -> the socket module (lookups)."""
    try:
        from umqtt import simple
    except ImportError:  # CPython: micropython-lib's umqtt.simple as built (make mp), on the path
        from umqtt import simple  # of host_sim.compat.install() (UMQTT)
    fw = _fake_wlan()
    fw.through(air, simple)
    return simple.socket
