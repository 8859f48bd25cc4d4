# What the app is handed: ONE object whose parts are ready to use, each of
# which may be None when it is missing or failed to start (the app then
# carries on with what remains and reports the loss on it). firmware/board.py
# fills it from real pins on the ESP32; host_sim/portable/fakes/bowl.py fills it with fakes on
# the MicroPython unix port and on CPython. Nothing here touches `machine`.
#
#   display    FrameBuffer-like 128x64 mono: width, height, fill/pixel/blit...,
#              show(); optional poweroff()/poweron(), and send(between) (bowl/oled.py:
#              the frame in 32-byte transfers, between() after each: the app samples)
#   accel      accelerometer driver: read_into(buf) fills 3 int16 (milli-g)
#   pixels     NeoPixel-like: n, pixels[i] = (r, g, b), write()
#   led_power  Pin-like switch of the ring's supply (value(1) = on) or None
#   buttons    (MENU, NEXT, OK) Pin-like, value() == 0 while pressed
#   key        the attendant's key (a momentary keylock switch), Pin-like,
#              value() == 0 while the key is turned; None on a board without one
#   buzzer     PWM-like: freq(hz), duty_u16(d)
#   amp        machine.I2S-like (TX, 16-bit mono at bobing/voice.py's RATE): write(buf),
#              shift(buf=, bits=, shift=), deinit(); made by open_amp(rate, ibuf) when
#              the app has clips to say; None before, or without an amplifier
#   has_amp    the board has one (open_amp makes its I2S)
#   wdt        has feed(); None until the app calls start_watchdog()
#   root       folder of the bowl's files (journal, settings)
#   woke_by    why the app starts: "power", "shake", "button", "watchdog", "reset"
#   urandom    the random source of the dice: urandom(n) -> n bytes (os.urandom)
#   strong_random(n)  bytes with real entropy, for secrets (bobing.dice's threat model)
#   restart()  a hard reset into the same game (the app, out of memory mid-round)
#   storage    (block device, why) when the filesystem did not mount at boot (bowl/storage.py):
#              the app shows bowl/repair.py's screen in place of the game; None: mounted
import os
import time


class Hardware:
    def __init__(self):
        self.display = None
        self.accel = None
        self.pixels = None
        self.led_power = None
        self.buttons = ()
        self.key = None
        self.buzzer = None
        self.amp = None
        self.wdt = None
        self.root = "/data"
        self.woke_by = "power"
        self.urandom = os.urandom
        self.errors = []  # [(part, message)] from bring-up, for the screen and the log
        self.i2c = None  # the I2C bus, kept by attach_i2c for reattach()
        self._i2c_parts = None
        self.storage = None

    def report(self, part, err):
        """Record that `part` is missing or failed; `err` is an exception or a text."""
        if isinstance(err, Exception):
            err = "%s %s" % (type(err).__name__, err)
        self.errors.append((part, err))

    has_amp = False

    def open_amp(self, rate, ibuf):
        """The amplifier's I2S -> it, or None: this board has none."""
        return None

    def on_i2c(self):
        """-> True when the display and the accelerometer were looked for on a kept I2C
        bus (attach_i2c): reattach() can look for a missing one again."""
        return self.i2c is not None and self._i2c_parts is not None

    def booted(self):
        """The app has booted (its first screen is next): the board may slow its
        clock for play."""

    def start_watchdog(self):
        """Start the watchdog (self.wdt); once started it cannot be stopped.
        Boards without one leave wdt None."""

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_us(self):
        return time.ticks_us()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def ticks_add(self, t, delta):
        return time.ticks_add(t, delta)

    def say(self, line):
        """A line for the log (the serial console on the bowl)."""
        print("bowl:", line)

    def deepsleep(self):
        """Arm the wake sources (a shake, the OK button) and sleep; on the bowl it
        never returns (waking is a reset). Boards without deep sleep say so."""
        raise OSError("this board has no deep sleep")

    def restart(self):
        """Reset the chip (a hard reset): the app boots again into the game the journal
        holds. Boards that cannot restart say so."""
        raise OSError("this board cannot restart")

    def strong_random(self, n):
        """n bytes for a secret from a source with real entropy (bobing.dice
        .secret_bytes). Off the bowl the host's os.urandom is one."""
        from bobing import dice
        return dice.secret_bytes(n, self.urandom)

    def battery_mv(self):
        """Battery voltage in mV, or None when the board cannot tell."""
        return None


def attach_i2c(hw, i2c, addr_display, addr_accel, make_display):
    """Bring up the two I2C parts the same way on every board: scan the bus,
    then the display (`make_display()`, e.g. the ssd1306 driver) and the
    accelerometer driver; whatever does not answer or fails is reported, left
    None. The bus and the addresses are kept: reattach() looks again later."""
    hw.i2c = i2c
    hw._i2c_parts = (addr_display, addr_accel, make_display)
    try:
        found = i2c.scan()
    except OSError as e:
        hw.report("i2c", e)
        return
    for part in ("display", "accel"):
        addr = addr_display if part == "display" else addr_accel
        if addr in found:
            try:
                reattach(hw, part)
            except Exception as e:
                hw.report(part, e)
        else:
            hw.report(part, "no %s answers at 0x%02X" % ("display" if part == "display" else "MPU6050", addr))


def reattach(hw, part):
    """Bring I2C part "display" or "accel" up again on the kept bus (after bus
    errors: a chip that lost power needs its set-up again). Raises what the
    driver raises (OSError when it does not answer). One empty write to the
    part comes first: on a stuck bus the ESP32's I2C driver waits 100 ms a
    byte (ports/esp32/machine_i2c.c), so a set-up of dozens of transfers would
    hold the bowl for seconds; the probe costs 100 ms."""
    addr_display, addr_accel, make_display = hw._i2c_parts
    hw.i2c.writeto(addr_display if part == "display" else addr_accel, b"")
    if part == "display":
        hw.display = make_display()
    else:
        from bowl import mpu6050
        hw.accel = mpu6050.MPU6050(hw.i2c, addr_accel)
