"""play: the bowl in the simulator — the real app (firmware/bowl/app.py) on the
simulated board (host_sim/portable/fakes/bowl.py). In a terminal: the OLED, the LED ring, the
pool and the awards, played with the keyboard (space shakes: hold it to shake
longer). --window opens a pygame window with the OLED's pixels scaled up.
--script FILE (or stdin that is not a terminal) runs script commands.

The bowl's flash (games, settings) is the folder --root, so a game resumes
where it was, as on a real bowl; --fresh starts from an empty flash. One
simulator at a time plays on a flash (a second is refused, saying so).
"""
import os
import shutil
import sys

from host_sim.cli import options
from host_sim.sim import player
from host_sim.sim import terminal

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "build", "sim-flash")


def add_arguments(p):
    p.description = __doc__
    p.epilog = terminal.__doc__.split("\n\n")[1] + "\n\n" + player.SCRIPT_HELP
    p.add_argument("--window", action="store_true", help="a pygame window instead of the terminal")
    p.add_argument("--script", metavar="FILE", type=options.in_file,
                   help="run script commands from FILE ('-': stdin)")
    p.add_argument("--root", default=ROOT, type=options.out_dir,
                   help="the bowl's flash: a folder (default %(default)s)")
    p.add_argument("--fresh", action="store_true", help="empty the flash first (a new bowl)")
    p.add_argument("--seed", metavar="TEXT", type=options.text(),
                   help="a fixed random source (reproducible dice) instead of os.urandom")
    p.add_argument("--names", metavar="NAMES", type=options.seat_names,
                   help="the seats' names, seat 1 first: 爷爷,奶奶,,爸爸 (an empty one: the seat's number); "
                        "kept on the bowl's flash as its seats menu keeps them")
    p.add_argument("--say-to", metavar="WAV", type=options.out_file,
                   help="write what the bowl's voice says (its Mandarin clips, made by espeak-ng into the "
                        "flash's voice/ folder when missing) to this WAV file when the simulator stops")
    p.add_argument("--quiet", action="store_true", help="scripts: print only what the script asks for")
    p.add_argument("--frames", type=options.whole(0, 10 ** 6), default=0,
                   help="--window: stop after this many frames (tests)")
    p.add_argument("--screenshot", metavar="PNG", type=options.out_file,
                   help="--window: save the last frame as PNG")


MARK = ".bobing-sim-flash"  # says a folder is a simulated bowl's flash, so --fresh may empty it
LOCK = ".bobing-sim-lock"  # held (flock) by the simulator playing on this flash; it says its pid
_BOWL_FILES = ("settings.txt", "claim.key", "pin.txt")  # and their .new/.bad/.bad2 copies


def _bowl_flash(root):
    """True if emptying root loses nothing but a simulated bowl's flash: it has
    our mark, or holds only files a bowl writes (gNNNNNNNN.bbj/.bad/.tmp, its
    settings files and their copies)."""
    names = [n for n in os.listdir(root) if n != LOCK]
    if MARK in names:
        return True
    for n in names:
        if not os.path.isfile(os.path.join(root, n)):
            return False
        if not n.startswith(_BOWL_FILES) and not (len(n) >= 13 and n[0] == "g" and n[1:9].isdigit()):
            return False
    return True


def make_player(args):
    urandom = None
    if args.seed is not None:
        import dice_stats
        urandom = dice_stats.SeededSource(args.seed)
    try:
        if args.fresh and os.path.isdir(args.root) and not _bowl_flash(args.root):  # (before a lock is written)
            raise options.InputError("--fresh: %s holds files a bowl does not write; it is not emptied. "
                                     "Give --root a folder of its own." % args.root)
        os.makedirs(args.root, exist_ok=True)
        lock = take_lock(args.root)
    except OSError as e:
        raise options.InputError("--root %s: cannot keep the bowl's flash there: %s" % (args.root, e.strerror or e))
    try:
        if args.fresh:
            for n in os.listdir(args.root):
                if n != LOCK:
                    path = os.path.join(args.root, n)
                    if os.path.isdir(path):
                        shutil.rmtree(path)
                    else:
                        os.remove(path)
        open(os.path.join(args.root, MARK), "a").close()
        if getattr(args, "say_to", None) or getattr(args, "window", False):
            why = _voice_clips(args.root)  # on the flash before the bowl boots, as a deploy puts them
            if why and args.say_to:
                raise options.InputError("--say-to: %s" % why)
            if why:
                print("窗口没有语音，蜂鸣器代替 the window has no voice (%s): the piezo plays instead" % why)
        p = player.Player(args.root, urandom)
    except OSError as e:
        lock.close()
        raise options.InputError("--root %s: cannot keep the bowl's flash there: %s" % (args.root, e.strerror or e))
    except BaseException:
        lock.close()
        raise
    p.lock = lock  # held until the process ends (p.close() lets it go)
    if args.names is not None:
        p.set_names(args.names)
    if getattr(args, "say_to", None):
        p.speak()
    return p


def _voice_clips(root):
    """The voice's clips in the flash folder, as a deploy puts them on the bowl (made
    once by host_sim/tools/make_voice.py) -> None, or why they could not be made."""
    from bobing import voice
    folder = os.path.join(root, voice.FOLDER)
    names = [n for n, _t in voice.clips()] + [n for n, _t in voice.tunes()]
    if all(os.path.isfile(os.path.join(folder, n + voice.SUFFIX)) for n in names):
        return None
    from host_sim.tools import make_voice
    try:
        make_voice.make(folder)
    except make_voice.VoiceToolMissing as e:
        return str(e)
    return None


def take_lock(root):
    """Lock the flash folder root for this simulator -> the open lock file; InputError
    when another simulator plays on it (two would write the same journal: a corrupt
    game). An flock: the kernel lets it go when its process ends, however it ends
    (q, a kill, a crash, the host's power), so no lock is ever left stuck."""
    import fcntl
    f = open(os.path.join(root, LOCK), "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        pid = f.read(20).strip()
        f.close()
        raise options.InputError(
            "--root %s: 另一个模拟器正在用这块闪存 another simulator%s is playing on this flash; two at once "
            "would corrupt its game. 先退出它 quit it first (q), or give this one a flash of its own: --root DIR"
            % (root, " (pid %s)" % pid if pid.isdigit() else ""))
    f.seek(0)
    f.truncate()
    f.write("%d\n" % os.getpid())
    f.flush()
    return f


def run(args):
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")  # a terminal without UTF-8 gets '?', not a crash
    # a script is read whole, and refused whole, before the bowl starts
    lines = options.read_lines(args.script, sys.stdin) if args.script else None
    p = make_player(args)
    try:
        if args.window:
            from host_sim.sim import window
            return window.run(p, lines, frames=args.frames, screenshot=args.screenshot)
        if lines is not None:
            return terminal.line_mode(p, lines, echo=not args.quiet, blank="")
        if terminal.is_tty():
            return terminal.interactive(p)
        # not a terminal (a pipe, CI, `make sim < file`): script commands from stdin, line by line
        print("博饼碗 Bo Bing bowl (no terminal: reading commands from stdin; an empty line shakes; "
              "'help' lists the commands)")
        return terminal.line_mode(p, options.binary_lines(sys.stdin), echo=not args.quiet)
    finally:
        if args.say_to:
            p.write_said(args.say_to)
        p.close()
        p.lock.close()
