# The electronics' case (hardware/case/bowl_case.scad) as Debian's openscad renders it:
# `make case` makes its STL and PNG, then cuts through the rendered geometry (openscad's
# projection(cut=true), as SVG outlines) are measured and held against the part sizes
# hardware/bom.md gives and the parts the pin map wires: a hole per button the pins
# read, the key switch's cut-out, the OLED's window, a diffuser over the ring with no
# hole in it, the charging socket's cut-out, the tether's eye, the battery's bay, the
# speaker's seat over its grille, and no
# opening over the board's USB-C and RESET end. (Marked slow: each cut is a CGAL render.)
import os
import re
import struct
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "hardware")
SCAD = os.path.join(HW, "case", "bowl_case.scad")


def _bom(item):
    with open(os.path.join(HW, "bom.md"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("| %s |" % item):
                return line
    raise AssertionError("bom.md has no item %s" % item)


def _num(pattern, text):
    m = re.search(pattern, text)
    assert m, (pattern, text)
    return [float(x) for x in m.groups()]


def _pins():
    with open(os.path.join(HW, "pinmap.csv"), encoding="utf-8") as f:
        return [line.strip().split(",")[-1] for line in f if line.strip()]


BOM = {
    "board": _num(r"board \*\*([\d.]+) x ([\d.]+) mm\*\*", _bom(1)),
    "oled": _num(r"active area \*\*([\d.]+) x ([\d.]+) mm\*\*, module ([\d.]+) x ([\d.]+) mm", _bom(3)),
    "ring": _num(r"\*\*([\d.]+) mm\*\* outer, \*\*([\d.]+) mm\*\* inner", _bom(4)),
    "button": _num(r"(\d+) x (\d+) mm tactile", _bom(5)),
    "battery": _num(r"\((\d+) x (\d+) x (\d+) mm\)", _bom(6)),
    "key": _num(r"cut-out \*\*Ø ([\d.]+) mm\*\*", _bom("12a")),
    "charge": _num(r"\*\*([\d.]+) x ([\d.]+) mm\*\* at most", _bom(16)),
    "tether": _num(r"\*\*Ø ([\d.]+) mm\*\* hole", _bom(18)),
    "speaker": _num(r"\*\*Ø ([\d.]+) mm\*\*", _bom(20)),
    "feet": _num(r"\*\*([\d.]+) mm\*\* high", _bom(21)),
}


def _scad_value(name):
    """A number or vector assigned at the top of bowl_case.scad."""
    with open(SCAD, encoding="utf-8") as f:
        m = re.search(r"^%s = \[?([^;\]]+)\]?;" % name, f.read(), re.M)
    return [float(x) for x in m.group(1).split(",")]


SIZE = _scad_value("size")
LID_T = _scad_value("lid_t")[0]
FLOOR_T = _scad_value("floor_t")[0]


def _openscad():
    if subprocess.run(["sh", "-c", "command -v openscad"], capture_output=True).returncode:
        pytest.fail("Debian's openscad is missing: apt-get install -y openscad xvfb xauth "
                    "(host_sim/tools/debian_deps.sh)")


def _cuts(tmp_path, name, bodies):
    """Cuts through the case, rendered in one openscad run (each its own 2000 mm over) ->
    per cut its loops [(xmin, xmax, ymin, ymax)], the outline first."""
    src = tmp_path / (name + ".scad")
    src.write_text('include <%s>\npart = "none";\n$fn = 24;\n' % SCAD + "".join(
        "translate([%d, 0]) projection(cut = true) %s\n" % (2000 * k, body) for k, body in enumerate(bodies)))
    out = tmp_path / (name + ".svg")
    p = subprocess.run(["openscad", "-q", "-o", str(out), str(src)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    d = " ".join(re.findall(r'<path d="([^"]*)"', out.read_text()))
    cuts = [[] for _ in bodies]
    for part in d.split("M")[1:]:
        pts = [(float(x), -float(y)) for x, y in re.findall(r"(-?[\d.e+-]+),(-?[\d.e+-]+)", part)]
        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        k = int((min(xs) + 500) // 2000)
        cuts[k].append((min(xs) - 2000 * k, max(xs) - 2000 * k, min(ys), max(ys)))
    for loops in cuts:
        loops.sort(key=lambda b: -(b[1] - b[0]) * (b[3] - b[2]))
    return cuts


def _size(b):
    return b[1] - b[0], b[3] - b[2]


def _within(got, part, slack):
    return part <= got + 1e-6 and got <= part + slack


def _overlaps(b, region):
    return b[0] < region[1] and region[0] < b[1] and b[2] < region[3] and region[2] < b[3]


@pytest.fixture(scope="module")
def made():
    _openscad()
    p = subprocess.run(["make", "-s", "case"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    return os.path.join(ROOT, "build", "case")


def test_make_case_renders_the_stl_and_the_png(made):
    with open(os.path.join(made, "bowl_case.stl"), "rb") as f:
        stl = f.read()
    assert stl.startswith(b"solid") and stl.count(b"facet normal") > 500
    with open(os.path.join(made, "bowl_case.png"), "rb") as f:
        png = f.read(24)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (1024, 768)


def test_the_lid_has_a_hole_per_part_sized_from_the_bom_and_none_over_usb_or_reset(made, tmp_path):
    buttons = len([p for p in _pins() if p.startswith("PIN_BTN_")])
    top, skin = _cuts(tmp_path, "lid", ["translate([0, 0, -(%g)]) lid();" % (SIZE[2] + LID_T - 0.3),
                                        "translate([0, 0, -(%g)]) lid();" % (SIZE[2] + 0.4)])
    assert _size(top[0]) == pytest.approx((SIZE[0], SIZE[1]), abs=0.01)  # the outline first
    for loops in (top, skin):
        holes = loops[1:]
        aw, ah, mw, mh = BOM["oled"]
        window = [b for b in holes if _within(_size(b)[0], aw, 2.5) and _within(_size(b)[1], ah, 2.5)]
        assert len(window) == 1 and _size(window[0])[0] < mw and _size(window[0])[1] < mh  # the module covers it
        bw, bh = BOM["button"]
        pressed = [b for b in holes if _within(_size(b)[0], bw, 0.8) and _within(_size(b)[1], bh, 0.8)]
        assert len(pressed) == buttons == 3
        screws = [b for b in holes if _size(b)[0] < 5]
        assert len(screws) == 4
        od, idia = BOM["ring"]
        ring = [b for b in holes if idia - 2 < _size(b)[0] < od + 2 and abs(_size(b)[0] - _size(b)[1]) < 0.5]
        if loops is top:  # the skin thinned over the LEDs (a 5050 LED each, 5 mm wide, centred on the ring)
            outer = max(ring, key=lambda b: _size(b)[0])
            inner = min(ring, key=lambda b: _size(b)[0])
            assert _size(outer)[0] / 2 >= (od + idia) / 4 + 2.5 and _size(inner)[0] / 2 <= (od + idia) / 4 - 2.5
            assert len(holes) == 1 + buttons + 4 + 2
        else:  # under it, the diffuser: no hole at all
            assert ring == [] and len(holes) == 1 + buttons + 4, holes
    bl, bw_ = BOM["board"]
    x0, y0 = _scad_value("board_at")
    usb_end = _scad_value("usb_end")[0]
    region = (x0 + bl - usb_end, x0 + bl, y0, y0 + bw_)  # the board's USB-C and RESET end
    assert not [b for b in top[1:] if _overlaps(b, region)]


def test_the_walls_the_tether_eye_and_the_battery_bay_fit_their_parts(made, tmp_path):
    key = "PIN_KEY" in _pins()
    tx, ty = _scad_value("tether_at")
    left, right, front, back, lug, bay = _cuts(tmp_path, "base", [
        "rotate([0, 90, 0]) translate([-1.5, 0, 0]) base();",
        "rotate([0, 90, 0]) translate([-(%g), 0, 0]) base();" % (SIZE[0] - 1.5),
        "rotate([-90, 0, 0]) translate([0, -1.5, 0]) base();",
        "rotate([-90, 0, 0]) translate([0, -(%g), 0]) base();" % (SIZE[1] - 1.5),
        "rotate([0, 90, 0]) translate([-(%g), 0, 0]) base();" % tx,
        "translate([0, 0, -(%g)]) base();" % (FLOOR_T + 3)])
    assert key and len(left) == 2, left  # the wall's outline and the key switch's cut-out
    w, h = _size(left[1])
    assert _within(w, BOM["key"][0], 1) and _within(h, BOM["key"][0], 1)
    assert len(right) == 2, right  # the charging socket (power only); the board's own USB-C stays inside
    w, h = sorted(_size(right[1]))
    cw, ch = sorted(BOM["charge"])
    assert _within(w, cw, 1) and _within(h, ch, 1), (w, h)
    assert len(front) == 1 and len(back) == 1, (front, back)
    eyes = [b for b in lug if b[2] > ty and _within(_size(b)[0], BOM["tether"][0], 0.5)]
    assert len(eyes) == 1, lug  # outside the back wall: the cable never enters the case
    length, width, thick = BOM["battery"][2], BOM["battery"][1], BOM["battery"][0]
    fits = [b for b in bay if _within(_size(b)[0], length, 1.5) and _within(_size(b)[1], width, 1.5)]
    assert len(fits) == 1, bay
    assert _scad_value("battery") == [length, width, thick]


def test_the_speaker_sits_in_its_seat_over_a_grille_under_its_cone(made, tmp_path):
    """The voice's speaker (bom item 20) lies face down in a seat on the floor: a cut through the
    floor shows the grille's openings, every one inside the cone (the frame's 5 mm rim closed) and
    none wider than a finger or a coin could pass; a cut through the seat shows its ring, sized
    to the speaker; the feet (item 21) leave a gap under the floor for the sound."""
    sx, sy = _scad_value("speaker_at")
    d = BOM["speaker"][0]
    assert _scad_value("speaker_d") == [d]
    floor, seat = _cuts(tmp_path, "speaker", [
        "translate([0, 0, -(%g)]) base();" % (FLOOR_T / 2),
        "translate([0, 0, -(%g)]) base();" % (FLOOR_T + 1.5)])
    grille = floor[1:]  # the outline first: the floor has no other opening
    assert len(grille) >= 5, floor
    for b in grille:
        w, h = _size(b)
        assert min(w, h) <= 2.5, b  # no finger, no coin
        far = max(((x - sx) ** 2 + (y - sy) ** 2) ** 0.5 for x in b[:2] for y in b[2:])
        assert far <= d / 2 - 5 + 0.01, (b, far)
    open_mm2 = sum(_size(b)[0] * _size(b)[1] for b in grille)
    assert open_mm2 >= 0.25 * 3.1416 * (d / 2 - 5) ** 2, open_mm2  # a quarter of the cone open
    rings = [b for b in seat if _within(_size(b)[0], d, 1.5) and _within(_size(b)[1], d, 1.5)
             and abs((b[0] + b[1]) / 2 - sx) < 0.1 and abs((b[2] + b[3]) / 2 - sy) < 0.1]
    assert len(rings) == 1, seat  # the seat's inside: the speaker fits, with no play
    assert BOM["feet"][0] >= 2
