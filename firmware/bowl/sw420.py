# SW-420 vibration switch module: the cheap alternative to the MPU6050. A
# spring in a can closes on vibration; the module's comparator turns that
# into a digital output (DO) that chatters while the bowl shakes.
"""SW-420 as an accelerometer stand-in: it yields the same (ax, ay, az)
milli-g samples as bowl.mpu6050, so shake.Detector turns it into the same
shake events.

    sw = SW420(Pin(PIN_SW420, Pin.IN))   # handed a Pin-like object, never a number
    sw.read_into(buf)                    # call at the sample rate (100 Hz)

It counts DO edges in a pin interrupt; a read with edges since the last one
(or with DO held active) is a sample that deviates from rest by edge_mg per
edge (up to max_mg), alternating up and down so its mean stays at 1 g; a read
with none is the bowl at rest (0, 0, 1000). The µs timing of the reads and the
edge counts still feed the dice pool through the detector.

At rest every sample is exactly (0, 0, 1000), which an accelerometer never
reads: give its detector the setting stuck_ms=0, or after 3 s it reports a stuck
sensor:  shake.Detector(pool, settings={"stuck_ms": 0})

It cannot measure g: with it a "spill" is only "very many edges per sample",
so keep the spill_detect option off or calibrate edge_mg on the bowl.
Deep sleep: DO can wake the ESP32 directly when wired to an RTC-capable GPIO:
    esp32.wake_on_ext0(pin, esp32.WAKEUP_ANY_HIGH)   # for an active-high module
"""
from micropython import const

_REST_MG = const(1000)


class SW420:
    def __init__(self, pin, active=1, edge_mg=400, max_mg=4000):
        if active not in (0, 1):
            raise ValueError("SW420 active level %r: must be 0 or 1" % (active,))
        if not 1 <= edge_mg <= max_mg <= 16000:
            raise ValueError("SW420 edge_mg %r, max_mg %r: need 1 <= edge_mg <= max_mg <= 16000"
                             % (edge_mg, max_mg))
        self._pin = pin
        self._active = active
        self._edge_mg = edge_mg
        self._max_mg = max_mg
        self._sign = 1
        self.edges = 0  # counted by the interrupt handler, taken by read_into
        pin.irq(handler=self._edge, trigger=pin.IRQ_RISING | pin.IRQ_FALLING)

    def _edge(self, pin):
        self.edges += 1  # interrupt context: a small-int add, no allocation

    def read_into(self, buf, i=0):
        """One sample into buf[i:i+3] (milli-g); returns the edges it used."""
        n = self.edges
        self.edges -= n  # an edge arriving meanwhile stays counted
        m = n
        if m == 0 and self._pin.value() == self._active:
            m = 1  # held active: still vibrating
        buf[i] = 0
        buf[i + 1] = 0
        if m:
            dev = m * self._edge_mg
            if dev > self._max_mg:
                dev = self._max_mg
            self._sign = -self._sign
            buf[i + 2] = _REST_MG + self._sign * dev
        else:
            buf[i + 2] = _REST_MG
        return n

    def deinit(self):
        self._pin.irq(handler=None)
