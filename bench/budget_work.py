# The fixed CPU costs of host_sim/portable/fakes/chiptime.py's counted work (LINE_NS, CALL_NS,
# FB_CALL_NS), from three pieces: bench/budget_calib.py's logic (a game's rolls
# and the dice hash: call-heavy), the journal's CRC-16 over 2 KB (tight loops)
# and budget_calib's drawing (host_sim/portable/screen_cases.py's screens): on the 32-bit
# frozen MicroPython build the time of each piece from the same start (the least
# of REPS runs, wall time: the run least disturbed by other processes), on
# CPython the lines and framebuf calls the same piece makes (counted as hal
# counts them). Run from the project's top folder:
#   python bench/budget_work.py     (runs the MicroPython half itself)
# Each time x 30 (hardware/timing.md, the CoreMark ratio) in ESP32 ns at 240 MHz;
# the cost a line and a call solve logic and CRC exactly; a framebuf call gets
# what remains of the drawing's time after its lines and calls.
import sys
import time

sys.path.insert(0, "bench")
import budget_calib

REPS = 400  # the same piece again and again on MicroPython: the least is the one least disturbed


def _screen():
    import framebuf
    from bobing import screen as scr
    return scr.Screen(framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB))


def _reset():
    budget_calib._T[0] = None
    budget_calib._T[1] = 0
    budget_calib._C[0] = 0


def _run(work, s, buf):
    _reset()
    work(s, buf)


def mp_us(work):
    s = _screen()
    buf = bytearray(1024)
    for _ in range(20):
        _run(work, s, buf)
    best = None
    for _ in range(REPS):
        t0 = time.ticks_us()
        _run(work, s, buf)
        dt = time.ticks_diff(time.ticks_us(), t0)
        best = dt if best is None or dt < best else best
    return best


def counted(work):
    sys.path.insert(0, "host_sim/portable")
    from fakes import chiptime
    cal = budget_calib.__file__
    n = [0, 0, 0]  # lines, calls, framebuf calls

    def line(frame, event, arg):
        if event == "line":
            n[0] += 1
        return line

    def trace(frame, event, arg):
        fn = frame.f_code.co_filename
        if fn.startswith(chiptime.FIRMWARE_DIR) or fn == cal:
            n[1] += 1
            return line
        caller = frame.f_back.f_code.co_filename if frame.f_back is not None else None
        if fn == chiptime.FRAMEBUF_FILE and caller is not None and (
                caller.startswith(chiptime.FIRMWARE_DIR) or caller == cal):
            n[2] += 1
        return None
    s = _screen()
    buf = bytearray(1024)
    _run(work, s, buf)  # warm up (imports, glyphs) uncounted
    sys.settrace(trace)
    try:
        _run(work, s, buf)
    finally:
        sys.settrace(None)
    return n


_BLOCK = bytearray(2048)
for _i in range(2048):
    _BLOCK[_i] = _i & 255


def crc(s, buf):
    from bobing import journal
    journal.crc16(_BLOCK)


if __name__ == "__main__":
    pieces = (budget_calib.logic, crc, budget_calib.draw)
    if sys.implementation.name == "micropython":
        print(" ".join([str(mp_us(p)) for p in pieces]))
    else:
        import subprocess
        sys.path.insert(0, "tests")
        import portable
        p = subprocess.run([portable.MP32_FROZEN, "bench/budget_work.py"], capture_output=True,
                           text=True, timeout=600)
        mp = [int(x) * 30000 for x in p.stdout.split()[-3:]]  # ESP32 ns at 240 MHz
        (l1, c1, _), (l2, c2, _), (l3, c3, f3) = [counted(p) for p in pieces]
        line_ns = (mp[0] * c2 - mp[1] * c1) // (l1 * c2 - l2 * c1)
        call_ns = (mp[0] - l1 * line_ns) // c1
        fb_ns = max(0, (mp[2] - l3 * line_ns - c3 * call_ns) // max(1, f3))
        for name, t, (n_l, n_c, n_f) in zip(("logic", "crc", "drawing"), p.stdout.split()[-3:],
                                             ((l1, c1, 0), (l2, c2, 0), (l3, c3, f3))):
            print("%s: %s us on the frozen build; %d lines, %d calls, %d framebuf calls" % (name, t, n_l, n_c, n_f))
        print("LINE_NS = %d  CALL_NS = %d  FB_CALL_NS = %d  (ESP32 ns at 240 MHz)" % (line_ns, call_ns, fb_ns))
