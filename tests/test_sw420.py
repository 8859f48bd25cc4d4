# micropython: yes
# bowl.sw420: a vibration switch on a (fake) pin gives the same shake events
# as the accelerometer through shake.Detector.
from bobing import shake
from bowl import sw420


class FakePin:
    """A Pin-like input whose level the test sets; edges call the irq handler
    as machine.Pin does, for the triggers it was given."""
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, level=0):
        self.level = level
        self.handler = None
        self.trigger = 0

    def value(self):
        return self.level

    def irq(self, handler=None, trigger=3):
        if trigger & ~3 or not trigger:
            raise ValueError("bad trigger %r" % (trigger,))
        if handler is not None and not callable(handler):
            raise TypeError("handler must be callable")
        self.handler = handler
        self.trigger = trigger

    def set(self, v):
        if v == self.level:
            return
        self.level = v
        edge = self.IRQ_RISING if v else self.IRQ_FALLING
        if self.handler is not None and self.trigger & edge:
            self.handler(self)


def run(pin, sw, plan, det=None):
    """plan: [(ms, edges per 10 ms sample)]; -> event ids."""
    det = det or shake.Detector()
    buf = [0, 0, 0]
    t = 0
    out = []
    for ms, edges in plan:
        for _ in range(ms // 10):
            for _ in range(edges):
                pin.set(1 - pin.level)
            if pin.level and edges % 2:  # chatter ends low most of the time
                pin.set(0)
            sw.read_into(buf)
            e = det.feed(t, buf[0], buf[1], buf[2])
            if e:
                out.append(shake.EVENT_IDS[e])
            t += 10
    return out


def test_it_listens_on_both_edges():
    pin = FakePin()
    sw = sw420.SW420(pin)
    assert pin.trigger == pin.IRQ_RISING | pin.IRQ_FALLING
    pin.set(1)
    pin.set(0)
    assert sw.edges == 2
    buf = [0, 0, 0]
    assert sw.read_into(buf) == 2
    assert sw.edges == 0
    assert buf[2] != 1000
    sw.read_into(buf)
    assert buf == [0, 0, 1000]
    sw.deinit()
    assert pin.handler is None


def test_at_rest_it_is_not_a_stuck_sensor_with_stuck_ms_off():
    # its rest reading is exact, so the stuck check (made for MEMS noise) must be off
    pin = FakePin()
    sw = sw420.SW420(pin)
    assert run(pin, sw, [(5000, 0)]) == ["stuck"]
    det = shake.Detector(settings={"stuck_ms": 0})
    assert run(pin, sw, [(10000, 0), (1500, 2), (1500, 0)], det) == ["shake", "rolled"]


def test_a_shake_on_the_switch_rolls():
    pin = FakePin()
    sw = sw420.SW420(pin)
    ev = run(pin, sw, [(1000, 0), (1500, 2), (1500, 0)])
    assert ev == ["shake", "rolled"]


def test_a_tap_on_the_switch_is_a_jolt():
    pin = FakePin()
    sw = sw420.SW420(pin)
    ev = run(pin, sw, [(1000, 0), (30, 2), (1500, 0)])
    assert ev == ["shake", "jolt"]


def test_held_active_counts_as_vibrating():
    pin = FakePin()
    sw = sw420.SW420(pin, active=1)
    pin.level = 1  # no edges, but DO stays active
    buf = [0, 0, 0]
    sw.read_into(buf)
    assert buf[2] != 1000


def test_many_edges_reach_the_spill_threshold_only_if_allowed():
    pin = FakePin()
    sw = sw420.SW420(pin, edge_mg=400, max_mg=8000)
    ev = run(pin, sw, [(500, 0), (1500, 20), (1500, 0)], shake.Detector(spill="6g"))
    assert ev == ["shake", "spill"]
    pin = FakePin()
    sw = sw420.SW420(pin)  # default max_mg 4000: never a 6 g spill
    ev = run(pin, sw, [(500, 0), (1500, 20), (1500, 0)], shake.Detector(spill="6g"))
    assert ev == ["shake", "rolled"]


def test_arguments_are_checked():
    for kw in ({"active": 2}, {"edge_mg": 0}, {"edge_mg": 5000, "max_mg": 4000}):
        try:
            sw420.SW420(FakePin(), **kw)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % (kw,))
