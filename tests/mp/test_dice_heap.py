# Runs only on the MicroPython unix port: what the dice and shake path
# allocates. Under micropython.heap_lock(): absorbing shake samples (with the
# SHA-256 updates they trigger), the health tests, drawing six faces into a
# caller-owned bytearray, the detector fed a whole trace, and the drivers'
# read_into. A whole roll() allocates exactly three objects, each measured
# here: the bytes from os.urandom(32), the digest bytes and the new sha256
# object for the next roll (MicroPython's digest() finalizes a hash object).
import gc
import hashlib
import os
import sys

import micropython

from bobing import dice, shake
from bowl import mpu6050, sw420

sys.path.append("tests")
from hostmods import TRACES, fake_mpu6050

TRACE = TRACES + "model_normal_shake.csv"


def locked(f):
    micropython.heap_lock()
    try:
        return f()
    finally:
        micropython.heap_unlock()


def allocated(f, *args):
    """Bytes of heap taken by f(*args) (collector off meanwhile)."""
    gc.collect()
    gc.disable()
    try:
        a = gc.mem_alloc()
        r = f(*args)
        b = gc.mem_alloc()
    finally:
        gc.enable()
    return b - a, r


def test_absorb_check_and_draw_allocate_nothing():
    d = dice.Dice(os.urandom)
    raw = os.urandom(dice.RAW_BYTES)
    digest = hashlib.sha256(b"x").digest()
    out = bytearray(6)

    def work():
        for k in range(100):  # three buffer flushes into SHA-256
            d.absorb(1000000 + 997 * k, -1200 + 31 * k, 250, 980)
        d.check(raw)
        d.draw(digest, out)
        return out

    locked(work)
    for f in out:
        assert 1 <= f <= 6


def test_the_detector_with_the_pool_allocates_nothing():
    rows = fake_mpu6050.load_trace(TRACE)
    d = dice.Dice(os.urandom)
    det = shake.Detector(pool=d, spill="6g")
    got = [0, 0]

    def work():
        for r in rows:
            e = det.feed(r[0], r[1], r[2], r[3], r[0] * 1000 + 7)
            if e == shake.EV_ROLLED:
                got[0] += 1
                det.rearm()
        got[1] = det.samples

    locked(work)
    assert got[0] == 1 and got[1] > 150


def test_a_roll_allocates_exactly_urandom_digest_and_the_next_hash():
    d = dice.Dice(os.urandom)
    out = bytearray(6)
    d.roll(out)  # warm up
    u, _ = allocated(os.urandom, 32)
    h, obj = allocated(hashlib.sha256, b"bobing-dice-v1")
    g, _ = allocated(obj.digest)
    for _ in range(5):
        r, _ = allocated(d.roll, out)
        assert r == u + h + g, (r, u, h, g)
    print("roll allocates %d bytes: urandom %d + digest %d + sha256 object %d" % (r, u, g, h))


class Bus:
    """A bus that allocates nothing: answers every read with one fixed sample."""

    def __init__(self):
        self.sample = bytes([0x08, 0x00, 0xF8, 0x00, 0x07, 0xFF])  # 1 g, -1 g, ~1 g at 16 g

    def readfrom_mem_into(self, addr, reg, buf):
        for i in range(len(buf)):
            buf[i] = self.sample[i]


class Pin:
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def irq(self, handler=None, trigger=0):
        self.handler = handler

    def value(self):
        return 0


def test_driver_reads_allocate_nothing():
    i2c = fake_mpu6050.FakeI2C({0x68: fake_mpu6050.FakeMPU6050()})
    mpu = mpu6050.MPU6050(i2c)
    mpu._i2c = Bus()  # configured on the checking fake, read through the silent one
    buf = bytearray(6)
    sample = [0, 0, 0]

    def work():
        for _ in range(10):
            mpu.read_into(sample)
        return sample

    locked(work)
    assert sample == [1000, -1000, 1000]
    pin = Pin()
    sw = sw420.SW420(pin)

    def work2():
        for _ in range(10):
            pin.handler(pin)
            sw.read_into(sample)
        return sample

    locked(work2)
    assert sample[2] != 1000
    del buf
