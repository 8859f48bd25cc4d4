# Benchmark of the claim's QR code (firmware/bobing/qr.py): importing it (heap),
# encoding a claim's text, and drawing the claim's QR page (encode + modules)
# on a FrameBuffer allocated once: the least of N runs, and on MicroPython the
# heap bytes each allocates. On the 32-bit frozen build also the ESP32 estimate
# by hardware/timing.md's CPU factor (45 at 160 MHz, 30 at 240 MHz). Target:
# the claim's first QR page well under 100 ms on the ESP32 (one step of the
# app's loop: <= 1 s). Runs on both interpreters (`make bench`); asserts nothing.
import gc
import sys
import time

MP = sys.implementation.name == "micropython"
if MP:
    sys.path.append("firmware")  # after .frozen: the frozen build's own modules when it has them
else:
    sys.path.insert(0, "firmware")
    sys.path.insert(0, ".")
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable

import framebuf  # noqa: E402

N = 200 if MP else 50
TEXT = "BB1:00000042:1234-56:ZHUANGYUAN:9AVF2S2Q"  # the longest a claim makes (8-digit bowl id)
# a fair kiosk's claim link (bobing/claim.py): version 3, alphanumeric + byte "#" + alphanumeric
LINK = "HTTP://192.168.100.200:8000/F/00000042/1234-56/ZHUANGYUAN#9AVF2S2Q"


def alloc(f):
    """Heap bytes allocated by one call of f (MicroPython), else None."""
    if not MP:
        f()
        return None
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    f()
    b = gc.mem_alloc() - a
    gc.enable()
    return b


def least(f):
    best = None
    for _ in range(N):
        t0 = time.ticks_us()
        f()
        dt = time.ticks_diff(time.ticks_us(), t0)
        best = dt if best is None or dt < best else best
    return best


def main():
    gc.collect()
    before = gc.mem_alloc() if MP else 0
    t0 = time.ticks_us()
    from bobing import qr
    t_imp = time.ticks_diff(time.ticks_us(), t0)
    gc.collect()
    imp = gc.mem_alloc() - before if MP else None
    from bobing import panels, screen as scr
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    scr.Screen(fb)

    def cases(text, square, x, y):
        """encode, the page for a new code (its light square, then the modules at x, y, as
        panels' claim QR page draws them) and the modules drawn again, for one text."""
        def enc():
            qr.encode(text)

        def page():
            fb.fill(0)
            fb.fill_rect(square[0], square[1], square[2], square[2], 1)
            panels._draw_qr(fb, qr.encode(text), x, y)

        rows = qr.encode(text)

        def redraw():
            panels._draw_qr(fb, rows, x, y)
        return enc, page, redraw

    text = cases(TEXT, (128 - 62, 1, 62), 128 - 56, 7)  # the counter's text (version 2)
    link = cases(LINK, (128 - 64, 0, 64), 128 - 61, 3)  # the link's page (version 3, 58 px)
    text[0]()
    link[0]()
    figs = []
    for names, fs in ((("encode", "QR page, new code", "modules drawn again"), text),
                      (("link encode (v3)", "link page, new code", "link drawn again"), link)):
        for name, f in zip(names, fs):
            figs.append((name, least(f), alloc(f)))
    frozen = MP and not qr.__file__.startswith("firmware")  # (a frozen module's file is bobing/qr.py)
    print("%s%s: qr import %.2f ms%s (first import, once)" % (
        sys.implementation.name, " (frozen)" if frozen else "", t_imp / 1000,
        ", %d B heap" % imp if MP else ""))
    for name, us, a in figs:
        line = "  %-20s %7.3f ms" % (name, us / 1000)
        if MP:
            line += ", %4d B allocated" % a
            if frozen:
                line += "; ESP32 ~%.0f ms at 160 MHz, ~%.0f ms at 240 MHz" % (us * 45 / 1000, us * 30 / 1000)
        print(line)


main()
