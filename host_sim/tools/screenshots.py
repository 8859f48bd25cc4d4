"""Screenshots of a family's game with names: the terminal
simulator at 120x40 and the window, of the same game on the same simulated flash.

    python host_sim/tools/screenshots.py [OUT]     (make screenshots; default build/screenshots)

Plays a 4-seat game (爷爷 奶奶 外婆 妈妈) on OUT/flash with the voice's clips (make_voice.py)
until a 状元 is called (or 40 rolls), then writes
  OUT/terminal-120x40.txt  the terminal's screen as text (textview.compose at 120 x 40),
  OUT/terminal-120x40.png  the same drawn as a terminal draws it (Unifont cells, its colours),
  OUT/window.png           the window (`play --window --screenshot`) on a virtual X display
                           (Debian's xvfb-run), booted into the same game from the journal.
"""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "build", "screenshots")
NAMES = "爷爷,奶奶,外婆,妈妈"
FONT = "/usr/share/fonts/opentype/unifont/unifont.otf"  # Debian's fonts-unifont: 8x16 cells, CJK 16x16
COLS, ROWS = 120, 40
_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def play(flash):
    """The family's game, played by the simulator's player -> the player."""
    sys.path[:0] = [p for p in (ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "host_sim", "tools"))
                    if p not in sys.path]
    from host_sim import compat
    compat.install()  # the MicroPython shim; firmware/ importable
    import make_voice
    from bowlrun import Stream
    from host_sim.sim.player import Player
    from bobing import voice
    make_voice.make(os.path.join(flash, voice.FOLDER))
    p = Player(flash, urandom=Stream(1))
    p.step(200)
    p.set_seats(4)
    p.new_game()
    from host_sim.cli import options
    p.set_names(options.seat_names(NAMES))  # as play --names takes them
    p.play(1)  # the start roll
    for _ in range(40):
        if not p.ready():
            break
        t = p.table
        holder = t.holder
        p.shake(500)
        if t.holder and t.holder != holder:
            break  # a 状元: the panel shows who holds it
    p.step(600)
    return p


def terminal_png(lines, path):
    """ANSI-coloured lines drawn as a terminal of COLS x ROWS cells draws them."""
    import unicodedata
    from PIL import Image, ImageDraw, ImageFont
    font = ImageFont.truetype(FONT, 16)
    img = Image.new("RGB", (COLS * 8, ROWS * 16), (0, 0, 0))
    d = ImageDraw.Draw(img)
    for row, line in enumerate(lines[:ROWS]):
        col = 0
        color = (204, 204, 204)
        pos = 0
        for m in list(_SGR.finditer(line)) + [None]:
            text = line[pos:m.start()] if m is not None else line[pos:]
            for ch in text:
                w = 2 if unicodedata.east_asian_width(ch) in "WF" else 1
                if col + w > COLS:
                    break
                d.text((col * 8, row * 16), ch, font=font, fill=color)
                col += w
            if m is None:
                break
            pos = m.end()
            codes = m.group(1).split(";")
            if codes[:2] == ["38", "2"] and len(codes) == 5:
                color = tuple(int(c) for c in codes[2:])
            elif codes in (["0"], [""]):
                color = (204, 204, 204)
    img.save(path)


def main(argv):
    out = os.path.abspath(argv[0]) if argv else OUT
    flash = os.path.join(out, "flash")
    shutil.rmtree(flash, True)
    os.makedirs(flash)
    p = play(flash)
    from host_sim.sim import textview
    lines = textview.compose(p, COLS, color=True, height=ROWS)
    with open(os.path.join(out, "terminal-120x40.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(_SGR.sub("", ln) for ln in lines) + "\n")
    terminal_png(lines, os.path.join(out, "terminal-120x40.png"))
    p.close()
    open(os.path.join(flash, ".bobing-sim-flash"), "a").close()  # (a simulator's flash: play may use it)
    if shutil.which("xvfb-run") is None:
        print("screenshots: no xvfb-run (apt-get install xvfb): the window's was not made", file=sys.stderr)
        return 2
    env = dict(os.environ, SDL_AUDIODRIVER="dummy")
    env.pop("SDL_VIDEODRIVER", None)
    r = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x720x24", sys.executable, "-m", "host_sim", "play",
                        "--window", "--root", flash, "--frames", "150", "--screenshot",
                        os.path.join(out, "window.png")], cwd=ROOT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        print("screenshots: the window failed: %s" % (r.stderr or r.stdout)[-800:], file=sys.stderr)
        return 1
    for n in ("terminal-120x40.txt", "terminal-120x40.png", "window.png"):
        print(os.path.join(out, n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
