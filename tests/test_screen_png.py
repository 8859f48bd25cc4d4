"""Golden PNGs: every screen of host_sim/portable/screen_cases.py drawn on the host and
compared, pixel for pixel, with tests/data/screens/NAME.png, the pictures a
person looked at. After a deliberate change, look at the new pictures and
regenerate them (and hashes.json) with:
    python -m host_sim screens --out tests/data/screens
"""
import os

from PIL import Image

from host_sim.cli import screens as cmd_screens
import screen_cases

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
    from host_sim.cli import main
    assert main(["screens", "--out", str(tmp_path), "--only", "claim"]) == 0
    assert sorted(os.listdir(tmp_path)) == ["claim.png", "claim_en.png", "claim_qr.png", "claim_qr_en.png",
                                           "claim_unverified.png", "claim_unverified_en.png"]
    assert main(["screens", "--out", str(tmp_path), "--only", "no-such-screen"]) == 2


def test_screens_covers_every_view_and_notice_the_bowl_can_show():
    # menus, PIN entry, notices, the start result, the per-seat pages, confirmations, the
    # secret and the lock were missing from `screens`
    from bobing import console as C
    from bobing import vocab
    from bobing import panels
    import screen_cases
    views = set()
    notices = set()
    names = [c[0] for c in screen_cases.CASES]
    by_method = {"idle": "turn", "shaking": "shaking", "result": "result", "pool": "pool", "game_over": "over",
                 "claim": "claim", "error": "notice", "final": "final", "wait": "wait", "seat": "table"}
    for name, lang, method, args in screen_cases.CASES:
        if method == "panel":
            views.add(vocab.VIEW_IDS[args[0].view])
            if args[0].view == C.V_NOTICE:
                notices.add(args[0].arg[0])
        elif method == "named":  # (a family's named seats: the inner screen's view)
            views.add(by_method[args[1]])
        else:
            views.add(by_method[method])
    assert views == set(vocab.VIEW_IDS), set(vocab.VIEW_IDS) - views
    assert notices == set(panels.NOTICE_TITLES), set(panels.NOTICE_TITLES) - notices
    for must in ("result_start", "pin_entry", "notice_locked", "confirm_new", "secret", "seat_prizes",
                 "menu_kiosk", "gate", "claim_qr", "idle_named", "result_named", "menu_names", "menu_title"):
        assert must in names and must + "_en" in names


def test_the_claim_screens_qr_code_reads_back_as_its_text():
    import zxingcpp  # pinned in requirements.txt
    from bobing import panels
    from host_sim.cli import screens as cmd_screens
    import screen_cases
    frames = dict(cmd_screens.draw_all("claim_qr"))
    case = [c for c in screen_cases.CASES if c[0] == "claim_qr"][0]
    cls, code, g, n, ref, bowl = case[3][0].arg
    want = panels.qr_text(bowl, ref, cls, code)
    assert want == "BB1:%s:%d-%d:%s:%s" % (bowl, g, n, cls.upper(), code)
    for name in ("claim_qr", "claim_qr_en"):
        found = zxingcpp.read_barcodes(cmd_screens.to_image(frames[name], 2).convert("L"))
        assert [f.text for f in found] == [want], name
