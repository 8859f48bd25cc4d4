# Runs only on the MicroPython unix port: rendering LED frames into a byte
# buffer (what the bowl hands to neopixel) allocates nothing.
import micropython

from bobing import leds, rules


def test_render_into_bytes_allocates_nothing():
    r = leds.Ring(24, 80)
    buf = bytearray(72)
    pats = list(range(len(rules.RANK_IDS))) + list(leds.MOMENTS)
    r.render(pats[0], 0, buf)
    micropython.heap_lock()
    try:
        for p in pats:
            for f in range(0, 400, 3):
                r.render(p, f, buf)
    finally:
        micropython.heap_unlock()
