# Runs only on the MicroPython unix port: a battery reading (10 ADC samples averaged, the
# calibrated ratio applied: firmware/board.py) allocates nothing, on the simulated divider.
import sys

import micropython

import board

sys.path.append("host_sim/portable")  # the simulated bowl (frozen into the frozen build)
sys.path.append(".")  # host_sim.portable.fakes
from host_sim.portable.fakes import bowl as hal


def test_a_battery_reading_allocates_nothing():
    import os
    root = "/tmp/bobing-gauge-heap-%d" % int.from_bytes(os.urandom(4), "little")  # both builds may run at once
    try:
        os.mkdir(root)
    except OSError:
        pass
    sim = hal.Sim(root)
    sim.step(100)
    b = sim.board
    b._vbat_ratio = 30000  # a calibrated loaded divider: the largest products
    b._vbat_cal = True
    first = board.Board.battery_mv(b)
    micropython.heap_lock()
    try:
        for _ in range(20):
            mv = board.Board.battery_mv(b)
    finally:
        micropython.heap_unlock()
    assert mv is not None and abs(mv - first) < 200
