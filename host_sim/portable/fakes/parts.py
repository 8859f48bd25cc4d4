# The parts on the board around the chip, as their drivers see them: the SSD1306
# display controller at its I2C address (driven by the bowl's own driver, bowl/oled.py
# over micropython-lib's ssd1306; what it shows is only what arrived over the bus), the
# WS2812B ring (lit only while its supply switch is on), the piezo's PWM and a push
# button. Runs on the MicroPython unix port and on CPython.
import board
from host_sim.portable.fakes.chiptime import LED_LATCH_US, LED_US

ADDR_OLED = board.ADDR_OLED  # the wiring is board.py's, never copied here
WIDTH = board.OLED_WIDTH
HEIGHT = board.OLED_HEIGHT

# The SSD1306's command table (Solomon Systech SSD1306 datasheet rev 1.1, section 9, table 9-1):
# {command: number of argument bytes that follow it}. Every other byte is a command on its own
# (0x00-0x0F/0x10-0x1F a page-mode column start, 0x40-0x7F the start line, 0xB0-0xB7 a
# page-mode page, 0xA0/0xA1, 0xA4/0xA5, 0xA6/0xA7, 0xAE/0xAF, 0xC0/0xC8, 0xE3 no-op).
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1,
         0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD6: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
HORIZONTAL, VERTICAL, PAGE = 0, 1, 2  # 0x20's addressing modes (10.1.3); 3 is invalid
RESET_CONTRAST = 0x7F  # table 9-1: 0x81's reset value


class FakeSSD1306:
    """The SSD1306 controller of a 128x64 panel as a device on the fake I2C bus, decoding the
    bytes that arrive as the datasheet says (8.1.5.2, figure 8-7: after the address, a control
    byte: Co=0 -> every byte after it is of its D/C# kind, Co=1 -> one byte of that kind, then
    another control byte; D/C#=0 commands, 1 data for the display RAM). Commands: the addressing
    mode (0x20: horizontal, vertical, page: 10.1.3), the column and page window of the first two
    (0x21, 0x22: 10.1.4/10.1.5; each sets the pointer to its start), page mode's column and page
    start (0x00-0x1F, 0xB0-0xB7), display on/off (0xAE/0xAF), contrast (0x81). Data goes into
    the RAM (GDDRAM, 10.1.3: one byte a column of 8 rows of a page) at the pointer, which moves
    on as the mode says. `ram` is the panel's picture; `shows` counts the frames completed
    (the last byte of the window in horizontal mode written), `shown_us` the bus clock then.
    After a reset (power-up) the table's reset values hold: display off, page addressing
    (0x20: "10b, Page Addressing Mode (RESET)"), the whole panel as window, contrast 0x7F."""

    def __init__(self, bus=None):
        self.bus = bus  # its clock (or None) stamps shown_us
        self.present = True  # on the I2C bus; False: unplugged
        self.ram = bytearray(WIDTH * HEIGHT // 8)  # (its content at power-up is undefined)
        self.shown = self.ram  # sim.frame: the 1,024 bytes in the SSD1306's layout
        self.shows = 0
        self.shown_us = None
        self.bad = []  # what arrived that the controller would not take (tests read it)
        self.power_up()

    def power_up(self):
        """The controller's reset state (the RAM keeps what it holds)."""
        self.on = False
        self.contrast = RESET_CONTRAST
        self.mode = PAGE
        self.win = [0, WIDTH - 1, 0, HEIGHT // 8 - 1]  # columns, pages
        self.col = 0
        self.page = 0
        self._cmd = []  # a command waiting for its arguments

    # --- the bus side (fake_mpu6050.FakeI2C calls these)
    def write(self, buf):
        self.writev((buf,))

    def writev(self, vector):
        """The bytes of one transfer, buffers in turn (read in place: no copy of a frame)."""
        ctrl = True  # a control byte is due
        stream = False  # Co=0 was sent: every byte from here on is of kind `data`
        data = False
        for buf in vector:
            n = len(buf)
            i = 0
            while i < n:
                if ctrl:
                    c = buf[i]
                    i += 1
                    if c & 0x3F:
                        self.bad.append("control byte 0x%02X: only Co and D/C# may be set (8.1.5.2)" % c)
                    stream = not c & 0x80
                    data = bool(c & 0x40)
                    ctrl = False
                    continue
                if data:
                    j = n if stream else i + 1
                    self._data(buf, i, j)
                    i = j
                else:
                    self._command(buf[i])
                    i += 1
                if not stream:
                    ctrl = True

    def _command(self, b):
        c = self._cmd
        if c:
            c.append(b)
        elif b in _ARGS:
            c.append(b)
            return
        else:
            self._single(b)
            return
        if len(c) < 1 + _ARGS[c[0]]:
            return
        op = c[0]
        if op == 0x20:
            if c[1] & 3 == 3:
                self.bad.append("0x20 0x%02X: addressing mode 3 is invalid (10.1.3)" % c[1])
            else:
                self.mode = c[1] & 3
        elif op == 0x21:  # only in horizontal or vertical mode (10.1.4)
            self.win[0], self.win[1] = c[1] & 127, c[2] & 127
            self.col = self.win[0]
        elif op == 0x22:
            self.win[2], self.win[3] = c[1] & 7, c[2] & 7
            self.page = self.win[2]
        elif op == 0x81:
            self.contrast = c[1]
        elif op == 0xA8 and c[1] & 63 != HEIGHT - 1:  # the multiplex ratio: rows driven, less one
            self.bad.append("0xA8 %d: this panel has %d rows" % (c[1], HEIGHT))
        del c[:]

    def _single(self, b):
        if b == 0xAE or b == 0xAF:
            self.on = b == 0xAF
        elif self.mode == PAGE and b < 0x10:
            self.col = (self.col & 0xF0) | b
        elif self.mode == PAGE and b < 0x20:
            self.col = (self.col & 0x0F) | ((b & 0x0F) << 4)
        elif self.mode == PAGE and 0xB0 <= b <= 0xB7:
            self.page = b & 7

    def _data(self, buf, i, end):
        w = self.win
        mode = self.mode
        ram = self.ram
        col = self.col
        page = self.page
        while i < end:
            if mode == HORIZONTAL:  # along the page to the window's last column, a run at a time
                n = min(w[1] - col + 1, end - i)
                at = page * WIDTH + col
                ram[at:at + n] = memoryview(buf)[i:i + n]
                i += n
                col += n
                if col > w[1]:
                    col = w[0]
                    if page >= w[3]:
                        page = w[2]
                        self._frame()
                    else:
                        page += 1
            else:
                ram[page * WIDTH + (col & 127)] = buf[i]
                i += 1
                if mode == VERTICAL:
                    if page >= w[3]:
                        page = w[2]
                        col = w[0] if col >= w[1] else col + 1
                    else:
                        page += 1
                elif col < WIDTH - 1:  # page mode: the column moves on, the page stays (10.1.3)
                    col += 1
        self.col = col
        self.page = page

    def _frame(self):
        self.shows += 1
        c = self.bus.clock if self.bus is not None else None  # (the transfer is charged before its bytes arrive)
        self.shown_us = c.clock_us() if c is not None else None

    # --- what a person sees
    def lit(self, x, y):
        """Is pixel (x, y) lit on the panel (dark while the display is off)?"""
        return self.on and bool(self.ram[(y >> 3) * WIDTH + x] & (1 << (y & 7)))

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
