# The bowl's display: micropython-lib's ssd1306.SSD1306_I2C (its set-up, show(), poweroff()/
# poweron(), contrast()), and the frame sent in parts, one transfer each (send), so that the
# app reads the accelerometer between them: the whole frame in one transfer (1,044 bytes
# at 400 kHz, >= 23.5 ms) would hold 100 Hz sampling for two or three periods while the dice
# are shaken, and on a stuck bus the ESP32's legacy driver gives up on a transfer only after
# 100 ms x (1 + its bytes) (ports/esp32/machine_i2c.c): 3.3 s for a part, 102 s for a frame.
# board.py makes it; the app (bowl/app.py) is handed it as hw.display. Commands: Solomon
# Systech SSD1306 datasheet rev 1.1, section 9 (table 9-1) and 10.1; the I2C framing 8.1.5.2.
import framebuf
from micropython import const

import ssd1306

_CTRL_CMDS = const(0x00)  # control byte Co=0, D/C#=0: every byte after it is a command
_SET_COL_ADDR = const(0x21)  # columns start, end (horizontal mode: the pointer goes to start)
_SET_PAGE_ADDR = const(0x22)  # pages start, end
_PANEL_COLS = const(128)  # the controller's columns; a narrower panel sits in the middle (as show())
_PART = const(32)  # bytes of the frame a transfer: ~0.9 ms on the wire at 400 kHz
_CTRL_DATA = const(0x40)  # control byte Co=0, D/C#=1: every byte after it is display RAM


class Oled(ssd1306.SSD1306_I2C):
    def __init__(self, width, height, i2c, addr):
        if width % _PART:
            raise ValueError("oled: a panel %d columns wide does not split into %d-byte parts; "
                             "widths allowed: multiples of %d" % (width, _PART, _PART))
        x0 = (_PANEL_COLS - width) // 2  # the window command, made once
        self._window = bytes((_CTRL_CMDS, _SET_COL_ADDR, x0, x0 + width - 1, _SET_PAGE_ADDR, 0, height // 8 - 1))
        super().__init__(width, height, i2c, addr)  # the driver's set-up: raises what the bus raises
        # one transfer's bytes, made once: the data control byte, then a part of the frame,
        # which is one page's _PART columns, so a FrameBuffer over it is _PART x 8 (MONO_VLSB)
        self._part = bytearray(1 + _PART)
        self._part[0] = _CTRL_DATA
        self._part_fb = framebuf.FrameBuffer(memoryview(self._part)[1:], _PART, 8, framebuf.MONO_VLSB)

    def send(self, between):
        """The frame in _PART-byte transfers after the window (the whole panel, the address
        pointer at its start; horizontal addressing, set by the driver, moves it on by itself),
        between() called after each: the app's sensor round when one is due. Raises what the bus
        raises (OSError): the next frame begins with the window again. Each part is copied into
        the one transfer buffer by a blit (C, a 32 x 8 window of the frame), so a frame
        allocates nothing: a view of each part would leave 16 bytes of garbage a part (512 a
        frame), views of every part kept would hold ~650 bytes for good. (bench/budget.py counts
        the 32 blits at a framebuf call's cost: settle to screen 104 ms, 102 ms with views.)"""
        i2c = self.i2c  # (one by one: unpacking four would build a tuple)
        addr = self.addr
        part = self._part
        pfb = self._part_fb
        i2c.writeto(addr, self._window)
        for y in range(0, self.height, 8):
            for x in range(0, self.width, _PART):
                pfb.blit(self, -x, -y)  # the frame's columns x.., page y // 8, into part[1:]
                i2c.writeto(addr, part)  # [0x40, part]: one data transfer
                between()
