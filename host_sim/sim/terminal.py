"""The bowl in a terminal, drawn by host_sim/sim/textview.py: the OLED, the LED
ring, the prize pool and everyone's awards beside it.

Keys (interactive): space shakes — hold it to shake longer (the terminal's
auto-repeat keeps the shake going; let go and the dice settle); v a violent
shake; m / n / o (or Enter) the bowl's MENU / NEXT / OK buttons, M / N / O
the same held long (长按: a terminal sees no key held); g a new
game (the bowl asks first: o yes, m no); + / - seats for the next game (g starts it; the panel says so); p the
next rule profile (also from the next game); l Chinese or
English; x pulls the plug (the bowl resumes from its journal); q quits.

Without a terminal (stdin not a TTY) it reads script commands line by line
(host_sim/sim/player.py SCRIPT_HELP; an empty line shakes) and prints what
happens.
"""
import os
import select
import shutil
import sys
import time

from bobing import game
from host_sim.portable.fakes import bowl as hal
from host_sim.cli import options
from host_sim.sim import player
from host_sim.sim.textview import compose

BUTTON_KEYS = {"m": "menu", "n": "next", "o": "ok", "\r": "ok", "\n": "ok"}
LONG_PRESS_MS = 1000  # beyond the console's 0.8 s long press


# ---------------------------------------------------------------- interactive
def interactive(p):
    """Real time in a real terminal, until q."""
    import termios
    import tty
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    out = sys.stdout
    out.write("\x1b[?1049h\x1b[?25l")  # alternate screen, no cursor
    out.flush()
    try:
        tty.setcbreak(fd)
        return _loop(p, fd, out)
    except KeyboardInterrupt:
        return 0
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[0m\x1b[?25h\x1b[?1049l")
        out.flush()


class Bell:
    """The terminal's share of the bowl's sound: a terminal plays no tune, so the bell
    (BEL) rings once where the piezo plays a prize's, a new 状元's or the game's end
    (none with the 声音 sound setting off; the window plays the tunes themselves)."""

    def __init__(self, p):
        self.p = p
        self.seen = p.console.out if p.console is not None else None

    def __call__(self):
        """-> "\a" when the outcome just shown calls for a tune, else ""."""
        c = self.p.console
        out = c.out if c is not None else None
        if out is None or out is self.seen:
            return ""
        self.seen = out
        if c.settings.sound == "off":
            return ""
        return "\a" if out.won or out.ended or out.holder_after != out.holder_before else ""


def _loop(p, fd, out):
    last = time.monotonic()
    drawn = None
    bell = Bell(p)
    while True:
        r, _, _ = select.select([fd], [], [], 0.02)
        keys = os.read(fd, 64).decode("utf-8", "replace") if r else ""
        for k in keys:
            if not key(p, k):
                return 0
        now = time.monotonic()
        ms = int((now - last) * 1000) // hal.TICK_MS * hal.TICK_MS
        if ms:
            last += ms / 1000.0
            p.step(min(ms, 500))  # after a pause (a suspended terminal) do not race
        size = shutil.get_terminal_size((100, 40))
        screen = compose(p, size.columns, height=size.lines)
        text = "\x1b[H" + "\n".join(line + "\x1b[K" for line in screen) + "\x1b[J" + bell()
        if text != drawn:
            out.write(text)
            out.flush()
            drawn = text


def key(p, k):
    """One key in the interactive bowl. -> False to quit."""
    try:
        if k == " ":
            p.shake_key()
        elif k in "qQ\x03":
            return False
        elif k in "mno\r\n":
            p.sim.press(BUTTON_KEYS[k])
        elif k in "MNO":  # a terminal sees no key held: the capital is the long press (长按)
            p.sim.press(BUTTON_KEYS[k.lower()], LONG_PRESS_MS)
        elif k in "vV":
            p.trace("model_violent_shake")
        elif k in "gG":
            p.ask_new_game()  # the bowl asks: o yes, m no
        elif k in "+=-_":
            n = p.console.settings.seats + (1 if k in "+=" else -1)
            if 2 <= n <= game.MAX_SEATS:
                p.set_seats(n)
                p.history.append("下一局 %d 人（按 g 开新局）next game: %d seats (g starts it)" % (n, n))
            else:
                p.history.append("人数 2-%d seats: %d 人 is as far as it goes" % (game.MAX_SEATS,
                                                                             p.console.settings.seats))
        elif k in "pP":
            p.next_profile()
            p.history.append("下一局规则 next game's rules: %s (按 g 开新局 g starts it)"
                             % p.console.settings.active_profile())
        elif k in "lL":
            p.set_lang("en" if p.console.settings.lang == "zh" else "zh")
        elif k in "xX":
            p.power_cut()
        elif k in "kK":
            p.sim.attendant_key()  # the key turned in the case's lock: the kiosk's next customer
    except player.ScriptError as e:
        p.history.append("(%s)" % e)
    return True


# ---------------------------------------------------------------- lines
def line_mode(p, lines, out=None, echo=True, blank="shake"):
    """Script commands, one a line (stdin that is not a terminal, or a file).
    An empty line runs `blank` (stdin: a shake; a script file: nothing). Each
    outcome is printed as it happens; the screen at the end. Lines may be
    bytes (stdin): one that is not UTF-8 is a failed command. -> exit status
    (1 after a failed command)."""
    out = out or sys.stdout

    def emit(text):
        out.write(text + "\n")
        out.flush()

    seen = len(p.history)
    status = 0
    for n, raw in enumerate(lines, 1):
        line = ""
        try:
            line = _text(raw).rstrip("\n")
            go = player.run_command(p, line if line.strip() else blank, emit)
        except player.ScriptError as e:
            emit("line %d: %s%s" % (n, line.strip() + ": " if line.strip() else "", e))
            status = 1
            break
        if echo:
            for h in p.history[seen:]:
                emit(h)
        seen = len(p.history)
        if not go:
            break
    if echo:
        emit("\n".join(compose(p, 200, color=False, help_line=False)))
    return status


def _text(raw):
    """A script line: text, or bytes from stdin decoded strictly."""
    if not isinstance(raw, bytes):
        return raw
    try:
        return options.decode_line(raw)
    except ValueError as e:
        raise player.ScriptError(str(e))


def is_tty():
    return sys.stdin.isatty() and sys.stdout.isatty()
