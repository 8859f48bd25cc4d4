"""screens: draw every screen the bowl can show (host_sim/portable/screen_cases.py, in
Chinese and for visitors in pinyin/English) with the very firmware drawing code
on the host's FrameBuffer stand-in, and write one PNG per screen, scaled up to
be read on a computer, plus hashes.json (SHA-256 of each frame's 1024 bytes).

The golden files of the screen tests are made with it:
    python -m host_sim screens --out tests/data/screens
"""
import binascii
import hashlib
import json

import framebuf  # host_sim.framebuf, registered by the shim
from bobing import screen as scr
from host_sim.cli import options
import screen_cases

W, H = 128, 64
LIT = (160, 220, 255)  # a blue-white OLED pixel
DARK = (0, 0, 0)


def add_arguments(p):
    p.description = __doc__
    p.add_argument("--out", required=True, type=options.out_dir, help="directory for the PNGs (created if missing)")
    p.add_argument("--scale", type=options.whole(1, 16), default=4,
                   help="pixels per OLED pixel, 1..16 (default %(default)s)")
    p.add_argument("--only", default="", type=options.text(empty=True),
                   help="draw only the cases whose name contains this")


def draw_all(only=""):
    """[(name, frame bytes)] for every case, drawn on the stand-in FrameBuffer."""
    buf = bytearray(W * H // 8)
    fb = framebuf.FrameBuffer(buf, W, H, framebuf.MONO_VLSB)
    s = scr.Screen(fb)
    out = []
    for name, lang, method, args in screen_cases.CASES:
        if only in name:
            s.set_lang(lang)
            screen_cases.draw(s, method, args)
            out.append((name, bytes(buf)))
    return out


def frame_hash(buf):
    return binascii.hexlify(hashlib.sha256(buf).digest()).decode()


def to_image(buf, scale=4):
    """A MONO_VLSB frame -> a Pillow image, each pixel a scale x scale square
    with a one-pixel dark seam (at scale >= 3) so that pixels read as on the OLED."""
    from PIL import Image
    seam = 1 if scale >= 3 else 0
    on = b"\x01" * (scale - seam) + b"\x00" * seam
    off = b"\x00" * scale
    gap = b"\x00" * (W * scale) * seam
    rows = []
    for y in range(H):
        row = b"".join(on if buf[(y >> 3) * W + x] >> (y & 7) & 1 else off for x in range(W))
        rows.append(row * (scale - seam) + gap)
    img = Image.frombytes("P", (W * scale, H * scale), b"".join(rows))
    img.putpalette(DARK + LIT)
    return img


def run(args):
    frames = draw_all(args.only)
    if not frames:
        raise options.InputError("no screen name contains %r" % args.only)
    files = {}
    hashes = {}
    for name, buf in frames:
        files[name + ".png"] = lambda path, buf=buf: to_image(buf, args.scale).save(path, optimize=True)
        hashes[name] = frame_hash(buf)
    if not args.only:
        files["hashes.json"] = (json.dumps(hashes, indent=1, sort_keys=True) + "\n").encode()
    options.write_files(args.out, files)
    print("wrote %d screens to %s" % (len(frames), args.out))
    return 0
