# The fixed CPU costs of host_sim/portable/fakes/chiptime.py's counted work (LINE_HOST_NS, CALL_HOST_NS,
# FB_HOST_NS; the bytes each allocates), from three pieces: bench/budget_calib.py's logic (a game's rolls
# and the dice hash: call-heavy), the journal's CRC-16 over 2 KB (tight loops)
# and budget_calib's drawing (host_sim/portable/screen_cases.py's screens): on the 32-bit
# frozen MicroPython build the time of each piece from the same start (the least
# of REPS runs, wall time: the run least disturbed by other processes), on
# CPython the lines and framebuf calls the same piece makes (counted as hal
# counts them). Run from the project's top folder:
#   python bench/budget_work.py     (runs the MicroPython half itself)
# The costs are the frozen build's ns (host_sim/portable/fakes/chiptime.py charges them x
# its ESP32 factor): a line's and a call's solve logic and CRC exactly; a framebuf
# call gets what remains of the drawing's time after its lines and calls. The same
# fit for the bytes each piece allocates (gc.mem_alloc with the collector off).
# Measured apart, on the frozen build: the C-heavy calls the fit cannot see
# (hashlib.sha256 per call and per byte, json.dumps/loads per call and per byte, a
# string's % formatting), and, in a 64K heap with a game live
# (bench/budget_gc.py), a garbage collection's time and the free bytes it leaves.
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


def mp_bytes(work):
    import gc
    s = _screen()
    buf = bytearray(1024)
    _run(work, s, buf)
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    _run(work, s, buf)
    n = gc.mem_alloc() - a
    gc.enable()
    return n


def least_ns(f, n):
    # ns per run of f() (n runs inside), the least of REPS // 4 tries
    best = None
    for _ in range(REPS // 4):
        t0 = time.ticks_us()
        f(n)
        dt = time.ticks_diff(time.ticks_us(), t0)
        best = dt if best is None or dt < best else best
    return best * 1000 // n


def c_costs():
    import hashlib
    import json
    small, big = b"x" * 16, b"x" * 1024
    one = {"v": 1, "bowl": "bowl-07", "game": 12, "award": 345, "class": "sijin", "code": "ABCD-EFGH-JKLM"}
    msgs = ({"v": 1}, {"v": 1, "awards": [one] * 8})
    texts = [json.dumps(m) for m in msgs]

    def sha_small(n):
        for _ in range(n):
            hashlib.sha256(small).digest()

    def sha_big(n):
        for _ in range(n):
            hashlib.sha256(big).digest()

    def dumps(m):
        def run(n):
            for _ in range(n):
                json.dumps(m)
        return run

    def loads(t):
        def run(n):
            for _ in range(n):
                json.loads(t)
        return run

    def fmt(n):
        for i in range(n):
            "%s %d: %s" % ("award", i, "sijin")

    def empty(n):
        for i in range(n):
            pass
    e = least_ns(empty, 200)
    a, b = least_ns(sha_small, 200) - e, least_ns(sha_big, 50) - e
    per_byte = max(0, (b - a) // (len(big) - len(small)))
    print("sha256_call_ns", max(0, (a - per_byte * len(small)) // 3))  # constructor, digest: ~3 calls' worth
    print("sha256_byte_ns", per_byte)
    # dumps and loads together: per call and per byte of the text, from a short and a long message
    t0 = least_ns(dumps(msgs[0]), 100) + least_ns(loads(texts[0]), 100) - 2 * e
    t1 = least_ns(dumps(msgs[1]), 20) + least_ns(loads(texts[1]), 20) - 2 * e
    jb = max(1, (t1 - t0) // (2 * (len(texts[1]) - len(texts[0]))))
    print("json_call_ns", max(0, (t0 - 2 * jb * len(texts[0])) // 2))
    print("json_byte_ns", jb)
    print("format_ns", least_ns(fmt, 200) - e)


def counted(work):
    sys.path.insert(0, "host_sim/portable")
    from host_sim.portable.fakes import chiptime
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
        print("us", " ".join([str(mp_us(p)) for p in pieces]))
        print("bytes", " ".join([str(mp_bytes(p)) for p in pieces]))
        c_costs()
    else:
        import subprocess
        sys.path[:0] = [".", "tests"]  # (CPython, from the project root as make bench runs it)
        import portable
        got = {}
        for args in ([portable.MP32_FROZEN, "bench/budget_work.py"],
                     [portable.MP32_FROZEN, "-X", "heapsize=64K", "bench/budget_gc.py"]):
            p = subprocess.run(args, capture_output=True, text=True, timeout=600)
            if p.returncode:
                sys.exit("budget_work: %s failed: %s" % (" ".join(args), p.stderr[-400:]))
            for line in p.stdout.splitlines():
                k, _, v = line.partition(" ")
                got[k] = v.split()
        n = [counted(p) for p in pieces]

        def fit(t):
            (l1, c1, _), (l2, c2, _), (l3, c3, f3) = n
            line = (t[0] * c2 - t[1] * c1) / (l1 * c2 - l2 * c1)
            call = (t[0] - l1 * line) / c1
            fb = max(0.0, (t[2] - l3 * line - c3 * call) / max(1, f3))
            return line, call, fb
        line_ns, call_ns, fb_ns = fit([int(x) * 1000 for x in got["us"]])
        line_b, call_b, fb_b = fit([int(x) for x in got["bytes"]])
        for name, t, b, (n_l, n_c, n_f) in zip(("logic", "crc", "drawing"), got["us"], got["bytes"], n):
            print("%s: %s us, %s bytes allocated on the frozen build; %d lines, %d calls, %d framebuf calls"
                  % (name, t, b, n_l, n_c, n_f))
        print("LINE_HOST_NS = %.1f  CALL_HOST_NS = %.0f  FB_HOST_NS = %.0f  (frozen-build ns)"
              % (line_ns, call_ns, fb_ns))
        print("LINE_BYTES = %.1f  CALL_BYTES = %.1f  FB_BYTES = %.1f" % (line_b, call_b, fb_b))
        print("SHA_CALL_HOST_NS = %s  SHA_BYTE_HOST_NS = %s  JSON_CALL_HOST_NS = %s  JSON_BYTE_HOST_NS = %s"
              "  FORMAT_HOST_NS = %s" % (got["sha256_call_ns"][0], got["sha256_byte_ns"][0], got["json_call_ns"][0],
                                         got["json_byte_ns"][0], got["format_ns"][0]))
        print("GC_HOST_US = %s  GC_FREE_BYTES = %s  (-X heapsize=64K, a game live); automatic collections"
              " in six rolls there: %s (bench/budget.py's roll path counts its own)"
              % (got["gc_us"][0], got["gc_free_bytes"][0], got["gc_auto_six_rolls"][0]))
