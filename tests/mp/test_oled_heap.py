# Runs only on the MicroPython unix port: the bowl's display driver (bowl/oled.py over
# micropython-lib's ssd1306, on the real framebuf) sends a frame a part at a time, in
# hardware/timing.md's 33 transfers of 1,096 bytes, allocating nothing; and the SSD1306
# controller on the fake bus (host_sim/portable/fakes/parts.py) shows the frame it was sent.
import sys

import micropython

from bowl import oled

sys.path.append(".")  # the runner starts in the repo root: host_sim's fakes (frozen on the frozen build)
from host_sim.portable.fakes import parts
from host_sim.portable.fakes.mpu6050 import FakeI2C


class Bus:
    """machine.I2C's two writes, counting transfers and bytes on the wire (with the address byte)."""

    def __init__(self):
        self.transfers = 0
        self.bytes = 0

    def writeto(self, addr, buf, stop=True):
        self.transfers += 1
        self.bytes += 1 + len(buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        n = 0
        for b in vector:
            n += len(b)
        self.transfers += 1
        self.bytes += 1 + n
        return n


def _between():
    pass  # (the app takes a sensor round here when one is due)


def _send(d):
    d.send(_between)


def test_a_frame_goes_in_33_transfers_and_allocates_nothing():
    bus = Bus()
    d = oled.Oled(128, 64, bus, 0x3C)
    d.fill(1)
    _send(d)  # warm up
    t, n = bus.transfers, bus.bytes
    micropython.heap_lock()  # any allocation raises MemoryError
    try:
        _send(d)
    finally:
        micropython.heap_unlock()
    assert (bus.transfers - t, bus.bytes - n) == (33, 1096), (bus.transfers - t, bus.bytes - n)


def test_a_panel_that_does_not_split_into_parts_is_refused_before_the_bus():
    bus = Bus()
    try:
        oled.Oled(72, 40, bus, 0x3C)
    except ValueError as e:
        assert "72 columns" in str(e) and "multiples of 32" in str(e), e
    else:
        raise AssertionError("a 72-column panel was accepted")
    assert bus.transfers == 0


def test_the_controller_shows_the_frame_sent_in_parts():
    panel = parts.FakeSSD1306()
    d = oled.Oled(128, 64, FakeI2C({0x3C: panel}), 0x3C)
    assert panel.on and panel.mode == parts.HORIZONTAL and panel.bad == []
    d.text("Bo Bing", 3, 50, 1)
    d.rect(0, 0, 128, 64, 1)
    d.fill_rect(60, 8, 9, 17, 1)
    shows = panel.shows
    _send(d)
    assert bytes(panel.ram) == bytes(d.buffer) and panel.shows == shows + 1
    assert panel.lit(0, 0) and panel.lit(127, 63) and not panel.lit(1, 1)
