"""play: the bowl in the simulator — the real app (firmware/bowl/app.py) on the
simulated board (host_sim/hal.py). In a terminal: the OLED, the LED ring, the
pool and the awards, played with the keyboard (space shakes: hold it to shake
longer). --window opens a pygame window with the OLED's pixels scaled up.
--script FILE (or stdin that is not a terminal) runs script commands.

The bowl's flash (games, settings) is the folder --root, so a game resumes
where it was, as on a real bowl; --fresh starts from an empty flash.
"""
import os
import shutil
import sys

from host_sim import player, terminal

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build", "sim-flash")


def add_arguments(p):
    p.description = __doc__
    p.epilog = terminal.__doc__.split("\n\n")[1] + "\n\n" + player.SCRIPT_HELP
    p.add_argument("--window", action="store_true", help="a pygame window instead of the terminal")
    p.add_argument("--script", metavar="FILE", help="run script commands from FILE ('-': stdin)")
    p.add_argument("--root", default=ROOT, help="the bowl's flash: a folder (default %(default)s)")
    p.add_argument("--fresh", action="store_true", help="empty the flash first (a new bowl)")
    p.add_argument("--seed", metavar="TEXT", help="a fixed random source (reproducible dice) instead of os.urandom")
    p.add_argument("--quiet", action="store_true", help="scripts: print only what the script asks for")
    p.add_argument("--frames", type=int, default=0, help="--window: stop after this many frames (tests)")
    p.add_argument("--screenshot", metavar="PNG", help="--window: save the last frame as PNG")


def make_player(args):
    if args.fresh and os.path.isdir(args.root):
        shutil.rmtree(args.root)
    urandom = None
    if args.seed is not None:
        from host_sim import fairness
        urandom = fairness.SeededSource(args.seed)
    return player.Player(args.root, urandom)


def run(args):
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")  # a terminal without UTF-8 gets '?', not a crash
    p = make_player(args)
    try:
        if args.window:
            from host_sim import window
            lines = None
            if args.script:
                lines = _lines(args.script)
            return window.run(p, lines, frames=args.frames, screenshot=args.screenshot)
        if args.script:
            return terminal.line_mode(p, _lines(args.script), echo=not args.quiet, blank="")
        if terminal.is_tty():
            return terminal.interactive(p)
        # not a terminal (a pipe, CI, `make sim < file`): script commands from stdin
        print("博饼碗 Bo Bing bowl (no terminal: reading commands from stdin; an empty line shakes; "
              "'help' lists the commands)")
        return terminal.line_mode(p, sys.stdin, echo=not args.quiet)
    finally:
        p.close()


def _lines(path):
    if path == "-":
        return sys.stdin.readlines()
    with open(path, encoding="utf-8") as f:
        return f.readlines()
