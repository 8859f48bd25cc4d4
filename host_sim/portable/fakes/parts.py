# The parts on the board around the chip, as their drivers see them: the SSD1306
# display behind micropython-lib's ssd1306 driver (a real FrameBuffer: the unix
# port's framebuf, host_sim/compat/framebuf.py on CPython; what it shows is only
# what show() sent), the WS2812B ring (lit only while its supply switch is on), the
# piezo's PWM and a push button. Runs on the MicroPython unix port and on CPython.
import framebuf

import board
from host_sim.portable.fakes.chiptime import LED_LATCH_US, LED_US

ADDR_OLED = board.ADDR_OLED  # the wiring is board.py's, never copied here
WIDTH = board.OLED_WIDTH
HEIGHT = board.OLED_HEIGHT


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
        self.shown_us = None  # the bus clock's us when the last frame was completed (None: no clock)
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
    def writev(self, vector):
        """A vector write (the driver's write_data: [b"\\x40", frame]): after a data control byte
        every byte of the buffers is data, read in place."""
        i = 0
        while i < len(vector) and not len(vector[i]):
            i += 1
        if i == len(vector):
            return
        if vector[i][0] != 0x40:
            self.write(b"".join(vector))  # commands: a few bytes
            return
        self._data(vector[i], 1)
        for j in range(i + 1, len(vector)):
            self._data(vector[j], 0)

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
            self.shown[at:at + n] = memoryview(buf)[i:i + n]  # no copy of the data on the way
            i += n
            col += n
            if col > w[1]:
                if col == WIDTH and page == self.pages - 1:
                    self.shows += 1
                    c = self.bus.clock  # (the transfer is charged before its bytes arrive)
                    self.shown_us = c.clock_us() if c is not None else None
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


class NoLog:
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
        self.data = None  # the DIN pad (fakes/esp32.py Pad), once machine's NeoPixel has it
        self.garbled = 0  # power-ups with DIN not driven: the WS2812s latched noise as colours

    def powered_up(self):
        """The supply switched on: a WS2812 samples DIN from its first microseconds, and a floating
        DIN (GPIO13 is an input, no pull, out of reset: machine_pin.c) clocks noise into it,
        shown until the next frame (Worldsemi's datasheet: DIN is a CMOS input, no pull)."""
        d = self.data
        if d is None or not d.mode & 2:
            self.garbled += 1
            self.shown = [(255, 0, 255)] * self.n

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


class Button:
    """A push button from a GPIO to GND: value(0) presses it, value(1) lets go;
    value() is what the pin reads."""

    def __init__(self, pad):
        self.pad = pad

    def value(self, v=None):
        if v is None:
            return self.pad.value()
        self.pad.switch = not v


class KeySwitch(Button):
    """The attendant's keylock switch (hardware/bom.md item 12a): momentary, its NO
    contact from a GPIO to GND closed only while its own key is turned, open again
    when the key springs back (value(1)). Nothing else closes it: there is no reed,
    coil or radio part behind it, so a magnet or a phone held to the case changes
    nothing (magnet() is there to try it), and another key does not turn the lock."""

    def __init__(self, pad, lock_no):
        Button.__init__(self, pad)
        self.lock_no = lock_no
        self.magnets = 0  # magnets held to the case so far: sensed by no part

    def turn(self, key_no):
        """-> True when key_no turns this lock: the contact closes."""
        if key_no != self.lock_no:
            return False
        self.value(0)
        return True

    def magnet(self):
        self.magnets += 1  # (the contact is mechanical: the pin reads as it did)
