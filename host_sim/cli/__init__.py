"""python -m host_sim COMMAND ... : the one command line of the host tools.

Each command lives in its own module host_sim/cli/<name>.py with
`add_arguments(parser)` and `run(args) -> exit status`.

Bad input, one way for every command: every argument must be UTF-8 text;
argument types (host_sim/cli/options.py) refuse a bad value while parsing;
options.InputError raised later becomes `error: ...` on stderr and exit
status 2 (a command prints no error of its own). Either way nothing has been
written.

Only the command asked for is imported, so a command runs with the packages
of its own role (requirements/); a pinned package that is missing anyway is
named, with the line that installs it (exit status 2), not a traceback.
"""
import argparse
import importlib
import os
import sys

from host_sim.cli.options import InputError, Parser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# name: (module, one-line help)
COMMANDS = {
    "rank": ("host_sim.cli.rank",
             "settle a dispute: rank 444463 444455 says which beats which; or rolls from stdin as JSON"),
    "play": ("host_sim.cli.play", "the bowl in the simulator: terminal, --window (pygame) or --script"),
    "plan": ("host_sim.cli.plan", "exact distribution of a game's length (rolls, rounds, minutes)"),
    "stats": ("host_sim.cli.stats", "Monte Carlo of whole games: ranks, lengths, prizes per seat, PNG plots"),
    "dice": ("host_sim.cli.dice", "print N faces from the bowl's dice path, for audit"),
    "dice-stats": ("host_sim.cli.dice_stats",
                   "are the dice fair? a verdict from chi-square tests of faces and ranks (--json: the figures)"),
    "screens": ("host_sim.cli.screens", "write a PNG of every screen the bowl can show"),
    "replay": ("host_sim.cli.replay",
               "replay a game (an event file, or a bowl's journal) as JSON; --awards: a kiosk's list of awards"),
    "verify-claim": ("host_sim.cli.verify_claim",
                     "check a kiosk claim code as the screen shows it, or its QR text (exit 0 valid, 1 invalid)"),
    "verify-fair": ("host_sim.cli.verify_fair", "recompute every roll of a fair event kiosk from its journal or "
                    "the desk's export (exit 0: all verified)"),
    "broker": ("host_sim.cli.broker", "an event's mosquitto users, passwords and ACL (one user per bowl)"),
    "event-demo": ("host_sim.cli.event_demo", "a whole event on loopback, no hardware: mosquitto, the desk and "
                   "N simulated kiosk bowls on the real firmware (Ctrl-C stops it)"),
}


def main(argv=None):
    try:
        return _main(argv)
    except ImportError as e:
        if missing_package(e) is None:
            raise  # not a pinned package: a fault of this code, its traceback is wanted
        print(missing_message(e), file=sys.stderr)
        return 2


def _main(argv):
    parser = Parser(prog="python -m host_sim", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    argv = sys.argv[1:] if argv is None else argv
    # only the command asked for is imported: playing needs none of the planner's numpy
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, (mod, help_) in COMMANDS.items():
        p = sub.add_parser(name, help=help_, description=help_,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.set_defaults(_module=mod)
        if name == chosen:
            importlib.import_module(mod).add_arguments(p)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a refused argument (2, message printed): a status, for callers too
        return e.code
    if not args.command:
        parser.print_usage(sys.stderr)
        print("error: name a COMMAND: %s (COMMAND --help says more)" % ", ".join(COMMANDS), file=sys.stderr)
        return 2
    return guarded(lambda: importlib.import_module(args._module).run(args))


def guarded(run):
    """run() -> its exit status (None: 0). The one place where bad input (InputError)
    becomes `error: ...` on stderr and its status; the host's scripts outside this
    command line (host_sim/tools, the desk's manage commands) answer through it too."""
    try:
        return run() or 0
    except InputError as e:
        print("error: %s" % e, file=sys.stderr)
        return e.status
    except BrokenPipeError:  # `... | head`: the reader has gone; no traceback, no retry
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


# an importable name -> (its pinned package, the role's requirements file)
PACKAGES = {
    "pygame": ("pygame", "play"), "PIL": ("pillow", "play"), "numpy": ("numpy", "plan"),
    "tqdm": ("tqdm", "dev"), "matplotlib": ("matplotlib", "dev"), "mpremote": ("mpremote", "dev"),
    "django": ("Django", "desk"), "waitress": ("waitress", "desk"), "argon2": ("argon2-cffi", "desk"),
    "aiomqtt": ("aiomqtt", "desk"), "paho": ("paho-mqtt", "desk"),
}


def missing_package(e):
    """(package, role) of a pinned package an ImportError says is missing, else None."""
    name = (getattr(e, "name", None) or "").split(".")[0]
    return PACKAGES.get(name) if isinstance(e, ModuleNotFoundError) else None


def missing_message(e, module="host_sim"):
    pkg, role = missing_package(e)
    venv = os.path.join(ROOT, ".venv", "bin", "python")
    cmd = "python -m %s %s" % (module, " ".join(sys.argv[1:])) if sys.argv[1:] else "python -m %s ..." % module
    if os.path.abspath(sys.executable) == os.path.abspath(venv):
        where = "it is not installed in .venv"
    else:
        where = "this is %s, not the project's .venv: run %s as .venv/bin/%s" % (sys.executable, module, cmd)
    return ("error: 缺少 Python 包 %s (missing the Python package %s): %s.\n"
            "  安装 install (in %s): %s.venv/bin/python -m pip install -r requirements/%s.txt"
            % (pkg, pkg, where, ROOT, "make sim (creates .venv), then " if not os.path.exists(venv) else "", role))


def _silence_stdout():
    # Python flushes stdout again at exit; point it at /dev/null so that flush
    # cannot raise a second BrokenPipeError (the Python docs' recipe)
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
