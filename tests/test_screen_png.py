"""Golden PNGs: every screen of host_sim/screen_cases.py drawn on the host and
compared, pixel for pixel, with tests/data/screens/NAME.png, the pictures a
person looked at. After a deliberate change, look at the new pictures and
regenerate them (and hashes.json) with:
    python -m host_sim screens --out tests/data/screens
"""
import os

from PIL import Image

from host_sim import cmd_screens, screen_cases

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "screens")


def test_every_screen_matches_its_golden_png():
    bad = []
    for name, buf in cmd_screens.draw_all():
        path = os.path.join(DATA, name + ".png")
        if not os.path.exists(path):
            bad.append(name + " (no golden file)")
            continue
        with Image.open(path) as golden:
            want = golden.convert("RGB")
        got = cmd_screens.to_image(buf, 4).convert("RGB")
        if got.size != want.size or got.tobytes() != want.tobytes():
            bad.append(name)
    assert not bad, "differ from tests/data/screens: %s" % ", ".join(bad)


def test_no_stale_golden_files():
    names = {c[0] for c in screen_cases.CASES}
    pngs = {f[:-4] for f in os.listdir(DATA) if f.endswith(".png")}
    assert pngs == names


def test_png_pixels_are_the_frame_pixels():
    # one lit pixel at (x, y) becomes a 3x3 lit square at (4x, 4y) with a dark seam
    buf = bytearray(1024)
    buf[(37 >> 3) * 128 + 5] |= 1 << (37 & 7)
    img = cmd_screens.to_image(buf, 4)
    lit = [(x, y) for y in range(256) for x in range(512) if img.getpixel((x, y))]
    assert lit == [(20 + dx, 148 + dy) for dy in range(3) for dx in range(3)]


def test_screens_command_writes_every_png(tmp_path):
    from host_sim.__main__ import main
    assert main(["screens", "--out", str(tmp_path), "--only", "claim"]) == 0
    assert sorted(os.listdir(tmp_path)) == ["claim.png", "claim_en.png"]
    assert main(["screens", "--out", str(tmp_path), "--only", "no-such-screen"]) == 2
