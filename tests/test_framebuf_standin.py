"""host_sim.framebuf against the real framebuf of the 32-bit MicroPython unix port
(the stock build of `make mp`, the ESP32's word size):
hundreds of random drawings (every method of the subset, clipping at every
edge, odd sizes, text with non-ASCII, blit with keys) must leave the very same
bytes, and pixel reads must agree."""
import json
import random
import subprocess

import pytest

from host_sim.compat import framebuf as standin


# the same interpreter loop on both sides: scenes of (size, ops) -> hex buffers and pixel reads
RUNNER = r"""
import framebuf, json, sys
def run(fb_mod, scenes, emit):
    for (w, h), ops in scenes:
        buf = bytearray(((h + 7) // 8) * w)
        fb = fb_mod.FrameBuffer(buf, w, h, fb_mod.MONO_VLSB)
        reads = []
        for op in ops:
            name, args = op[0], op[1:]
            if name == "blit":
                (sw, sh, sbytes), rest = args[0], args[1:]
                src = fb_mod.FrameBuffer(bytearray(sbytes), sw, sh, fb_mod.MONO_VLSB)
                fb.blit(src, *rest)
            elif name == "get":
                reads.append(fb.pixel(*args))
            else:
                getattr(fb, name)(*args)
        emit([''.join('%02x' % b for b in buf), reads])
"""


def scenes(seed=20240917, n=300):
    rnd = random.Random(seed)
    texts = ["Bo Bing 123", "状元 4!", "\x01\x7f~ab", "", "WWWWWWWWWWWWWWWWWW", "é"]
    out = []
    for k in range(n):
        w, h = rnd.choice([(128, 64), (13, 11), (16, 16), (8, 8), (37, 20)])
        ops = []
        for _ in range(rnd.randint(1, 12)):
            c = rnd.choice([0, 1, 1, 1, 2])

            def co(lim):
                return rnd.randint(-20, lim + 20)
            kind = rnd.choice(["fill", "pixel", "get", "hline", "vline", "line", "rect", "rectf",
                               "fill_rect", "text", "text1", "blit"])
            if kind == "fill":
                ops.append(["fill", c])
            elif kind == "pixel":
                ops.append(["pixel", co(w), co(h), c])
            elif kind == "get":
                ops.append(["get", co(w) // 2, co(h) // 2])
            elif kind in ("hline", "vline"):
                ops.append([kind, co(w), co(h), rnd.randint(-5, 140), c])
            elif kind == "line":
                ops.append(["line", co(w), co(h), co(w), co(h), c])
            elif kind in ("rect", "fill_rect"):
                ops.append([kind, co(w), co(h), rnd.randint(-3, 140), rnd.randint(-3, 70), c])
            elif kind == "rectf":
                ops.append(["rect", co(w), co(h), rnd.randint(-3, 140), rnd.randint(-3, 70), c, True])
            elif kind == "text":
                ops.append(["text", rnd.choice(texts), co(w), co(h), c])
            elif kind == "text1":
                ops.append(["text", rnd.choice(texts), co(w), co(h)])  # default colour
            else:
                sw, sh = rnd.choice([(16, 16), (5, 9), (8, 8), (20, 3)])
                sb = [rnd.randrange(256) for _ in range(((sh + 7) // 8) * sw)]
                args = [[sw, sh, sb], co(w), co(h)]
                if rnd.random() < 0.7:
                    args.append(rnd.choice([-1, 0, 1]))
                ops.append(["blit"] + args)
        out.append([[w, h], ops])
    return out


def run_standin(sc):
    ns = {}
    exec(RUNNER.replace("import framebuf, json, sys", ""), ns)
    out = []
    ns["run"](standin, sc, out.append)
    return out


def run_unix_port(micropython, sc, tmp_path):
    data = tmp_path / "scenes.json"
    data.write_text(json.dumps(sc))
    script = RUNNER + "\nrun(framebuf, json.load(open(%r)), lambda r: print(json.dumps(r)))\n" % str(data)
    p = subprocess.run([micropython, "-X", "heapsize=4M", "-c", script], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()]


def test_standin_equals_real_framebuf(mp_built, tmp_path):
    sc = scenes()
    mine = run_standin(sc)
    real = run_unix_port(mp_built["stock"], sc, tmp_path)
    assert len(mine) == len(real) == len(sc)
    for i, (a, b) in enumerate(zip(mine, real)):
        assert a == b, "scene %d differs: %r" % (i, sc[i])


def test_rejects_what_the_real_one_rejects():
    buf = bytearray(16)
    fb = standin.FrameBuffer(buf, 16, 8, standin.MONO_VLSB)
    with pytest.raises(TypeError):
        fb.fill_rect(1.5, 0, 2, 2, 1)  # floats are not coordinates
    with pytest.raises(TypeError):
        fb.hline(0, 0, 3)  # colour is required
    with pytest.raises(TypeError):
        standin.FrameBuffer(b"\0" * 16, 16, 8, standin.MONO_VLSB)  # read-only buffer
    with pytest.raises(ValueError):
        standin.FrameBuffer(bytearray(10), 16, 8, standin.MONO_VLSB)  # too short
    with pytest.raises(ValueError):
        standin.FrameBuffer(bytearray(16), 16, 8, 3)  # only MONO_VLSB here
    assert fb.pixel(16, 0) is None and fb.pixel(0, 0) == 0
