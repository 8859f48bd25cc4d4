"""The claim's QR code (firmware/bobing/qr.py) against other encoders and a
reader: its symbols are segno's module for module, and what the bowl draws
reads back in zxing-cpp for many random claims, in both languages and with
every mask. (tests/test_qr_portable.py: its tables and symbols against the
plain encoder of tests/qr_tables.py, on MicroPython too.)"""
import random

import pytest
import segno  # pinned in requirements/test.txt
import zxingcpp  # pinned in requirements/test.txt

import qr_tables
from bobing import claim as claim_mod, panels, qr
from host_sim.cli import screens as cmd_screens
from host_sim.compat import framebuf
import screen_cases
from bobing import screen as scr


def _matrix(rows):
    return [[rows[r] >> c & 1 for c in range(len(rows))] for r in range(len(rows))]


def _segno(text, mask, size=25):
    s = segno.make_qr(text, version=(size - 17) // 4, error="l", mask=mask, boost_error=False)
    return [list(row) for row in s.matrix]


def _segno_pads_a_zero_byte(text):
    """segno 1.6.6 (encoder.write_padding_bits) adds 8 zero bits where the bit
    stream and its terminator end on a codeword boundary, where the standard
    (7.4.10) adds none: its codewords differ there (both read back; zxing
    checks those below)."""
    data = text.encode()
    if all(chr(x) in qr_tables.ALNUM for x in data):
        n = 13 + 11 * (len(data) // 2) + 6 * (len(data) % 2)
    else:
        n = 12 + 8 * len(data)
    return (n + 4) % 8 == 0 and (n + 4 < 34 * 8 or 34 * 8 < n + 4 < 55 * 8)


def _claim_text(rnd):
    bowl = "".join(rnd.choice("0123456789") for _ in range(rnd.randint(1, 8)))
    code = "".join(rnd.choice(claim_mod.ALPHABET) for _ in range(claim_mod.CODE_LEN))
    cls = rnd.choice(("zhuangyuan", "duitang", "sanhong", "sijin", "erju", "yixiu"))
    return bowl, "%d-%d" % (rnd.randint(1, 9999), rnd.randint(1, 99)), cls, code


def test_symbols_are_segnos_for_every_mask_and_both_modes():
    rnd = random.Random(24)
    texts = [panels.qr_text(*_claim_text(rnd)) for _ in range(40)]
    texts += ["A", "HELLO WORLD", "Z" * qr.MAX_ALNUM, "bb1:lower case", "博饼 状元", "x" * qr.MAX_BYTES]
    texts += ["".join(rnd.choice("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
                      for _ in range(rnd.randint(1, qr.MAX_ALNUM))) for _ in range(20)]
    compared = 0
    for text in texts:
        if _segno_pads_a_zero_byte(text):
            continue
        compared += 1
        for mask in range(8):
            rows = qr.encode(text, mask)
            assert _matrix(rows) == _segno(text, mask, len(rows)), (text, mask)
    assert compared > 50
    assert qr.encode(texts[0]) is qr.encode(texts[1])  # one list, reused


def test_a_bad_mask_is_a_clear_error():
    for bad in (8, -1):
        with pytest.raises(ValueError, match="0..7"):
            qr.encode("A", bad)


def _screen_reads(s, table, buf, bowl, ref, cls, code):
    panels.claim(s, table, code, cls, ref, bowl, page=1)
    found = zxingcpp.read_barcodes(cmd_screens.to_image(bytes(buf), 2).convert("L"))
    return [f.text for f in found]


DESKS = ("HTTP://192.168.100.200:8000", "HTTP://DESK.LOCAL:8000", "HTTP://10.0.0.2:80")


def _claim_screen():
    """(the claim case's table, a framebuffer's bytes, a Screen drawing into them)."""
    table = [c for c in screen_cases.CASES if c[0] == "claim_qr"][0][3][0].table
    buf = bytearray(cmd_screens.W * cmd_screens.H // 8)
    return table, buf, scr.Screen(framebuf.FrameBuffer(buf, cmd_screens.W, cmd_screens.H, framebuf.MONO_VLSB))


def test_a_fair_kiosks_claim_qr_is_a_link_that_zxing_reads_off_the_drawn_screen():
    """The link to the award's fairness page (bobing/claim.py) is a version 3 symbol (29
    modules, 58 px) in the claim page's 64 x 64 right square; what the bowl draws reads
    back as the link in both languages, for the longest desk address net.txt allows."""
    table, buf, s = _claim_screen()
    rnd = random.Random(2323)
    for i in range(30):
        s.set_lang("zh" if i % 2 else "en")
        bowl, ref, cls, code = _claim_text(rnd)
        desk = DESKS[i % len(DESKS)]
        panels.claim(s, table, code, cls, ref, bowl, page=1, desk=desk)
        link = claim_mod.link(desk, bowl, ref, cls.upper(), code)
        assert panels.qr_text(bowl, ref, cls, code, desk) == link and len(qr.encode(link)) == 29
        found = zxingcpp.read_barcodes(cmd_screens.to_image(bytes(buf), 2).convert("L"))
        assert [f.text for f in found] == [link], (link, [f.text for f in found])
        assert claim_mod.bb1_of(link) == panels.qr_text(bowl, ref, cls, code)  # what the counter reads of it
    # the longest: an 8-digit bowl id and game number, a 3-digit award, the longest desk= net.txt takes
    from bowl import net
    desk = "HTTP://" + "D" * (net.MAX_DESK - 5) + ":8000"
    link = claim_mod.link(desk, "99999999", "99999999-999", "ZHUANGYUAN", "9AVF2S2Q")
    assert len(qr.encode(link)) == 29


def test_a_claim_drawn_again_after_another_qr_still_shows_its_own_code():
    """qr.encode reuses one list per version: a claim page drawn again after a receipt's
    QR (or any other encode) was drawn must not show that other symbol's modules."""
    import types
    table, buf, s = _claim_screen()
    rnd = random.Random(52)
    bowl, ref, cls, code = _claim_text(rnd)
    want = [panels.qr_text(bowl, ref, cls, code)]
    assert _screen_reads(s, table, buf, bowl, ref, cls, code) == want
    other = _claim_text(rnd)
    qr.encode(panels.qr_text(*other))  # the same version's list, written by someone else
    assert _screen_reads(s, table, buf, bowl, ref, cls, code) == want
    f = types.SimpleNamespace(desk=DESKS[0], receipt=(int(ref.split("-")[0]), 7))
    s.fb.fill(0)
    panels._receipt(s, table, f)  # the fair kiosk's receipt page between two claim pages
    assert _screen_reads(s, table, buf, bowl, ref, cls, code) == want


def test_zxing_reads_the_drawn_claim_for_many_random_claims():
    table, buf, s = _claim_screen()
    rnd = random.Random(18004)
    for i in range(60):
        s.set_lang("zh" if i % 2 else "en")
        bowl, ref, cls, code = _claim_text(rnd)
        got = _screen_reads(s, table, buf, bowl, ref, cls, code)
        assert got == [panels.qr_text(bowl, ref, cls, code)], (bowl, ref, cls, code)
    # a reader undoes whichever mask it finds: every one of them reads back
    bowl, ref, cls, code = _claim_text(rnd)
    text = panels.qr_text(bowl, ref, cls, code)
    for mask in range(8):
        rows = qr.encode(text, mask)
        s.fb.fill(1)
        panels._draw_qr(s.fb, rows, 20, 7)
        found = zxingcpp.read_barcodes(cmd_screens.to_image(bytes(buf), 2).convert("L"))
        assert [(f.text, f.format.name) for f in found] == [(text, "QRCode")], mask
